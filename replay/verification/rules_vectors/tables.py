"""The tables the rules vectors are drawn at: every profile, and every value of every option
that changes a ruling, each at least once.

Each vector file lists these tables once (``tables``: id -> profile, players and every option
with its value) and each case names its table by id.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from engine.profiles import RuleSet, make_ruleset


@dataclasses.dataclass(frozen=True, slots=True)
class Table:
    """A profile, a player count and options over the profile's defaults."""

    name: str
    """The id the cases name the table by."""
    profile: str
    players: int
    options: tuple[tuple[str, Any], ...] = ()
    deals: int = 24
    """How many deals the deal vectors play at this table (whole games, as many as fit)."""
    search: int = 200
    """How many more deals are played at this table to find rare rulings (the deals kept are
    those with something rare, a few of each kind)."""

    def rules(self) -> RuleSet:
        """Returns the rule set of this table."""
        return make_ruleset(self.profile, dict(self.options), self.players)

    def described(self) -> dict[str, Any]:
        """Returns the table as the vector files list it: every option, defaults filled in."""
        return {"profile": self.profile, "players": self.players,
                "options": self.rules().options()}


TABLES: tuple[Table, ...] = (
    Table("bruff", "bruff", 6, deals=40),
    Table("bruff-t25-m2", "bruff", 6, (("target", 25), ("match_games", 2))),
    Table("auction", "auction", 4, deals=48),
    Table("auction-min15-t60", "auction", 4, (("min_bid", 15), ("target", 60)), deals=32),
    Table("auction-t30-m2", "auction", 4, (("target", 30), ("match_games", 2)), deals=48),
    Table("classic-2", "classic", 2, deals=32),
    Table("classic-2-jink-nobonus", "classic", 2,
          (("jink", "announced"), ("bonus", False), ("target", 25))),
    Table("classic-3-spoil", "classic", 3, (("spoil_five", True), ("target", 25))),
    Table("classic-3-dealend", "classic", 3, (("finish", "deal_end"), ("target", 25))),
    Table("classic-4-pairs-jink", "classic", 4,
          (("layout", "pairs"), ("jink", "announced"), ("target", 25))),
    Table("classic-4-follow-cap", "classic", 4,
          (("layout", "individuals"), ("follow", "must_follow"), ("cap_at_target", True),
           ("target", 25))),
    Table("classic-5-joker-diamonds", "classic", 5,
          (("joker", "below_ah"), ("diamond_ace", "below_jack"), ("deal_pattern", "2-3"))),
    Table("classic-6-triples-dealend", "classic", 6,
          (("layout", "triples"), ("finish", "deal_end"), ("target", 25),
           ("turn_seconds", 60))),
    Table("classic-6-pairs-norob", "classic", 6, (("layout", "pairs"), ("robbing", False))),
    Table("classic-7-2decks-spoil-dealend", "classic", 7,
          (("decks", 2), ("follow", "must_follow"), ("spoil_five", True),
           ("finish", "deal_end"), ("target", 25))),
    Table("classic-8-2decks-pairs", "classic", 8, (("decks", 2), ("layout", "pairs"))),
    Table("classic-10-2decks-joker", "classic", 10,
          (("decks", 2), ("joker", "below_ah"), ("target", 110))),
)
"""Every table of the vectors, in the order the files list them."""
