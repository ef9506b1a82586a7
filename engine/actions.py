"""Commands: which actions a seat may take, and the events an accepted action produces.

Two tiers, as in python-chess ``push`` and ``push_san``: :func:`decide` checks an action
against the rules and raises a typed error naming the rule; the fold (:mod:`engine.fold`)
applies the resulting events without checking again. The server's own steps (revealing a
finished deal's seed, shuffling the next deal) follow in the same batch, so a game never waits
on the server; the fresh seed for a shuffle comes in as *entropy* (the engine draws nothing).
Actions are :class:`engine.action_values.Action` values; their JSON form is read and written
there.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final

from engine import auction as bidding
from engine.action_values import (
    BURY_ACTIONS,
    HOLD,
    JINK,
    JINK_ONLY,
    NAME_TRUMP,
    PASS,
    PLAY_ACTIONS,
    PRODUCES,
    ROB_ACTIONS,
    Action,
    action_json,
    bid_action,
    cuts_of,
    parse_action,
)
from engine.cards import (
    ACE_OF_HEARTS,
    CARD_CODES,
    Card,
    Rank,
    Suit,
    card_sort_key,
    format_cards,
)
from engine.errors import InvalidActionError
from engine.fold import apply_event, play_cards
from engine.legality import allow_card, legal_mask
from engine.levels import BASIC, seat_levels
from engine.profiles import MOST_PLAYERS, shared_ruleset
from engine.ranking import RANKINGS
from engine.rejections import (
    ActionRejectedError,
    ContributionRefusedError,
    GameOverError,
    IllegalPlayError,
    NotYourTurnError,
    WrongPhaseError,
)
from engine.shuffle import (
    ALGORITHM,
    ALGORITHM_2,
    commitment,
    contribution_commitment,
)
from engine.sides import side_name
from engine.state import DealState, GameState, Seat
from events.types import (
    BidHeld,
    BidMade,
    BidPassed,
    CardPlayed,
    CardsDiscarded,
    DealContributed,
    DeckCut,
    DeckShuffled,
    Event,
    GameAbandoned,
    GameCreated,
    JinkAnnounced,
    JokerBuried,
    SeedRevealed,
    TrumpNamed,
    TurnUpRobbed,
)

ANY_SEAT = frozenset({"jink", "contribute"})
"""The actions any seat may take whoever's turn it is."""

PHASE_OF: dict[str, str] = {
    action: cls.PHASE for action, cls in PRODUCES.items() if cls.PHASE is not None
}
"""The phase of the deal each action belongs to."""


def start_game(
    profile: str,
    options: Mapping[str, Any],
    seat_types: Sequence[str],
    game_seed: bytes,
    shuffle_seed: bytes,
    *,
    context: str | None = None,
    contribution_secret: bytes | None = None,
    nonce_window: object = None,
    names: Sequence[str | None] = (),
    bot_levels: Sequence[str | None] = (),
) -> tuple[Event, ...]:
    """Returns the opening events of a new game: its creation and the first shuffle.

    With a *context* (the game id) the game is dealt by ``hmac-sha256-fy/2``, and its bots and
    turn clock cut from *contribution_secret*, committed here before any deal's seed; without
    one, by ``hmac-sha256-fy/1`` (the histories of earlier releases). A *nonce_window* (seconds,
    :mod:`engine.nonce_window`) is committed with it: how long a bot's or the clock's cut
    waits for the human seats' nonces. *bot_levels* name each bot seat's level
    (:func:`engine.levels.seat_levels`: unnamed, ``strong`` in a game with a person and
    ``basic`` in a game of bots only).

    :raises ProfileError: for a bad profile, option or player count.
    :raises InvalidActionError: for a seat type other than ``human`` or ``bot``.
    :raises BotLevelError: for an unknown level, or a level for a person's seat.
    :raises ValueError: for a *context* without a 32-byte *contribution_secret*.
    """
    return start_game_and_apply(
        profile, options, seat_types, game_seed, shuffle_seed, context=context,
        contribution_secret=contribution_secret, nonce_window=nonce_window,
        names=names, bot_levels=bot_levels)[0]


def start_game_and_apply(
    profile: str,
    options: Mapping[str, Any],
    seat_types: Sequence[str],
    game_seed: bytes,
    shuffle_seed: bytes,
    *,
    context: str | None = None,
    contribution_secret: bytes | None = None,
    nonce_window: object = None,
    bot_pace_ms: int = 0,
    names: Sequence[str | None] = (),
    bot_levels: Sequence[str | None] = (),
) -> tuple[tuple[Event, ...], GameState]:
    """Returns what :func:`start_game` returns and the state those events fold to, as
    :func:`decide_and_apply` does for an action: the opening is worked out once.

    *bot_pace_ms* (milliseconds a bot waits before each action) is recorded only in a game
    with a person and a bot: nobody else would follow the pace. *names* (one per seat, or
    none) are recorded when at least one seat has a name; the service checks them first.
    *bot_levels* (one per seat, or none) name each bot seat's level, ``None`` for
    :func:`engine.levels.default_level`; they are recorded when a bot is not ``basic``.

    :raises ProfileError: as :func:`start_game`.
    :raises InvalidActionError: as :func:`start_game`.
    :raises BotLevelError: as :func:`start_game`.
    :raises ValueError: as :func:`start_game`.
    """
    for kind in seat_types:
        if kind not in ("human", "bot"):
            raise InvalidActionError(f"seat type must be 'human' or 'bot', got {kind!r}")
    levels = seat_levels(seat_types, bot_levels)
    rules = shared_ruleset(profile, options, len(seat_types))
    secret = None
    if context is not None:
        if contribution_secret is None or len(contribution_secret) != 32:
            raise ValueError("a game dealt by hmac-sha256-fy/2 needs a 32-byte contribution "
                             "secret")
        secret = contribution_secret.hex()
    if nonce_window is not None and (secret is None or type(nonce_window) is not int
                                     or nonce_window < 1):
        raise ValueError("a nonce window is a whole number of seconds from 1, in a game dealt "
                         "by hmac-sha256-fy/2")
    created = GameCreated(
        profile, rules.options(), tuple(seat_types), game_seed.hex(),
        contribution_commitment=None if secret is None else contribution_commitment(secret),
        contribution_secret=secret, nonce_window=nonce_window,
        names=tuple(names) if any(name is not None for name in names) else None,
        bot_pace_ms=(bot_pace_ms or None) if {"human", "bot"} <= set(seat_types) else None,
        bot_levels=levels if any(level not in (None, BASIC) for level in levels) else None)
    following, state = _server_steps(apply_event(None, created), shuffle_seed, context)
    return (created, *following), state


def server_events(state: GameState, entropy: bytes | None, *,
                  context: str | None = None) -> tuple[Event, ...]:
    """Returns the server's own steps due now: reveal a finished deal's seed, shuffle the next.

    A shuffle is by ``hmac-sha256-fy/2`` with *context*, or else with the context of the deal
    before (a game keeps its id), and by ``/1`` in a game that has none.

    :raises ValueError: if a shuffle is due and *entropy* is not 32 bytes.
    """
    return _server_steps(state, entropy, context)[0]


def abandonment(state: GameState, idle_seconds: int, after_seconds: int) -> tuple[Event, ...]:
    """Returns the events that end *state*'s game as abandoned: ``game_abandoned`` and, for a
    deal in progress, the reveal of its seed, so that its history verifies as far as it went
    (a duplicate board's seed stays its drive's to reveal: other tables may be playing it).

    :raises EventSequenceError: if the game is over already.
    """
    abandoned = GameAbandoned(idle_seconds=idle_seconds, after_seconds=after_seconds)
    after = apply_event(state, abandoned)
    deal = after.deal
    if not after.seed_due or deal is None or deal.seed is None:
        return (abandoned,)
    return (abandoned, SeedRevealed(deal.number, deal.seed))


def _server_steps(state: GameState, entropy: bytes | None, context: str | None = None
                  ) -> tuple[tuple[Event, ...], GameState]:
    """Returns the server's steps due now (:func:`server_events`) and the state after them."""
    deal = state.deal
    if deal is not None and deal.phase != "over":
        return (), state  # A deal in progress: the server has nothing to do.
    if context is None and deal is not None:
        context = deal.context
    events: list[Event] = []
    while True:
        phase = state.phase
        deal = state.deal
        if deal is not None and deal.board is not None and phase in ("reveal", "shuffle"):
            # A board's seed is revealed, and the next board dealt, by its drive.
            return tuple(events), state
        if phase == "reveal" and deal is not None and deal.seed is not None:
            event: Event = SeedRevealed(deal.number, deal.seed)
        elif phase == "shuffle":
            if entropy is None or len(entropy) != 32:
                raise ValueError("a new deal needs a fresh 32-byte shuffle seed")
            seed = entropy.hex()
            number = deal.number + 1 if deal is not None else 1
            event = (DeckShuffled(number, ALGORITHM, commitment(seed), seed) if context is None
                     else DeckShuffled(number, ALGORITHM_2, commitment(seed), seed, context))
            entropy = None
        else:
            return tuple(events), state
        events.append(event)
        state = apply_event(state, event)


def legal_moves(state: GameState, seat: Seat) -> tuple[Action, ...]:
    """Returns every action *seat* may take now, as typed :class:`Action` values: the engine's
    own interface (bots, searches and benchmarks use it; :func:`legal_actions` is its JSON
    form). Each value can be passed straight to :func:`decide_and_apply`.

    The values of a card, a call, a suit and a cut are made once and shared (they are
    immutable); the order is the one :func:`legal_actions` lists.
    """
    deal = state.deal
    if (deal is None or deal.phase == "over" or state.winner is not None or state.abandoned
            or deal.turn is None):
        return ()  # As GameState.turn: the server acts, or the game is over.
    if deal.turn != seat:
        # Only a jink may be taken out of turn. A nonce is the client's own random draw: legal
        # but not listable, like a free choice.
        return JINK_ONLY if _why_not_jink(state, deal, seat) is None else ()
    rules = state.rules
    phase = deal.phase
    if phase == "play":
        assert deal.trump is not None and deal.current is not None
        hand = deal.hands[seat]
        legal = legal_mask(hand, deal.current.cards, RANKINGS[rules.rankings][deal.trump],
                           rules)
        plays = PLAY_ACTIONS
        moves: list[Action] = []
        while legal:  # The legal cards in notation order, one interned play each.
            low = legal & -legal
            moves.append(plays[low.bit_length() - 1])
            legal ^= low
        if deal.tricks:
            # Robbing and a jink are both allowed only before the first trick is complete
            # (_why_not_rob, _why_not_jink): the common case, plays alone, asks neither.
            return tuple(moves)
        rob = _why_not_rob(state, deal, seat) is None
        jink = _why_not_jink(state, deal, seat) is None
        if not (jink or rob):
            return tuple(moves)  # The hot path: plays alone.
        first = [JINK] if jink else []
        if rob:
            first += [ROB_ACTIONS[card] for card in _distinct(hand)]
        return (*first, *moves)
    if phase == "cut":
        return cuts_of(rules.deck_size)
    if phase == "joker":
        return tuple(BURY_ACTIONS[card] for card in _distinct(deal.hands[seat]))
    if phase == "bidding":
        assert deal.auction is not None
        calls = [bid_action(amount) for amount in bidding.legal_bids(
            deal.auction, seat, rules, state.scores)]
        if bidding.why_not_hold(deal.auction, seat, deal.dealer, rules, state.scores) is None:
            calls.append(HOLD)
        calls.append(PASS)
        return tuple(calls)
    if phase == "trump":
        return NAME_TRUMP
    assert phase == "discard", f"no legal actions listed in phase {phase!r}"
    limit = min(5, len(deal.stock))
    seen: set[tuple[Card, ...]] = set()
    exchanges: list[Action] = []
    hand = tuple(sorted(deal.hands[seat], key=card_sort_key))
    for size in range(limit + 1):
        for combo in itertools.combinations(hand, size):
            if combo not in seen:
                seen.add(combo)
                exchanges.append(Action("discard", cards=combo))
    return tuple(exchanges)


def legal_actions(state: GameState, seat: Seat) -> tuple[dict[str, Any], ...]:
    """Returns every action *seat* may take now, as JSON objects that can be posted back:
    :func:`legal_moves` at the edge where the API, the histories and the CLI meet the world.

    Each object is the caller's own (a fresh copy).
    """
    return tuple(map(action_json, legal_moves(state, seat)))


def decide(
    state: GameState, seat: Seat, action: Action | Mapping[str, Any], *,
    entropy: bytes | None = None,
) -> tuple[Event, ...]:
    """Returns the events that *seat*'s *action* produces, followed by any server steps due.

    :raises InvalidActionError: for a malformed action.
    :raises GameOverError: once the game is won.
    :raises WrongPhaseError: for an action of another phase.
    :raises NotYourTurnError: when another seat is to act.
    :raises IllegalPlayError: when the rules forbid it; the message names the rule.
    :raises ValueError: if the action ends a deal and *entropy* is not 32 bytes for the next
        shuffle (a caller's mistake, not a player's).
    """
    return decide_and_apply(state, seat, action, entropy=entropy)[0]


def decide_and_apply(
    state: GameState, seat: Seat, action: Action | Mapping[str, Any], *,
    entropy: bytes | None = None,
) -> tuple[tuple[Event, ...], GameState]:
    """Returns what :func:`decide` returns and the state after those events, as folding them
    onto *state* gives it: the action is checked and applied once.

    :raises InvalidActionError: as :func:`decide`.
    :raises GameOverError: as :func:`decide`.
    :raises WrongPhaseError: as :func:`decide`.
    :raises NotYourTurnError: as :func:`decide`.
    :raises IllegalPlayError: as :func:`decide`.
    :raises ValueError: as :func:`decide`.
    """
    parsed = action if type(action) is Action else parse_action(action)
    deal = state.deal
    # A play in turn, the commonest action by far: the seat to act is at the table, and the
    # game is in play exactly when the deal is and nobody has won or abandoned it (what
    # _check_table and _check_phase establish the long way, for every other action).
    playing = (parsed.type == "play" and deal is not None and deal.turn == seat
               and deal.phase == "play" and state.winner is None and not state.abandoned)
    phase = "play" if playing else _check_table(state, seat)
    try:
        event = (_play(state, deal, seat, parsed) if playing and deal is not None
                 else _accept(state, seat, parsed, phase))
    except ActionRejectedError as error:
        # The legal alternatives are worked out only for a refusal, never on the hot path.
        if not error.legal:
            error.legal = legal_actions(state, seat)
        raise
    # A play is folded with the card just checked (no look-up by code).
    after = (play_cards(state, ((seat, parsed.card),)) if playing and parsed.card is not None
             else apply_event(state, event))
    deal = after.deal
    if deal is not None and deal.phase != "over":
        return (event,), after  # A deal in progress: no server step is due.
    following, after = _server_steps(after, entropy)
    return (event, *following), after


def refusals(
    state: GameState, seat: Seat, action: Action | Mapping[str, Any]
) -> list[ActionRejectedError]:
    """Returns every reason the rules refuse *seat*'s *action* now, empty when they allow it.

    A seat not at the table, a game over or an action of another phase is the only reason
    given; otherwise acting out of turn and breaking the action's own rule are both given when
    both hold (a replay of a real table reports each). :func:`decide` raises the first.

    :raises InvalidActionError: for a malformed action.
    """
    parsed = parse_action(action)
    try:
        deal = _check_phase(state, parsed, _check_table(state, seat))
    except ActionRejectedError as error:
        return [error]
    found: list[ActionRejectedError] = []
    if parsed.type not in ANY_SEAT and deal.turn != seat:
        found.append(_not_your_turn(deal, seat))
    try:
        _check(state, deal, seat, parsed)
    except ActionRejectedError as error:
        found.append(error)
    return found


def _check_table(state: GameState, seat: Seat) -> str:
    """Refuses a seat that is not at the table, and any action once the game is over;
    returns the game's phase."""
    if not 0 <= seat < state.rules.players:
        raise NotYourTurnError(f"seat {seat} is not at this table of {state.rules.players}")
    phase = state.phase
    if phase == "over":
        how = ("it was abandoned unfinished" if state.winner is None
               else f"side {side_name(state.winner)} won")
        raise GameOverError(f"the game is over: {how}; no more actions")
    return phase


def _check_phase(state: GameState, action: Action, phase: str) -> DealState:
    """Returns the deal when *action* belongs to the game's *phase*, else refuses it."""
    deal = state.deal
    wanted = PHASE_OF[action.type]
    if deal is None or phase != wanted:
        raise WrongPhaseError(
            f"cannot {action.type} now: the deal is in phase {phase!r}, not {wanted!r}"
        )
    return deal


def _not_your_turn(deal: DealState, seat: Seat) -> NotYourTurnError:
    return NotYourTurnError(f"not your turn: seat {deal.turn} is to act, not seat {seat}")


def _accept(state: GameState, seat: Seat, action: Action, phase: str) -> Event:
    """Returns the event for *action* by *seat* in the game's *phase*, or raises the error
    that refuses it."""
    deal = _check_phase(state, action, phase)
    if action.type not in ANY_SEAT and deal.turn != seat:  # Any seat: a jink, a nonce.
        raise _not_your_turn(deal, seat)
    return _CHECKS[action.type](state, deal, seat, action)


def _jink(state: GameState, deal: DealState, seat: Seat) -> Event:
    why = _why_not_jink(state, deal, seat)
    if why is not None:
        raise IllegalPlayError(why)
    return JinkAnnounced(seat)


def _check(state: GameState, deal: DealState, seat: Seat, action: Action) -> Event:
    """Returns the event for *action* once the rules allow it."""
    return _CHECKS[action.type](state, deal, seat, action)


def _cut(state: GameState, deal: DealState, seat: Seat, action: Action) -> Event:
    assert action.position is not None
    size = state.rules.deck_size
    if not 1 <= action.position < size:
        raise IllegalPlayError(
            f"cut position {action.position} is outside 1..{size - 1}",
        )
    if action.nonce is not None:
        _check_contribution(deal, seat, action.nonce)
    return DeckCut(seat, action.position, action.nonce)


def _check_contribution(deal: DealState, seat: Seat, nonce: str) -> None:
    """Refuses a nonce the deal cannot take: a ``/1`` deal, a second one from *seat*, or one
    another seat sent already."""
    if deal.algorithm != ALGORITHM_2:
        raise ContributionRefusedError(
            f"deal {deal.number} is dealt by {deal.algorithm}, which takes no contributions",
            code="contribution_not_taken")
    for earlier, seen in deal.nonces:
        if earlier == seat:
            raise ContributionRefusedError(
                f"seat {seat} already contributed to deal {deal.number}: one nonce per seat "
                "per deal", code="contribution_repeated")
        if seen == nonce:
            raise ContributionRefusedError(
                f"this nonce was already contributed to deal {deal.number} by seat {earlier}: "
                "draw a fresh one", code="nonce_repeated")


def _contribute(state: GameState, deal: DealState, seat: Seat, action: Action) -> Event:
    del state  # A contribution depends on the deal only.
    assert action.nonce is not None
    _check_contribution(deal, seat, action.nonce)
    return DealContributed(deal.number, seat, action.nonce)


def _bury(state: GameState, deal: DealState, seat: Seat, action: Action) -> Event:
    assert action.card is not None
    _in_hand(action.card, deal.hands[seat])
    return JokerBuried(seat, action.card.code())


def _rob(state: GameState, deal: DealState, seat: Seat, action: Action) -> Event:
    assert action.card is not None
    why = _why_not_rob(state, deal, seat)
    if why is not None:
        raise IllegalPlayError(why)
    _in_hand(action.card, deal.hands[seat])
    return TurnUpRobbed(seat, action.card.code())


def _name_trump(state: GameState, deal: DealState, seat: Seat, action: Action) -> Event:
    assert action.suit is not None
    return TrumpNamed(seat, action.suit.name)


def _play(state: GameState, deal: DealState, seat: Seat, action: Action) -> Event:
    rules = state.rules
    card = action.card
    trump = deal.trump
    assert card is not None
    assert trump is not None and deal.current is not None
    try:
        allow_card(deal.hands[seat], deal.current.cards, RANKINGS[rules.rankings][trump],
                   rules, card)
    except IllegalPlayError as error:
        raise IllegalPlayError(
            f"{error} (seat {seat}, trick {len(deal.tricks) + 1}, trump {trump.name})",
            ruling=error.ruling) from None
    # The event of *seat* playing *card*: one immutable value per seat and card, made once.
    return _CARD_PLAYED[seat][card]


_CARD_PLAYED: Final = tuple(
    tuple(CardPlayed(seat, code) for code in CARD_CODES) for seat in range(MOST_PLAYERS))
"""The play events, by seat and card."""


def _call(state: GameState, deal: DealState, seat: Seat, action: Action) -> Event:
    rules = state.rules
    auction = deal.auction
    assert auction is not None
    if action.type == "pass":
        return BidPassed(seat)
    if action.type == "hold":
        why = bidding.why_not_hold(auction, seat, deal.dealer, rules, state.scores)
        if why is not None:
            raise IllegalPlayError(f"cannot hold: {why}")
        return BidHeld(seat)
    assert action.amount is not None
    why = bidding.why_not_bid(auction, seat, action.amount, rules, state.scores)
    if why is not None:
        raise IllegalPlayError(f"cannot bid {action.amount}: {why}")
    return BidMade(seat, action.amount)


def _discard(state: GameState, deal: DealState, seat: Seat, action: Action) -> Event:
    del state  # Unused: the exchange depends on the hand and the stock only.
    hand = list(deal.hands[seat])
    if len(action.cards) > 5:
        raise IllegalPlayError(
            f"cannot discard {len(action.cards)} cards: 0 to 5 may be exchanged")
    for card in action.cards:
        if card not in hand:
            why = "twice" if card in deal.hands[seat] else (
                f"not in the hand ({format_cards(deal.hands[seat])})"
            )
            raise IllegalPlayError(f"cannot discard {card.code()!r}: {why}")
        hand.remove(card)
    if len(action.cards) > len(deal.stock):
        raise IllegalPlayError(
            f"only {len(deal.stock)} cards are left to draw")
    return CardsDiscarded(seat, tuple(card.code() for card in action.cards))


def _announce(state: GameState, deal: DealState, seat: Seat, action: Action) -> Event:
    del action  # A jink carries nothing but its seat.
    return _jink(state, deal, seat)


_CHECKS: dict[str, Callable[[GameState, DealState, Seat, Action], Event]] = {
    "cut": _cut, "bury": _bury, "rob": _rob, "bid": _call, "pass": _call, "hold": _call,
    "name_trump": _name_trump, "discard": _discard, "jink": _announce, "play": _play,
    "contribute": _contribute,
}
"""The rule check of each action type (tests/events/test_event_types.py: one for each)."""


def _in_hand(card: Card, hand: Sequence[Card]) -> None:
    if card not in hand:
        raise IllegalPlayError(
            f"{card.code()!r} is not in the hand ({format_cards(hand)})")


def _ace_of_trumps(trump: Suit) -> Card:
    return _ACES_OF_TRUMPS[trump]


_ACES_OF_TRUMPS: Final = tuple(ACE_OF_HEARTS if suit is Suit.H else Card(Rank.ACE, suit)
                               for suit in Suit)
"""The ace of trumps by trump suit (looked up on every listing of a play's actions)."""


def _may_rob(state: GameState, deal: DealState, seat: Seat) -> bool:
    """True if *seat* may rob the turn-up now (see :func:`_why_not_rob`)."""
    return _why_not_rob(state, deal, seat) is None


def _why_not_rob(state: GameState, deal: DealState, seat: Seat) -> str | None:
    """Returns why *seat* may not rob the turn-up now, or ``None`` when it may: the holder of
    the ace of trumps (or the dealer when that ace is turned), before its own first play."""
    if not state.rules.robbing:
        return "this game is played without robbing"
    if deal.turn_up is None:
        return "there is no turn-up to rob"
    if deal.robbed_by is not None:
        return _ROBBED_BY[deal.robbed_by]
    if deal.tricks or (deal.current is not None and seat in deal.current.seats):
        return "robbing is allowed only before your own first play of the deal"
    assert deal.trump is not None
    ace = _ace_of_trumps(deal.trump)
    if ace in deal.hands[seat] or (seat == deal.dealer and deal.turn_up == ace):
        return None
    return _ONLY_ACE_HOLDER[ace]


_ROBBED_BY = tuple(f"the turn-up was already robbed by seat {seat}"
                   for seat in range(MOST_PLAYERS))
"""The refusal of a second rob, by the seat that robbed (written once: checks are hot)."""

_ONLY_ACE_HOLDER = {
    ace: (
        f"only the holder of {ace.code()} may rob (or the dealer when {ace.code()} is "
        "turned); the joker gives no right"
    )
    for ace in (_ace_of_trumps(suit) for suit in Suit)
}
"""The refusal of a rob by a seat without the ace of trumps, by that ace."""


def _may_jink(state: GameState, deal: DealState, seat: Seat) -> bool:
    """True if a jink may be announced now (see :func:`_why_not_jink`)."""
    return _why_not_jink(state, deal, seat) is None


def _why_not_jink(state: GameState, deal: DealState, seat: Seat) -> str | None:
    """Returns why no jink may be announced now, or ``None`` when one may: any seat, once per
    deal, before the opening lead, in a game with announced jinks."""
    del seat  # Any seat may announce for its side.
    jink = state.rules.jink
    if jink != "announced":
        return _NO_JINK_TAKE_ALL if jink == "take_all" else _NO_JINK_NONE
    if (
        deal.phase == "play"
        and deal.jink_seat is None
        and not deal.tricks
        and deal.current is not None
        and not deal.current.cards
    ):
        return None
    return "a jink may be announced only once per deal, before the opening lead"


_NO_JINK_TAKE_ALL = (
    "no jink can be announced: in bruff a side wins by taking all five tricks, without "
    "announcing"
)
_NO_JINK_NONE = "no jink can be announced: this game is played with the jink option 'none'"


def _distinct(cards: Sequence[Card]) -> list[Card]:
    """Returns the distinct *cards* in notation order (a card's value is its index in it)."""
    return sorted(set(cards))
