"""``fortyfive drive verify`` holds a drive's history to everything a reader of it sees: every
part of its standings (adjustments, rounds called, the roster, not only the players), the round
each game is listed in; it says when the history is not of a finished drive (a prefix), and
checks the signature the history carries with the key it carries, keys given or not.

The histories are built from a drive served before drive events were typed (golden), with
director's events written into it and its standings restated with the service's own code, and
checkpoints signed with the test key of docs/vectors/checkpoint.json."""

from __future__ import annotations

import copy
import hashlib
import json
from pathlib import Path
from typing import Any

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from engine.drives import fold_drive
from engine.standings import TableResult, public_results, standings, standings_document
from events import checkpoints
from events.chain import envelope_hash
from events.codec import canonical_json
from events.envelope import DriveEnvelope, Envelope
from events.upcasting import decode_drive
from replay.verification.drive import check_drive
from service.cli import main

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = ROOT / "tests" / "replay" / "golden" / "drives" / "untyped-progressive.json"
VECTORS = json.loads((ROOT / "docs" / "vectors" / "checkpoint.json").read_text())
KEY = Ed25519PrivateKey.from_private_bytes(bytes.fromhex(VECTORS["private_key_seed_hex"]))
KEYS = checkpoints.read_keys(VECTORS["keys_document"])
CARRIED = VECTORS["keys_document"]["keys"][0]
Document = dict[str, Any]


def _event(type_: str, data: dict[str, Any]) -> dict[str, Any]:
    return {"type": type_, "data": data, "schema": 1, "actor": "director",
            "command_id": f"test-{type_}", "occurred_at": "2026-01-01T20:00:00Z"}


def _reseal(document: Document) -> Document:
    """Numbers and chains the drive's events again and restates the standings with the
    service's own code: the history checks out against itself."""
    prev = "0" * 64
    for version, envelope in enumerate(document["events"], start=1):
        envelope.update(drive_id=document["drive_id"], version=version, prev_hash=prev)
        body = {k: v for k, v in envelope.items() if k != "hash"}
        envelope["hash"] = prev = hashlib.sha256(canonical_json(body)).hexdigest()
    document["head"] = prev
    drive = fold_drive(document["drive_id"], (decode_drive(DriveEnvelope.from_dict(e))
                                              for e in document["events"]))
    results = {g["game"]: TableResult.from_dict(g["result"]) for g in document["games"]}
    document["standings"] = standings_document(
        drive, standings(drive, public_results(drive, results)))
    return document


def _directed() -> Document:
    """The golden drive with a substitution before round 2, and round 2 called and its table 1
    abandoned (average-plus to side A, average-minus to side B)."""
    document = json.loads(GOLDEN.read_bytes())
    events = document["events"]
    ended_2 = next(i for i, e in enumerate(events)
                   if e["type"] == "round_ended" and e["data"]["round"] == 2)
    events[ended_2:ended_2] = [
        _event("table_abandoned", {"round": 2, "table": 1,
                                   "adjusted": ["average_plus", "average_minus"],
                                   "reason": "a player fell ill"}),
        _event("round_called", {"round": 2, "reason": "time"})]
    ended_1 = next(i for i, e in enumerate(events)
                   if e["type"] == "round_ended" and e["data"]["round"] == 1)
    events.insert(ended_1 + 1, _event("player_substituted", {
        "player": 0, "name": "Nora", "type": "bot", "level": "basic", "reason": "left early"}))
    return _reseal(document)


def _signed(document: Document, version: int | None = None) -> Document:
    """Returns *document* carrying a checkpoint at *version* (its head by default) signed by
    the test key, and that key."""
    at = version or len(document["events"])
    return {**document, "checkpoint_key": CARRIED, "checkpoint": checkpoints.sign(
        KEY, document["drive_id"], at, document["events"][at - 1]["hash"],
        "2026-01-01T23:00:00Z", subject="drive_id")}


def test_a_drive_history_with_a_directors_actions_verifies_and_states_them() -> None:
    document = _directed()
    assert check_drive(document).problems == []
    stated = document["standings"]
    assert [a["sides"][0]["adjusted"] for a in stated["adjustments"]] == ["average_plus"]
    assert stated["called"] == [2]
    assert [c["name"] for c in stated["roster"]] == ["Nora"]


def _swap_adjusted(standings: Document) -> None:
    sides = standings["adjustments"][0]["sides"]
    sides[0]["adjusted"], sides[1]["adjusted"] = sides[1]["adjusted"], sides[0]["adjusted"]


def _slander(standings: Document) -> None:
    standings["adjustments"][0]["reason"] = "Declan cheated"


def _made_up_adjustment(standings: Document) -> None:
    standings["adjustments"].append({**standings["adjustments"][0], "round": 1})


def _forged_roster_name(standings: Document) -> None:
    standings["roster"][0]["name"] = "Mallory"


def _empty(part: str) -> Any:
    def change(standings: Document) -> None:
        standings[part] = []
    return change


def _drop(part: str) -> Any:
    def change(standings: Document) -> None:
        del standings[part]
    return change


def _extra(standings: Document) -> None:
    standings["note"] = "Declan cheated"


@pytest.mark.parametrize(("change", "problem"), [
    (_swap_adjusted, "the standings' adjustments differ from those derived from the drive's "
                     'events: entry 1: its sides: entry 1: its adjusted is "average_minus", '
                     'derived "average_plus"'),
    (_slander, "the standings' adjustments differ from those derived from the drive's events: "
               'entry 1: its reason is "Declan cheated", derived "a player fell ill"'),
    (_made_up_adjustment, "the standings' adjustments differ from those derived from the "
                          "drive's events: 2 stated, 1 derived"),
    (_empty("adjustments"), "the standings' adjustments differ from those derived from the "
                            "drive's events: 0 stated, 1 derived"),
    (_empty("called"), "the standings' rounds called differ from those derived from the "
                       "drive's events: 0 stated, 1 derived"),
    (_empty("roster"), "the standings' roster changes differ from those derived from the "
                       "drive's events: 0 stated, 1 derived"),
    (_forged_roster_name, "the standings' roster changes differ from those derived from the "
                          'drive\'s events: entry 1: its name is "Mallory", derived "Nora"'),
    (_drop("adjustments"), "the standings leave out their adjustments, which the drive's "
                           "events make [{"),
    (_extra, 'the standings state "note", which a drive\'s standings do not have'),
])
def test_every_part_of_the_standings_is_derived_again_and_named_when_it_differs(
    change: Any, problem: str, tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    document = _signed(_directed())
    change(document["standings"])
    report = check_drive(document, keys=KEYS)
    assert len(report.problems) == 1 and report.problems[0].startswith(problem), report.problems
    path = tmp_path / "drive.json"
    path.write_text(json.dumps(document))
    keys = tmp_path / "keys.json"
    keys.write_text(json.dumps(VECTORS["keys_document"]))
    assert main(["drive", "verify", str(path), "--keys", str(keys)]) == 1
    out = capsys.readouterr().out
    assert f"FAIL {problem}" in out and "OK drive" not in out


def test_a_game_listed_in_another_round_fails() -> None:
    document = _signed(json.loads(GOLDEN.read_bytes()))
    games = document["games"]
    first, last = games[0], games[-1]
    first["round"], last["round"] = last["round"], first["round"]
    assert check_drive(document, keys=KEYS).problems == [
        f"game {first['game']}: it is listed in round 2, but round 1 started it",
        f"game {last['game']}: it is listed in round 1, but round 2 started it"]


def _first_round_only(document: Document) -> Document:
    """The history cut after round 1's end, its standings restated."""
    cut = copy.deepcopy(document)
    ended = next(i for i, e in enumerate(cut["events"]) if e["type"] == "round_ended")
    cut["events"] = cut["events"][:ended + 1]
    cut["games"] = [g for g in cut["games"] if g["round"] == 1]
    return _reseal(cut)


def test_a_drive_history_cut_short_is_a_prefix_and_fails_complete(
    tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    document = _first_round_only(json.loads(GOLDEN.read_bytes()))
    document = _signed(document)  # The genuine round-1 checkpoint, as the drive view has it.
    report = check_drive(document, keys=KEYS)
    assert report.ok and not report.complete
    assert str(report.prefix) == (
        "the drive is not finished: this history stops at drive event 3, with 1 of its 2 "
        "rounds ended; rounds after 1 are not in this history")
    path = tmp_path / "drive.json"
    path.write_text(json.dumps(document))
    keys = tmp_path / "keys.json"
    keys.write_text(json.dumps(VECTORS["keys_document"]))
    assert main(["drive", "verify", str(path), "--keys", str(keys)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == f"PREFIX: {report.prefix}"
    assert main(["drive", "verify", str(path), "--keys", str(keys), "--complete"]) == 1
    assert ("FAILED: --complete, and this history is not of a finished drive"
            in capsys.readouterr().out)
    assert main(["drive", "verify", str(path), "--keys", str(keys), "--json",
                 "--complete"]) == 1
    answer = json.loads(capsys.readouterr().out)
    assert (answer["ok"], answer["complete"], answer["prefix"]) == (False, False, {
        "last": 3, "rounds_ended": 1, "rounds": 2, "vouched": None, "missing": None})


def test_a_drive_history_without_its_finish_is_a_prefix_and_a_later_checkpoint_counts_it(
) -> None:
    whole = _signed(json.loads(GOLDEN.read_bytes()))
    cut = copy.deepcopy(whole)
    cut["events"].pop()
    cut = _reseal(cut)
    cut.pop("checkpoint")
    report = check_drive(cut)
    assert report.ok and str(report.prefix) == (
        "the drive is not finished: this history stops at drive event 5, with all 2 of its "
        "rounds ended but not the drive's finish")
    # The checkpoint of the whole drive, kept, says how much is missing.
    report = check_drive(cut, checkpoint=whole["checkpoint"], keys=KEYS)
    assert report.prefix is not None and report.prefix.to_dict()["missing"] == 1
    assert str(report.prefix).endswith("; a checkpoint vouches for drive event 6, so at least "
                                       "1 event of the drive is missing from it")


def test_events_after_the_carried_checkpoint_are_vouched_for_by_no_signature() -> None:
    document = _signed(json.loads(GOLDEN.read_bytes()), version=3)
    report = check_drive(document, keys=KEYS)
    assert report.ok and report.prefix is None and not report.complete
    assert report.unchecked == ["drive events 4-6: vouched for by no signature (the "
                                "checkpoints checked stop at version 3)"]
    assert check_drive(_signed(json.loads(GOLDEN.read_bytes())), keys=KEYS).complete


def _renamed_with_a_zero_signature() -> Document:
    """A player renamed, the chain rehashed, the standings restated, the carried checkpoint's
    head replaced and its signature zeros."""
    document = _signed(json.loads(GOLDEN.read_bytes()))
    document["events"][0]["data"]["players"][0]["name"] = "Mallory"
    document = _reseal(document)
    document["checkpoint"] = {**document["checkpoint"], "head": document["head"],
                              "signature": "0" * 128}
    return document


def test_a_bad_signature_fails_without_keys_when_the_history_carries_its_key(
    tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    document = _renamed_with_a_zero_signature()
    assert check_drive(document).problems == [
        "the checkpoint the history carries: the signature does not match the checkpoint "
        f"(made with key {VECTORS['key_id']})"]
    path = tmp_path / "drive.json"
    path.write_text(json.dumps(document))
    assert main(["drive", "verify", str(path)]) == 1
    assert "OK drive" not in capsys.readouterr().out
    # The genuine one verifies with the key it carries, and says which key that was.
    signed = _signed(json.loads(GOLDEN.read_bytes()))
    genuine = check_drive(signed)
    assert genuine.ok and genuine.complete
    assert [s.to_dict() for s in genuine.signatures] == [{
        "checkpoint": "the checkpoint the history carries", "key_id": VECTORS["key_id"],
        "trust": "history_key", "version": signed["checkpoint"]["version"]}]


def test_a_signature_no_key_checks_is_said_unchecked_and_vouches_for_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    document = _renamed_with_a_zero_signature()
    del document["checkpoint_key"]
    report = check_drive(document)
    assert report.ok and not report.complete
    assert [s.trust for s in report.signatures] == ["none"]
    assert report.unchecked == ["drive events 1-6: vouched for by no signature (no "
                                "checkpoint's signature was checked)"]
    path = tmp_path / "drive.json"
    path.write_text(json.dumps(document))
    assert main(["drive", "verify", str(path)]) == 0
    out = capsys.readouterr().out
    assert (f"signature: the checkpoint the history carries (events 1-6): signature NOT "
            f"checked: key {VECTORS['key_id']} is neither given nor carried by the history"
            ) in out
    assert main(["drive", "verify", str(path), "--complete"]) == 1


def test_a_game_listed_twice_fails_naming_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    document = _signed(json.loads(GOLDEN.read_bytes()))
    genuine = document["games"][0]
    forged = {**{k: v for k, v in genuine.items() if k != "events"},
              "result": {**genuine["result"], "scores": [15, 0], "winner": 0}}
    document["games"].insert(0, forged)
    report = check_drive(document, keys=KEYS)
    assert not report.ok
    assert report.problems[0] == f"game {genuine['game']}: the history lists it twice"
    path = tmp_path / "drive.json"
    path.write_text(json.dumps(document))
    keys = tmp_path / "keys.json"
    keys.write_text(json.dumps(VECTORS["keys_document"]))
    assert main(["drive", "verify", str(path), "--complete", "--keys", str(keys)]) == 1
    assert f"FAIL game {genuine['game']}: the history lists it twice" in capsys.readouterr().out


def test_a_game_started_at_another_table_fails() -> None:
    document = json.loads(GOLDEN.read_bytes())
    started = next(e for e in document["events"] if e["type"] == "round_started")
    started["data"]["games"].reverse()
    first, second = started["data"]["games"]
    report = check_drive(_reseal(document))
    assert report.problems == [
        f"round 1 started game {first} at table 1, whose game is {second}",
        f"round 1 started game {second} at table 2, whose game is {first}"]


def _named(document: Document, names: list[str]) -> Document:
    """Names the seats of the first listed game *names*, its chain sealed again."""
    entry = document["games"][0]
    entry["events"][0]["data"]["names"] = names
    prev = "0" * 64
    for envelope in entry["events"]:
        envelope["prev_hash"] = prev
        envelope["hash"] = prev = envelope_hash(Envelope.from_dict(envelope))
    entry["head"] = prev
    return document


def test_a_game_seating_players_its_table_does_not_fails() -> None:
    # Round 1, table 1 seats players 7, 1, 0, 6 of the schedule.
    seated = ["Hugh", "Bob", "Ann", "Gail"]
    assert check_drive(_named(json.loads(GOLDEN.read_bytes()), seated)).problems == []
    game = json.loads(GOLDEN.read_bytes())["games"][0]["game"]
    swapped = ["Hugh", "Bob", "Ann", "Cora"]
    assert check_drive(_named(json.loads(GOLDEN.read_bytes()), swapped)).problems == [
        f'game {game}: it seats ["Hugh", "Bob", "Ann", "Cora"], but the drive\'s schedule puts '
        '["Hugh", "Bob", "Ann", "Gail"] at table 1 of round 1']


def test_a_past_round_names_its_seats_as_they_sat_before_a_substitution() -> None:
    # _directed substitutes player 0 (Ann) by Nora after round 1: round 1 still seats Ann.
    document = _named(_directed(), ["Hugh", "Bob", "Ann", "Gail"])
    assert check_drive(document).problems == []
    document = _named(_directed(), ["Hugh", "Bob", "Nora", "Gail"])
    assert len(check_drive(document).problems) == 1


def _float_points(standings: Document) -> None:
    standings["players"][0]["points"] = float(standings["players"][0]["points"])


def _bool_games_won(standings: Document) -> None:
    player = next(p for p in standings["players"] if p["games_won"] == 1)
    player["games_won"] = True


@pytest.mark.parametrize(("change", "problem"), [
    (_float_points, "entry 1: its points is 20.0, derived 20"),
    (_bool_games_won, "its games_won is true, derived 1"),
])
def test_a_standings_number_written_as_another_kind_fails(change: Any, problem: str) -> None:
    document = json.loads(GOLDEN.read_bytes())
    change(document["standings"])
    problems = check_drive(document).problems
    assert len(problems) == 1 and problems[0].startswith(
        "the standings' players (their points, games won and places) differ from those derived "
        "from the games: ") and problems[0].endswith(problem), problems


def test_a_result_naming_another_game_fails() -> None:
    document = json.loads(GOLDEN.read_bytes())
    first, second = document["games"][0], document["games"][1]
    first["result"]["game"] = second["game"]
    assert check_drive(document).problems[0] == (
        f"game {first['game']}: its result is of game \"{second['game']}\"")
