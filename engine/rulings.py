"""Rulings: a stable rule id and one sentence, attached to every derived fact.

Rule ids are public (they appear in the API, hand histories and audits) and never change
meaning (:mod:`engine.rule_ids` lists them). A :class:`Ruling` holds the rule id and the facts
of the case (its *args*); its sentence is rendered from those by the ruling texts of a version
(:mod:`engine.ruling_texts`), so a history written with older sentences still verifies with its
own. docs/rules.md lists every rule id with its general statement and its sentence.
"""

from __future__ import annotations

import dataclasses
import functools
from typing import Any

from engine.rule_ids import RULE_IDS
from engine.ruling_texts import TEXTS_VERSION, sentence


@dataclasses.dataclass(frozen=True, slots=True)
class Ruling:
    """Why something was decided: a stable *rule_id* and the facts of this case.

    >>> why = ruling("trick.highest_trump", card="5S", trumps=2)
    >>> why.text
    '5S is the highest of the 2 trumps played: it wins the trick.'
    >>> why.text_in(1)
    '5S is the highest trump in the trick.'
    """

    rule_id: str
    args: tuple[tuple[str, Any], ...] = ()
    """The facts the sentence is made from, as sorted (name, value) pairs (values are ints,
    strings, booleans or tuples of them, so a ruling compares and hashes as a value)."""

    def __post_init__(self) -> None:
        assert self.rule_id in RULE_IDS, f"unregistered rule id {self.rule_id!r}"

    @property
    def text(self) -> str:
        """The sentence in the current ruling texts."""
        return sentence(self.rule_id, dict(self.args), TEXTS_VERSION)

    def text_in(self, version: int) -> str:
        """Returns the sentence in the ruling texts of *version*.

        :raises KeyError: for a version this code does not know.
        """
        return sentence(self.rule_id, dict(self.args), version)

    def with_args(self, **args: Any) -> Ruling:
        """Returns this ruling with *args* added (or replaced)."""
        return ruling(self.rule_id, **{**dict(self.args), **args})

    def to_dict(self, version: int | None = None) -> dict[str, str]:
        """Returns the JSON form ``{"rule": ..., "text": ...}``, the sentence in *version*'s
        ruling texts (the current ones by default)."""
        text = self.text if version is None else self.text_in(version)
        return {"rule": self.rule_id, "text": text}

    def __copy__(self) -> Ruling:
        return self

    def __deepcopy__(self, memo: object) -> Ruling:
        return self  # A value: compiled by mypyc, it cannot be rebuilt field by field.


@functools.lru_cache(maxsize=8192, typed=True)  # typed: True and 1 read differently.
def ruling(rule_id: str, **args: Any) -> Ruling:
    """Returns the ruling of *rule_id* for the case described by *args* (hashable values).

    A ruling is a value, so the same case gives the same instance: the fold rules every
    trick, and the few cases of a trick's winner recur (a card and a count of trumps)."""
    return Ruling(rule_id, tuple(sorted(args.items())))
