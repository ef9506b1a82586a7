"""Irregularities: actions of a game dealt at a real table that broke a rule, and why.

A record of a real table may hold actions the rules refuse (a card out of turn, a renege, a card
played after the game was won). Replaying it applies each as it happened at the table, and
reports it with the rule it broke. Whether an action breaks a rule is decided by the engine
alone (:func:`engine.actions.refusals`, the checks :func:`engine.actions.decide` makes); this
module only words the report. Like a ruling, the sentence is made from the facts of the case in
the ruling texts of a version (:mod:`engine.ruling_texts`), so an older history verifies with
its own sentences.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from typing import Any

from engine.action_values import action_of
from engine.actions import refusals
from engine.errors import FortyFiveError
from engine.rejections import ActionRejectedError, GameOverError, IllegalPlayError, NotYourTurnError
from engine.ruling_texts import TEXTS_VERSION
from engine.rulings import Ruling
from engine.sides import seat_name, side_name
from engine.state import GameState
from events.types import CardPlayed, Event

IRREGULARITY_RULES: dict[str, str] = {
    "play.turn": "Cards are played clockwise from the leader; the winner of a trick leads next.",
    "play.card_held": "A card played must be in the player's hand.",
    "action.phase": "An action belongs to one phase of the deal; none is taken once the game "
                    "is won.",
    "action.not_allowed": "The rules forbid this action now.",
    "sequence": "The event cannot follow the game so far; nothing after it can be replayed.",
}
"""Rule ids an irregularity may cite besides the engine's own (:data:`engine.rule_ids.RULE_IDS`),
for breaches no engine ruling names."""

ENGINE_FAILURES = (FortyFiveError, ValueError, TypeError, KeyError, IndexError,
                   AttributeError, AssertionError)
"""What the engine may raise on a log that is not a game (tampered or mistyped data). A
replay reports these as the event that could not be applied; it never lets one escape."""

Args = Mapping[str, Any]


def _illegal_card(a: Args, version: int) -> str:
    why: Ruling | None = a["ruling"]
    if why is not None:
        said = f"illegal play: {a['card']!r}; {why.text_in(version)}"
    else:
        said = f"illegal play: {a['card']!r} is not in the hand ({a['hand']})"
    return f"{said} (seat {a['seat']}, trick {a['trick']}, trump {a['trump']})"


_V1: dict[str, Callable[[Args, int], str]] = {
    "out_of_turn": lambda a, v: (
        f"seat {a['seat']} played {a['card']} out of turn: seat {a['turn']} was to play to "
        f"trick {a['trick']}"),
    "no_trick": lambda a, v: f"seat {a['seat']} played {a['card']} when no trick was open",
    "game_over": lambda a, v: f"seat {a['seat']} played {a['card']} when no trick was open",
    "illegal_card": _illegal_card,
    "abandoned": lambda a, v: (
        f"seat {a['seat']} played {a['card']} after the game was abandoned: the card was "
        "refused"),
    "refused": lambda a, v: f"{a['type']} by seat {a['seat']}: {a['message']}",
    "refused_game_over": lambda a, v: (
        f"{a['type']} by seat {a['seat']}: the game is over: side {a['winner']} won; no more "
        "actions"),
    "sequence": lambda a, v: (
        f"event {a['version']} ({a['type']}) cannot be applied: {a['message']}"),
}
_V2: dict[str, Callable[[Args, int], str]] = {
    **_V1,
    "game_over": lambda a, v: (
        f"seat {a['seat']} played {a['card']} after the game was won (side "
        f"{side_name(a['winner'])} won it at trick {a['trick']} of deal {a['deal']}): the card "
        "was refused, it is in no trick and counts for nothing"),
    "refused_game_over": lambda a, v: (
        f"{a['type']} by seat {a['seat']}: the game is over: side {side_name(a['winner'])} "
        "won; no more actions"),
}


def _seat(seat: int) -> str:
    return f"seat {seat_name(seat)}"


def _v3_illegal_card(a: Args, version: int) -> str:
    why: Ruling | None = a["ruling"]
    if why is not None:
        said = f"illegal play: {a['card']!r}; {why.text_in(version)}"
    else:
        said = f"illegal play: {a['card']!r} is not in the hand ({a['hand']})"
    return f"{said} ({_seat(a['seat'])}, trick {a['trick']}, trump {a['trump']})"


def _v3_refused(a: Args, version: int) -> str:
    """Words a refused action from its facts, so that every seat it names is counted from 1
    (the engine's own message numbers seats as the API does, from 0)."""
    head = f"{a['type']} by {_seat(a['seat'])}"
    reason = a.get("reason")
    if reason == "not_at_table":
        return f"{head}: there is no such seat at this table of {a['players']}"
    if reason == "out_of_turn":
        return f"{head}: not their turn: {_seat(a['turn'])} was to act"
    if reason == "robbed":
        return f"{head}: the turn-up was already robbed by {_seat(a['robbed_by'])}"
    if reason == "contributed":
        return (f"{head}: this seat already contributed to deal {a['deal']}: one nonce per "
                "seat per deal")
    if reason == "nonce_repeated":
        return (f"{head}: this nonce was already contributed to deal {a['deal']} by another "
                "seat")
    return f"{head}: {a['message']}"


_V3: dict[str, Callable[[Args, int], str]] = {
    "out_of_turn": lambda a, v: (
        f"{_seat(a['seat'])} played {a['card']} out of turn: {_seat(a['turn'])} was to play "
        f"to trick {a['trick']}"),
    "no_trick": lambda a, v: f"{_seat(a['seat'])} played {a['card']} when no trick was open",
    "game_over": lambda a, v: (
        f"{_seat(a['seat'])} played {a['card']} after the game was won (side "
        f"{side_name(a['winner'])} won it at trick {a['trick']} of deal {a['deal']}): the card "
        "was refused, it is in no trick and counts for nothing"),
    "illegal_card": _v3_illegal_card,
    "abandoned": lambda a, v: (
        f"{_seat(a['seat'])} played {a['card']} after the game was abandoned: the card was "
        "refused"),
    "refused": _v3_refused,
    "refused_game_over": lambda a, v: (
        f"{a['type']} by {_seat(a['seat'])}: the game is over: side "
        f"{side_name(a['winner'])} won; no more actions"),
    "sequence": lambda a, v: (
        f"event {a['version']} ({a['type']}) cannot be applied; the engine, which counts "
        f"seats from 0, says: {a['message']}"),
}
_SENTENCES = {1: _V1, 2: _V2, 3: _V3}


@dataclasses.dataclass(frozen=True, slots=True)
class Irregularity:
    """An action that broke a rule and was applied anyway, as happens at a real table."""

    version: int
    seat: int | None
    card: str | None
    rule: str
    """The rule it broke: an engine rule id, or one of :data:`IRREGULARITY_RULES`."""
    kind: str
    """How the breach is worded: ``out_of_turn``, ``no_trick``, ``game_over``, ``abandoned``,
    ``illegal_card``, ``refused``, ``refused_game_over`` or ``sequence``."""
    args: tuple[tuple[str, Any], ...]
    """The facts the sentence is made from."""

    @property
    def refused(self) -> bool:
        """True when the action was not applied: the engine could not go on with it, or the
        game was already won."""
        return self.kind in ("game_over", "refused_game_over", "abandoned", "sequence")

    def text_in(self, texts: int | None = None) -> str:
        """Returns the sentence in the ruling texts of version *texts* (the current ones by
        default).

        :raises KeyError: for a version this code does not know.
        """
        return _SENTENCES[texts or TEXTS_VERSION][self.kind](dict(self.args), texts or
                                                             TEXTS_VERSION)

    @property
    def text(self) -> str:
        """The sentence in the current ruling texts."""
        return self.text_in()

    def to_dict(self, texts: int | None = None) -> dict[str, Any]:
        """Returns the JSON form, its sentence in the ruling texts of version *texts*."""
        return {"version": self.version, "seat": self.seat, "card": self.card,
                "rule": self.rule, "text": self.text_in(texts)}


def irregularity(version: int, seat: int | None, card: str | None, rule: str, kind: str, /,
                 **args: Any) -> Irregularity:
    """Returns the irregularity of *kind* for the case described by *args*."""
    return Irregularity(version, seat, card, rule, kind, tuple(sorted(args.items())))


def unappliable(version: int, event: Event, message: str) -> Irregularity:
    """Returns the irregularity of an event the engine cannot apply (a corrupt record)."""
    return irregularity(version, getattr(event, "seat", None), getattr(event, "card", None),
                        "sequence", "sequence", version=version, type=event.TYPE,
                        message=message)


def check_event(state: GameState, version: int, event: Event) -> list[Irregularity]:
    """Returns how a player's *event* breaks the rules in *state* (empty when it does not).

    The engine's :func:`~engine.actions.refusals` decides; a card play reports both being out
    of turn and an illegal card where both hold, any other action its first breach. Server
    events are not checked.
    """
    action = action_of(event)
    if action is None:
        return []
    seat: int = getattr(event, "seat", -1)
    try:
        found = refusals(state, seat, action)
    except ENGINE_FAILURES:
        return []  # Not an action the rules can judge; applying it will say what is wrong.
    if isinstance(event, CardPlayed):
        return [_play_breach(state, version, event, error) for error in found]
    return [_action_breach(state, version, event, seat, error) for error in found[:1]]


def _play_breach(state: GameState, version: int, event: CardPlayed,
                 error: ActionRejectedError) -> Irregularity:
    seat, card = event.seat, event.card
    deal = state.deal
    if isinstance(error, GameOverError) and state.winner is None:
        return irregularity(version, seat, card, "action.phase", "abandoned", seat=seat,
                            card=card)
    if isinstance(error, GameOverError) and deal is not None and deal.result is not None:
        return irregularity(version, seat, card, "action.phase", "game_over", seat=seat,
                            card=card, winner=state.winner, deal=deal.number,
                            trick=deal.result.ended_at_trick)
    if deal is None or deal.phase != "play" or deal.trump is None:
        return irregularity(version, seat, card, "action.phase", "no_trick", seat=seat,
                            card=card)
    trick = len(deal.tricks) + 1
    if isinstance(error, NotYourTurnError):
        return irregularity(version, seat, card, "play.turn", "out_of_turn", seat=seat,
                            card=card, turn=deal.turn, trick=trick)
    assert isinstance(error, IllegalPlayError), f"unexpected refusal {error!r}"
    hand = ",".join(held.code() for held in deal.hands[seat])
    rule = error.ruling.rule_id if error.ruling is not None else "play.card_held"
    return irregularity(version, seat, card, rule, "illegal_card", seat=seat, card=card,
                        ruling=error.ruling, hand=hand, trick=trick, trump=deal.trump.name)


def _action_breach(state: GameState, version: int, event: Event, seat: int,
                   error: ActionRejectedError) -> Irregularity:
    if isinstance(error, GameOverError) and state.winner is None:
        return irregularity(version, seat, None, "action.phase", "refused", type=event.TYPE,
                            seat=seat, message=str(error))
    if isinstance(error, GameOverError):
        return irregularity(version, seat, None, "action.phase", "refused_game_over",
                            type=event.TYPE, seat=seat, winner=state.winner)
    rule = error.ruling.rule_id if error.ruling is not None else (
        "play.turn" if error.code == "not_your_turn"
        else "action.phase" if error.code == "wrong_phase"
        else "action.not_allowed")
    return irregularity(version, seat, None, rule, "refused", type=event.TYPE, seat=seat,
                        message=str(error), **_refusal_facts(state, seat, error))


def _refusal_facts(state: GameState, seat: int, error: ActionRejectedError) -> dict[str, Any]:
    """Returns the facts of a refusal whose engine message names a seat, so that the ruling
    texts from version 3 can name it as people count (the message alone serves versions 1
    and 2)."""
    deal = state.deal
    players = state.rules.players
    if not 0 <= seat < players:
        return {"reason": "not_at_table", "players": players}
    if deal is None:
        return {}
    if isinstance(error, NotYourTurnError) and deal.turn is not None:
        return {"reason": "out_of_turn", "turn": deal.turn}
    if error.code == "contribution_repeated":
        return {"reason": "contributed", "deal": deal.number}
    if error.code == "nonce_repeated":
        return {"reason": "nonce_repeated", "deal": deal.number}
    # The engine's one refusal of a rob that names the seat that robbed (engine.actions).
    if deal.robbed_by is not None and str(error).startswith("the turn-up was already robbed"):
        return {"reason": "robbed", "robbed_by": deal.robbed_by}
    return {}
