"""docs/rules.md §Play through ``legal_actions`` and ``decide``: who leads, following and trumping,
the renege privilege, and the typed error (with its reason) for every refused action."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from deals import ENTROPY, Table, plays, recorded_game, shuffled_game

from engine.actions import decide, legal_actions
from engine.errors import InvalidActionError
from engine.rejections import (
    ActionRejectedError,
    GameOverError,
    IllegalPlayError,
    NotYourTurnError,
    WrongPhaseError,
)
from engine.shuffle import pack
from engine.state import GameState

# Spades trumps (9S turned), dealer seat 5, seat 0 leads; sides are seat mod 3.
HANDS = [
    "7C,KC,2D,QH,8S",
    "4C,TS,2H,AH,3D",
    "JC,3C,5H,6H,TD",
    "2S,KS,4D,7H,8H",
    "6C,8C,9C,TC,JD",
    "5D,6D,7D,8D,9D",
]


def _bruff(hands: list[str], turn_up: str = "9S") -> Table:
    return recorded_game("bruff", {}, hands, turn_up, dealer=5)


def _hands(**replaced: str) -> list[str]:
    """Returns HANDS with some replaced, by keyword ``s<seat>``."""
    hands = list(HANDS)
    for seat, hand in replaced.items():
        hands[int(seat[1:])] = hand
    return hands


# Who leads and who wins.


def test_the_player_left_of_the_dealer_leads_and_the_trick_winner_leads_next() -> None:
    table = _bruff(_hands())

    assert table.state.turn == 0
    assert [table.legal(seat) for seat in range(1, 6)] == [[]] * 5
    trick = table.trick("KC,4C,3C,2S,6C,5D")  # seat 3 trumps the club lead with 2S
    assert trick.winner == 3
    assert table.state.turn == 3
    [won] = table.facts("trick_won")
    assert won.ruling.rule_id == "trick.highest_trump"


def test_without_a_trump_the_highest_card_of_the_led_suit_wins() -> None:
    table = _bruff(_hands())
    trick = table.trick("7C,4C,JC,4D,9C,5D")

    assert trick.winner == 2, "JC outranks 4C, 7C and 9C in plain clubs (K Q J A 2 .. 9 T)"
    [won] = table.facts("trick_won")
    assert won.ruling.rule_id == "trick.highest_of_led_suit"


# Following and trumping.


def test_a_plain_lead_may_be_trumped_or_followed_but_nothing_else() -> None:
    table = _bruff(_hands())
    table.play(0, "7C")

    # Seat 1 holds 4C, TS (trump), 2H, AH (trump), 3D: clubs or a trump.
    assert table.legal(1) == plays("TS", "4C", "AH")
    with pytest.raises(IllegalPlayError) as refused:
        table.play(1, "2H")
    assert refused.value.ruling is not None
    assert refused.value.ruling.rule_id == "play.plain_lead.trump_or_follow"
    assert "A 7C lead may be trumped; otherwise a plain club must be played when held" in str(
        refused.value
    )


def test_a_listing_of_legal_actions_is_the_callers_own_to_change() -> None:
    # The objects of plays and cuts are copied from ones made once: changing what one call
    # returned must not change what the next returns.
    table = _bruff(_hands())
    table.play(0, "7C")
    listed = legal_actions(table.state, 1)
    listed[0]["card"] = "2H"
    listed[1].clear()
    assert table.legal(1) == plays("TS", "4C", "AH")

    cutting = shuffled_game("bruff", {}, 6, dealer=5)
    cuts = legal_actions(cutting.state, 4)
    cuts[0]["position"] = 99
    assert cutting.legal(4)[:2] == [{"type": "cut", "position": 1}, {"type": "cut", "position": 2}]


def test_there_is_no_duty_to_overtake() -> None:
    table = _bruff(_hands(s3="2S,KS,4D,7H,8H"))
    table.trick("KC,4C,3C,2S,6C,5D")  # seat 3 wins and leads
    table.play(3, "KS")

    assert table.legal(4) == plays("8C", "9C", "TC", "JD"), "void in trumps"
    table.play(4, "8C")
    table.play(5, "6D")
    assert table.legal(0) == plays("8S"), "8S is its only trump and is not protected"
    table.play(0, "8S")
    assert table.legal(1) == plays("TS", "AH"), "TS may be played under KS"


def test_a_player_void_in_the_led_suit_may_play_anything() -> None:
    table = _bruff(_hands())
    for seat, card in enumerate(["QH", "2H", "5H", "7H"]):
        table.play(seat, card)

    assert table.legal(4) == plays("6C", "8C", "9C", "TC", "JD")
    table.play(4, "6C")
    assert table.legal(5) == plays("5D", "6D", "7D", "8D", "9D")


def test_ah_is_a_trump_and_never_follows_hearts() -> None:
    table = _bruff(_hands(s1="4C,TS,AH,3D,5C"))
    table.play(0, "QH")

    assert table.legal(1) == plays("TS", "4C", "5C", "3D", "AH"), "no heart held: anything"


def test_must_follow_forbids_trumping_while_holding_the_led_suit() -> None:
    hands = ["7C,KC,2D,QH,8S", "4C,TS,2H,AH,3D", "JC,3C,5H,6H,TD", "2S,KS,4D,7H,8H"]
    table = recorded_game("classic", {"follow": "must_follow"}, hands, "9S", dealer=3)
    table.play(0, "7C")

    assert table.legal(1) == plays("4C")
    with pytest.raises(IllegalPlayError) as refused:
        table.play(1, "TS")
    assert refused.value.ruling is not None
    assert refused.value.ruling.rule_id == "play.plain_lead.must_follow"
    table.play(1, "4C")
    table.play(2, "3C")
    assert table.legal(3) == plays("2S", "KS", "4D", "7H", "8H"), "void in clubs: anything"


def test_a_trump_lead_must_be_answered_with_a_trump_when_one_is_held() -> None:
    table = _bruff(_hands())
    table.play(0, "8S")

    assert table.legal(1) == plays("TS", "AH")
    with pytest.raises(IllegalPlayError) as refused:
        table.play(1, "4C")
    assert refused.value.ruling is not None
    assert refused.value.ruling.rule_id == "play.trump_lead.must_trump"
    assert "TS,AH are the only legal plays: TS is not a protected trump" in str(refused.value)
    table.play(1, "AH")
    assert table.legal(2) == plays("3C", "JC", "TD", "5H", "6H"), "no trump held: anything"
    table.play(2, "3C")
    assert table.legal(3) == plays("2S", "KS")


def test_the_renege_privilege_compares_with_the_card_led_only() -> None:
    # 7S led, 5S added later: AH may still be kept (000 §09). JS led: AH must be played.
    table = _bruff(_hands(s0="7S,KC,2D,QH,8S", s1="5S,TS,2H,4C,3D", s2="AH,JC,3C,5H,TD"))
    table.play(0, "7S")
    table.play(1, "5S")
    assert table.legal(2) == plays("3C", "JC", "TD", "5H", "AH")

    table = _bruff(_hands(s0="JS,KC,2D,QH,8S", s1="4C,TS,2H,6H,3D", s2="AH,JC,3C,5H,TD"))
    table.play(0, "JS")
    assert table.legal(1) == plays("TS")
    table.play(1, "TS")
    assert table.legal(2) == plays("AH")
    with pytest.raises(IllegalPlayError) as refused:
        table.play(2, "JC")
    assert str(refused.value) == (
        "illegal play: 'JC'; AH must be played: a JS lead forces AH (a protected trump may "
        "only be withheld from a lower lead). (seat 2, trick 1, trump S)"
    )


def test_the_bruff_joker_is_protected_but_forced_by_the_five_and_the_jack() -> None:
    table = _bruff(_hands(s0="JS,KC,2D,QH,8S", s1="4C,JK,2H,7S,3D"))
    table.play(0, "JS")
    assert table.legal(1) == plays("7S", "JK"), "7S is not protected"

    table = _bruff(_hands(s0="QS,KC,2D,QH,8S", s1="4C,JK,2H,5C,3D"))
    table.play(0, "QS")
    assert table.legal(1) == plays("4C", "5C", "3D", "2H", "JK"), "the joker may be withheld"

    for lead in ("JS", "5S"):
        table = _bruff(_hands(s0=f"{lead},KC,2D,QH,8S", s1="4C,JK,2H,5C,3D"))
        table.play(0, lead)
        assert table.legal(1) == plays("JK"), f"a {lead} lead forces the joker"


# Typed errors, each with its reason.


def test_an_action_out_of_turn_is_refused_as_not_your_turn() -> None:
    table = _bruff(_hands())

    with pytest.raises(NotYourTurnError) as refused:
        table.play(3, "2S")
    assert str(refused.value) == "not your turn: seat 0 is to act, not seat 3"
    assert refused.value.legal == ()
    with pytest.raises(NotYourTurnError, match="seat 6 is not at this table of 6"):
        table.play(6, "2S")
    with pytest.raises(NotYourTurnError, match="seat -1 is not at this table of 6"):
        table.play(-1, "2S")


def test_an_action_of_another_phase_is_refused_as_wrong_phase() -> None:
    table = _bruff(_hands())

    with pytest.raises(WrongPhaseError) as refused:
        table.act(0, {"type": "bid", "amount": 20})
    assert str(refused.value) == "cannot bid now: the deal is in phase 'play', not 'bidding'"
    assert refused.value.legal == tuple(plays("8S", "7C", "KC", "2D", "QH"))
    with pytest.raises(WrongPhaseError, match="cannot bury now"):
        table.act(5, {"type": "bury", "card": "5D"})

    joker = _bruff(_hands(), turn_up="JK")
    with pytest.raises(WrongPhaseError, match="the deal is in phase 'joker', not 'play'"):
        joker.play(0, "7C")


def test_an_action_while_the_server_is_to_shuffle_is_refused_as_wrong_phase() -> None:
    table = _bruff(_hands())
    table.play_out()

    assert table.state.phase == "shuffle"
    assert legal_actions(table.state, table.state.dealer) == ()
    with pytest.raises(WrongPhaseError, match="the deal is in phase 'shuffle', not 'play'"):
        table.play(0, "7C")


def test_a_card_not_held_is_refused_as_illegal() -> None:
    table = _bruff(_hands())

    with pytest.raises(IllegalPlayError) as refused:
        table.play(0, "5S")
    assert str(refused.value) == (
        "illegal play: '5S' is not in the hand (7C,KC,2D,QH,8S) (seat 0, trick 1, trump S)"
    )


def test_any_action_after_the_game_is_won_is_refused_as_game_over() -> None:
    hands = ["5S,JS,AH,AS,KS", "2H,3H,4H,6H,7H", "2C,3C,4C,6C,7C", "2D,3D,4D,6D,7D"]
    table = recorded_game("classic", {}, hands, "9S", dealer=3, scores=(40, 0))
    table.trick("5S,2H,2C,2D")

    assert table.state.phase == "over"
    assert table.state.winner == 0
    for seat in range(4):
        assert legal_actions(table.state, seat) == ()
        with pytest.raises(GameOverError, match="the game is over: side A won; no more actions"):
            table.play(seat, "JS")


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ("play 5S", "an action is a JSON object"),
        ({"card": "5S"}, "unknown action type None"),
        ({"type": "fly"}, "unknown action type 'fly'"),
        ({"type": "play"}, "action 'play': missing card"),
        ({"type": "play", "card": "7C", "seat": 0}, "action 'play': unexpected seat"),
        ({"type": "play", "card": "1S"}, "action 'play': invalid card '1S'"),
        ({"type": "play", "card": 7}, "action 'play': invalid card 7"),
        ({"type": "bid", "amount": "20"}, 'amount must be a whole number, got "20"'),
        ({"type": "bid", "amount": True}, "amount must be a whole number, got true"),
        ({"type": "discard", "cards": "7C"}, "cards must be a list of card codes"),
        ({"type": "name_trump", "suit": "X"}, "invalid suit 'X'"),
        # Values JSON can carry that are not hashable, where a code or a type name belongs.
        ({"type": ["play"], "card": "7C"}, r"unknown action type \['play'\]"),
        ({"type": {"play": 1}}, r"unknown action type \{'play': 1\}"),
        ({"type": "play", "card": ["7C"]}, r"""action 'play': invalid card \["7C"\]"""),
        ({"type": "play", "card": {"code": "7C"}}, "action 'play': invalid card"),
        ({"type": "pass", 3: "x"}, "action 'pass': unexpected 3"),
    ],
)
def test_a_malformed_action_is_refused_as_invalid(body: Any, message: str) -> None:
    table = _bruff(_hands())

    with pytest.raises(InvalidActionError, match=message):
        table.act(0, body)
    assert table.state.turn == 0, "nothing was applied"


# legal_actions lists exactly what decide accepts.


def _candidates(state: GameState) -> Iterator[dict[str, Any]]:
    """Yields every action worth trying now: each card held by anyone, in each role, and the
    other action types with legal and illegal values."""
    deal = state.deal
    assert deal is not None
    codes = sorted({card.code() for card in pack(state.rules)})
    for code in codes:
        yield {"type": "play", "card": code}
        yield {"type": "rob", "discard": code}
        yield {"type": "bury", "card": code}
    for amount in (0, 5, 7, 10, 15, 20, 25, 30, 35):
        yield {"type": "bid", "amount": amount}
    yield {"type": "pass"}
    yield {"type": "hold"}
    yield {"type": "jink"}
    for suit in "SCDH":
        yield {"type": "name_trump", "suit": suit}
    for position in (0, 1, 26, len(pack(state.rules)) - 1, len(pack(state.rules))):
        yield {"type": "cut", "position": position}
    for hand in deal.hands:
        held = [card.code() for card in hand]
        yield {"type": "discard", "cards": []}
        yield {"type": "discard", "cards": held[:2]}
        yield {"type": "discard", "cards": held[:1] * 2}
        yield {"type": "discard", "cards": held}
        yield {"type": "discard", "cards": ["5S", "5C"]}


def _key(action: dict[str, Any]) -> str:
    """Returns a key that names an action whatever the order of its discards."""
    if action["type"] == "discard" and isinstance(action["cards"], list):
        action = {**action, "cards": sorted(action["cards"])}
    return json.dumps(action, sort_keys=True)


def _check_exactly_legal(state: GameState) -> None:
    for seat in range(state.rules.players):
        legal = legal_actions(state, seat)
        keys = {_key(action) for action in legal}
        assert len(keys) == len(legal), "each legal action is listed once"
        for action in legal:
            decide(state, seat, action, entropy=ENTROPY)
        for action in _candidates(state):
            if _key(action) in keys:
                decide(state, seat, action, entropy=ENTROPY)
                continue
            with pytest.raises(ActionRejectedError) as refused:
                decide(state, seat, action, entropy=ENTROPY)
            shown = refused.value.legal
            assert shown == legal or (action["type"] == "cut" and shown == legal[:3]), (
                f"{action} by seat {seat}"
            )


def _play_checking(table: Table, steps: int) -> set[str]:
    """Plays *steps* actions, checking every seat's legal actions before each; returns the
    phases seen."""
    seen = set()
    for step in range(steps):
        if table.state.phase == "shuffle":
            table.shuffle()
        if table.state.turn is None:
            break
        seen.add(table.state.phase)
        _check_exactly_legal(table.state)
        seat = table.state.turn
        legal = table.legal(seat)
        table.act(seat, legal[step * 7 % len(legal)])
    return seen


@pytest.mark.parametrize(
    ("profile", "options", "players", "phases"),
    [
        ("bruff", {}, 6, {"cut", "play"}),
        ("auction", {}, 4, {"cut", "bidding", "trump", "discard", "play"}),
        ("classic", {"jink": "announced"}, 2, {"cut", "play"}),
        ("classic", {"follow": "must_follow", "joker": "below_ah"}, 5, {"cut", "play"}),
    ],
)
def test_decide_accepts_exactly_the_actions_legal_actions_lists(
    profile: str, options: dict[str, Any], players: int, phases: set[str]
) -> None:
    table = shuffled_game(profile, options, players)
    assert _play_checking(table, 60) >= phases


def test_decide_accepts_exactly_the_actions_listed_for_robbing_burying_and_jinks() -> None:
    table = _bruff(_hands(s2="AS,3C,5H,6H,TD"))
    table.play(0, "7C")
    table.play(1, "4C")
    assert {"type": "rob", "discard": "AS"} in table.legal(2)
    _check_exactly_legal(table.state)

    _check_exactly_legal(_bruff(_hands(), turn_up="JK").state)

    hands = ["7C,KC,2D,QH,8S", "4C,TS,2H,AH,3D"]
    table = recorded_game("classic", {"jink": "announced"}, hands, "9S", dealer=1)
    assert table.legal(1) == [{"type": "jink"}]
    _check_exactly_legal(table.state)
    table.act(1, {"type": "jink"})
    assert table.legal(0) == plays("8S", "7C", "KC", "2D", "QH")
    _check_exactly_legal(table.state)
