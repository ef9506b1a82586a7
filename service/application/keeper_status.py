"""What the keeper of ``fortyfive serve``'s embedded redis-server
(:mod:`service.processes.redis_keeper`) records about it, and what ``/readyz`` shows of that.

The keeper replaces :data:`STATUS_FILE` in the server's data directory whole at every change
(the server started, died, failed to start), so a reader never sees half of it; every web
worker reads it there, since they cannot ask the keeper. It says the server's state (``up``,
``down``, ``starting``), its pid, since when, how many times it was started again after it
died, and how it last ended.
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from pathlib import Path
from typing import Any

STATUS_FILE = "keeper.json"
"""The keeper's status, in the server's data directory."""

SHOWN = ("state", "pid", "since", "restarts", "last_exit", "error")
"""The fields of the status that ``/readyz`` shows (not the keeper's own pid and port)."""


def write_status(data_dir: Path, status: dict[str, Any]) -> None:
    """Replaces :data:`STATUS_FILE` in *data_dir* with *status*, whole (a temporary file
    renamed over it)."""
    handle, temporary = tempfile.mkstemp(dir=data_dir, prefix=".keeper-", suffix=".json")
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            json.dump(status, out)
        os.replace(temporary, data_dir / STATUS_FILE)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


def read_status(data_dir: str | os.PathLike[str]) -> dict[str, Any] | None:
    """Returns the keeper's status in *data_dir*, or ``None`` if there is none to read."""
    try:
        status = json.loads((Path(data_dir) / STATUS_FILE).read_text("utf-8"))
    except (OSError, ValueError):
        return None
    return status if isinstance(status, dict) else None


def shown(data_dir: str | os.PathLike[str]) -> dict[str, Any] | None:
    """Returns what ``/readyz`` shows of the status in *data_dir* (its :data:`SHOWN` fields,
    an error by its first line), or ``None`` if there is none."""
    status = read_status(data_dir)
    if status is None:
        return None
    body = {name: status.get(name) for name in SHOWN}
    if isinstance(body["error"], str):
        body["error"] = body["error"].splitlines()[0]
    return body
