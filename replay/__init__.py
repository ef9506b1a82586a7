"""Replay: per-viewer views, hand histories, verification and audits.

- :mod:`replay.views`: what one viewer may see of a game and its events (the only place hands
  are hidden).
- :mod:`replay.formats.document`: the hand history as a value; :mod:`replay.formats.build` cuts one
  from a game's events for a viewer; :mod:`replay.formats.derive` re-folds events into its derived
  results.
- :mod:`replay.formats.jsonformat` (canonical JSON + JSON Schema) and :mod:`replay.formats.text` /
  :mod:`replay.formats.export` (the text notation, through :mod:`replay.formats.visitor` and
  :mod:`replay.formats.notation`): the two lossless encodings.
- :mod:`replay.verification.verify`: verification as a pipeline of named checks (form, rules,
  view, chain, seeds, fold, results, contributions, checkpoint, extent), each a module of
  ``replay.verification`` owning its problem codes; its report in
  :mod:`replay.verification.report`.
- :mod:`replay.formats.importing`: lenient reading of either encoding, and real-table records.
- :mod:`replay.presentation.show`, :mod:`replay.presentation.audit`: a history for people, and the
  auditor's bundle.

The format is described in docs/hand-history.md.
"""
