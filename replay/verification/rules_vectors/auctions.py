"""Auction vectors: the calls of a deal's auction, what each seat could have called, how the
auction ended, and the settlement of the bid once the deal was played."""

from __future__ import annotations

from typing import Any

from engine.scoring import deal_points
from replay.verification.rules_vectors.deals import FINISHES, deal_id
from replay.verification.rules_vectors.games import PlayedDeal

SETTLEMENTS = ("bid.made", "bid.made_thirty", "bid.set", "auction.all_pass")
"""The rule ids that settle an auction."""


def auction_case(played: PlayedDeal) -> dict[str, Any]:
    """Returns the case of the auction of *played* (a deal of the ``auction`` profile)."""
    deal, after = played.deal, played.after
    rules = after.rules
    result = deal.result
    assert result is not None and played.calls, "an auction deal has calls and a result"
    settled = next(fact for fact in deal.facts if fact.ruling.rule_id in SETTLEMENTS)
    finish = next((fact for fact in deal.facts if fact.ruling.rule_id in FINISHES), None)
    passed_out = settled.ruling.rule_id == "auction.all_pass"
    return {
        "id": deal_id(played),
        "table": played.table.name,
        "dealer": deal.dealer,
        "start_scores": list(deal.start_scores),
        "calls": [
            {"seat": call.seat, **call.action, "allowed_bids": list(call.bids),
             "may_hold": call.hold}
            for call in played.calls
        ],
        "bidder": deal.bidder,
        "bidder_side": None if deal.bidder is None else rules.side_of(deal.bidder),
        "bid": deal.bid,
        "trump": deal.trump.name if deal.trump is not None else None,
        "took": None if passed_out else deal_points(deal, rules)[0],
        "rule": settled.ruling.rule_id,
        "text": settled.ruling.text,
        "points": list(result.points),
        "scores": list(result.scores),
        "finish": None if finish is None else {
            "side": finish.side, "rule": finish.ruling.rule_id, "text": finish.ruling.text},
    }
