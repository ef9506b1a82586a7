"""Deal vectors: a deal's hands and actions, and what the fold derives from them: each trick's
winner, the facts with their rulings (a trump withheld, the bonus's proof and the trick it is
credited to, a finish, a jink, a bid made or set, spoil five, a game won), the deal's points
and the scores."""

from __future__ import annotations

from typing import Any

from engine.auction import HIGH_SCORE_FLOOR
from engine.cards import ACE_OF_HEARTS, JOKER, Card, Rank, Suit
from engine.rulings import ruling
from engine.state import Fact
from replay.verification.rules_vectors.games import PlayedDeal
from replay.views import shown_scores

FINISHES = ("finish.chronology", "finish.deal_end", "finish.counted_first",
            "finish.bidder_priority", "jink.take_all", "jink.announced.failed")
"""The rule ids of a fact that decides a game."""


def deal_id(played: PlayedDeal) -> str:
    """Returns the id of *played*'s case: table, series and match, and deal number."""
    return f"{played.table.name}/{played.series}{played.match}/d{played.deal.number}"


RARE_RULES = frozenset({
    "bonus.none", "bonus.proven.higher_out", "auction.all_pass", "finish.bidder_priority",
    "finish.counted_first", "jink.take_all", "jink.announced.made", "jink.announced.failed",
    "spoil_five", "trick.identical_first",
})
"""Rule ids that chance gives a deal seldom."""


def rare_features(played: PlayedDeal) -> set[str]:
    """Returns what is rare about *played*: its rare rule ids, a trick cut short by a finish,
    a finish "by trick k at the latest" (it hangs on an unproven bonus), a bonus credited to a
    trick that does not count, a turned joker, a side bidding on 100 or more."""
    deal = played.deal
    found = {fact.ruling.rule_id for fact in deal.facts} & RARE_RULES
    if deal.current is not None and deal.current.cards:
        found.add("interrupted")
    for fact in deal.facts:
        args = dict(fact.ruling.args)
        if "earliest" in args:
            found.add("finish_at_the_latest")
        if "uncounted" in args:
            found.add("bonus_not_counted")
    if played.turn_up is JOKER:
        found.add("joker_turned")
    rules = played.after.rules
    if any(deal.start_scores[rules.side_of(call.seat)] >= HIGH_SCORE_FLOOR
           for call in played.calls):
        found.add("bidding_on_100")
    return found


def deal_case(played: PlayedDeal) -> dict[str, Any]:
    """Returns the case of one played deal."""
    deal, before, after = played.deal, played.before, played.after
    facts = [fact for fact in deal.facts if fact.kind != "trick_won"]
    won = {fact.trick: fact for fact in deal.facts if fact.kind == "trick_won"}
    result = deal.result
    assert result is not None, "a played deal has a result"
    highest = deal.highest
    return {
        "id": deal_id(played),
        "table": played.table.name,
        "game": played.game,
        "dealer": deal.dealer,
        "start_scores": list(deal.start_scores),
        "games_won": list(before.games_won),
        "hands": [[card.code() for card in hand] for hand in played.hands],
        "turn_up": played.turn_up.code() if played.turn_up is not None else None,
        "stock": [card.code() for card in played.stock],
        "actions": [_action(played, seat, action) for seat, action in played.actions],
        "trump": deal.trump.name if deal.trump is not None else None,
        "tricks": [
            {"leader": trick.leader, "seats": list(trick.seats),
             "cards": [card.code() for card in trick.cards], "winner": trick.winner,
             **_ruled(won[number].ruling)}
            for number, trick in enumerate(deal.tricks, start=1)
        ],
        "interrupted": None if deal.current is None else {
            "leader": deal.current.leader, "seats": list(deal.current.seats),
            "cards": [card.code() for card in deal.current.cards]},
        "highest_trump": None if highest is None else {
            "card": highest.card.code(), "seat": highest.seat, "trick": highest.trick},
        "bonus": _bonus(played, facts),
        "finish": next((_fact(played, fact) for fact in facts
                        if fact.ruling.rule_id in FINISHES), None),
        "facts": [_fact(played, fact) for fact in facts],
        "result": {
            "points": list(result.points),
            "scores": list(result.scores),
            "scores_shown": shown_scores(result.scores, after),
            "tricks_won": list(result.tricks_won),
            "ended_at_trick": result.ended_at_trick,
            "game_won": result.winner,
            "match_won": after.winner,
            "scores_after": list(after.scores),
        },
    }


def _action(played: PlayedDeal, seat: int, action: dict[str, Any]) -> dict[str, Any]:
    """Returns *action* as a case lists it: its seat, its JSON object, and for a rob the rule
    that gave the right (the engine allowed the rob; this names which of its two cases)."""
    body = {"seat": seat, **action}
    if action["type"] == "rob":
        deal = played.deal
        trump = deal.trump
        assert trump is not None and played.turn_up is not None, "a rob takes a turn-up"
        ace = ACE_OF_HEARTS if trump is Suit.H else Card(Rank.ACE, trump)
        dealer_right = seat == deal.dealer and played.turn_up == ace
        body.update(_ruled(ruling("rob.dealer_ace_turned" if dealer_right
                                  else "rob.ace_holder")))
    return body


def _ruled(why: Any) -> dict[str, str]:
    return {"rule": why.rule_id, "text": why.text}


def _fact(played: PlayedDeal, fact: Fact) -> dict[str, Any]:
    """Returns *fact* as a case lists it: ``after`` the number of the deal's actions applied
    when it was established, the fields it has, its rule id and sentence."""
    body: dict[str, Any] = {"kind": fact.kind, "after": fact.version - played.opened_at}
    for name in ("trick", "seat", "side", "points", "credited_trick"):
        value = getattr(fact, name)
        if value is not None:
            body[name] = value
    return {**body, **_ruled(fact.ruling)}


def _bonus(played: PlayedDeal, facts: list[Fact]) -> dict[str, Any]:
    """Returns what became of the highest-trump bonus: proven (when, and the trick it is
    credited to), none in play, played without, or never proven before the deal ended."""
    for fact in facts:
        if fact.kind in ("bonus_proven", "bonus_none"):
            return {"proven": fact.kind == "bonus_proven", **_fact(played, fact)}
    if not played.after.rules.bonus:
        return {"proven": False, "kind": None, **_ruled(ruling("bonus.disabled"))}
    return {"proven": False, "kind": None, "rule": None, "text": None}
