"""A worker of ``fortyfive bench store --before DIR``: cold loads of one game by one checkout.

Run as ``python -I bench/cold_load.py ROOT URL GAME_ID``: it imports ``events`` and ``engine``
from the checkout at ``ROOT`` (this one, or an older one), then for each line read on stdin
loads the game cold through that checkout's ``FoldCache`` built as the service builds it
(an empty cache: read, verify, decode and fold every event with ``on_events(apply_event,
fold)``, or ``on_events(apply_event)`` in a checkout before the cache folded runs at once)
and writes one JSON line: the process CPU seconds and wall seconds of that load, the version
and head hash it reached, and the CPU seconds of a read alone of the same events
(``RedisEventStore.read``, done after).
The first load is a warm-up, answered like the others.

It imports nothing of the project at module level, and only the standard library before
*ROOT* is first on ``sys.path`` (``-I`` keeps the script's own directory off it), so the same
script measures any checkout the same way.
"""

from __future__ import annotations

import json
import pathlib
import sys
import time
from typing import Any


def main(argv: list[str]) -> int:
    """Serves cold loads of *argv* ``[ROOT, URL, GAME_ID]`` until stdin ends."""
    root, url, game_id = pathlib.Path(argv[0]).resolve(), argv[1], argv[2]
    sys.path.insert(0, str(root))
    from engine.fold import apply_event, fold
    from events.fold_cache import FoldCache, on_events
    from events.redis_store import RedisEventStore

    for module in ("events.redis_store", "events.fold_cache", "engine.fold"):
        origin = pathlib.Path(sys.modules[module].__file__ or "").resolve()
        if not origin.is_relative_to(root):
            raise SystemExit(f"{module} was imported from {origin}, not from {root}")

    store = RedisEventStore.from_url(url)
    try:  # As the service does: the engine's fold of many events at once, where it has one.
        step = on_events(apply_event, fold)
    except TypeError:  # An older checkout, whose cache applies one event at a time.
        step = on_events(apply_event)
    cache: Any = FoldCache(store, lambda: None, step)
    for _ in sys.stdin:
        cache.clear()
        cpu, wall = time.process_time(), time.perf_counter()
        folded = cache.load(game_id)
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
        read = time.process_time()
        events = store.read(game_id)
        read = time.process_time() - read
        if len(events) != folded.version:
            raise SystemExit(f"read {len(events)} events, folded {folded.version}")
        print(json.dumps({"cpu_seconds": cpu, "wall_seconds": wall, "read_cpu_seconds": read,
                          "version": folded.version, "head": folded.head_hash}), flush=True)
    store.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
