"""Replay: per-viewer views, hand histories, verification and audits.

- :mod:`replay.views`: what one viewer may see of a game and its events (the only place hands
  are hidden).
- :mod:`replay.document`: the hand history as a value; :mod:`replay.build` cuts one from a
  game's events for a viewer; :mod:`replay.derive` re-folds events into its derived results.
- :mod:`replay.jsonformat` (canonical JSON + JSON Schema) and :mod:`replay.text` /
  :mod:`replay.export` (the text notation, through :mod:`replay.visitor` and
  :mod:`replay.notation`): the two lossless encodings.
- :mod:`replay.verify` (with :mod:`replay.reconstruct`): chain, head, seeds and results; its
  checks live in the ``replay.verify_*`` modules, its report in :mod:`replay.verify_report`.
- :mod:`replay.importing`: lenient reading of either encoding, and real-table records.
- :mod:`replay.show`, :mod:`replay.audit`: a history for people, and the auditor's bundle.

The format is described in docs/hand-history.md.
"""
