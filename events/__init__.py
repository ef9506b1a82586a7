"""The vocabulary and the log: every other layer speaks these events.

- :mod:`events.types`: the event types (frozen dataclasses, cards as codes).
- :mod:`events.envelope`, :mod:`events.codec`, :mod:`events.chain`: the stored form of an
  event, its canonical JSON (RFC 8785) and the SHA-256 hash chain.
- :mod:`events.upcasting`: stored data of an older schema read as the current one.
- :mod:`events.store`: the :class:`~events.store.EventStore` port, its results and errors.
- :mod:`events.redis_store`: the port on Redis Streams, with ``append.lua``.
- :mod:`events.fold_cache`: folded states cached per game, fast-forwarded on load.
- :mod:`service.processes.embedded_redis`: a private redis-server for when no ``REDIS_URL`` is
  given.

This package imports nothing of the project, and importing it loads no Redis client: only
``events.redis_store`` and ``service.processes.embedded_redis`` do, and only ``service`` and
``workers`` should.
"""
