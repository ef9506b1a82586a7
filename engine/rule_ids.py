"""Rule ids: the stable public names of the rules, with their general statements.

Rule ids appear in the API, hand histories and audits and never change meaning; a ruling
(:mod:`engine.rulings`) names one, and its sentence (:mod:`engine.ruling_texts`) states the case.
docs/rules.md lists every rule id with its general statement and its sentence.
"""

from __future__ import annotations

RULE_IDS: dict[str, str] = {
    "play.lead": "The leader may lead any card.",
    "play.trump_lead.void": "A player with no trump may play any card to a trump lead.",
    "play.trump_lead.withhold": (
        "On a trump lead, a player may play a non-trump only when every trump held is "
        "protected (trump 5, trump J, AH, joker) and each outranks the card led."
    ),
    "play.trump_lead.must_trump": "A trump lead must be answered with a trump when one is held.",
    "play.plain_lead.trump_or_follow": (
        "On a plain lead a player may trump, else must follow suit when able."
    ),
    "play.plain_lead.must_follow": "On a plain lead a player must follow suit when able.",
    "play.plain_lead.void": "A player void in the led suit may play any card.",
    "trick.highest_trump": "The highest trump wins the trick.",
    "trick.highest_of_led_suit": "With no trump played, the highest card of the led suit wins.",
    "trick.identical_first": "Of two identical cards, the one played first ranks higher.",
    "bonus.proven.five": "The trump five is the highest trump; the bonus is proven.",
    "bonus.proven.higher_out": "Every higher trump is publicly out of play; the bonus is proven.",
    "bonus.proven.hands_exhausted": "The hands are exhausted; the deal's highest trump is known.",
    "bonus.none": "No trump was in play: no bonus, the deal is worth 25.",
    "bonus.disabled": "This game is played without the highest-trump bonus.",
    "finish.chronology": "The first side to reach the target, trick by trick, wins.",
    "finish.deal_end": "Scores are checked after the fifth trick.",
    "finish.counted_first": "Of sides reaching the target in one deal, the first counted wins.",
    "finish.bidder_priority": "If both sides reach the target, the bidding side wins.",
    "jink.take_all": "A side taking all five tricks of a deal wins the game.",
    "jink.announced.made": "An announced jink made doubles the side's points for the deal.",
    "jink.announced.failed": "An announced jink that fails gives the game to the other side.",
    "bid.made": "The bidding side took at least its bid and scores what it took.",
    "bid.made_thirty": "A made bid of 30 scores 60.",
    "bid.set": "The bidding side fell short and loses the amount of its bid.",
    "auction.all_pass": "Every player passed: no score, the deal passes left.",
    "spoil_five": "No side took three tricks: nobody scores for the deal.",
    "rob.ace_holder": "The ace-of-trumps holder may rob the turn-up before their first play.",
    "rob.dealer_ace_turned": "When the ace of trumps is turned, the dealer may rob it.",
    "match.game_won": "A game was won; the match goes on until a side wins enough games.",
}
"""Every rule id with its general statement."""

RULE_SECTIONS: dict[str, str] = {
    **dict.fromkeys(("play.lead", "play.trump_lead.void", "play.trump_lead.withhold",
                     "play.trump_lead.must_trump", "play.plain_lead.trump_or_follow",
                     "play.plain_lead.must_follow", "play.plain_lead.void"), "Play"),
    **dict.fromkeys(("trick.highest_trump", "trick.highest_of_led_suit",
                     "trick.identical_first"), "Play"),
    **dict.fromkeys(("bonus.proven.five", "bonus.proven.higher_out",
                     "bonus.proven.hands_exhausted", "bonus.none", "bonus.disabled"),
                    "Scoring and the end of a game"),
    **dict.fromkeys(("finish.chronology", "finish.deal_end", "finish.counted_first",
                     "finish.bidder_priority", "jink.take_all", "jink.announced.made",
                     "jink.announced.failed", "bid.made", "bid.made_thirty", "bid.set",
                     "spoil_five", "match.game_won"), "Scoring and the end of a game"),
    **dict.fromkeys(("auction.all_pass", "rob.ace_holder", "rob.dealer_ace_turned"), "Deal"),
}
"""The section of docs/rules.md whose rule text each rule id applies."""
