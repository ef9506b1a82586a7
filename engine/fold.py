"""The fold: ``apply_event(state, event) -> state``, one registered function per event type.

Apply functions never re-validate the rules (commands do that in :mod:`engine.actions`); they
derive what follows from a decision: the deal out of a shuffle and a cut, trick winners, the
bonus proof, a finish, the scores. A log that cannot fit its state (a card played from a hand
that lacks it, a reveal of the wrong seed) raises :class:`EventSequenceError`.
"""

from __future__ import annotations

import functools
import operator
from collections.abc import Callable, Iterable, Sequence
from typing import Any, Final, TypeVar

from engine import auction as bidding
from engine import scoring
from engine.boards import PLAYED_OUT, board_order
from engine.cards import JOKER, STANDARD_DECK, Card, Suit
from engine.deal_end import (
    boards_winner,
    check_bonus,
    end_deal,
    game_won,
    settlement_after,
)
from engine.errors import EventSequenceError
from engine.legality import withheld_trumps
from engine.levels import BotLevelError, recorded_levels
from engine.profiles import RuleSet, shared_ruleset
from engine.ranking import RANKINGS
from engine.rulings import ruling
from engine.shuffle import ALGORITHM_2, commitment, cut, deal_order, deck_order, first_dealer
from engine.state import (
    DealResult,
    DealState,
    Fact,
    GameState,
    HighestTrump,
    Seat,
    Trick,
    replaced,
)
from engine.tricks import winner_ruling
from events.types import (
    BidHeld,
    BidMade,
    BidPassed,
    BoardDealt,
    BoardSkipped,
    CardPlayed,
    CardsDiscarded,
    DealContributed,
    DealRecorded,
    DeckCut,
    DeckShuffled,
    Event,
    GameAbandoned,
    GameCreated,
    JinkAnnounced,
    JokerBuried,
    SeatNamed,
    SeedRevealed,
    TrumpNamed,
    TurnUpRobbed,
)


def fold(events: Iterable[Event], state: GameState | None = None) -> GameState:
    """Returns the state after applying *events* in order to *state* (or to nothing).

    :raises EventSequenceError: if the events do not form a game.
    """
    registry = _APPLY
    plays: list[tuple[int, Card]] = []
    for event in events:
        if type(event) is CardPlayed and state is not None:
            # A run of plays is folded at once (play_cards), at the next other event or the end.
            card = _CARD_BY_CODE.get(event.card)
            if card is None:  # Not canonical: the plays before it first, as one at a time.
                if plays:
                    state, plays = play_cards(state, plays), []
                card = Card.parse(event.card)
            plays.append((event.seat, card))
            continue
        if plays and state is not None:  # (plays are taken only once there is a state)
            state, plays = play_cards(state, plays), []
        # apply_event's own steps, inlined for the common case: a registered type after the
        # first event (anything else goes through apply_event, which explains the error).
        apply = registry.get(type(event))
        if apply is None or state is None:
            state = apply_event(state, event)
        else:
            state = apply(event, state)
    if state is None:
        raise EventSequenceError("no events: a game starts with game_created")
    if plays:
        state = play_cards(state, plays)
    return state


def apply_event(state: GameState | None, event: Event) -> GameState:
    """Returns the state after *event*; the first event of a game must be ``GameCreated``.

    :raises EventSequenceError: if *event* cannot follow *state*.
    :raises TypeError: for an object that is not a registered event type.
    """
    if state is None:
        if not isinstance(event, GameCreated):
            raise EventSequenceError(
                f"a game starts with game_created, not {type(event).TYPE or type(event)!r}"
            )
        return _create(event)
    if isinstance(event, GameCreated):
        raise EventSequenceError("game_created may only be the first event")
    apply = _APPLY.get(type(event))
    if apply is None:
        raise TypeError(f"no apply function registered for {type(event).__name__}")
    after = apply(event, state)
    assert after.version == state.version + 1, "every apply function moves the version on once"
    return after


E = TypeVar("E", bound=Event)


_APPLY: Final[dict[type[Event], Callable[[Any, GameState], GameState]]] = {}
"""The apply function of each event type after ``game_created`` (filled by ``@_applies``)."""


def _applies(kind: type[E]) -> Callable[[Callable[[E, GameState], GameState]],
                                        Callable[[E, GameState], GameState]]:
    """Registers the decorated function as the one that applies events of type *kind*."""
    def register(
            function: Callable[[E, GameState], GameState]) -> Callable[[E, GameState], GameState]:
        _APPLY[kind] = function
        return function
    return register


_CARD_BY_CODE: Final = {card.code(): card for card in (*STANDARD_DECK, JOKER)}
"""Each card by its canonical code, as events write it (:meth:`Card.parse` reads any)."""

_new: Final = tuple.__new__
"""Builds a named tuple from all its fields at once: the fold's fast ``_replace``."""

def _create(event: GameCreated) -> GameState:
    rules = shared_ruleset(event.profile, event.options, len(event.seats))
    try:
        levels = recorded_levels(event.seats, event.bot_levels)
    except BotLevelError as error:
        raise EventSequenceError(str(error)) from None
    return GameState(
        version=1,
        deal=None,
        rules=rules,
        seat_types=tuple(event.seats),
        game_seed=event.seed,
        contribution_secret=event.contribution_secret,
        nonce_window=event.nonce_window,
        names=tuple(event.names or ()),
        bot_pace_ms=event.bot_pace_ms or 0,
        seat_levels=levels,
        dealer=first_dealer(event.seed, rules.players),
        scores=(0,) * rules.sides,
        games_won=(0,) * rules.sides,
    )


def _deal_of(state: GameState, *phases: str) -> DealState:
    deal = state.deal
    if deal is None or deal.phase not in phases:
        found = "no deal" if deal is None else f"phase {deal.phase!r}"
        raise EventSequenceError(
            f"event {state.version + 1} needs phase {' or '.join(phases)}, found {found}"
        )
    return deal


def _with_deal(state: GameState, deal: DealState, **changes: Any) -> GameState:
    """Returns *state* one version on, with *deal* (and any other *changes*). Most events
    change only those two, the game's first fields: the rest is copied as it was
    (:func:`_moved_on`)."""
    if changes:
        return replaced(state, deal=deal, version=state.version + 1, **changes)
    return _moved_on(state, state.version + 1, deal)


def _moved_on(state: GameState, version: int, deal: DealState) -> GameState:
    """Returns *state* at *version* with *deal*, its other fields as they were: the game an
    event makes, built as one tuple of the fields read by their place (compiled, that is two
    allocations where joining slices takes four)."""
    return _new(GameState, (version, deal, state[2], state[3], state[4], state[5], state[6],
                             state[7], state[8], state[9], state[10], state[11], state[12],
                             state[13], state[14], state[15], state[16], state[17], state[18]))


if len(GameState._fields) != 19 or GameState._fields[:2] != ("version", "deal"):
    # Not an assert: python -O would drop it, and a field added would go unnoticed.
    raise ImportError("_moved_on lists the game's 19 fields by their place, version and deal "
                      "first")


def _fresh_deal(state: GameState, number: int, **fields: Any) -> DealState:
    """Returns deal *number* before its cards are dealt, by the game's current dealer."""
    if state.winner is not None:
        raise EventSequenceError(f"deal {number} starts after the game was won")
    fields.setdefault("hands", ((),) * state.rules.players)
    return DealState(
        number=number, dealer=state.dealer, phase="cut", start_scores=state.scores,
        opened=state.version + 1, **fields
    )


def _past_deals(state: GameState) -> tuple[DealState, ...]:
    """Returns the finished deals once the current one is put away."""
    return state.past_deals + ((state.deal,) if state.deal is not None else ())


@_applies(DeckShuffled)
def _shuffled(event: DeckShuffled, state: GameState) -> GameState:
    # A /2 deck depends on the cut and the contributions: it is derived at the cut.
    order = () if event.algorithm == ALGORITHM_2 else deck_order(
        state.rules, event.seed, event.algorithm)
    if event.algorithm == ALGORITHM_2 and event.context is None:
        raise EventSequenceError(f"deck_shuffled of deal {event.deal} by {ALGORITHM_2} "
                                 "names no context")
    deal = _fresh_deal(
        state, event.deal, algorithm=event.algorithm, commitment=event.commitment,
        seed=event.seed, order=order, turn=(state.dealer - 1) % state.rules.players,
        context=event.context,
    )
    return _with_deal(state, deal, past_deals=_past_deals(state))


@_applies(BoardDealt)
def _board(event: BoardDealt, state: GameState) -> GameState:
    if commitment(event.seed) != event.commitment:
        raise EventSequenceError(f"board {event.board!r}: the seed does not match its commitment")
    if event.finish not in (None, PLAYED_OUT):
        raise EventSequenceError(f"board {event.board!r}: unknown finish {event.finish!r} "
                                 f"(known: {PLAYED_OUT})")
    order = board_order(state.rules, event.seed, event.board, event.deal, event.cut,
                        event.algorithm)
    deal = _fresh_deal(
        state, event.deal, algorithm=event.algorithm, commitment=event.commitment,
        seed=event.seed, order=order, board=event.board, boards=event.boards,
        played_out=event.finish == PLAYED_OUT,
    )
    return _with_deal(state, _deal_out(state.rules, deal, cut(order, event.cut), event.cut),
                      past_deals=_past_deals(state))


@_applies(DealContributed)
def _contributed(event: DealContributed, state: GameState) -> GameState:
    deal = _deal_of(state, "cut")
    if event.deal != deal.number:
        raise EventSequenceError(
            f"deal_contributed for deal {event.deal} while deal {deal.number} waits for its cut")
    return _with_deal(state, replaced(deal, nonces=deal.nonces + ((event.seat, event.nonce),)))


@_applies(DeckCut)
def _cut(event: DeckCut, state: GameState) -> GameState:
    deal = _deal_of(state, "cut")
    if deal.algorithm == ALGORITHM_2:
        assert deal.seed is not None and deal.context is not None, "a /2 shuffle"
        nonces = deal.nonces + (((event.seat, event.nonce),) if event.nonce is not None else ())
        shuffled = deal_order(state.rules, deal.seed, deal.context, deal.number,
                              event.position, nonces)
        deal = replaced(deal, order=shuffled, nonces=nonces)
    elif event.nonce is not None:
        raise EventSequenceError(f"deck_cut with a nonce in a deal by {deal.algorithm}")
    order = cut(deal.order, event.position)
    return _with_deal(state, _deal_out(state.rules, deal, order, event.position))


@_applies(DealRecorded)
def _recorded(event: DealRecorded, state: GameState) -> GameState:
    rules = state.rules
    hands = tuple(tuple(Card.parse(code) for code in hand) for hand in event.hands)
    if len(hands) != rules.players:
        raise EventSequenceError(f"recorded deal has {len(hands)} hands for {rules.players} seats")
    stock = tuple(Card.parse(code) for code in event.stock)
    deal = _fresh_deal(state, event.deal, recorded=True, hands=hands, stock=stock)
    if rules.auction:
        deal = replaced(
            deal, phase="bidding", auction=bidding.opening(deal.dealer, rules),
            turn=(deal.dealer + 1) % rules.players,
        )
    else:
        if event.turn_up is None:
            raise EventSequenceError("a recorded turn-up deal needs its turn-up card")
        deal = _expose(rules, replaced(deal, turn_up=Card.parse(event.turn_up)))
    return _with_deal(state, deal, past_deals=_past_deals(state))


def _deal_out(
    rules: RuleSet, deal: DealState, order: tuple[Card, ...], position: int
) -> DealState:
    """Returns *deal* with the cut pack dealt: rounds of the deal pattern from the dealer's
    left, then the turn-up (or, in the auction, the stock)."""
    players = rules.players
    takers, top = _dealing(players, rules.deal_pattern, deal.dealer)
    dealt = tuple([take(order) for take in takers])
    if rules.auction:
        return replaced(
            deal, hands=dealt, cut_position=position, phase="bidding", stock=order[top:],
            auction=bidding.opening(deal.dealer, rules), turn=(deal.dealer + 1) % players,
        )
    # One copy of the deal, with the turn-up exposed.
    return replaced(deal, **{
        "hands": dealt, "cut_position": position, "turn_up": order[top],
        "stock": order[top + 1:], **_exposure(rules, deal.dealer, dealt, order[top]),
    })


@functools.lru_cache(maxsize=256)
def _dealing(
    players: int, pattern: tuple[int, ...], dealer: int
) -> tuple[tuple[Callable[[tuple[Card, ...]], tuple[Card, ...]], ...], int]:
    """Returns, for each seat, what takes its hand from the cut pack, and how many cards the
    hands take: rounds of *pattern* from the dealer's left (the same for every deal by
    *dealer* at a table of *players*, so worked out once)."""
    positions: list[list[int]] = [[] for _ in range(players)]
    top = 0
    for batch in pattern:
        for step in range(1, players + 1):
            positions[(dealer + step) % players].extend(range(top, top + batch))
            top += batch
    return tuple(_taker(hand) for hand in positions), top


def _taker(positions: list[int]) -> Callable[[tuple[Card, ...]], tuple[Card, ...]]:
    """Returns what takes the cards at *positions* of a pack, as a tuple, in that order."""
    if len(positions) == 1:
        return lambda order: (order[positions[0]],)
    return operator.itemgetter(*positions)


def _expose(rules: RuleSet, deal: DealState) -> DealState:
    """Returns *deal* after its turn-up is exposed (see :func:`_exposure`)."""
    turn_up = deal.turn_up
    assert turn_up is not None, "a turn-up deal exposes a card"
    return replaced(deal, **_exposure(rules, deal.dealer, deal.hands, turn_up))


def _exposure(
    rules: RuleSet, dealer: int, hands: tuple[tuple[Card, ...], ...], turn_up: Card
) -> dict[str, Any]:
    """Returns what changes in a deal once its turn-up is exposed: a joker goes to the dealer,
    who must bury a card; any other card names trumps and the dealer's left leads."""
    if turn_up is JOKER:
        given = list(hands)
        given[dealer] = given[dealer] + (JOKER,)
        return {"phase": "joker", "hands": tuple(given), "turn_up": None, "turn": dealer}
    leader = (dealer + 1) % rules.players
    return {"phase": "play", "trump": turn_up.suit, "current": Trick(leader=leader),
            "turn": leader}


def _without(hand: tuple[Card, ...], card: Card, seat: int, version: int) -> tuple[Card, ...]:
    try:
        index = hand.index(card)
    except ValueError:
        raise EventSequenceError(
            f"event {version}: seat {seat} does not hold {card.code()}"
        ) from None
    return hand[:index] + hand[index + 1:]


def _replace_hand(
    deal: DealState, seat: int, hand: tuple[Card, ...]
) -> tuple[tuple[Card, ...], ...]:
    return deal.hands[:seat] + (hand,) + deal.hands[seat + 1:]


@_applies(JokerBuried)
def _buried(event: JokerBuried, state: GameState) -> GameState:
    deal = _deal_of(state, "joker")
    card = Card.parse(event.card)
    hand = _without(deal.hands[event.seat], card, event.seat, state.version + 1)
    if not deal.stock:
        raise EventSequenceError("no card left to turn up after the joker")
    deal = replaced(
        deal, hands=_replace_hand(deal, event.seat, hand), face_down=deal.face_down + (card,),
        turn_up=deal.stock[0], stock=deal.stock[1:],
    )
    return _with_deal(state, _expose(state.rules, deal))


@_applies(TurnUpRobbed)
def _robbed(event: TurnUpRobbed, state: GameState) -> GameState:
    deal = _deal_of(state, "play")
    assert deal.turn_up is not None, "only a turn-up can be robbed"
    discard = Card.parse(event.discard)
    hand = _without(deal.hands[event.seat], discard, event.seat, state.version + 1)
    deal = replaced(
        deal, hands=_replace_hand(deal, event.seat, hand + (deal.turn_up,)),
        face_down=deal.face_down + (discard,), robbed_by=event.seat,
    )
    return _with_deal(state, deal)


def _call(state: GameState, seat: int, call: str, amount: int | None) -> GameState:
    deal = _deal_of(state, "bidding")
    rules = state.rules
    assert deal.auction is not None, "a bidding deal has an auction"
    auction = bidding.record_call(deal.auction, seat, call, amount, rules)
    if bidding.is_passed_out(auction, rules):
        fact = Fact("passed_out", ruling("auction.all_pass"), state.version + 1)
        result = DealResult(
            (0,) * rules.sides, state.scores, (0,) * rules.sides, 0
        )
        deal = replaced(deal, auction=auction, facts=deal.facts + (fact,))
        return end_deal(state, deal, scoring.Settlement(result, (fact,)), add_facts=False)
    if bidding.is_won(auction, rules):
        deal = replaced(
            deal, auction=auction, phase="trump", bidder=auction.high_seat, bid=auction.high,
            turn=auction.high_seat,
        )
    else:
        deal = replaced(deal, auction=auction, turn=auction.turn)
    return _with_deal(state, deal)


@_applies(BidMade)
def _bid(event: BidMade, state: GameState) -> GameState:
    return _call(state, event.seat, "bid", event.amount)


@_applies(BidPassed)
def _passed(event: BidPassed, state: GameState) -> GameState:
    return _call(state, event.seat, "pass", None)


@_applies(BidHeld)
def _held(event: BidHeld, state: GameState) -> GameState:
    return _call(state, event.seat, "hold", None)


@_applies(TrumpNamed)
def _trump_named(event: TrumpNamed, state: GameState) -> GameState:
    deal = _deal_of(state, "trump")
    deal = replaced(
        deal, trump=Suit.parse(event.suit), phase="discard",
        turn=(deal.dealer + 1) % state.rules.players,
    )
    return _with_deal(state, deal)


@_applies(CardsDiscarded)
def _discarded(event: CardsDiscarded, state: GameState) -> GameState:
    deal = _deal_of(state, "discard")
    hand = deal.hands[event.seat]
    cards = tuple(Card.parse(code) for code in event.cards)
    for card in cards:
        hand = _without(hand, card, event.seat, state.version + 1)
    drawn = deal.stock[:len(cards)]
    if len(drawn) < len(cards):
        raise EventSequenceError("the stock cannot replace that many discards")
    players = state.rules.players
    done = deal.discards_done + (event.seat,)
    deal = replaced(
        deal, hands=_replace_hand(deal, event.seat, hand + drawn), stock=deal.stock[len(cards):],
        face_down=deal.face_down + cards, discards_done=done, turn=(event.seat + 1) % players,
    )
    if len(done) == players:
        assert deal.bidder is not None, "an auction deal has a bidder"
        leader = (deal.bidder + 1) % players
        deal = replaced(deal, phase="play", current=Trick(leader=leader), turn=leader)
    return _with_deal(state, deal)


@_applies(JinkAnnounced)
def _jink(event: JinkAnnounced, state: GameState) -> GameState:
    deal = _deal_of(state, "play")
    return _with_deal(state, replaced(deal, jink_seat=event.seat))


@_applies(CardPlayed)
def _played(event: CardPlayed, state: GameState) -> GameState:
    return play_cards(state, ((event.seat, _card_of(event)),))


def _card_of(event: CardPlayed) -> Card:
    """Returns the card *event* plays (:meth:`Card.parse` only for a code not canonical).

    :raises InvalidCardError: if its code is no card.
    """
    return _CARD_BY_CODE.get(event.card) or Card.parse(event.card)


def play_card(state: GameState, seat: int, card: Card) -> GameState:
    """Returns the state after *seat* plays *card*: the fold of ``card_played``, which
    :func:`engine.actions.decide_and_apply` calls with the card it has just checked.

    :raises EventSequenceError: if the deal is not in play or *seat* does not hold *card*.
    """
    return play_cards(state, ((seat, card),))


def play_cards(state: GameState, plays: Sequence[tuple[int, Card]]) -> GameState:
    """Returns the state after each *(seat, card)* of *plays* in turn: the fold of a run of
    ``card_played`` events (:func:`play_card` is a run of one, :func:`fold` passes each run
    of a log).

    The hot path of the service, of bots and of replays. A play changes the hand, the trick,
    the turn and maybe the highest trump; only a completed trick or a new highest trump can
    prove the bonus or end the deal. So the run keeps those fields as local values and builds
    the deal and the game once: at its end, at a trick's end or at a new highest trump, where
    the bonus proof and a finish are worked out. The states between are never built, since
    nothing reads them; each fact still carries the version of the event that made it.

    :raises EventSequenceError: if the deal is not in play or a seat does not hold its card.
    """
    index = 0
    count = len(plays)
    while index < count:
        deal = state.deal
        if deal is None or deal.phase != "play":
            deal = _deal_of(state, "play")
        rules = state.rules
        players = rules.players
        trump = deal.trump
        trick = deal.current
        assert trump is not None and trick is not None, "play needs trumps and a trick"
        order = RANKINGS[rules.rankings][trump]  # ranking(trump, rules), without the call.
        trump_mask = order.trump_mask
        power_of = order.power_of
        hands = list(deal.hands)  # Each seat's hand, as the run leaves it.
        facts = deal.facts
        tricks = deal.tricks
        seats = trick.seats
        cards = trick.cards
        highest = highest_before = deal.highest
        version = state.version
        while True:
            seat, card = plays[index]
            index += 1
            version += 1
            before = hands[seat]
            if card in before:
                at = before.index(card)
                hand = before[:at] + before[at + 1:]
            else:
                hand = _without(before, card, seat, version)  # Raises: not held.
            hands[seat] = hand
            if cards and trump_mask >> cards[0] & 1:
                # A renege can be allowed only on a trump lead.
                withheld = withheld_trumps(before, cards, order, rules, card)
                if withheld is not None:
                    facts += (Fact("renege_allowed", withheld.with_args(seat=seat), version,
                                   trick=len(tricks) + 1, seat=seat),)
            seats += (seat,)
            cards += (card,)
            power = power_of[card]
            if power and (highest is None or power > power_of[highest.card]):
                highest = _new(HighestTrump, (card, seat, len(tricks) + 1))
                break
            if len(cards) == players or index == count:
                break
        current: Trick | None
        trick_done = len(cards) == players
        if trick_done:
            at, won = winner_ruling(cards, order)
            winner = turn = seats[at]
            tricks += (_new(Trick, (trick.leader, seats, cards, winner)),)
            facts += (_new(Fact, ("trick_won", won, version, len(tricks), winner,
                                  rules.side_of(winner), scoring.TRICK_POINTS, None)),)
            current = _new(Trick, (winner, (), (), None)) if (
                len(tricks) < scoring.TRICKS_PER_DEAL) else None
        else:
            current = _new(Trick, (trick.leader, seats, cards, None))
            turn = (seat + 1) % players
        deal = _after_plays(deal, tuple(hands), tricks, current, turn, highest, facts)
        if not trick_done and highest is highest_before:
            # Mid-trick, the highest trump unchanged: neither the bonus proof nor a finish can
            # change (both depend only on completed tricks and on the highest trump).
            state = _moved_on(state, version, deal)
            continue
        deal = check_bonus(deal, rules, order, version, trick_done)
        settlement = settlement_after(deal, rules, version)
        if settlement is None:
            state = _moved_on(state, version, deal)
        else:
            # end_deal moves the game one version on from the one before the run's last play
            # (of which it reads the version and the fields after the deal).
            state = end_deal(_moved_on(state, version - 1, deal), deal, settlement)
    return state


def _after_plays(
    deal: DealState, hands: tuple[tuple[Card, ...], ...], tricks: tuple[Trick, ...],
    current: Trick | None, turn: Seat | None, highest: HighestTrump | None,
    facts: tuple[Fact, ...],
) -> DealState:
    """Returns *deal* with the fields a run of plays changes (``hands`` to ``facts``), the
    others as they were: one tuple of the fields read by their place (compiled, two
    allocations where joining slices of the deal around them takes six)."""
    return _new(DealState, (deal[0], deal[1], deal[2], hands, tricks, current, turn, highest,
                            facts, deal[9], deal[10], deal[11], deal[12], deal[13], deal[14],
                            deal[15], deal[16], deal[17], deal[18], deal[19], deal[20], deal[21],
                            deal[22], deal[23], deal[24], deal[25], deal[26], deal[27], deal[28],
                            deal[29], deal[30], deal[31], deal[32], deal[33], deal[34], deal[35]))


if len(DealState._fields) != 36 or DealState._fields[3:9] != (
        "hands", "tricks", "current", "turn", "highest", "facts"):
    raise ImportError("_after_plays lists the deal's 36 fields by their place, hands to facts "
                      "at 3 to 8")
assert Fact._fields == ("kind", "ruling", "version", "trick", "seat", "side", "points",
                        "credited_trick"), "a trick's fact is built from its fields in order"


@_applies(SeedRevealed)
def _revealed(event: SeedRevealed, state: GameState) -> GameState:
    # An abandoned game's deal in progress is revealed as it was left (GameState.seed_due).
    deal = state.deal if state.seed_due else _deal_of(state, "over")
    assert deal is not None
    if deal.seed != event.seed or deal.number != event.deal:
        raise EventSequenceError(
            f"seed_revealed for deal {event.deal} does not match the seed shuffled for "
            f"deal {deal.number}"
        )
    return _with_deal(state, replaced(deal, seed_revealed=True))


@_applies(BoardSkipped)
def _skipped(event: BoardSkipped, state: GameState) -> GameState:
    deal = state.deal
    if deal is None or deal.board != event.board or deal.number != event.deal:
        raise EventSequenceError(f"board_skipped for board {event.board!r} (deal "
                                 f"{event.deal}): the table is not playing it")
    if not deal.played_out:
        raise EventSequenceError(f"board_skipped for board {event.board!r}, which the table "
                                 "does not play out (only a played-out board is skipped)")
    if state.abandoned or deal.phase == "over":
        raise EventSequenceError(f"board_skipped for board {event.board!r}, which the table "
                                 "has finished")
    # It ends where it stood, without a result; the dealer moves on as after any deal (the
    # next board has the same dealer at every table), and after the last board the game is
    # decided over the boards the table played.
    version = state.version + 1
    changes: dict[str, Any] = {}
    facts: tuple[Fact, ...] = ()
    side = boards_winner(deal, state.scores)
    if side is not None:
        won = game_won(state, side, state.scores, version)
        changes = dict(zip(("games_won", "game_winners", "winner", "scores", "game_number"),
                           won[:5], strict=True))
        facts = won[5]
    ended = replaced(deal, phase="over", turn=None, skipped=True, facts=deal.facts + facts)
    return replaced(state, version=version, deal=ended,
                    dealer=(deal.dealer + 1) % state.rules.players, **changes)


@_applies(SeatNamed)
def _named(event: SeatNamed, state: GameState) -> GameState:
    # A seat's name changes nothing of the play: the views, histories and pictures show it.
    if not 0 <= event.seat < state.rules.players:
        raise EventSequenceError(f"seat_named for seat {event.seat}, not at this table of "
                                 f"{state.rules.players}")
    names = list(state.names) or [None] * state.rules.players
    names[event.seat] = event.name
    return replaced(state, version=state.version + 1, names=tuple(names))


@_applies(GameAbandoned)
def _abandoned(event: GameAbandoned, state: GameState) -> GameState:
    del event  # Its data explains the decision; the fold only ends the game.
    if state.phase == "over":
        raise EventSequenceError("game_abandoned for a game that is already over")
    return replaced(state, version=state.version + 1, abandoned=True)

