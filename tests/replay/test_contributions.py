"""Verification says which deals had a person's contribution, and checks the bots' cuts
against the game's committed contribution secret (replay/verification/contributions.py)."""

from __future__ import annotations

import dataclasses
import hashlib

from replay_helpers import MIXED_SEATS, mixed_game

from events.chain import GENESIS_HASH, seal, seal_events
from events.envelope import RecordedEvent
from events.types import DealContributed, DeckCut
from events.upcasting import decode
from replay.formats.build import build_history
from replay.sample import GameDriver
from replay.verification.verify import verify

SEATS = MIXED_SEATS


def _game(deals: int = 3) -> GameDriver:
    return mixed_game(deals)


def test_each_deal_says_what_its_fairness_rests_on() -> None:
    driver = _game()
    report = verify(build_history(driver.game_id, driver.recorded, "auditor"))
    assert report.ok and not report.unchecked, report.format()
    shuffles = [r.event for r in driver.recorded if r.envelope.type == "deck_shuffled"]
    assert {event.algorithm for event in shuffles} == {"hmac-sha256-fy/2"}
    assert {event.context for event in shuffles} == {"g-contrib"}
    by_deal = {deal.deal: deal for deal in report.contributions}
    cuts = {r.event.seat: r for r in driver.recorded if isinstance(r.event, DeckCut)}
    assert cuts
    assert len(by_deal) == 4 and by_deal[4].fairness == "pending"  # Shuffled, not cut.
    for deal in list(by_deal.values())[:3]:
        if deal.cut_seat == 0:
            assert deal.fairness == "person_cut" and deal.cut_by == "person"
        else:
            assert deal.fairness == "person_nonce" and deal.nonce_seats == (0,)
        if deal.cut_by == "bot":
            assert deal.committed_cut == "checked"
    said = report.format()
    assert "a person's nonce after the commitment (seat 1)" in said


def test_a_seats_view_cannot_check_the_bots_cuts_before_the_secret_is_revealed() -> None:
    driver = _game(deals=1)
    report = verify(build_history(driver.game_id, driver.recorded, 3))
    assert report.ok, report.format()
    bot_cuts = [deal for deal in report.contributions if deal.cut_by == "bot"]
    assert all(deal.committed_cut == "unchecked" for deal in bot_cuts)
    created = build_history(driver.game_id, driver.recorded, 3).events[0]
    assert created.redacted == ("contribution_secret",)
    assert created.data["contribution_commitment"]


def test_a_forged_bot_cut_fails_verification_even_rehashed() -> None:
    driver = _game(deals=2)
    events = [r.event for r in driver.recorded]
    index = next(i for i, r in enumerate(driver.recorded) if isinstance(r.event, DeckCut)
                 and SEATS[r.event.seat] == "bot")
    cut = events[index]
    assert isinstance(cut, DeckCut)
    events[index] = dataclasses.replace(cut, position=cut.position % 52 + 1)
    forged: list[RecordedEvent] = []
    prev = GENESIS_HASH
    for old, event in zip(driver.recorded, events[:index + 1], strict=False):
        (envelope, _), = seal_events(driver.game_id, len(forged), prev, (event,),
                                     actor=old.envelope.actor, command_id=old.envelope.command_id,
                                     occurred_at=old.envelope.occurred_at)
        forged.append(RecordedEvent(envelope, event))
        prev = envelope.hash
    report = verify(build_history(driver.game_id, forged, "auditor"))
    assert not report.ok
    assert [p.code for p in report.problems] == ["contribution"], report.format()
    assert "committed contribution secret gives" in report.problems[0].message


def _with_contribution(position: int, data: dict[str, object], actor: object,
                       replace: bool) -> list[RecordedEvent]:
    """The events of a one-deal game with a ``deal_contributed`` of *data* and *actor* put in
    at *position* (or put in place of the event there), the chain re-sealed throughout."""
    driver = _game(deals=1)
    items = [(r.envelope.type, dict(r.envelope.data), r.envelope.actor, r.envelope)
             for r in driver.recorded]
    model = next(item for item in items if item[0] == "deal_contributed")
    added = ("deal_contributed", data, actor, model[3])
    items = items[:position] + [added] + items[position + (1 if replace else 0):]
    prev, out = GENESIS_HASH, []
    for version, (kind, body, who, old) in enumerate(items, start=1):
        envelope, _ = seal(game_id=old.game_id, version=version, event_type=kind,
                           schema=old.schema, data=body, actor=who, command_id=old.command_id,
                           occurred_at=old.occurred_at, prev_hash=prev)
        out.append(RecordedEvent(envelope, decode(envelope)))
        prev = envelope.hash
    return out


def test_the_nonce_rules_are_verifier_failures_not_only_server_refusals() -> None:
    """docs/verification.md section 6: each nonce the service would refuse fails verification
    of a history that holds it anyway, at its event, even with the chain re-sealed."""
    driver = _game(deals=1)
    kinds = [r.envelope.type for r in driver.recorded]
    given, cut = kinds.index("deal_contributed"), kinds.index("deck_cut")
    nonce = driver.recorded[given].event
    assert isinstance(nonce, DealContributed) and nonce.seat == 0
    cases = {
        "a second nonce of one seat": (given + 1, {"deal": 1, "seat": 0, "nonce": "ab" * 16},
                                       0, False, "irregular", "one nonce per seat"),
        "a nonce given before": (given + 1, {"deal": 1, "seat": 3, "nonce": nonce.nonce}, 3,
                                 False, "irregular", "was already contributed"),
        "a nonce after the cut": (cut + 1, {"deal": 1, "seat": 3, "nonce": "cd" * 16}, 3, False,
                                  "irregular", "cannot contribute now"),
        "a nonce made by another seat": (given, {"deal": 1, "seat": 0, "nonce": nonce.nonce}, 1,
                                         True, "irregular", "recorded as made by seat 2"),
        "a malformed nonce": (given, {"deal": 1, "seat": 0, "nonce": "abc"}, 0, True, "fold",
                              "invalid nonce"),
    }
    for name, (position, data, actor, replace, code, said) in cases.items():
        forged = _with_contribution(position, data, actor, replace)
        report = verify(build_history(driver.game_id, forged, "auditor"))
        first = report.problems[0]
        assert (first.code, said in first.message) == (code, True), (name, report.format())


def _resealed_as(game_id: str, driver: GameDriver,
                 created: dict[str, object] | None = None) -> list[RecordedEvent]:
    """*driver*'s events re-sealed throughout as game *game_id* (event 1's data updated with
    *created*): a forger who rebuilds a whole game around a deck of its choice."""
    prev, out = GENESIS_HASH, []
    for item in driver.recorded:
        old = item.envelope
        data = {**old.data, **(created or {})} if old.type == "game_created" else old.data
        envelope, _ = seal(game_id=game_id, version=old.version, event_type=old.type,
                           schema=old.schema, data=data, actor=old.actor,
                           command_id=old.command_id, occurred_at=old.occurred_at,
                           prev_hash=prev)
        out.append(RecordedEvent(envelope, decode(envelope)))
        prev = envelope.hash
    return out


def test_a_deck_shuffled_for_another_game_fails() -> None:
    """Decks dealt for game g-other (their context), re-sealed as game g-mine: each fails
    by name, though every event and result is rebuilt around them."""
    honest = mixed_game(2, game_id="g-mine")
    assert verify(build_history("g-mine", honest.recorded, "auditor")).ok
    forged = _resealed_as("g-mine", mixed_game(2, game_id="g-other"))
    report = verify(build_history("g-mine", forged, "auditor"))
    assert not report.ok
    problems = [p for p in report.problems if "a deck dealt for another game" in p.message]
    assert problems and {p.code for p in problems} == {"seed"}, report.format()
    assert "deal 1 is shuffled for context 'g-other', not for this game ('g-mine')" in (
        problems[0].message)


def test_a_fy1_deal_in_a_game_created_for_fy2_fails() -> None:
    """A game whose creation commits a contribution secret is dealt by /2 throughout: /1
    decks in it (no context, bots' cuts not committed) fail as a downgrade."""
    secret = "ab" * 32
    created = {"contribution_secret": secret,
               "contribution_commitment": hashlib.sha256(bytes.fromhex(secret)).hexdigest()}
    old = mixed_game(2, game_id="g-old", fy2=False)
    assert verify(build_history("g-old", old.recorded, "auditor")).ok
    forged = _resealed_as("g-old", old, created)
    report = verify(build_history("g-old", forged, "auditor"))
    assert not report.ok
    assert {p.code for p in report.problems} == {"seed"}, report.format()
    assert ("deal 1 is shuffled by hmac-sha256-fy/1, but game_created commits a contribution "
            "secret") in report.problems[0].message
