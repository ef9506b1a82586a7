"""RQ jobs derived from the event store's feeds: bots, turn clocks, sealing, projections, sweeps.

- :mod:`workers.plan`: which jobs a game needs at its current version (pure).
- :mod:`workers.dispatcher`: reads the partition feeds and enqueues those jobs, once each.
- :mod:`workers.jobs`: the job functions; ids and numbers in, idempotent.
- :mod:`workers.projections`, :mod:`workers.integrity`: read models and the chain sweep.
- :mod:`workers.runner`: the dispatcher and an RQ worker, run until stopped.
- :mod:`workers.context`, :mod:`workers.keys`: where jobs find the store; names of keys and ids.

See docs/workers.md.
"""
