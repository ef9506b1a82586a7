"""Per-view histories come from the one view function; what they hide stays hidden."""

from __future__ import annotations

import dataclasses

import pytest
from replay_helpers import golden, mixed_game, recorded, sample_game, signed

from events.chain import envelope_hash
from events.envelope import Envelope
from events.types import GameCreated
from replay.formats.build import build_history, replay_log
from replay.verification.reconstruct import stored_hash
from replay.verification.verify import verify
from replay.views import event_view


def test_each_event_of_a_view_is_the_view_function_s() -> None:
    driver = sample_game("views")
    replay = replay_log(driver.recorded)
    for viewer in (0, 3, "spectator", "auditor"):
        history = build_history(driver.game_id, replay, viewer)
        for event, item in zip(history.events, driver.recorded, strict=True):
            view = event_view(item.event, viewer)
            if "redacted" in view:
                assert list(event.redacted) == view.pop("redacted")
                assert dict(event.data) == view
            else:
                assert event.data == item.envelope.data and not event.redacted


def test_a_seat_sees_its_own_hand_as_dealt_and_no_other() -> None:
    history = golden("turned-joker")
    replay = replay_log(recorded(history))
    seat = build_history(str(history.game_id), replay, 4)
    assert seat.results is not None and history.results is not None
    hands = seat.results["deals"][0]["hands"]
    assert [index for index, hand in enumerate(hands) if hand is not None] == [4]
    assert hands[4] == history.results["deals"][0]["hands"][4]


def test_a_live_deal_verifies_up_to_where_the_view_can_see() -> None:
    driver = sample_game("live")
    replay = replay_log(driver.recorded)
    shuffles = [item.version for item in driver.recorded
                if item.envelope.type == "deck_shuffled"]
    as_of = shuffles[1] + 12
    report = verify(build_history(driver.game_id, replay, 2, as_of=as_of))
    assert report.ok and not report.complete
    assert report.unchecked[0].first == shuffles[1]
    assert "not over" in report.unchecked[0].why


def test_a_finished_game_verifies_fully_for_every_view() -> None:
    driver = sample_game("finished")
    replay = replay_log(driver.recorded)
    for viewer in (*range(6), "spectator", "auditor"):
        history = build_history(driver.game_id, replay, viewer)
        report = verify(signed(history))
        assert report.ok and report.complete, (viewer, report.format())
        unsigned = verify(history)  # Without its checkpoint, no signature vouches for it.
        assert unsigned.ok and not unsigned.complete, (viewer, unsigned.format())
        assert unsigned.unsigned == (1, history.events[-1].version)


def test_the_stored_hash_is_the_envelope_hash() -> None:
    item = golden("jink").events[3]
    envelope = Envelope.from_dict({**item.to_dict(), "game_id": "golden-jink"})
    assert stored_hash("golden-jink", item, item.data) == envelope_hash(envelope) == item.hash


@pytest.mark.parametrize("extra", [0, 3])
def test_a_rob_discard_cannot_be_recovered_from_the_chain_during_the_deal(extra: int) -> None:
    # The stored hash covers the discard without a salt: given any hash from the rob on,
    # a seat could try the 53 cards. So the view withholds them until the deal is revealed.
    history = golden("dealer-robs-turned-ace")
    replay = replay_log(recorded(history))
    robbed = next(e for e in history.events if e.type == "turn_up_robbed")
    view = build_history(str(history.game_id), replay, 0, as_of=robbed.version + extra)
    hidden = next(e for e in view.events if e.type == "turn_up_robbed")
    assert hidden.redacted == ("discard",) and hidden.prev_hash is not None
    later = [e for e in view.events if e.version >= robbed.version]
    shown = {e.hash for e in later} | {e.prev_hash for e in later[1:]} | {view.head}
    assert shown == {None}
    complete = dataclasses.replace(hidden, hash="")
    candidates = {stored_hash(str(view.game_id), complete, {**hidden.data, "discard": card})
                  for card in ("2S", "3S", robbed.data["discard"])}
    assert not candidates & {e.hash for e in view.events}
    report = verify(view)
    assert report.ok and any(u.what == "the hashes and chain links" for u in report.unchecked)


def test_the_hashes_come_back_once_the_deal_is_revealed() -> None:
    history = golden("dealer-robs-turned-ace")
    replay = replay_log(recorded(history))
    view = build_history(str(history.game_id), replay, 0)
    assert all(event.hash is not None for event in view.events)
    assert view.head == history.head


def test_the_contribution_secret_is_hidden_until_the_game_is_over_then_shown_to_all() -> None:
    """Noninterference for the secret: while the game goes on, a different secret changes no
    byte of what a seat or a spectator is shown of any event (only the hashes, which cover
    it); once the game is over every view shows it, and event 1's hash is checked."""
    driver = mixed_game(deals=100)
    events = driver.recorded
    created = events[0].event
    assert isinstance(created, GameCreated) and created.contribution_secret is not None
    other = dataclasses.replace(created, contribution_secret="ab" * 32)
    over = [index for index, item in enumerate(events) if index and replay_log(
        events[:index + 1]).states[-1].phase == "over"]
    assert over == [len(events) - 1]
    for viewer in (0, 3, "spectator"):
        assert event_view(created, viewer) == event_view(other, viewer)
        assert event_view(created, viewer)["redacted"] == ["contribution_secret"]
        shown = event_view(created, viewer, over=True)
        assert shown["contribution_secret"] == created.contribution_secret
        assert "redacted" not in shown
        for as_of in (2, len(events) - 1):
            history = build_history(driver.game_id, events, viewer, as_of=as_of)
            assert history.events[0].redacted == ("contribution_secret",)
        finished = build_history(driver.game_id, events, viewer)
        assert finished.events[0].redacted == ()
        report = verify(signed(finished))
        assert report.ok and report.complete, report.format()


def test_a_history_that_shows_the_secret_of_a_game_not_over_fails() -> None:
    driver = mixed_game(deals=1)
    history = build_history(driver.game_id, driver.recorded, 3)
    first = history.events[0]
    created = driver.recorded[0].event
    assert isinstance(created, GameCreated)
    shown = dataclasses.replace(first, data={**first.data,
                                             "contribution_secret": created.contribution_secret},
                                redacted=())
    report = verify(dataclasses.replace(history, events=(shown, *history.events[1:])))
    assert [problem.code for problem in report.problems] == ["view"]
    assert "the game is not over" in report.problems[0].message
