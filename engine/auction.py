"""The auction (``auction`` profile): bids in fives, the dealer's hold, the 100-or-more rule.

Bidding starts left of the dealer. A bid must exceed the current one, up to 30; a pass is final
for the deal. The dealer may instead hold, taking the current highest bid at its amount (also
at 30). A side on 100 or more may not bid or hold below 20. Players who have not passed keep
getting turns until one bidder remains; four passes pass the deal out.
"""

from __future__ import annotations

import dataclasses

from engine.profiles import RuleSet
from engine.state import Auction, Seat

MAX_BID = 30
HIGH_SCORE_FLOOR = 100
HIGH_SCORE_MIN_BID = 20


def opening(dealer: Seat, rules: RuleSet) -> Auction:
    """Returns the auction of a fresh deal: the dealer's left speaks first."""
    return Auction(turn=(dealer + 1) % rules.players)


def lowest_bid(seat: Seat, rules: RuleSet, scores: tuple[int, ...]) -> int:
    """Returns the lowest amount *seat* may bid or hold, by the option and its side's score."""
    floor = rules.min_bid
    if scores[rules.side_of(seat)] >= HIGH_SCORE_FLOOR:
        floor = max(floor, HIGH_SCORE_MIN_BID)
    return floor


def why_not_bid(
    auction: Auction, seat: Seat, amount: int, rules: RuleSet, scores: tuple[int, ...]
) -> str | None:
    """Returns why *seat* may not bid *amount* now, or ``None`` when it may: a multiple of 5
    from the lowest bid to 30, above the current bid, and not below 20 for a side on 100."""
    if amount % 5 or not rules.min_bid <= amount <= MAX_BID:
        return f"bids are {rules.min_bid} to {MAX_BID} in fives"
    if auction.high is not None and amount <= auction.high:
        return f"a bid must exceed the current {auction.high}"
    floor = lowest_bid(seat, rules, scores)
    if amount < floor:
        return f"a side on 100 or more may not bid below {floor}"
    return None


def legal_bids(auction: Auction, seat: Seat, rules: RuleSet, scores: tuple[int, ...]) -> list[int]:
    """Returns the amounts *seat* may bid now: those :func:`why_not_bid` does not refuse."""
    return [amount for amount in range(rules.min_bid, MAX_BID + 1, 5)
            if why_not_bid(auction, seat, amount, rules, scores) is None]


def why_not_hold(
    auction: Auction, seat: Seat, dealer: Seat, rules: RuleSet, scores: tuple[int, ...]
) -> str | None:
    """Returns why *seat* may not hold now, or ``None`` when it may: the dealer may take the
    current highest bid of another seat at its amount (not below 20 for a side on 100)."""
    if seat != dealer:
        return "only the dealer may hold"
    if auction.high is None:
        return "there is no bid to hold"
    if auction.high_seat == dealer:
        return "the dealer already holds the highest bid"
    floor = lowest_bid(seat, rules, scores)
    if auction.high < floor:
        return f"a side on 100 or more may not hold below {floor}"
    return None


def record_call(
    auction: Auction, seat: Seat, call: str, amount: int | None, rules: RuleSet
) -> Auction:
    """Returns the auction after *seat*'s call (``bid``, ``hold`` or ``pass``), with the turn
    moved on to the next player who has not passed.

    .. warning:: the call is assumed legal; :mod:`engine.actions` checks it first.
    """
    calls = auction.calls + ((seat, call, amount),)
    if call == "pass":
        auction = dataclasses.replace(auction, passed=auction.passed | {seat}, calls=calls)
    elif call == "hold":
        auction = dataclasses.replace(auction, high_seat=seat, calls=calls)
    else:
        auction = dataclasses.replace(auction, high=amount, high_seat=seat, calls=calls)
    return dataclasses.replace(auction, turn=_next_active(auction, seat, rules))


def _next_active(auction: Auction, seat: Seat, rules: RuleSet) -> Seat:
    for step in range(1, rules.players + 1):
        candidate = (seat + step) % rules.players
        if candidate not in auction.passed:
            return candidate
    return seat


def is_passed_out(auction: Auction, rules: RuleSet) -> bool:
    """True when every player has passed."""
    return len(auction.passed) == rules.players


def is_won(auction: Auction, rules: RuleSet) -> bool:
    """True when one bidder remains: everyone else has passed and a bid stands."""
    return auction.high is not None and len(auction.passed) == rules.players - 1
