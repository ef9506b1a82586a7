"""Tampering of every kind is caught, and the report names the event and what differs."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from replay_helpers import golden, json_paths, raw, recorded, sample_game, set_at, signed

from events.chain import GENESIS_HASH, seal
from replay.formats.build import build_history, replay_log
from replay.formats.export import export_text
from replay.formats.jsonformat import dumps, read_json
from replay.formats.text import read_text
from replay.verification.report import Report
from replay.verification.verify import verify

GAME = "seed-000-09"


def _verify(value: dict[str, Any]) -> Report:
    history, diagnostics = read_json(json.dumps(value))
    assert history is not None, diagnostics
    return verify(history)


def _codes(report: Report) -> set[tuple[str, int | None]]:
    return {(problem.code, problem.version) for problem in report.problems}


@pytest.fixture
def doc() -> dict[str, Any]:
    return copy.deepcopy(raw(f"{GAME}.json"))


def _index_of_play(doc: dict[str, Any], nth: int) -> int:
    plays = [i for i, e in enumerate(doc["events"]) if e["type"] == "card_played"]
    return plays[nth]


def test_the_untouched_history_verifies(doc: dict[str, Any]) -> None:
    report = _verify(doc)
    assert report.ok and not report.unchecked


def test_a_changed_card_is_named_by_its_event(doc: dict[str, Any]) -> None:
    index = _index_of_play(doc, 6)
    event = doc["events"][index]
    event["data"]["card"] = "AD"
    report = _verify(doc)
    assert not report.ok
    assert ("hash", event["version"]) in _codes(report)
    message = next(p.message for p in report.problems if p.code == "hash")
    assert "card_played" in message and "changed" in message


def test_two_reordered_events_are_named(doc: dict[str, Any]) -> None:
    first = _index_of_play(doc, 7)
    doc["events"][first], doc["events"][first + 1] = (
        doc["events"][first + 1], doc["events"][first])
    report = _verify(doc)
    versions = {version for code, version in _codes(report) if code in ("version", "chain")}
    assert {doc["events"][first]["version"], doc["events"][first + 1]["version"]} <= versions


def test_a_dropped_event_is_named(doc: dict[str, Any]) -> None:
    index = _index_of_play(doc, 9)
    dropped = doc["events"].pop(index)
    report = _verify(doc)
    problem = next(p for p in report.problems if p.code == "version")
    assert f"event {dropped['version']} missing" in problem.message
    assert problem.version == dropped["version"] + 1


def test_an_inserted_event_is_named(doc: dict[str, Any]) -> None:
    index = _index_of_play(doc, 3)
    doc["events"].insert(index + 1, copy.deepcopy(doc["events"][index]))
    report = _verify(doc)
    assert not report.ok
    assert any(p.code == "version" and "out of order or repeated" in p.message
               for p in report.problems)


def test_a_forged_event_with_its_own_valid_hash_breaks_the_chain(doc: dict[str, Any]) -> None:
    index = _index_of_play(doc, 3)
    before = doc["events"][index]
    forged, _ = seal(game_id=doc["game_id"], version=before["version"] + 1,
                     event_type="card_played", schema=1,
                     data={"seat": before["data"]["seat"], "card": "KS"},
                     actor=before["actor"], command_id=None,
                     occurred_at=before["occurred_at"], prev_hash=before["hash"])
    doc["events"].insert(index + 1, forged.to_dict() | {})
    del doc["events"][index + 1]["game_id"]
    report = _verify(doc)
    assert ("chain", doc["events"][index + 2]["version"]) in _codes(report)


def test_a_changed_profile_option_is_caught(doc: dict[str, Any]) -> None:
    doc["rules"]["options"]["target"] = 50
    report = _verify(doc)
    messages = [p.message for p in report.problems if p.code == "rules"]
    assert any("digest" in m for m in messages)
    assert any("option 'target' is 50 in the embedded rules but 45 in event 1" in m
               for m in messages)


def test_a_changed_seat_listing_is_named_as_people_count_seats_quoting_the_data(
        doc: dict[str, Any]) -> None:
    # Seats and sides count from 0 in the data, from 1 and by letter when a person reads them.
    doc["seats"][0]["type"] = "bot"
    doc["seats"][1]["side"] = 0
    doc["seats"][2]["seat"] = 0
    report = _verify(doc)
    assert [(p.message, p.pointer) for p in report.problems if p.code == "seats"] == [
        ("seat 1 is listed as 'bot' but event 1 seats a 'human'", "/seats/0"),
        ('seat 2 is listed with "side": 0 (side A), but plays for side B ("side": 1)',
         "/seats/1"),
        ('seat 3 is listed with "seat": 0, not 2 (the data counts seats from 0)', "/seats/2"),
    ]


def test_a_viewer_not_at_the_table_is_quoted_as_the_data_has_it(doc: dict[str, Any]) -> None:
    doc["view"]["viewer"] = 6
    report = _verify(doc)
    assert [(p.message, p.pointer) for p in report.problems if p.code == "view"] == [
        ('the view is for "viewer": 6, not a seat at this table (the data counts its 6 seats '
         "from 0)", "/view/viewer")]


def test_a_changed_option_with_a_fixed_digest_is_still_caught(doc: dict[str, Any]) -> None:
    from engine.profiles import make_ruleset

    doc["rules"]["options"]["target"] = 50
    doc["rules"]["digest"] = make_ruleset("bruff", {"target": 50}).digest()
    report = _verify(doc)
    assert any(p.code == "rules" and p.version == 1 for p in report.problems)


def test_a_changed_option_in_the_first_event_breaks_its_hash(doc: dict[str, Any]) -> None:
    doc["events"][0]["data"]["options"]["target"] = 50
    report = _verify(doc)
    assert ("hash", 1) in _codes(report)


def test_a_changed_derived_score_is_named(doc: dict[str, Any]) -> None:
    result = doc["results"]["deals"][0]["result"]
    result["scores"][1] += 5
    report = _verify(doc)
    problem = next(p for p in report.problems if p.code == "result")
    assert problem.version == doc["events"][-1]["version"]
    assert "scores" in problem.message and "the engine derives" in problem.message
    assert problem.pointer == "/results/deals/0/result/scores"


def test_a_changed_fact_is_named_by_the_event_that_established_it(doc: dict[str, Any]) -> None:
    facts = doc["results"]["deals"][0]["facts"]
    bonus = next(f for f in facts if f["kind"] == "bonus_proven")
    bonus["credited_trick"] = 2
    report = _verify(doc)
    problem = next(p for p in report.problems if p.code == "result")
    assert problem.version == bonus["version"] and "credited_trick" in problem.message


def test_a_changed_ruling_text_is_caught(doc: dict[str, Any]) -> None:
    fact = doc["results"]["deals"][0]["facts"][0]
    fact["ruling"]["text"] = "Because I said so."
    assert any(p.code == "result" for p in _verify(doc).problems)


def test_a_changed_head_is_caught(doc: dict[str, Any]) -> None:
    doc["head"] = doc["events"][-2]["hash"]
    assert any(p.code == "head" for p in _verify(doc).problems)


def test_a_history_rewritten_and_rehashed_throughout_fails_the_expected_head() -> None:
    history = golden(GAME)
    stored = recorded(history)
    events = [item.event for item in stored]
    index = next(i for i, e in enumerate(events) if e.TYPE == "card_played")
    envelopes = []
    prev = GENESIS_HASH
    for version, item in enumerate(stored, start=1):
        data = dict(item.envelope.data)
        if version == index + 1:
            data["card"] = "2C"  # Seat 0 leads its 2C instead of the 7S.
        envelope, _ = seal(game_id=item.envelope.game_id, version=version,
                           event_type=item.envelope.type, schema=item.envelope.schema,
                           data=data, actor=item.envelope.actor,
                           command_id=item.envelope.command_id,
                           occurred_at=item.envelope.occurred_at, prev_hash=prev)
        envelopes.append(envelope)
        prev = envelope.hash
    forged = json.loads(dumps(history))
    for raw_event, envelope in zip(forged["events"], envelopes, strict=True):
        raw_event.update({k: v for k, v in envelope.to_dict().items() if k != "game_id"})
    forged["head"] = prev
    rewritten, _ = read_json(json.dumps(forged))
    assert rewritten is not None
    report = verify(rewritten)
    assert not report.ok, "the re-fold still sees that the game no longer adds up"
    assert {p.code for p in report.problems} & {"fold", "result"}
    assert any(p.code == "head" for p in verify(rewritten, expected_head=history.head).problems)


def test_a_changed_revealed_seed_is_caught() -> None:
    value = copy.deepcopy(raw("turned-joker.json"))
    reveal = next(e for e in value["events"] if e["type"] == "seed_revealed")
    reveal["data"]["seed"] = "ab" * 32
    report = _verify(value)
    assert ("hash", reveal["version"]) in _codes(report)
    assert ("seed", reveal["version"]) in _codes(report)


def test_a_changed_commitment_in_a_seat_view_is_caught_through_the_revealed_seed() -> None:
    value = copy.deepcopy(raw("turned-joker.seat0.json"))
    shuffle = next(e for e in value["events"] if e["type"] == "deck_shuffled")
    assert shuffle["redacted"] == ["seed"]
    shuffle["data"]["commitment"] = "00" * 32
    report = _verify(value)
    assert ("hash", shuffle["version"]) in _codes(report)


def test_a_changed_face_down_card_in_an_auditor_view_is_caught() -> None:
    value = copy.deepcopy(raw("dealer-robs-turned-ace.json"))
    robbed = next(e for e in value["events"] if e["type"] == "turn_up_robbed")
    robbed["data"]["discard"] = "2H" if robbed["data"]["discard"] != "2H" else "3H"
    assert ("hash", robbed["version"]) in _codes(_verify(value))


def test_a_seat_view_rebuilds_the_hidden_rob_discard_once_the_seed_is_revealed() -> None:
    report = _verify(raw("dealer-robs-turned-ace.seat1.json"))
    assert report.ok and not report.unchecked, report.format()
    assert report.checked["hashes_rebuilt"] >= 2  # The shuffle and the rob.


@pytest.mark.parametrize("change, caught", [
    (lambda doc: doc["events"][_index_of_play(doc, 6)]["data"].update(card="AD"),
     {"hash", "fold"}),
    (lambda doc: doc["results"]["deals"][0]["result"]["scores"].__setitem__(0, 99),
     {"result"}),
])
def test_tampering_survives_conversion_to_text_and_back(
    doc: dict[str, Any], change: Any, caught: set[str]
) -> None:
    change(doc)
    history, _ = read_json(json.dumps(doc))
    assert history is not None
    back = read_text(export_text(history))
    assert dumps(back) == dumps(history)
    assert {p.code for p in verify(back).problems} >= caught


def test_a_one_deal_history_verifies_and_catches_a_changed_start() -> None:
    history = golden("all-pass-redeal")
    replay = replay_log(recorded(history))
    second = build_history(str(history.game_id), replay, 1, deal=2)
    report = verify(signed(second))
    assert report.ok and report.complete, report.format()
    assert ("the game before event 9 is taken from the history's start block (dealer seat 1, "
            "scores A 0, B 0); the events before it are not in this history, and no hash or "
            "signature in it covers that dealer and those scores: they are the server's "
            "statement (the whole game's history checks them)") in report.notes
    value = json.loads(dumps(second))
    value["start"]["scores"][0] = 40
    assert any(p.code == "result" for p in _verify(value).problems)


def test_a_one_deal_history_starting_from_scores_no_game_reaches_fails() -> None:
    """Bruff scores only grow from 0: a start block below 0 is refused, by name."""
    driver = sample_game("start")
    second = build_history(driver.game_id, driver.recorded, "auditor", deal=2)
    assert verify(second).ok
    value = json.loads(dumps(second))
    assert value["rules"]["profile"] == "bruff"
    value["start"]["scores"] = [-40, 15, 10]
    problems = _verify(value).problems
    assert [p.code for p in problems][:1] == ["start"], problems
    assert "start scores [-40, 15, 10] go below 0, which no bruff game reaches" in (
        problems[0].message)


_VALUES = st.none() | st.booleans() | st.integers(-3, 60) | st.sampled_from(
    ["", "5S", "JK", "xx", "auditor", "ab" * 32, "hmac-sha256-fy/1"]) | st.lists(
    st.integers(-1, 10) | st.sampled_from(["5S", "KD"]), max_size=6)


@settings(max_examples=300, deadline=None)
@given(name=st.sampled_from(["seed-000-09.json", "turned-joker.seat0.json", "set-bid.json",
                             "chronology-finish.json"]),
       picks=st.lists(st.integers(0, 10**6), min_size=1, max_size=3), value=_VALUES)
def test_verification_never_raises_and_catches_any_change(
    name: str, picks: list[int], value: Any
) -> None:
    doc = copy.deepcopy(raw(name))
    original = json.dumps(doc, sort_keys=True)
    for pick in picks:
        paths = [p for p in json_paths(doc) if len(p) >= 2]
        path = paths[pick % len(paths)]
        set_at(doc, path, copy.deepcopy(value))
    history, diagnostics = read_json(json.dumps(doc))
    if history is None:
        assert diagnostics
        return
    report = verify(history)
    if json.dumps(doc, sort_keys=True) != original and not _only_free(doc, name):
        assert not report.ok or not report.complete, "a change went unnoticed"


def _only_free(doc: dict[str, Any], name: str) -> bool:
    """True when the change touched only what no check covers: the free tags, or a view
    narrowed to the one deal the history holds anyway (both claims are then true)."""
    before = copy.deepcopy(raw(name))
    after = copy.deepcopy(doc)
    deals = {e["data"].get("deal") for e in before["events"]
             if e["type"] in ("deck_shuffled", "deal_recorded")}
    if after["view"].get("deal") in deals and len(deals) == 1:
        after["view"]["deal"] = before["view"]["deal"]
    return {k: v for k, v in after.items() if k != "tags"} == {
        k: v for k, v in before.items() if k != "tags"}


def test_a_seat_view_that_shows_a_hidden_card_is_caught() -> None:
    # Putting the real card back keeps the hash right, but no seat's view shows it.
    value = copy.deepcopy(raw("turned-joker.seat0.json"))
    auditor = raw("turned-joker.json")
    index, hidden = next((i, e) for i, e in enumerate(value["events"])
                         if e["type"] == "joker_buried")
    hidden["data"] = auditor["events"][index]["data"]
    del hidden["redacted"]
    report = _verify(value)
    assert ("view", hidden["version"]) in _codes(report)
    assert "the view hides card" in next(p.message for p in report.problems if p.code == "view")
    assert ("hash", hidden["version"]) not in _codes(report)


def test_a_redacted_field_filled_in_wrongly_is_caught() -> None:
    value = copy.deepcopy(raw("turned-joker.seat0.json"))
    hidden = next(e for e in value["events"] if e["type"] == "joker_buried")
    hidden["data"]["card"] = "JK"
    assert ("view", hidden["version"]) in _codes(_verify(value))


@pytest.mark.parametrize("value", [[1], {"deal": 1}])
def test_a_revealed_seed_naming_its_deal_by_a_list_is_a_problem_not_a_crash(value: Any) -> None:
    # A seat's history stops at a deal whose seed it does not reveal; working out whether the
    # game was over then reads every seed_revealed's deal, which must not be trusted to be one.
    doc = copy.deepcopy(raw("turned-joker.seat0.json"))
    revealed = [e for e in doc["events"] if e["type"] == "seed_revealed"]
    assert revealed, "the history reveals a seed"
    revealed[0]["data"]["deal"] = value
    history, diagnostics = read_json(json.dumps(doc))
    assert history is not None, diagnostics
    report = verify(history)
    assert not report.ok
