"""Settings read from the environment, shared by the API's configuration and the workers
(booleans, durations, counts), each refused with a message naming the variable.
"""

from __future__ import annotations

import os

_TRUE = frozenset({"1", "true", "yes", "on"})
_FALSE = frozenset({"0", "false", "no", "off"})


def env_flag(name: str) -> bool | None:
    """Returns the boolean environment variable *name*, or ``None`` when it is not set.

    :raises ValueError: for a value other than true/false, yes/no, on/off, 1/0.
    """
    value = os.environ.get(name)
    if value is None or not value.strip():
        return None
    if value.strip().lower() in _TRUE:
        return True
    if value.strip().lower() in _FALSE:
        return False
    raise ValueError(f"{name} must be true or false, got {value!r}")


RETENTION_SETTINGS = ("ABANDON_AFTER", "ARCHIVE_AFTER")
"""The environment variables of the workers' retention policy (:mod:`workers.retention`),
which ``fortyfive serve`` checks before it starts the worker."""


def env_seconds(name: str, default: int) -> int | None:
    """Returns the environment variable *name* as seconds: *default* when it is not set,
    ``None`` for 0 (never).

    :raises ValueError: for a value that is not a whole number of seconds.
    """
    value = os.environ.get(name, "").strip()
    if not value:
        return default
    if not value.isdigit():
        raise ValueError(f"{name} must be a whole number of seconds, got {value!r}")
    return int(value) or None


def env_int(name: str) -> int:
    """Returns the environment variable *name* as a number of 0 or more.

    :raises ValueError: for anything else.
    """
    value = os.environ[name].strip()
    if not value.isdigit():
        raise ValueError(f"{name} must be a whole number of 0 or more, got {value!r}")
    return int(value)


BOT_BUDGET_SETTING = "BOT_BUDGET_MS"
"""The environment variable of the CPU a strong bot may spend on one decision, in
milliseconds (docs/operating.md, docs/bots.md); read by the workers, which run the bots."""


def bot_budget_ms(default: int) -> int:
    """Returns :data:`BOT_BUDGET_SETTING` as milliseconds of CPU per decision: *default* when
    it is not set.

    :raises ValueError: for a value that is not a whole number from 1 to 60000.
    """
    value = os.environ.get(BOT_BUDGET_SETTING, "").strip()
    if not value:
        return default
    if not value.isdigit() or not 1 <= int(value) <= 60_000:
        raise ValueError(f"{BOT_BUDGET_SETTING} must be a whole number of milliseconds from 1 "
                         f"to 60000, got {value!r}")
    return int(value)
