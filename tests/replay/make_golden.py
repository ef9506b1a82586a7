"""Generates the golden hand histories in tests/replay/golden/ (run once; commit the output).

    python tests/replay/make_golden.py          # writes the files
    python tests/replay/make_golden.py --check  # exit 1 if a committed file would change

Every game is deterministic: seeds come from SHA-256 of a label, searches try labels in order,
plays go through :func:`engine.actions.decide`, and times are fixed. Games dealt at a real
table are written as hand-written text records (``*.table.txt``) and imported, as a person
would. For each game the auditor's history and one seat's are written, each in both
encodings; tests/replay/test_golden.py checks they verify, convert both ways, and that this
script gives the same bytes again.
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from engine.cards import JOKER, Card, Rank, Suit  # noqa: E402
from engine.profiles import make_ruleset  # noqa: E402
from engine.shuffle import cut, first_dealer, pack  # noqa: E402
from engine.state import GameState  # noqa: E402
from replay.formats.build import build_history, replay_log  # noqa: E402
from replay.formats.document import HandHistory  # noqa: E402
from replay.formats.export import export_text  # noqa: E402
from replay.formats.importing import read_history  # noqa: E402
from replay.formats.jsonformat import dumps  # noqa: E402
from replay.sample import GameDriver, Policy, digest, seeded_choice  # noqa: E402

GOLDEN = Path(__file__).resolve().parent / "golden"
SEARCH_LIMIT = 200
"""Labels tried by a search before it gives up (each search succeeds well before this)."""


@dataclasses.dataclass(frozen=True)
class Golden:
    """One golden game: its auditor's history, the seat whose view is also kept, and (for a
    table record) the hand-written text it was imported from."""

    name: str
    auditor: HandHistory
    seat: int
    seat_view: HandHistory
    table_text: str | None = None


# Helpers ---------------------------------------------------------------------------------


def _game_seed_for_dealer(label: str, profile: str, dealer: int) -> bytes:
    """Returns the first game seed (by label) whose first dealer is *dealer*."""
    players = make_ruleset(profile).players
    for attempt in range(SEARCH_LIMIT):
        seed = digest(label, "dealer-seed", attempt)
        if first_dealer(seed.hex(), players) == dealer:
            return seed
    raise RuntimeError(f"no game seed with dealer {dealer}")


def _stock(profile: str, hands: Sequence[Sequence[str]], turn_up: str | None) -> list[str]:
    used = {code for hand in hands for code in hand} | ({turn_up} if turn_up else set())
    return [card.code() for card in pack(make_ruleset(profile)) if card.code() not in used]


def _cut_for(state: GameState, wanted: Callable[[Card], bool]) -> int:
    """Returns the first cut position that turns up a card *wanted* accepts."""
    deal = state.deal
    assert deal is not None
    top = sum(state.rules.deal_pattern) * state.rules.players
    for position in range(1, len(deal.order)):
        if wanted(cut(deal.order, position)[top]):
            return position
    raise RuntimeError("no cut turns up the wanted card")


def _play_script(driver: GameDriver, tricks: Sequence[Sequence[str]]) -> None:
    """Plays the cards of each trick in turn (each must be legal)."""
    for trick in tricks:
        for card in trick:
            assert driver.state is not None and driver.state.turn is not None
            driver.act(driver.state.turn, {"type": "play", "card": card}, server_steps=False)


def _until_deal_over(number: int) -> Callable[[GameState], bool]:
    def over(state: GameState) -> bool:
        deal = state.deal
        return deal is not None and (deal.number > number or (
            deal.number == number and deal.phase == "over" and state.phase != "reveal"))
    return over


def _version_of(driver: GameDriver, kind: str, deal: int) -> int:
    for item in driver.recorded:
        if item.envelope.type == kind and getattr(item.event, "deal", None) == deal:
            return item.version
    raise RuntimeError(f"no {kind} for deal {deal}")


def _histories(name: str, game_id: str, driver: GameDriver, seat: int,
               as_of: int | None = None) -> Golden:
    replay = replay_log(driver.recorded)
    return Golden(name, build_history(game_id, replay, "auditor", as_of=as_of), seat,
                  build_history(game_id, replay, seat, as_of=as_of))


def _imported(name: str, text: str, seat: int) -> Golden:
    result = read_history(text)
    assert result.ok and result.history is not None, [str(d) for d in result.diagnostics]
    auditor = result.history
    replay = replay_log(_recorded(auditor), start=auditor.start)
    assert auditor.game_id is not None
    return Golden(name, auditor, seat, build_history(auditor.game_id, replay, seat),
                  table_text=text)


def _recorded(history: HandHistory) -> list[Any]:
    """Returns the stored events of an auditor's history (which hides nothing)."""
    from events.envelope import Envelope, RecordedEvent
    from events.upcasting import decode

    recorded = []
    for event in history.events:
        envelope = Envelope.from_dict({**event.to_dict(), "game_id": history.game_id})
        recorded.append(RecordedEvent(envelope, decode(envelope)))
    return recorded


def _prefer(kind: str, label: str) -> Policy:
    """Returns a seeded policy that takes an action of *kind* whenever it may."""
    base = seeded_choice(label)

    def choose(state: GameState, seat: int, actions: Sequence[dict[str, Any]]) -> dict[str, Any]:
        preferred = [action for action in actions if action["type"] == kind]
        return preferred[0] if preferred else base(state, seat, actions)

    return choose


def _avoid_robbing(label: str) -> Policy:
    base = seeded_choice(label)

    def choose(state: GameState, seat: int, actions: Sequence[dict[str, Any]]) -> dict[str, Any]:
        return base(state, seat, [a for a in actions if a["type"] != "rob"] or actions)

    return choose


# The games -------------------------------------------------------------------------------


def seed_000_section_09() -> Golden:
    """Seed 000 §09: spades trumps, A leads 7S, B the 5S, C keeps AH and discards KD, then 2S,
    QC, 4D; B wins the trick and the bonus (+10). Dealt at a table, played on by the rules."""
    hands = [["7S", "2C", "3C", "8H", "9D"], ["5S", "6C", "7C", "8C", "9C"],
             ["AH", "KD", "3D", "4C", "2H"], ["2S", "6D", "7D", "8D", "TC"],
             ["QC", "QD", "JD", "3H", "4H"], ["4D", "5D", "6H", "7H", "9H"]]
    driver = GameDriver("golden-000-09", "golden-000-09")
    driver.start("bruff", ["human"] * 6, game_seed=_game_seed_for_dealer(
        "golden-000-09", "bruff", 5), shuffle=False)
    driver.record_deal(hands, "9S", _stock("bruff", hands, "9S"))
    _play_script(driver, [["7S", "5S", "KD", "2S", "QC", "4D"]])
    driver.play(_avoid_robbing("golden-000-09"), until=_until_deal_over(1),
                server_steps=False)
    return _histories("seed-000-09", "golden-000-09", driver, 2)


SEED_001_06 = """\
% fortyfive hand history 1.0
; Seed 001, section 06: Auction Forty-Fives. North-South (seats 0 and 2) bid 20 and make it;
; South's 5S beats both aces. 70:85 becomes 90:95.
[Event "Seed 001, section 06"]
[Date "2024.05.01"]
[Profile "auction"]
[Seats "human human human human"]
[Dealer "3"]
[Scores "70 85"]

[Deal "1"]
[Hands "0:AH,3H,4C,4D,QC 1:7S,4H,KC,KD,9C 2:5S,KH,2C,2D,5C 3:AS,2H,3C,3D,6C"]
0:bid(20) 1:pass 2:pass 3:pass
0:trump(S)
0:discard() 1:discard() 2:discard() 3:discard()
1. 7S 5S AS AH  {South's five beats both aces}
2. KH 2H 3H 4H
3. 2C 3C 4C KC
4. KD 2D 3D 4D
5. 9C 5C 6C QC
"""


def seed_001_section_06() -> Golden:
    """Seed 001 §06, as a table record imported from hand-written text."""
    text = SEED_001_06.replace('[Hands "', '[Stock "{stock}"]\n[Hands "', 1)
    hands = [["AH", "3H", "4C", "4D", "QC"], ["7S", "4H", "KC", "KD", "9C"],
             ["5S", "KH", "2C", "2D", "5C"], ["AS", "2H", "3C", "3D", "6C"]]
    text = text.replace("{stock}", ",".join(_stock("auction", hands, None)))
    return _imported("seed-001-06", text, 0)


def turned_joker() -> Golden:
    """A turned joker: the dealer takes it, buries a card face down and turns the next."""
    label = "golden-turned-joker"
    driver = GameDriver("golden-turned-joker", label).start("bruff", ["human"] * 6)
    state = driver.state
    assert state is not None and state.deal is not None and state.deal.turn is not None
    driver.act(state.deal.turn, {"type": "cut", "position": _cut_for(
        state, lambda card: card is JOKER)})
    driver.play(seeded_choice(label), until=_until_deal_over(1))
    return _histories("turned-joker", "golden-turned-joker", driver, 0,
                      _version_of(driver, "seed_revealed", 1))


def dealer_robs_turned_ace() -> Golden:
    """The ace of trumps is turned up and the dealer robs it before playing."""
    label = "golden-dealer-rob"
    driver = GameDriver("golden-dealer-rob", label).start("bruff", ["human"] * 6)
    state = driver.state
    assert state is not None and state.deal is not None and state.deal.turn is not None
    driver.act(state.deal.turn, {"type": "cut", "position": _cut_for(
        state, lambda card: card.rank is Rank.ACE and card.suit is not Suit.H)})
    driver.play(_prefer("rob", label), until=_until_deal_over(1))
    return _histories("dealer-robs-turned-ace", "golden-dealer-rob", driver, 1,
                      _version_of(driver, "seed_revealed", 1))


def bonus_proven_at_end() -> Golden:
    """A bonus proven only when the hands are exhausted, credited back to an earlier trick."""
    for attempt in range(SEARCH_LIMIT):
        label = f"golden-late-bonus-{attempt}"
        driver = GameDriver("golden-late-bonus", label).start("bruff", ["human"] * 6)
        driver.play(_avoid_robbing(label), until=_until_deal_over(1))
        state = driver.state
        assert state is not None
        deal = state.past_deals[0] if state.past_deals else state.deal
        assert deal is not None
        if any(fact.kind == "bonus_proven" and fact.ruling.rule_id ==
               "bonus.proven.hands_exhausted" and (fact.credited_trick or 5) < 5
               for fact in deal.facts):
            return _histories("bonus-proven-at-end", "golden-late-bonus", driver, 3,
                              _version_of(driver, "seed_revealed", 1))
    raise RuntimeError("no late-proven bonus found")


CHRONOLOGY = """\
% fortyfive hand history 1.0
; A finish by trick chronology. A (seats 0, 3) is on 35 and B (1, 4) on 40. A wins trick 1
; with AS, the highest trump so far but unproven; B's trick 2 takes B to 45. No higher trump
; is in play, so the bonus is proven only when the hands are exhausted, and it goes back to
; trick 1: A reached 45 first and wins, although B went over the target later.
[Event "Chronology"]
[Date "2024.05.01"]
[Profile "bruff"]
[Dealer "5"]
[Scores "35 40 0"]

[Deal "1"]
[Hands "{hands}"]
[TurnUp "9S"]
[Stock "{stock}"]
1. AS 4H 5H 6H 7H 8H
2. 2D KD 5D 7D 9D JD
3. 2C 4C 6C 8C TC 2H
4. 3C 5C 7C 9C JC 3H
5. QD 3D 4D 6D 8D TD
"""


def chronology_finish() -> Golden:
    """A finish by chronology: the first side to the target wins though a later trick takes
    another side over it (a table record)."""
    hands = [["AS", "2D", "3D", "2H", "3H"], ["KD", "4D", "2C", "3C", "4H"],
             ["5D", "6D", "4C", "5C", "5H"], ["7D", "8D", "6C", "7C", "6H"],
             ["9D", "TD", "8C", "9C", "7H"], ["JD", "QD", "TC", "JC", "8H"]]
    written = ("0:AS 2D 3D 2H 3H  1:KD 4D 2C 3C 4H  2:5D 6D 4C 5C 5H  "
               "3:7D 8D 6C 7C 6H  4:9D TD 8C 9C 7H  5:JD QD TC JC 8H")
    text = CHRONOLOGY.replace("{stock}", ",".join(_stock("bruff", hands, "9S"))).replace(
        "{hands}", written)
    return _imported("chronology-finish", text, 1)


def jink() -> Golden:
    """A jink: one side takes all five tricks and wins the game whatever the scores."""
    hands = [["5S", "JS", "JK", "AH", "AS"], ["2D", "3D", "4D", "5D", "6D"],
             ["2C", "3C", "4C", "5C", "6C"], ["2H", "3H", "4H", "5H", "6H"],
             ["7D", "8D", "9D", "TD", "JD"], ["7C", "8C", "9C", "TC", "JC"]]
    driver = GameDriver("golden-jink", "golden-jink")
    driver.start("bruff", ["human", "bot", "bot", "human", "bot", "bot"],
                 game_seed=_game_seed_for_dealer("golden-jink", "bruff", 5), shuffle=False)
    driver.record_deal(hands, "9S", _stock("bruff", hands, "9S"))
    _play_script(driver, [
        ["5S", "2D", "2C", "2H", "7D", "7C"], ["JS", "3D", "3C", "3H", "8D", "8C"],
        ["JK", "4D", "4C", "4H", "9D", "9C"], ["AH", "5D", "5C", "5H", "TD", "TC"],
        ["AS", "6D", "6C", "6H", "JD", "JC"],
    ])
    return _histories("jink", "golden-jink", driver, 0)


def all_pass_redeal() -> Golden:
    """An auction where all four pass: no score, the deal passes left and is dealt again."""
    label = "golden-all-pass"
    driver = GameDriver("golden-all-pass", label).start("auction", ["human"] * 4)
    state = driver.state
    assert state is not None and state.deal is not None and state.deal.turn is not None
    driver.act(state.deal.turn, {"type": "cut", "position": 17})
    for _ in range(4):
        assert driver.state is not None and driver.state.turn is not None
        driver.act(driver.state.turn, {"type": "pass"})
    driver.play(seeded_choice(label), until=_until_deal_over(2))
    return _histories("all-pass-redeal", "golden-all-pass", driver, 2,
                      _version_of(driver, "seed_revealed", 2))


def set_bid() -> Golden:
    """A bid of 30 that falls short: the bidding side loses 30."""
    for attempt in range(SEARCH_LIMIT):
        label = f"golden-set-bid-{attempt}"
        driver = GameDriver("golden-set-bid", label).start("auction", ["human"] * 4)
        state = driver.state
        assert state is not None and state.deal is not None and state.deal.turn is not None
        driver.act(state.deal.turn, {"type": "cut", "position": 26})
        assert driver.state is not None and driver.state.turn is not None
        driver.act(driver.state.turn, {"type": "bid", "amount": 30})
        for _ in range(3):
            assert driver.state is not None and driver.state.turn is not None
            driver.act(driver.state.turn, {"type": "pass"})
        driver.play(seeded_choice(label), until=_until_deal_over(1))
        state = driver.state
        assert state is not None
        deal = state.past_deals[0] if state.past_deals else state.deal
        assert deal is not None
        if any(fact.kind == "bid_set" for fact in deal.facts):
            return _histories("set-bid", "golden-set-bid", driver, 1,
                              _version_of(driver, "seed_revealed", 1))
    raise RuntimeError("no set bid found")


def made_thirty() -> Golden:
    """A bid of 30 made: all five tricks and the bonus, scored as 60 (dealt at a table)."""
    hands = [["5S", "JS", "AH", "AS", "KS"], ["2D", "3D", "4D", "5D", "6D"],
             ["2C", "3C", "4C", "5C", "6C"], ["2H", "3H", "4H", "5H", "6H"]]
    driver = GameDriver("golden-made-30", "golden-made-30")
    driver.start("auction", ["human"] * 4, game_seed=_game_seed_for_dealer(
        "golden-made-30", "auction", 3), shuffle=False)
    driver.record_deal(hands, None, _stock("auction", hands, None))
    driver.act(0, {"type": "bid", "amount": 30}, server_steps=False)
    for seat in (1, 2, 3):
        driver.act(seat, {"type": "pass"}, server_steps=False)
    driver.act(0, {"type": "name_trump", "suit": "S"}, server_steps=False)
    for seat in (0, 1, 2, 3):
        driver.act(seat, {"type": "discard", "cards": []}, server_steps=False)
    _play_script(driver, [
        ["2D", "2C", "2H", "5S"], ["JS", "3D", "3C", "3H"], ["AH", "4D", "4C", "4H"],
        ["AS", "5D", "5C", "5H"], ["KS", "6D", "6C", "6H"],
    ])
    return _histories("made-thirty", "golden-made-30", driver, 2)


BOTH_OVER = """\
% fortyfive hand history 1.0
; Both sides reach 120 in one deal: North-South (0, 2) on 110 bid 20 and take 25; East-West
; (1, 3) on 115 take one trick and reach 120. The bidding side wins.
[Event "Both over 120"]
[Date "2024.05.01"]
[Profile "auction"]
[Dealer "3"]
[Scores "110 115"]

[Deal "1"]
[Hands "0:5S,JS,KC,QC,2H 1:KD,3C,4C,5C,3H 2:AS,KS,6C,7C,4H 3:2D,3D,4D,5D,5H"]
[Stock "{stock}"]
0:bid(20) 1:pass 2:pass 3:pass 0:trump(s)
0:discard() 1:discard() 2:discard() 3:discard()
1. 1:KD 4H 2D 2H
2. 3C AS 5H KC
3. KS 3D 5S 4C
4. 0:JS 5C 6C 4D
5. QC 3H 7C 5D
"""


def both_over_target() -> Golden:
    """Both sides over 120 in one deal, the bidding side winning (a table record)."""
    hands = [["5S", "JS", "KC", "QC", "2H"], ["KD", "3C", "4C", "5C", "3H"],
             ["AS", "KS", "6C", "7C", "4H"], ["2D", "3D", "4D", "5D", "5H"]]
    text = BOTH_OVER.replace("{stock}", ",".join(_stock("auction", hands, None)))
    return _imported("both-over-target", text, 3)


GAMES: tuple[Callable[[], Golden], ...] = (
    seed_000_section_09, seed_001_section_06, turned_joker, dealer_robs_turned_ace,
    bonus_proven_at_end, chronology_finish, jink, all_pass_redeal, set_bid, made_thirty,
    both_over_target,
)


def files(game: Golden) -> dict[str, bytes]:
    """Returns the golden files of one game, by file name."""
    out = {
        f"{game.name}.json": dumps(game.auditor) + b"\n",
        f"{game.name}.txt": export_text(game.auditor).encode(),
        f"{game.name}.seat{game.seat}.json": dumps(game.seat_view) + b"\n",
        f"{game.name}.seat{game.seat}.txt": export_text(game.seat_view).encode(),
    }
    if game.table_text is not None:
        out[f"{game.name}.table.txt"] = game.table_text.encode()
    return out


def generate() -> dict[str, bytes]:
    """Returns every golden file, by file name."""
    out: dict[str, bytes] = {}
    for make in GAMES:
        out.update(files(make()))
    return out


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--check", action="store_true",
                        help="compare with the committed files instead of writing")
    args = parser.parse_args(argv)
    generated = generate()
    if args.check:
        stale = [name for name, data in generated.items()
                 if not (GOLDEN / name).exists() or (GOLDEN / name).read_bytes() != data]
        for name in stale:
            print(f"would change: {name}")
        return 1 if stale else 0
    GOLDEN.mkdir(exist_ok=True)
    for name, data in sorted(generated.items()):
        (GOLDEN / name).write_bytes(data)
        print(f"wrote {name} ({len(data)} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
