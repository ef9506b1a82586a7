"""Rule profiles as data: ``bruff``, ``auction`` and ``classic``, every option with its default.

A :class:`RuleSet` is the one value the rules functions consult. It is built only through
:func:`make_ruleset`, which refuses an unknown option, a bad value or a bad combination with a
message naming the option.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import json
import re
from collections.abc import Callable, Mapping
from typing import Any, Literal

from engine.errors import ProfileError, shown
from engine.ranking import rankings_number

Layout = Literal["individuals", "pairs", "triples"]
JokerPlacement = Literal["none", "above_ah", "below_ah"]

PROFILES = ("bruff", "auction", "classic")
LAYOUT_SIZE: dict[str, int] = {"individuals": 1, "pairs": 2, "triples": 3}


@dataclasses.dataclass(frozen=True, slots=True)
class RuleSet:
    """Every rule a game runs under; see docs/rules.md for what each means."""

    profile: str
    players: int
    layout: Layout
    joker: JokerPlacement
    """Where the joker ranks: ``above_ah`` (bruff), ``below_ah`` (classic option) or none."""
    decks: int
    auction: bool
    """Trumps chosen by bidding (no turn-up, no robbing) instead of by the turn-up."""
    robbing: bool
    target: int
    bonus: bool
    finish: Literal["trick", "deal_end"]
    jink: Literal["none", "take_all", "announced"]
    follow: Literal["trump_or_follow", "must_follow"]
    diamond_ace: Literal["low", "below_jack"]
    deal_pattern: tuple[int, int]
    cap_at_target: bool
    spoil_five: bool
    min_bid: int
    match_games: int
    turn_seconds: int | None
    _sides: int = dataclasses.field(init=False, repr=False, compare=False)
    """:attr:`sides`, worked out once (the fold asks for a trick winner's side each trick)."""
    rankings: int = dataclasses.field(init=False, repr=False, compare=False)
    """The number of the card orderings in force under these rules (what
    :func:`engine.ranking.ranking` answers: every play asks). A number, not the orderings
    themselves, so that a cached game's size does not count tables every game shares."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "_sides", self.players // LAYOUT_SIZE[self.layout])
        object.__setattr__(self, "rankings", rankings_number(self.joker, self.diamond_ace))

    @property
    def sides(self) -> int:
        """How many sides play: seat s belongs to side s mod sides."""
        return self._sides

    def side_of(self, seat: int) -> int:
        """Returns the side of *seat* (partners alternate around the table)."""
        return seat % self._sides

    def seats_of(self, side: int) -> tuple[int, ...]:
        """Returns the seats of *side*."""
        return tuple(range(side, self.players, self.sides))

    @property
    def deck_size(self) -> int:
        """Cards in the pack: 52 per deck, plus a joker per deck where there is one."""
        return self.decks * (53 if self.joker != "none" else 52)

    def options(self) -> dict[str, Any]:
        """Returns the profile's public options with their values (the form games store)."""
        return dict(_options_of(self))

    def digest(self) -> str:
        """Returns the SHA-256 of the canonical JSON of profile, players and options."""
        return _digest_of(self)


@dataclasses.dataclass(frozen=True, slots=True)
class OptionSpec:
    """A public option: its default (per player count where it varies) and allowed values."""

    name: str
    description: str
    values: tuple[Any, ...] | None
    """The allowed values, or ``None`` where :attr:`check` decides."""
    default: Callable[[int], Any]
    check: Callable[[Any], str | None] = lambda value: None
    """Returns why *value* is refused, or ``None``."""


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


_ALLOWED: dict[str, str] = {
    "target": "a positive multiple of 5 up to 1000",
    "match_games": "a whole number of games from 1 to 9",
    "turn_seconds": "null or a whole number of seconds from 5 to 86400",
}
"""What an option without a list of values allows, in words."""


def _check_target(value: Any) -> str | None:
    if not _is_int(value) or value <= 0 or value % 5 or value > 1000:
        return "must be " + _ALLOWED["target"]
    return None


def _check_match_games(value: Any) -> str | None:
    if not _is_int(value) or not 1 <= value <= 9:
        return "must be " + _ALLOWED["match_games"]
    return None


def _check_turn_seconds(value: Any) -> str | None:
    if value is None:
        return None
    if not _is_int(value) or not 5 <= value <= 86400:
        return "must be " + _ALLOWED["turn_seconds"]
    return None


def allowed_values(name: str) -> str:
    """Returns in words what option *name* allows where it has no list of values.

    :raises KeyError: for an option with a list of values (see :func:`option_specs`).
    """
    return _ALLOWED[name]


def _default_layout(players: int) -> str:
    return {4: "pairs", 8: "pairs", 6: "triples"}.get(players, "individuals")


_SPECS: dict[str, OptionSpec] = {
    spec.name: spec
    for spec in (
        OptionSpec("layout", "sides: individuals, or partnerships of 2 or 3",
                   ("individuals", "pairs", "triples"), _default_layout),
        OptionSpec("bonus", "5 more for the trick with the deal's highest trump",
                   (True, False), lambda n: True),
        OptionSpec("target", "points that win a game", None, lambda n: 45, _check_target),
        OptionSpec("finish", "trick: first to the target by trick chronology; deal_end: after "
                   "the deal, counted first wins", ("trick", "deal_end"), lambda n: "trick"),
        OptionSpec("jink", "announced: before the lead, a side may announce taking all five",
                   ("none", "announced"), lambda n: "none"),
        OptionSpec("follow", "on a plain lead: trump or follow, or must follow",
                   ("trump_or_follow", "must_follow"), lambda n: "trump_or_follow"),
        OptionSpec("diamond_ace", "the plain diamond ace: lowest, or just below the jack",
                   ("low", "below_jack"), lambda n: "low"),
        OptionSpec("deal_pattern", "cards per round of dealing", ("3-2", "2-3"),
                   lambda n: "3-2"),
        OptionSpec("joker", "a joker ranking directly below AH", ("none", "below_ah"),
                   lambda n: "none"),
        OptionSpec("decks", "two packs only with 7 or more players", (1, 2), lambda n: 1),
        OptionSpec("robbing", "the ace of trumps may rob the turn-up", (True, False),
                   lambda n: True),
        OptionSpec("cap_at_target", "scores in the views and deal results are shown capped at "
                   "the target (the target_reached and game_won facts keep the score reached)",
                   (False, True), lambda n: False),
        OptionSpec("spoil_five", "no score for a deal where no side takes three tricks",
                   (False, True), lambda n: False),
        OptionSpec("min_bid", "the lowest bid", (5, 15), lambda n: 5),
        OptionSpec("match_games", "games a side must win to win the match", None,
                   lambda n: 1, _check_match_games),
        OptionSpec("turn_seconds", "seconds a seat has to act before the clock acts for it",
                   None, lambda n: None, _check_turn_seconds),
    )
}

_OPTIONS: dict[str, tuple[str, ...]] = {
    "bruff": ("target", "match_games", "turn_seconds"),
    "auction": ("target", "min_bid", "match_games", "turn_seconds"),
    "classic": ("layout", "bonus", "target", "finish", "jink", "follow", "diamond_ace",
                "deal_pattern", "joker", "decks", "robbing", "cap_at_target", "spoil_five",
                "match_games", "turn_seconds"),
}

_PLAYERS: dict[str, tuple[int, int]] = {"bruff": (6, 6), "auction": (4, 4), "classic": (2, 10)}

MOST_PLAYERS = max(high for _, high in _PLAYERS.values())
"""The largest table any profile allows."""

_PROFILE_DEFAULTS: dict[str, dict[str, Any]] = {"auction": {"target": 120}}

_WHY_ABSENT: dict[tuple[str, str], str] = {
    ("auction", "joker"): "the auction is played with 52 cards and no joker",
    ("bruff", "joker"): "bruff always has its joker between the trump jack and AH",
    ("auction", "robbing"): "the auction has no turn-up to rob",
    ("bruff", "min_bid"): "bruff has no auction",
    ("classic", "min_bid"): "classic has no auction",
    ("auction", "jink"): "the auction has no jink",
}

_OPTION_GETTERS: dict[str, Callable[[RuleSet], Any]] = {
    "layout": lambda r: r.layout,
    "bonus": lambda r: r.bonus,
    "target": lambda r: r.target,
    "finish": lambda r: r.finish,
    "jink": lambda r: r.jink,
    "follow": lambda r: r.follow,
    "diamond_ace": lambda r: r.diamond_ace,
    "deal_pattern": lambda r: "-".join(str(n) for n in r.deal_pattern),
    "joker": lambda r: r.joker,
    "decks": lambda r: r.decks,
    "robbing": lambda r: r.robbing,
    "cap_at_target": lambda r: r.cap_at_target,
    "spoil_five": lambda r: r.spoil_five,
    "min_bid": lambda r: r.min_bid,
    "match_games": lambda r: r.match_games,
    "turn_seconds": lambda r: r.turn_seconds,
}


@functools.lru_cache(maxsize=256)
def _options_of(rules: RuleSet) -> tuple[tuple[str, Any], ...]:
    """Returns the public options of *rules* (cached: every view shows them)."""
    return tuple((name, _OPTION_GETTERS[name](rules)) for name in _OPTIONS[rules.profile])


@functools.lru_cache(maxsize=256)
def _digest_of(rules: RuleSet) -> str:
    body = {"profile": rules.profile, "players": rules.players, "options": rules.options()}
    text = json.dumps(body, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def find_ruleset(name: str) -> str:
    """Returns *name* if it is a built-in profile.

    :raises ProfileError: ``unsupported ruleset: 'x'`` otherwise.
    """
    if name not in PROFILES:
        raise ProfileError(
            f"unsupported ruleset: {name!r} (choose one of {', '.join(PROFILES)})"
        )
    return name


def profile_players(profile: str) -> tuple[int, int]:
    """Returns the fewest and most players *profile* allows."""
    return _PLAYERS[find_ruleset(profile)]


def option_specs(profile: str, players: int | None = None) -> dict[str, dict[str, Any]]:
    """Returns the public description of *profile*'s options, with defaults.

    ``default`` is the default at *players* seats, else at the profile's smallest table;
    ``default_by_players`` maps each table size whose default differs from it (a string, as
    JSON keys are) to its own, or is ``None`` where the default never varies.

    >>> option_specs("classic")["layout"]["default_by_players"]
    {'4': 'pairs', '6': 'triples', '8': 'pairs'}
    >>> option_specs("classic", 6)["layout"]["default"]
    'triples'
    """
    low, high = profile_players(profile)
    count = players if players is not None else low
    described: dict[str, dict[str, Any]] = {}
    for name in _OPTIONS[profile]:
        spec = _SPECS[name]

        def default_at(seats: int, name: str = name, spec: OptionSpec = spec) -> Any:
            return _PROFILE_DEFAULTS.get(profile, {}).get(name, spec.default(seats))

        default = default_at(count)
        varying = {str(seats): default_at(seats) for seats in range(low, high + 1)
                   if default_at(seats) != default}
        described[name] = {
            "description": spec.description,
            "default": default,
            "default_by_players": varying or None,
            "values": list(spec.values) if spec.values is not None else None,
        }
    return described


def make_ruleset(
    profile: str, options: Mapping[str, Any] | None = None, players: int | None = None
) -> RuleSet:
    """Returns the rule set of *profile* with *options* over its defaults, for *players* seats.

    :raises ProfileError: naming the profile, the option or the combination that is wrong.
    """
    find_ruleset(profile)
    low, high = _PLAYERS[profile]
    count = low if players is None else players
    if not _is_int(count) or not low <= count <= high:
        allowed = f"exactly {low}" if low == high else f"{low} to {high}"
        raise ProfileError(f"{profile} is played by {allowed} players, got {shown(count)}")
    given = dict(options or {})
    for name in given:
        if name not in _OPTIONS[profile]:
            why = _WHY_ABSENT.get((profile, name))
            known = ", ".join(_OPTIONS[profile])
            raise ProfileError(
                f"unknown option {name!r} for profile {profile!r}"
                + (f": {why}" if why else f" (options: {known})")
            )
    values: dict[str, Any] = {}
    for name in _OPTIONS[profile]:
        spec = _SPECS[name]
        default = _PROFILE_DEFAULTS.get(profile, {}).get(name, spec.default(count))
        value = given.get(name, default)
        if spec.values is not None and not any(
            value == allowed and type(value) is type(allowed) for allowed in spec.values
        ):
            listed = ", ".join(shown(v) for v in spec.values)
            raise ProfileError(f"option {name!r} must be one of {listed}, got {shown(value)}")
        problem = spec.check(value)
        if problem:
            raise ProfileError(f"option {name!r} {problem}, got {shown(value)}")
        values[name] = value
    return _build(profile, count, values)


def _build(profile: str, players: int, values: Mapping[str, Any]) -> RuleSet:
    """Returns the RuleSet for checked option *values*, refusing bad combinations."""
    if profile == "bruff":
        return RuleSet(
            profile=profile, players=players, layout="pairs", joker="above_ah", decks=1,
            auction=False, robbing=True, target=values["target"], bonus=True, finish="trick",
            jink="take_all", follow="trump_or_follow", diamond_ace="low", deal_pattern=(3, 2),
            cap_at_target=False, spoil_five=False, min_bid=5,
            match_games=values["match_games"], turn_seconds=values["turn_seconds"],
        )
    if profile == "auction":
        return RuleSet(
            profile=profile, players=players, layout="pairs", joker="none", decks=1,
            auction=True, robbing=False, target=values["target"], bonus=True,
            finish="deal_end", jink="none", follow="trump_or_follow", diamond_ace="low",
            deal_pattern=(3, 2), cap_at_target=False, spoil_five=False,
            min_bid=values["min_bid"], match_games=values["match_games"],
            turn_seconds=values["turn_seconds"],
        )
    layout = values["layout"]
    size = LAYOUT_SIZE[layout]
    if players % size or players // size < 2:
        raise ProfileError(
            f"option 'layout' {layout!r} does not divide {players} players into two or more "
            f"sides of {size}"
        )
    sides = players // size
    if values["jink"] == "announced" and sides != 2:
        raise ProfileError(
            f"option 'jink' 'announced' needs exactly two sides, but layout {layout!r} with "
            f"{players} players gives {sides}"
        )
    if values["decks"] == 2 and players < 7:
        raise ProfileError(
            f"option 'decks' 2 needs 7 or more players, got {players}"
        )
    first, second = (int(part) for part in values["deal_pattern"].split("-"))
    return RuleSet(
        profile=profile, players=players, layout=layout, joker=values["joker"],
        decks=values["decks"], auction=False, robbing=values["robbing"],
        target=values["target"], bonus=values["bonus"], finish=values["finish"],
        jink=values["jink"], follow=values["follow"], diamond_ace=values["diamond_ace"],
        deal_pattern=(first, second), cap_at_target=values["cap_at_target"],
        spoil_five=values["spoil_five"], min_bid=5, match_games=values["match_games"],
        turn_seconds=values["turn_seconds"],
    )


def parse_option_text(profile: str, name: str, text: str) -> Any:
    """Returns the typed value of option *name* written as *text* (command-line ``K=V``).

    :raises ProfileError: for an unknown option or a text that is not a value of it.
    """
    find_ruleset(profile)
    if name not in _OPTIONS[profile]:
        why = _WHY_ABSENT.get((profile, name))
        raise ProfileError(
            f"unknown option {name!r} for profile {profile!r}"
            + (f": {why}" if why else f" (options: {', '.join(_OPTIONS[profile])})")
        )
    lowered = text.strip().lower()
    if lowered in ("true", "false"):
        return lowered == "true"
    if lowered in ("none", "null"):
        return None
    if re.fullmatch(r"-?[0-9]+", lowered):
        return int(lowered)
    return text.strip()
