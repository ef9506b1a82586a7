"""Rule profiles as data: ``bruff``, ``auction`` and ``classic``, every option with its default.

A :class:`RuleSet` is the one value the rules functions consult. It is built only through
:func:`make_ruleset`, which refuses an unknown option, a bad value or a bad combination with a
message naming the option. Each option is described once, in :data:`OPTIONS`: a new one is its
:class:`RuleSet` field, its :class:`Option` and the rule that reads it.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import json
import re
from collections.abc import Callable, Hashable, Mapping
from typing import Any, Final, Literal, TypeGuard

from engine.errors import ProfileError, shown
from engine.ranking import rankings_number

Layout = Literal["individuals", "pairs", "triples"]
JokerPlacement = Literal["none", "above_ah", "below_ah"]


@dataclasses.dataclass(frozen=True, slots=True)
class Profile:
    """What sets a profile apart besides its options."""

    players: tuple[int, int]
    """The fewest and most players."""
    auction: bool
    """Trumps chosen by bidding (no turn-up, no robbing) instead of by the turn-up."""

    def __copy__(self) -> Profile:
        return self

    def __deepcopy__(self, memo: object) -> Profile:
        return self  # A value: compiled by mypyc, it cannot be rebuilt field by field.


_PROFILES: dict[str, Profile] = {
    "bruff": Profile((6, 6), auction=False),
    "auction": Profile((4, 4), auction=True),
    "classic": Profile((2, 10), auction=False),
}

PROFILES = tuple(_PROFILES)
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

    def __copy__(self) -> RuleSet:
        return self

    def __deepcopy__(self, memo: object) -> RuleSet:
        return self  # A value: compiled by mypyc, it cannot be rebuilt field by field.


@dataclasses.dataclass(frozen=True, slots=True)
class Option:
    """A game option, described once: its default and allowed values, which profiles offer it,
    and what it is where a profile does not. Its value is the :class:`RuleSet` field of the
    same name (through :attr:`to_rule`, where the two forms differ)."""

    name: str
    description: str
    values: tuple[Any, ...] | None
    """The allowed values, or ``None`` where :attr:`accepts` decides."""
    default: Callable[[int], Any]
    """The default for a table of so many players."""
    accepts: Callable[[Any], bool] = lambda value: True
    allowed: str | None = None
    """What :attr:`accepts` allows, in words (where there is no list of values)."""
    fixed: Mapping[str, Any] = dataclasses.field(default_factory=dict)
    """The profiles that do not offer the option, each with the value it plays by."""
    why_absent: Mapping[str, str] = dataclasses.field(default_factory=dict)
    """Why a profile of :attr:`fixed` does not offer it, where saying so helps."""
    defaults: Mapping[str, Any] = dataclasses.field(default_factory=dict)
    """A profile's own default, where it differs from :attr:`default`."""
    to_rule: Callable[[Any], Any] = lambda value: value
    """The value's form in a :class:`RuleSet`."""
    to_option: Callable[[Any], Any] = lambda value: value
    """The inverse of :attr:`to_rule`: the value as games store and show it."""

    def __post_init__(self) -> None:
        assert set(self.why_absent) <= set(self.fixed), f"{self.name}: why absent, if fixed"
        assert (self.values is None) == (self.allowed is not None), (
            f"{self.name}: a list of values, or what is allowed in words")

    def default_in(self, profile: str, players: int) -> Any:
        """Returns the default of the option in *profile* for *players*."""
        return self.defaults[profile] if profile in self.defaults else self.default(players)

    def problem(self, value: Any) -> str | None:
        """Returns why *value* is refused, or ``None``."""
        if self.values is not None:
            if any(value == allowed and type(value) is type(allowed) for allowed in self.values):
                return None
            return f"must be one of {', '.join(shown(v) for v in self.values)}"
        return None if self.accepts(value) else f"must be {self.allowed}"

    def __copy__(self) -> Option:
        return self

    def __deepcopy__(self, memo: object) -> Option:
        return self  # A value: compiled by mypyc, it cannot be rebuilt field by field.


def _is_int(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def _default_layout(players: int) -> str:
    return {4: "pairs", 8: "pairs", 6: "triples"}.get(players, "individuals")


def _pattern(text: str) -> tuple[int, int]:
    first, second = (int(part) for part in text.split("-"))
    return first, second


_BOTH = ("bruff", "auction")
"""The profiles with most rules fixed."""

OPTIONS: tuple[Option, ...] = (
    Option("layout", "sides: individuals, or partnerships of 2 or 3",
           ("individuals", "pairs", "triples"), _default_layout,
           fixed=dict.fromkeys(_BOTH, "pairs")),
    Option("bonus", "5 more for the trick with the deal's highest trump", (True, False),
           lambda n: True, fixed=dict.fromkeys(_BOTH, True)),
    Option("target", "points that win a game", None, lambda n: 45,
           accepts=lambda v: _is_int(v) and 0 < v <= 1000 and not v % 5,
           allowed="a positive multiple of 5 up to 1000", defaults={"auction": 120}),
    Option("finish", "trick: first to the target by trick chronology; deal_end: after the deal, "
           "counted first wins", ("trick", "deal_end"), lambda n: "trick",
           fixed={"bruff": "trick", "auction": "deal_end"}),
    Option("jink", "announced: before the lead, a side may announce taking all five",
           ("none", "announced"), lambda n: "none",
           fixed={"bruff": "take_all", "auction": "none"},
           why_absent={"auction": "the auction has no jink"}),
    Option("follow", "on a plain lead: trump or follow, or must follow",
           ("trump_or_follow", "must_follow"), lambda n: "trump_or_follow",
           fixed=dict.fromkeys(_BOTH, "trump_or_follow")),
    Option("diamond_ace", "the plain diamond ace: lowest, or just below the jack",
           ("low", "below_jack"), lambda n: "low", fixed=dict.fromkeys(_BOTH, "low")),
    Option("deal_pattern", "cards per round of dealing", ("3-2", "2-3"), lambda n: "3-2",
           fixed=dict.fromkeys(_BOTH, "3-2"), to_rule=_pattern,
           to_option=lambda pattern: "-".join(str(n) for n in pattern)),
    Option("joker", "a joker ranking directly below AH", ("none", "below_ah"),
           lambda n: "none", fixed={"bruff": "above_ah", "auction": "none"},
           why_absent={"auction": "the auction is played with 52 cards and no joker",
                       "bruff": "bruff always has its joker between the trump jack and AH"}),
    Option("decks", "two packs only with 7 or more players", (1, 2), lambda n: 1,
           fixed=dict.fromkeys(_BOTH, 1)),
    Option("robbing", "the ace of trumps may rob the turn-up", (True, False), lambda n: True,
           fixed={"bruff": True, "auction": False},
           why_absent={"auction": "the auction has no turn-up to rob"}),
    Option("cap_at_target", "scores in the views and deal results are shown capped at the target "
           "(the target_reached and game_won facts keep the score reached)", (False, True),
           lambda n: False, fixed=dict.fromkeys(_BOTH, False)),
    Option("spoil_five", "no score for a deal where no side takes three tricks", (False, True),
           lambda n: False, fixed=dict.fromkeys(_BOTH, False)),
    Option("min_bid", "the lowest bid", (5, 15), lambda n: 5,
           fixed={"bruff": 5, "classic": 5},
           why_absent={"bruff": "bruff has no auction", "classic": "classic has no auction"}),
    Option("match_games", "games a side must win to win the match", None, lambda n: 1,
           accepts=lambda v: _is_int(v) and 1 <= v <= 9,
           allowed="a whole number of games from 1 to 9"),
    Option("turn_seconds", "seconds a seat has to act before the clock acts for it", None,
           lambda n: None, accepts=lambda v: v is None or (_is_int(v) and 5 <= v <= 86400),
           allowed="null or a whole number of seconds from 5 to 86400"),
)
"""Every option, in the order games list them; a :class:`RuleSet` field of each name."""

_OPTION = {option.name: option for option in OPTIONS}

_OPTIONS: dict[str, tuple[str, ...]] = {
    profile: tuple(option.name for option in OPTIONS if profile not in option.fixed)
    for profile in PROFILES
}
"""The options each profile offers, in order."""

MOST_PLAYERS = max(profile.players[1] for profile in _PROFILES.values())
"""The largest table any profile allows."""


def allowed_values(name: str) -> str:
    """Returns in words what option *name* allows where it has no list of values.

    :raises KeyError: for an option with a list of values (see :func:`option_specs`).
    """
    allowed = _OPTION[name].allowed
    if allowed is None:
        raise KeyError(name)
    return allowed


@functools.lru_cache(maxsize=256)
def _options_of(rules: RuleSet) -> tuple[tuple[str, Any], ...]:
    """Returns the public options of *rules* (cached: every view shows them)."""
    return tuple((name, _OPTION[name].to_option(getattr(rules, name)))
                 for name in _OPTIONS[rules.profile])


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
    return _PROFILES[find_ruleset(profile)].players


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
        option = _OPTION[name]
        default = option.default_in(profile, count)
        varying = {str(seats): option.default_in(profile, seats) for seats in range(low, high + 1)
                   if option.default_in(profile, seats) != default}
        described[name] = {
            "description": option.description,
            "default": default,
            "default_by_players": varying or None,
            "values": list(option.values) if option.values is not None else None,
        }
    return described


def make_ruleset(
    profile: str, options: Mapping[str, Any] | None = None, players: object = None
) -> RuleSet:
    """Returns the rule set of *profile* with *options* over its defaults, for *players* seats.

    :raises ProfileError: naming the profile, the option or the combination that is wrong.
    """
    find_ruleset(profile)
    low, high = _PROFILES[profile].players
    count = low if players is None else players
    if not _is_int(count) or not low <= count <= high:
        allowed = f"exactly {low}" if low == high else f"{low} to {high}"
        raise ProfileError(f"{profile} is played by {allowed} players, got {shown(count)}")
    given = dict(options or {})
    for name in given:
        if name not in _OPTIONS[profile]:
            raise _unknown(profile, name)
    values: dict[str, Any] = {}
    for option in OPTIONS:
        if profile in option.fixed:
            values[option.name] = option.fixed[profile]
            continue
        value = given.get(option.name, option.default_in(profile, count))
        problem = option.problem(value)
        if problem:
            raise ProfileError(f"option {option.name!r} {problem}, got {shown(value)}")
        values[option.name] = value
    _check_combination(count, values)
    return RuleSet(profile=profile, players=count, auction=_PROFILES[profile].auction,
                   **{option.name: option.to_rule(values[option.name]) for option in OPTIONS})


def shared_ruleset(profile: str, options: Mapping[str, Any], players: int) -> RuleSet:
    """Returns :func:`make_ruleset` of the arguments, the same value for the same options (a
    rule set is immutable; every load of a game folds its creation again, and every new game
    starts with one).

    :raises ProfileError: as :func:`make_ruleset`.
    """
    try:
        # The type is part of the key: ``True == 1`` but only one of them may be valid.
        key = (profile, players, tuple(sorted(
            (name, type(value), value) for name, value in options.items()
        )))
        hash(key)
    except TypeError:
        return make_ruleset(profile, options, players)
    rules = _RULESETS.get(key)
    if rules is None:
        rules = make_ruleset(profile, options, players)
        if len(_RULESETS) >= 256:
            _RULESETS.clear()
        _RULESETS[key] = rules
    return rules


_RULESETS: Final[dict[Hashable, RuleSet]] = {}
"""The rule sets made by :func:`shared_ruleset`, by profile, players and options (at most 256)."""


def _unknown(profile: str, name: str) -> ProfileError:
    """Returns the error for option *name*, which *profile* does not offer."""
    option = _OPTION.get(name)
    why = option.why_absent.get(profile) if option is not None else None
    return ProfileError(
        f"unknown option {name!r} for profile {profile!r}"
        + (f": {why}" if why else f" (options: {', '.join(_OPTIONS[profile])})"))


def _check_combination(players: int, values: Mapping[str, Any]) -> None:
    """Refuses options that are each allowed but not together, or not at this table.

    :raises ProfileError: naming the options and the table.
    """
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


def parse_option_text(profile: str, name: str, text: str) -> Any:
    """Returns the typed value of option *name* written as *text* (command-line ``K=V``).

    :raises ProfileError: for an unknown option or a text that is not a value of it.
    """
    find_ruleset(profile)
    if name not in _OPTIONS[profile]:
        raise _unknown(profile, name)
    lowered = text.strip().lower()
    if lowered in ("true", "false"):
        return lowered == "true"
    if lowered in ("none", "null"):
        return None
    if re.fullmatch(r"-?[0-9]+", lowered):
        return int(lowered)
    return text.strip()
