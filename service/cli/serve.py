"""``fortyfive serve`` (the API under gunicorn) and ``fortyfive openapi`` (the published document).

``serve`` is the composition root: it picks the store (``REDIS_URL``, else a private
redis-server with its data under ``--data-dir``, which a keeper process starts again whenever
it dies: :mod:`service.processes.redis_keeper`), starts the RQ worker under a supervisor
that restarts it when it dies (:mod:`service.processes.supervisor`) unless ``--no-worker``, and runs
gunicorn with gevent workers: each request is a greenlet, so a long-lived event stream costs
a socket and a little memory, never a thread the API needs (``--max-streams`` bounds them per
worker; beyond it a stream is answered 503 with ``Retry-After``). gevent patches the standard
library in each worker only, after the fork: the master (the embedded redis-server, the
supervisor and the RQ worker's processes) runs unpatched. ``--worker-class gthread`` runs
thread workers instead, where each stream holds one of the ``--threads``. Each worker builds
its own app after the fork.
The Werkzeug debugger is never on: the app is built with ``DEBUG`` false and gunicorn does
not run it.
"""

from __future__ import annotations

import argparse
import importlib.util
import ipaddress
import os
import sys
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import yaml

from service.cli import UsageError
from service.http.config import MAX_STREAMS_ENV, DefaultConfig, parse_max_streams
from service.http.server import (
    DEFAULT_WORKER_CLASS,
    WORKER_CLASSES,
    GunicornServer,
    gunicorn_options,
    host_port,
)
from service.processes.free_ports import HIGHEST_PORT
from service.processes.supervisor import SUPERVISOR_PID_ENV, ChildSpec, KeptSupervisor

OPENAPI_FILE = "openapi.yaml"
REGENERATE = "fortyfive openapi"
"""The command that rewrites ``openapi.yaml`` from the code."""

def is_loopback(host: str) -> bool:
    """True when *host* (an address to bind) is reachable from this machine only.

    >>> is_loopback("127.0.0.1"), is_loopback("localhost"), is_loopback("0.0.0.0")
    (True, True, False)
    """
    if host.strip().lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def api_factory(
    redis_url: str,
    *,
    runs_worker: bool = False,
    public: bool = False,
    max_streams: int = DefaultConfig.STREAM_MAX,
    embedded_dir: Path | None = None,
) -> Callable[[], Any]:
    """Returns a factory of the API app on *redis_url* holding at most *max_streams* live
    streams per process, with the debugger forced off; with *runs_worker*, ``/readyz`` is
    degraded while the worker's heartbeats are stale; with *embedded_dir* (the data of the
    redis-server serve keeps running), ``/readyz`` reports what its keeper recorded.

    *public* is the default of ``REQUIRE_API_KEY`` and ``ENFORCE_RATE_LIMITS``; their
    environment variables, when set, override it (see :mod:`service.http.config`)."""

    def build() -> Any:
        from service.http.app import create_app

        app = create_app({**app_settings(public, max_streams), "REDIS_URL": redis_url,
                          "READY_NEEDS_WORKERS": runs_worker,
                          "EMBEDDED_REDIS_DIR": str(embedded_dir) if embedded_dir else None})
        app.debug = False
        return app

    return build


def app_settings(public: bool, max_streams: int) -> dict[str, Any]:
    """Returns the settings ``serve`` gives each worker's app besides its store: the
    debugger off, *max_streams*, and *public* as the default of the API-key and rate-limit
    flags (see :func:`api_factory`)."""
    return {"DEBUG": False, "TESTING": False, "STREAM_MAX": max_streams,
            "REQUIRE_API_KEY": public, "ENFORCE_RATE_LIMITS": public}


def register(subparsers: Any) -> None:
    """Adds the ``serve`` and ``openapi`` commands."""
    serve = subparsers.add_parser(
        "serve",
        help="serve the HTTP API (and the RQ worker) on the embedded Redis or REDIS_URL",
        description="Serve the HTTP API with gunicorn. Uses REDIS_URL when set, else starts "
        "a private redis-server with its data under --data-dir.",
    )
    serve.add_argument("--host", default="127.0.0.1", help="address to bind (default %(default)s)")
    serve.add_argument("--port", type=_port, default=8045, help="port (default %(default)s)")
    serve.add_argument("--workers", type=_at_least_one, default=2,
                       help="worker processes (default 2)")
    serve.add_argument(
        "--worker-class", choices=sorted(WORKER_CLASSES), default=DEFAULT_WORKER_CLASS,
        help="gunicorn workers: gevent (default; streams take no thread) or gthread",
    )
    serve.add_argument("--threads", type=_at_least_one, default=16,
                       help="threads per worker with --worker-class gthread (default 16)")
    serve.add_argument(
        "--max-streams", type=_max_streams,
        default=os.environ.get(MAX_STREAMS_ENV) or str(DefaultConfig.STREAM_MAX),
        help=f"live event streams per worker before answering 503 (default "
        f"${MAX_STREAMS_ENV} or {DefaultConfig.STREAM_MAX}; with gthread at most half the "
        "threads)",
    )
    serve.add_argument("--no-worker", action="store_true", help="do not start the RQ worker")
    serve.add_argument(
        "--redis-cluster", action="store_true",
        help="REDIS_URL names seed nodes of a Redis Cluster, separated by commas (the "
        "worker's queue then needs RQ_REDIS_URL, a single Redis); default: REDIS_CLUSTER",
    )
    serve.add_argument(
        "--data-dir", default="var", help="the embedded Redis keeps its data in DATA_DIR/redis"
    )
    serve.add_argument(
        "--signing-key", metavar="PEM", default=None,
        help="the Ed25519 key (PKCS#8 PEM) that signs checkpoints (default: "
        "$FORTYFIVE_SIGNING_KEY, else DATA_DIR/signing-key.pem, made on first start)")
    serve.add_argument("--access-log", action="store_true", help="log every request to stdout")
    serve.add_argument(
        "--verbose", action="store_true", help="log every job of the RQ worker (default: "
        "its warnings and errors only)"
    )
    serve.set_defaults(func=run_serve)

    openapi = subparsers.add_parser(
        "openapi",
        help="write the OpenAPI document generated from the code",
        description="Write openapi.yaml from the code (or check it is up to date).",
    )
    openapi.add_argument(
        "-o", "--output", default=OPENAPI_FILE, help="file to write, - for stdout (default "
        "%(default)s)"
    )
    openapi.add_argument(
        "--check", action="store_true", help="only check the file matches; exit 1 if not"
    )
    openapi.set_defaults(func=run_openapi)


def run_serve(args: argparse.Namespace) -> int:
    """Runs ``fortyfive serve``; returns when gunicorn stops."""
    from engine.bot_levels import DEFAULT_BUDGET_MS
    from events.redis_clients import check_url
    from service.application.environment import (
        RETENTION_SETTINGS,
        bot_budget_ms,
        env_flag,
        env_seconds,
    )
    from service.application.store_settings import CLUSTER_ENV, RQ_URL_ENV, rq_url, store_settings
    from service.http.app import check_config
    from service.processes.redis_keeper import KeptRedis

    if args.redis_cluster:
        # In the environment, so that gunicorn's workers and the RQ worker see it too.
        os.environ[CLUSTER_ENV] = "true"
    url = os.environ.get("REDIS_URL")
    public = not is_loopback(args.host)
    max_streams = stream_bound(args.worker_class, args.max_streams, args.threads)
    try:
        # Every setting the workers' apps will read, checked once before anything starts.
        check_config(app_settings(public, max_streams))
        if not args.no_worker:
            for name in RETENTION_SETTINGS:
                env_seconds(name, 0)
            bot_budget_ms(DEFAULT_BUDGET_MS)
        store = store_settings()
        if url:
            check_url(url, cluster=store.cluster)
        if store.cluster and not url:
            raise ValueError(
                f"{CLUSTER_ENV} is set but REDIS_URL is not: set it to the seed nodes of the "
                "cluster (the embedded store is a single server)")
        if not args.no_worker and (store.cluster or os.environ.get(RQ_URL_ENV)):
            check_url(rq_url(url or "", store))  # The queue of the worker started here.
    except ValueError as error:
        raise UsageError(f"fortyfive serve: {error}") from None
    _choose_signing_key(args)
    chosen = {flag: env_flag(flag) for flag in ("REQUIRE_API_KEY", "ENFORCE_RATE_LIMITS")}
    settings = ", ".join(
        f"{flag}={'true' if (public if value is None else value) else 'false'}"
        + (" (the default on this address)" if value is None else "")
        for flag, value in chosen.items())
    print(f"fortyfive: {settings}", file=sys.stderr)
    master = os.getpid()
    embedded = None
    if not url:
        # Kept running by a keeper process, which starts it again whenever it dies; stopped
        # below by this process only (gunicorn's workers are forks of it).
        embedded = KeptRedis(Path(args.data_dir) / "redis").start()
        url = embedded.url
    where = (
        f"in {embedded.data_dir} (embedded redis-server at {url})" if embedded
        else "in the Redis Cluster at REDIS_URL (its seed nodes)" if store.cluster
        else "in the Redis at REDIS_URL"
    )
    worker = None if args.no_worker else start_worker(url, verbose=args.verbose)
    # gunicorn imports ssl before a gevent worker patches it (after the fork); nothing here
    # made an SSL object by then, so gevent's warning about it says nothing useful.
    warnings.filterwarnings("ignore", message="Monkey-patching ssl after ssl")
    try:
        options = gunicorn_options(
            args.host, args.port, args.workers, args.threads, access_log=args.access_log,
            worker_class=args.worker_class, max_streams=max_streams,
        )
        factory = api_factory(
            url, runs_worker=worker is not None, public=public, max_streams=max_streams,
            embedded_dir=embedded.data_dir if embedded is not None else None,
        )
        address = host_port(args.host, args.port)
        options["when_ready"] = lambda server: print(
            f"fortyfive: serving http://{address}/ (the API under /v1, the table at /)\n"
            f"fortyfive: data {where}\nfortyfive: stop with Ctrl+C (or kill -TERM {master})",
            file=sys.stderr, flush=True,
        )
        GunicornServer(factory, options).run()
    finally:
        # A gunicorn worker leaves through this block as well (its exit unwinds the fork's
        # stack): only the master stops what the master started.
        if os.getpid() == master:
            if worker is not None:
                worker.stop()
            if embedded is not None:
                embedded.stop()
    return 0


def _choose_signing_key(args: argparse.Namespace) -> None:
    """Names the signing key in ``FORTYFIVE_SIGNING_KEY`` for every process serve starts (web
    and job workers inherit it): ``--signing-key``, else the variable, else the data
    directory's key (made if there is none).

    :raises UsageError: if the key cannot be used.
    """
    from service.application.signing import KEY_ENV, SigningKeyError, data_dir_key, load_key

    path = args.signing_key or os.environ.get(KEY_ENV) or str(data_dir_key(args.data_dir))
    try:
        load_key(path)
    except SigningKeyError as error:
        raise UsageError(f"fortyfive serve: {error}") from None
    os.environ[KEY_ENV] = path


def stream_bound(worker_class: str, max_streams: int, threads: int) -> int:
    """Returns the streams a worker may hold: *max_streams*, but with gthread workers (where
    each stream holds a thread) at most half the *threads*, so the API keeps the rest."""
    if worker_class == "gthread":
        return min(max_streams, max(1, threads // 2))
    return max_streams


def _port(text: str) -> int:
    """Parses ``--port``.

    :raises argparse.ArgumentTypeError: if it is not a whole number from 1 to 65535.
    """
    if not text.strip().isdigit() or not 1 <= int(text) <= HIGHEST_PORT:
        raise argparse.ArgumentTypeError(
            f"expected a port from 1 to {HIGHEST_PORT}, got {text!r}")
    return int(text)


def _at_least_one(text: str) -> int:
    """Parses ``--workers`` and ``--threads``.

    :raises argparse.ArgumentTypeError: if it is not a whole number of 1 or more.
    """
    if not text.strip().isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number of 1 or more, got {text!r}")
    return int(text)


def _max_streams(text: str) -> int:
    """Parses ``--max-streams`` (its default comes from ``$FORTYFIVE_MAX_STREAMS``).

    :raises argparse.ArgumentTypeError: if it is not a whole number of 1 or more.
    """
    try:
        return parse_max_streams(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected a whole number of 1 or more (given here or in ${MAX_STREAMS_ENV}), "
            f"got {text!r}"
        ) from None


def start_worker(redis_url: str, *, verbose: bool = False) -> KeptSupervisor | None:
    """Starts ``workers.runner.run_worker(redis_url)`` in a child process, under a
    supervisor process that restarts it when it dies (and is itself started again when it
    dies); returns the supervisor. RQ logs each job only when *verbose*.

    Returns ``None`` (with a note on stderr) when this installation has no worker runner.
    """
    if importlib.util.find_spec("workers.runner") is None:
        print("fortyfive: workers.runner is not installed; serving without the RQ worker "
              "(bot seats and turn clocks will not act)", file=sys.stderr)
        return None
    code = (
        "import os, sys; from workers.runner import run_worker; "
        "sys.exit(run_worker(sys.argv[1], log_level=sys.argv[2], "
        f"parent_pid=int(os.environ[{SUPERVISOR_PID_ENV!r}])))"
    )
    level = "INFO" if verbose else "WARNING"
    return KeptSupervisor([ChildSpec("worker", (sys.executable, "-c", code, redis_url, level))])


def openapi_document() -> dict[str, Any]:
    """Returns the OpenAPI document of the API, generated from the code."""
    from service.http.app import create_app, get_api

    spec: dict[str, Any] = get_api(create_app()).spec.to_dict()
    return spec


def openapi_yaml() -> str:
    """Returns :func:`openapi_document` as YAML (keys in the document's order)."""
    return yaml.safe_dump(openapi_document(), sort_keys=False, allow_unicode=True, width=100)


def run_openapi(args: argparse.Namespace) -> int:
    """Runs ``fortyfive openapi``."""
    text = openapi_yaml()
    if args.output == "-":
        sys.stdout.write(text)
        return 0
    path = Path(args.output)
    if args.check:
        current = path.read_text("utf-8") if path.exists() else None
        if current != text:
            state = "is out of date" if current is not None else "does not exist"
            print(f"{path} {state}: run `{REGENERATE}` to regenerate it", file=sys.stderr)
            return 1
        return 0
    path.write_text(text, "utf-8")
    print(f"wrote {path}", file=sys.stderr)
    return 0
