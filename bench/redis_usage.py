"""What one side of a benchmark cost redis-server: its CPU (``INFO cpu``) and its commands
(``INFO commandstats``), read before and after the side runs.

One Redis node runs its commands on one thread, so the Redis time an action costs bounds the
actions one node can carry, whatever the number of API processes. Two measures, both read from
the server itself:

- ``INFO cpu``'s ``used_cpu_user`` + ``used_cpu_sys``: everything redis-server spent, the
  commands and also reading requests, writing answers and the append-only file. Both sides of
  a benchmark are measured this way, so their ratio compares like with like.
- ``INFO commandstats``: calls and microseconds per command. A command a Lua script runs is
  counted under its own name as well as inside the script's time (``evalsha``), so the
  commands' times are not added up here; the script's time per call is set against a bare
  ``XADD``'s.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

SCRIPT_COMMANDS = ("evalsha", "eval", "evalsha_ro", "eval_ro", "fcall", "fcall_ro")
"""The commands that run a Lua script (the append script runs as ``evalsha``)."""

_OWN = ("info",)
"""The benchmark's own commands (the reads of these figures), left out."""


@dataclasses.dataclass(frozen=True)
class RedisUsage:
    """redis-server's CPU seconds and, per command, (calls, microseconds)."""

    cpu_seconds: float
    commands: Mapping[str, tuple[int, int]]

    def since(self, before: RedisUsage) -> RedisUsage:
        """Returns what was used between *before* and this reading."""
        commands = {}
        for name, (calls, usec) in self.commands.items():
            then = before.commands.get(name, (0, 0))
            if calls > then[0]:
                commands[name] = (calls - then[0], usec - then[1])
        return RedisUsage(self.cpu_seconds - before.cpu_seconds, commands)

    def __add__(self, other: RedisUsage) -> RedisUsage:
        commands = dict(self.commands)
        for name, (calls, usec) in other.commands.items():
            mine = commands.get(name, (0, 0))
            commands[name] = (mine[0] + calls, mine[1] + usec)
        return RedisUsage(self.cpu_seconds + other.cpu_seconds, commands)

    def usec_per_call(self, names: tuple[str, ...]) -> float | None:
        """Returns the microseconds per call of the commands *names* together (``None`` if
        none was called)."""
        calls = sum(self.commands.get(name, (0, 0))[0] for name in names)
        usec = sum(self.commands.get(name, (0, 0))[1] for name in names)
        return usec / calls if calls else None


NOTHING = RedisUsage(0.0, {})
"""No use at all: the start of a sum."""


def read_usage(client: Any) -> RedisUsage:
    """Returns redis-server's CPU seconds so far and its commands' stats, through *client*
    (a ``redis.Redis``)."""
    cpu = client.info("cpu")
    stats = client.info("commandstats")
    commands = {}
    for key, value in stats.items():
        name = key.removeprefix("cmdstat_").lower()
        if name not in _OWN:
            commands[name] = (int(value["calls"]), int(value["usec"]))
    return RedisUsage(float(cpu["used_cpu_user"]) + float(cpu["used_cpu_sys"]), commands)


def per_unit(usage: RedisUsage, units: int) -> dict[str, Any]:
    """Returns *usage* per unit of work (an action, a request, an append): redis-server's CPU
    in microseconds, and each command's calls per unit and microseconds per call."""
    if not units:
        return {"redis_cpu_us": None, "commands": {}}
    return {
        "redis_cpu_us": round(usage.cpu_seconds * 1e6 / units, 1),
        "commands": {
            name: {"calls": round(calls / units, 3), "usec_per_call": round(usec / calls, 2)}
            for name, (calls, usec) in sorted(usage.commands.items())
        },
    }
