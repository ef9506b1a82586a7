"""The forgeries of issue 23, each tried in several variants against a finished game of people
and bots dealt by /2: a seat's or a spectator's history must fail every variant that a
verifier can catch from the history alone, and say plainly what it could not check.

Each forgery starts from a genuine history as the service hands it out (with its carried
checkpoint, signed by a test key) and changes it as a forger would: by editing the document,
by re-hashing the chain from the changed event on, or by re-sealing the whole game with every
result rebuilt (a forger who knows everything the view shows).
"""

from __future__ import annotations

import copy
import dataclasses
import functools
import json
from collections.abc import Callable
from typing import Any

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from replay_helpers import MIXED_SEATS, forked_game, mixed_game, signed

from engine.profiles import make_ruleset
from events import checkpoints
from events.chain import GENESIS_HASH, seal
from events.envelope import RecordedEvent
from events.upcasting import decode
from replay.formats.build import build_history
from replay.formats.derive import Replayer, apply_start, derive_results
from replay.formats.export import export_text
from replay.formats.importing import read_history
from replay.formats.jsonformat import dumps, read_json
from replay.sample import GameDriver
from replay.verification.reconstruct import stored_hash
from replay.verification.report import Report
from replay.verification.verify import verify

KEY = Ed25519PrivateKey.from_private_bytes(bytes(range(32)))
KEYS = {checkpoints.key_id(checkpoints.public_bytes(KEY)): checkpoints.public_bytes(KEY)}
SIGNED_AT = "2026-01-02T03:04:05Z"
BOTS = [seat for seat, kind in enumerate(MIXED_SEATS) if kind == "bot"]

Doc = dict[str, Any]


@functools.cache
def _finished() -> GameDriver:
    driver = mixed_game(deals=100)
    assert driver.state is not None and driver.state.phase == "over"
    return driver


def _doc(viewer: object, recorded: list[RecordedEvent] | None = None) -> Doc:
    """The history of the finished game for *viewer* as the service hands it out, carrying the
    checkpoint of its genuine last event (whatever *recorded* it is cut from)."""
    genuine = _finished().recorded
    history = build_history("g-contrib", recorded or genuine, viewer)
    doc: Doc = json.loads(dumps(history))
    truth = build_history("g-contrib", genuine, "auditor")
    assert truth.head is not None
    doc["checkpoint"] = checkpoints.sign(KEY, "g-contrib", truth.events[-1].version, truth.head,
                                         SIGNED_AT)
    return doc


def _verify(doc: Doc, **kwargs: Any) -> Report:
    history, diagnostics = read_json(json.dumps(doc))
    assert history is not None, diagnostics
    return verify(history, **kwargs)


def _resealed(change: Callable[[str, dict[str, Any]], dict[str, Any]]) -> list[RecordedEvent]:
    """The game's events with each event's data passed through *change(type, data)* and the
    chain re-hashed throughout: the forger knows every secret."""
    prev, out = GENESIS_HASH, []
    for item in _finished().recorded:
        old = item.envelope
        envelope, _ = seal(game_id=old.game_id, version=old.version, event_type=old.type,
                           schema=old.schema, data=change(old.type, copy.deepcopy(dict(old.data))),
                           actor=old.actor, command_id=old.command_id,
                           occurred_at=old.occurred_at, prev_hash=prev)
        out.append(RecordedEvent(envelope, decode(envelope)))
        prev = envelope.hash
    return out


def _relabel(kind: str, data: dict[str, Any]) -> dict[str, Any]:
    if kind == "game_created":
        data["seats"] = ["human"] * len(data["seats"])
    return data


def _retarget(kind: str, data: dict[str, Any]) -> dict[str, Any]:
    if kind == "game_created":
        data["options"] = {**data["options"], "target": 25}
    return data


def _rehash_from(doc: Doc, first: int) -> None:
    """Recomputes the hashes of *doc*'s events from position *first* on, from the data each
    shows (a forger's edit of a view), and the head."""
    history, _ = read_json(json.dumps(doc))
    assert history is not None
    prev = doc["events"][first - 1]["hash"] if first else GENESIS_HASH
    for index in range(first, len(doc["events"])):
        event = doc["events"][index]
        event["prev_hash"] = prev
        item = dataclasses.replace(history.events[index], prev_hash=prev)
        event["hash"] = prev = stored_hash("g-contrib", item, event["data"])
    doc["head"] = prev


def _relabelled_document(doc: Doc) -> Doc:
    doc["events"][0]["data"]["seats"] = ["human"] * len(MIXED_SEATS)
    for seat in doc["seats"]:
        seat["type"] = "human"
    return doc


def _retargeted_document(doc: Doc) -> Doc:
    """Target 25 in event 1 and the rules block (digest recomputed), and the winner the other
    side."""
    doc["events"][0]["data"]["options"]["target"] = 25
    doc["rules"]["options"]["target"] = 25
    rules = make_ruleset(doc["rules"]["profile"], doc["rules"]["options"],
                         doc["rules"]["players"])
    doc["rules"]["digest"] = rules.digest()
    return _winner_only(doc)


VIEWERS = (3, 0, "spectator")


def test_genuine_seat_and_spectator_histories_of_a_finished_game_pass_complete() -> None:
    for viewer in VIEWERS:
        doc = _doc(viewer)
        assert "contribution_secret" not in doc["events"][0].get("redacted", ())
        report = _verify(doc, keys=KEYS)
        assert report.ok and report.complete, (viewer, report.format())
        assert report.checked["results"] > 0


RELABELLED: dict[str, Callable[[object], Doc]] = {
    "edited": lambda viewer: _relabelled_document(_doc(viewer)),
    "edited, event 1 re-hashed": lambda viewer: _rehashed(_relabelled_document(_doc(viewer)),
                                                          1),
    "edited, chain re-hashed": lambda viewer: _rehashed(_relabelled_document(_doc(viewer)), 0),
    "re-sealed throughout": lambda viewer: _doc(viewer, _resealed(_relabel)),
}


def _rehashed(doc: Doc, through: int) -> Doc:
    """Re-hashes event 1 only (*through* 1) or the whole chain (0)."""
    if through == 1:
        head = doc["head"]
        _rehash_from(doc, 0)
        kept = doc["events"][1]["prev_hash"]
        doc["head"] = head
        doc["events"][1]["prev_hash"] = kept  # Only event 1's own hash is made to fit.
        _restore_after_first(doc)
        return doc
    _rehash_from(doc, 0)
    return doc


def _restore_after_first(doc: Doc) -> None:
    genuine = _doc(doc["view"]["viewer"])
    for index in range(1, len(doc["events"])):
        doc["events"][index]["hash"] = genuine["events"][index]["hash"]
        doc["events"][index]["prev_hash"] = genuine["events"][index]["prev_hash"]
    doc["head"] = genuine["head"]


@pytest.mark.parametrize("viewer", VIEWERS)
@pytest.mark.parametrize("variant", sorted(RELABELLED))
def test_bots_relabelled_as_people_fail(viewer: object, variant: str) -> None:
    doc = RELABELLED[variant](viewer)
    assert all(seat["type"] == "human" for seat in doc["seats"])
    report = _verify(doc)
    assert not report.ok, (variant, report.format())
    with_keys = _verify(doc, keys=KEYS)
    assert not with_keys.ok


RETARGETED: dict[str, Callable[[object], Doc]] = {
    "edited": lambda viewer: _retargeted_document(_doc(viewer)),
    "winner only": lambda viewer: _winner_only(_doc(viewer)),
    "edited, chain re-hashed": lambda viewer: _rehashed(_retargeted_document(_doc(viewer)), 0),
    "re-sealed throughout": lambda viewer: _doc(viewer, _resealed(_retarget)),
}


def _winner_only(doc: Doc) -> Doc:
    """The game won by the next side instead."""
    game = doc["results"]["game"]
    game["winner"] = (game["winner"] + 1) % len(game["scores"])
    return doc


@pytest.mark.parametrize("viewer", VIEWERS)
@pytest.mark.parametrize("variant", sorted(RETARGETED))
def test_target_and_winner_changed_fail(viewer: object, variant: str) -> None:
    doc = RETARGETED[variant](viewer)
    report = _verify(doc)
    assert not report.ok, (variant, report.format())
    assert not _verify(doc, keys=KEYS).ok


@pytest.mark.parametrize("viewer", VIEWERS)
def test_relabelled_with_the_secret_hidden_again_fails(viewer: object) -> None:
    """A forger who hides the secret again, so that event 1's hash goes unchecked, fails: a
    finished game's history must show it, and the report says why."""
    doc = _relabelled_document(_doc(viewer))
    first = doc["events"][0]
    first["data"]["contribution_secret"] = None
    first["redacted"] = ["contribution_secret"]
    for keys in (None, KEYS):
        report = _verify(doc, keys=keys)
        assert not report.ok
        assert any(problem.code == "view" and "cannot be authenticated" in problem.message
                   for problem in report.problems), report.format()


@pytest.mark.parametrize("viewer", VIEWERS)
def test_resealed_without_its_checkpoint_fails_against_the_kept_one(viewer: object) -> None:
    doc = _doc(viewer, _resealed(_relabel))
    kept = doc.pop("checkpoint")
    assert _verify(doc).ok  # Nothing in the history itself can tell: a trust root must.
    report = _verify(doc, checkpoint=kept, keys=KEYS)
    assert not report.ok
    assert [problem.code for problem in report.problems] == ["checkpoint"]
    assert "rewritten" in report.problems[0].message


def _prefix(viewer: object, as_of: int) -> Doc:
    """The history up to *as_of* as ``?at=`` serves it: carrying the checkpoint of its own
    last event (when the view shows that hash)."""
    history = build_history("g-contrib", _finished().recorded, viewer, as_of=as_of)
    doc: Doc = json.loads(dumps(history))
    if history.head is not None:
        doc["checkpoint"] = checkpoints.sign(KEY, "g-contrib", as_of, history.head, SIGNED_AT)
    return doc


def _final_checkpoint() -> dict[str, Any]:
    return _doc("auditor")["checkpoint"]


def _cut_points() -> dict[str, int]:
    """Where a prefix may stop: mid-deal, right after a deal's reveal (the fold complete), just
    before the game's own last event."""
    events = _finished().recorded
    reveals = [item.version for item in events if item.envelope.type == "seed_revealed"]
    return {"mid-deal": reveals[1] + 20, "after a reveal": reveals[2],
            "one event short": len(events) - 1}


@pytest.mark.parametrize("viewer", (3, "spectator", "auditor"))
@pytest.mark.parametrize("where", sorted(_cut_points()))
def test_a_prefix_says_first_that_it_is_one(viewer: object, where: str) -> None:
    at = _cut_points()[where]
    report = _verify(_prefix(viewer, at))
    first = report.format().splitlines()[0]
    assert first == f"PREFIX: this history stops at event {at} of a game that was not over"
    assert report.prefix is not None and report.to_dict()["prefix"]["last"] == at


@pytest.mark.parametrize("viewer", (3, "spectator", "auditor"))
def test_a_prefix_with_the_final_checkpoint_fails_and_says_how_much_is_missing(
        viewer: object) -> None:
    at = _cut_points()["after a reveal"]
    total = len(_finished().recorded)
    carried = _prefix(viewer, at)
    carried["checkpoint"] = _final_checkpoint()
    kept = _prefix(viewer, at)
    for report in (_verify(carried), _verify(kept, checkpoint=_final_checkpoint(), keys=KEYS)):
        assert not report.ok
        assert report.problems[-1].code == "checkpoint" and "cut short" in (
            report.problems[-1].message)
        assert report.format().splitlines()[0] == (
            f"PREFIX: this history stops at event {at} of a game that was not over; a "
            f"checkpoint vouches for event {total}, so at least {total - at} events of the "
            "game are missing from it")


def test_the_whole_game_is_not_called_a_prefix() -> None:
    for viewer in (3, "spectator", "auditor"):
        report = _verify(_doc(viewer))
        assert report.prefix is None and not report.format().startswith("PREFIX")


def test_a_prefix_claiming_the_game_is_over_fails() -> None:
    doc = _prefix(3, _cut_points()["after a reveal"])
    doc["results"]["game"]["phase"] = "over"
    report = _verify(doc)
    assert not report.ok and "result" in {problem.code for problem in report.problems}
    assert report.prefix is not None


FORGER = Ed25519PrivateKey.from_private_bytes(bytes(range(1, 33)))


def _key_record(key: Ed25519PrivateKey) -> dict[str, Any]:
    public = checkpoints.public_bytes(key)
    return {"key_id": checkpoints.key_id(public), "algorithm": "ed25519",
            "public_key": public.hex(), "created_at": "2026-01-01T00:00:00Z", "retired_at": None}


def _signed_doc(viewer: object) -> Doc:
    """The finished game's history as the service hands it out: its checkpoint and the key
    that signed it."""
    return {**_doc(viewer), "checkpoint_key": _key_record(KEY)}


def _other_games_checkpoint() -> dict[str, Any]:
    return checkpoints.sign(KEY, "g-another", 40, "ab" * 32, SIGNED_AT)


def _foreign_signature(doc: Doc) -> Doc:
    doc["checkpoint"]["signature"] = _other_games_checkpoint()["signature"]
    return doc


def _foreign_checkpoint(doc: Doc) -> Doc:
    doc["checkpoint"] = _other_games_checkpoint()
    return doc


def _foreign_signature_key_dropped(doc: Doc) -> Doc:
    del doc["checkpoint_key"]
    return _foreign_signature(doc)


def _foreign_signature_other_key_carried(doc: Doc) -> Doc:
    doc["checkpoint_key"] = _key_record(FORGER)
    return _foreign_signature(doc)


def _resigned_by_the_forger(doc: Doc) -> Doc:
    """The forger signs this history's own head with a key of its own, and carries that key."""
    checkpoint = doc["checkpoint"]
    doc["checkpoint"] = checkpoints.sign(FORGER, checkpoint["game_id"], checkpoint["version"],
                                         checkpoint["head"], SIGNED_AT)
    doc["checkpoint_key"] = _key_record(FORGER)
    return doc


SIGNATURES: dict[str, tuple[Callable[[Doc], Doc], bool]] = {
    # variant: (the forgery, whether it fails without --keys)
    "another game's signature": (_foreign_signature, True),
    "another game's whole checkpoint": (_foreign_checkpoint, True),
    "another game's signature, another key carried": (_foreign_signature_other_key_carried,
                                                      True),
    "another game's signature, the key dropped": (_foreign_signature_key_dropped, False),
    "re-signed by a key of the forger's": (_resigned_by_the_forger, False),
}


@pytest.mark.parametrize("viewer", VIEWERS)
@pytest.mark.parametrize("variant", sorted(SIGNATURES))
def test_another_games_signature_fails(viewer: object, variant: str) -> None:
    """Every variant fails against the keys the user gives; without them, every one whose
    history still carries a key fails, and the two that cannot (no key, or the forger's own)
    say plainly that no trust root vouched for the signer."""
    forge, fails_alone = SIGNATURES[variant]
    assert _verify(_signed_doc(viewer)).ok
    doc = forge(_signed_doc(viewer))
    alone = _verify(doc)
    assert alone.ok is not fails_alone, (variant, alone.format())
    if not fails_alone:
        assert [s.trust for s in alone.signatures] in (["none"], ["history_key"])
        assert ("signature NOT checked" in alone.format()
                or "no trust root you gave vouches for it" in alone.format())
    with_keys = _verify(doc, keys=KEYS)
    assert not with_keys.ok and {p.code for p in with_keys.problems} == {"checkpoint"}


def _with_checkpoint_at(driver: GameDriver, version: int) -> Doc:
    """*driver*'s auditor's history carrying the checkpoint the service signed at *version*
    of the genuine game (as ``?at=`` has it sign one), and the key that signed it."""
    doc: Doc = json.loads(dumps(build_history("g-fork", driver.recorded, "auditor")))
    head = forked_game()[0].recorded[version - 1].envelope.hash
    doc["checkpoint"] = checkpoints.sign(KEY, "g-fork", version, head, SIGNED_AT)
    doc["checkpoint_key"] = _key_record(KEY)
    return doc


def test_a_continuation_written_after_an_early_checkpoint_is_vouched_for_by_no_signature(
) -> None:
    """A genuine early checkpoint vouches for the events up to it, not for a finished game
    written on after it: those events are left unchecked (no signature), so the history is not
    complete, and the report says which events the signature covers."""
    genuine, forged, fork = forked_game()
    last = len(forged.recorded)
    doc = _with_checkpoint_at(forged, fork)
    for keys in (KEYS, None):
        report = _verify(doc, keys=keys)
        assert report.ok and not report.complete, report.format()
        assert report.unsigned == (fork + 1, last)
        assert report.signed_through == fork and report.to_dict()["signed_through"] == fork
        assert f"events {fork + 1}-{last}: signature not checked" in report.format()
        assert [s.version for s in report.signatures] == [fork]
        assert f"(events 1-{fork})" in report.format()
    kept = _verify(doc, checkpoint=doc.pop("checkpoint"), keys=KEYS)
    assert kept.unsigned == (fork + 1, last) and not kept.complete
    stripped = _verify(doc, keys=KEYS)
    assert stripped.unsigned == (1, last) and not stripped.complete
    whole = _with_checkpoint_at(genuine, len(genuine.recorded))
    report = _verify(whole, keys=KEYS)
    assert report.ok and report.complete and report.unsigned is None, report.format()
    assert report.signed_through == len(genuine.recorded)


def _deal_with_checkpoint_at(driver: GameDriver, deal: int, version: int,
                             as_of: int | None = None) -> Doc:
    """*driver*'s auditor's history of deal *deal* (cut after *as_of*, if given) carrying the
    checkpoint the service signed at *version* of the genuine game, and its key."""
    history = build_history("g-fork", driver.recorded, "auditor", deal=deal, as_of=as_of)
    doc: Doc = json.loads(dumps(history))
    head = forked_game()[0].recorded[version - 1].envelope.hash
    doc["checkpoint"] = checkpoints.sign(KEY, "g-fork", version, head, SIGNED_AT)
    doc["checkpoint_key"] = _key_record(KEY)
    return doc


def _end_of_deal(driver: GameDriver, deal: int) -> int:
    """The last event of deal *deal* in *driver*'s game (as ``?deal=`` cuts it)."""
    history = build_history("g-fork", driver.recorded, "auditor", deal=deal)
    return history.events[-1].version


def test_a_one_deal_history_rewritten_after_an_early_checkpoint_is_vouched_for_by_no_signature(
) -> None:
    """The one-deal history of deal 2 of a game written on after a genuine checkpoint early
    in that deal (``?deal=2&at=N`` makes the service sign one): the deal's events after it
    are signed by no checkpoint, so it is not complete; the genuine one, signed at its last
    event as the service serves it, is."""
    genuine, forged, fork = forked_game()
    end = _end_of_deal(forged, 2)
    assert end > fork
    for keys in (KEYS, None):
        report = _verify(_deal_with_checkpoint_at(forged, 2, fork), keys=keys)
        assert report.ok and not report.complete, report.format()
        assert report.unsigned == (fork + 1, end) and report.prefix is None
        assert f"events {fork + 1}-{end}: signature not checked" in report.format()
    honest = _end_of_deal(genuine, 2)
    report = _verify(_deal_with_checkpoint_at(genuine, 2, honest), keys=KEYS)
    assert report.ok and report.complete and report.unsigned is None, report.format()


def test_a_one_deal_history_cut_before_its_deal_ended_is_a_prefix() -> None:
    """``?deal=2&at=N`` in the middle of deal 2 of a game that goes on: it stops before its
    deal's end, so it is a prefix, never complete, however well it is signed."""
    genuine, _, fork = forked_game()
    cut = fork + 3
    report = _verify(_deal_with_checkpoint_at(genuine, 2, cut, as_of=cut), keys=KEYS)
    assert report.ok and not report.complete, report.format()
    assert report.prefix is not None and report.prefix.last == cut
    assert report.format().startswith(f"PREFIX: this history stops at event {cut} ")
    assert report.unsigned is None


def test_a_start_block_cannot_stand_in_for_a_whole_games_dropped_events() -> None:
    """The last deal's history relabelled a whole game (``view.deal`` null), its results
    derived again from the start block on, carrying the genuine final checkpoint: without the
    events before the deal, the final scores would be read off the start block. It fails,
    saying a start block belongs to a one-deal history or a table record."""
    genuine = forked_game()[0]
    assert genuine.state is not None and genuine.state.deal is not None
    deal = genuine.state.deal.number
    last = len(genuine.recorded)
    doc = _deal_with_checkpoint_at(genuine, deal, last)
    assert _verify(doc, keys=KEYS).complete
    doc["view"]["deal"] = None
    replayer = Replayer(legality=True)
    history = build_history("g-fork", genuine.recorded, "auditor", deal=deal)
    assert history.start is not None
    for event in history.events:
        replayer.apply(event.version, genuine.recorded[event.version - 1].event)
        if event.version == 1:
            assert replayer.state is not None
            replayer.restart(apply_start(replayer.state, history.start))
    assert replayer.state is not None and replayer.failure is None
    doc["results"] = json.loads(json.dumps(derive_results(
        replayer.state, replayer.dealt, replayer.irregularities, "auditor")))
    report = _verify(doc, keys=KEYS)
    assert not report.ok, report.format()
    assert [(p.code, p.pointer) for p in report.problems] == [("start", "/start")]
    assert "a start block belongs to a one-deal history or a table record" in report.format()


@pytest.mark.parametrize(("change", "said"), [
    ({"scores": [45, 0, 0]}, "reach the target 45"),
    ({"games_won": [1, 0, 0]}, "each side has won 0 to 0 games of a match of 1"),
    ({"game_number": 2}, "start game number 2: after 0 games won"),
])
def test_a_start_block_no_game_reaches_is_refused(change: Doc, said: str) -> None:
    """A one-deal history whose start block states scores at the target, or games won or a
    game number beyond the match: no game ever stood there before a deal."""
    genuine = forked_game()[0]
    doc = json.loads(dumps(build_history("g-fork", genuine.recorded, "auditor", deal=2)))
    doc["start"].update(change)
    report = _verify(doc)
    assert not report.ok, report.format()
    assert any(p.code == "start" and said in p.message for p in report.problems), \
        report.format()


def test_a_member_given_twice_is_refused_naming_it() -> None:
    """``"results"`` twice, the forged one first: one reader would take the first, another
    the last. Neither is taken: the history is unreadable, and the diagnostic names the key,
    in the JSON encoding and in a JSON piece the text notation embeds."""
    history = build_history("g-fork", forked_game()[0].recorded, "auditor")
    text = dumps(signed(history)).decode()
    assert text.count('"results":') == 1
    forged = text.replace('"results":', '"results":{"forged":true},"results":', 1)
    read, diagnostics = read_json(forged)
    assert read is None
    assert [(d.code, d.message) for d in diagnostics] == [
        ("json_syntax", "invalid JSON: the member 'results' is given twice in one object")]
    assert diagnostics[0].column == forged.index('"results":{"forged"') + len(
        '"results":{"forged":true},') + 1
    notation = export_text(signed(history))
    assert '[Checkpoint "{' in notation
    twice = notation.replace('[Checkpoint "{', '[Checkpoint "{\\"version\\":1,', 1)
    result = read_history(twice, format="text")
    assert not result.ok
    assert [(d.code, d.severity, d.line) for d in result.diagnostics
            if "the member 'version' is given twice" in d.message] == [
        ("bad_header", "error", notation[:notation.index("[Checkpoint ")].count("\n") + 1)]
