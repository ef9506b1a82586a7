"""The API under gunicorn: the server application and its settings.

``fortyfive serve`` (:mod:`service.cli.serve`) runs the app with these, and so does the HTTP
benchmark (:mod:`bench.http`), so that both measure and serve the same server.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from gunicorn.app.base import BaseApplication

from service.http.config import DefaultConfig

WORKER_CLASSES = {"gevent": "gevent", "gthread": "gthread"}
"""gunicorn's worker class for each ``--worker-class`` (a name, or a ``module.Class`` path to
a subclass that adds behaviour to gunicorn's)."""

DEFAULT_WORKER_CLASS = "gevent"

API_CONNECTIONS = 1000
"""Connections a gevent worker takes besides its live streams: requests and idle keep-alive
connections (gunicorn stops accepting beyond streams plus these)."""


class GunicornServer(BaseApplication):  # type: ignore[misc]
    """Runs the WSGI app that *factory* builds (once per worker) with gunicorn *options*."""

    def __init__(self, factory: Callable[[], Any], options: dict[str, Any]) -> None:
        self._factory = factory
        self._options = options
        super().__init__()

    def load_config(self) -> None:
        """Applies the options given to the constructor."""
        for key, value in self._options.items():
            if key in self.cfg.settings:  # Older gunicorns lack some settings.
                self.cfg.set(key, value)

    def load(self) -> Any:
        """Returns the app (called in each worker after the fork)."""
        return self._factory()


def gunicorn_options(
    host: str,
    port: int,
    workers: int,
    threads: int,
    *,
    access_log: bool = False,
    worker_class: str = DEFAULT_WORKER_CLASS,
    max_streams: int = DefaultConfig.STREAM_MAX,
) -> dict[str, Any]:
    """Returns the gunicorn settings of ``serve`` (also used by the HTTP benchmark):
    *threads* applies to gthread workers, *max_streams* sizes a gevent worker's connections."""
    # Imported here: the command line loads this module without Flask, which these load.
    from service.http.gunicorn_errors import gunicorn_limits, problem_worker_class

    return {
        "bind": host_port(host, port),
        "workers": workers,
        # Its own refusals (request line, headers) as problem+json, like the app's.
        "worker_class": problem_worker_class(WORKER_CLASSES[worker_class]),
        **gunicorn_limits(),
        "threads": threads,
        "worker_connections": max_streams + API_CONNECTIONS,
        "timeout": 90,
        "graceful_timeout": 10,
        "keepalive": 5,
        "accesslog": "-" if access_log else None,
        "errorlog": "-",
        "loglevel": "info",
        "proc_name": "fortyfive",
        # No gunicornc control socket: one fixed path per user would make two servers
        # (a benchmark's, a developer's) fight over it.
        "control_socket_disable": True,
    }


def host_port(host: str, port: int) -> str:
    """Returns ``host:port``, with an IPv6 address in brackets as URLs and gunicorn's
    ``bind`` need them.

    >>> host_port("127.0.0.1", 8045), host_port("::1", 8045), host_port("[::1]", 8045)
    ('127.0.0.1:8045', '[::1]:8045', '[::1]:8045')
    """
    if ":" in host and not host.startswith("["):
        return f"[{host}]:{port}"
    return f"{host}:{port}"
