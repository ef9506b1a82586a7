"""``fortyfive history verify|show|convert``: exit statuses, outputs and one-line errors."""

from __future__ import annotations

import json
import os
import signal
import subprocess
from pathlib import Path

import pytest
from cli_helpers import installed_script

from service.cli import main

GOLDEN = Path(__file__).resolve().parents[1] / "replay" / "golden"


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(["history", *argv])
    out, err = capsys.readouterr()
    return status, out, err


@pytest.mark.parametrize("name", ["jink.json", "jink.txt", "turned-joker.seat0.txt"])
def test_verify_exits_0_for_a_golden_history(capsys: pytest.CaptureFixture[str],
                                             name: str) -> None:
    status, out, err = _run(capsys, "verify", str(GOLDEN / name))
    assert (status, err) == (0, "")
    lines = out.splitlines()
    if lines[0].startswith("PREFIX: "):  # A golden game stopped after its deal, not over.
        assert "of a game that was not over" in lines[0]
        lines = lines[1:]
    assert lines[0].startswith("history golden-") and lines[1].startswith("OK: ")


def test_verify_json_is_one_object_with_the_report(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = _run(capsys, "verify", str(GOLDEN / "set-bid.json"), "--json")
    body = json.loads(out)
    assert status == 0 and body["ok"] is True and body["diagnostics"] == []
    assert body["verification"]["unchecked"] == []


def test_verify_complete_fails_for_a_prefix_and_json_says_it_is_not_complete(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A golden game stops after its deal, a game not over: the prefix verifies, but it is not
    the complete game, whatever --complete or the JSON say of what was checked."""
    prefix = str(GOLDEN / "set-bid.json")
    status, out, _ = _run(capsys, "verify", prefix, "--json", "--complete")
    body = json.loads(out)
    assert status == 1 and body["ok"] is False
    assert body["verification"]["prefix"]["last"] > 0
    assert body["verification"]["complete"] is False
    status, out, _ = _run(capsys, "verify", prefix, "--complete")
    assert status == 1 and out.startswith("PREFIX: ")
    assert "FAILED: --complete, and this history stops before the game's end" in out
    assert _run(capsys, "verify", prefix)[0] == 0


def test_verify_names_the_changed_event(capsys: pytest.CaptureFixture[str],
                                        tmp_path: Path) -> None:
    doc = json.loads((GOLDEN / "jink.json").read_bytes())
    doc["events"][5]["data"]["card"] = "2C"
    path = tmp_path / "tampered.json"
    path.write_text(json.dumps(doc))
    status, out, _ = _run(capsys, "verify", str(path))
    assert status == 1
    assert "FAILED" in out and f"event {doc['events'][5]['version']}: card_played" in out


def test_verify_complete_fails_for_a_view_that_leaves_things_unchecked(
    capsys: pytest.CaptureFixture[str],
) -> None:
    seat_view = str(GOLDEN / "seed-000-09.seat2.json")
    assert _run(capsys, "verify", seat_view)[0] == 0
    status, out, _ = _run(capsys, "verify", seat_view, "--complete")
    assert status == 1 and "unchecked" in out


def test_verify_checks_an_expected_head(capsys: pytest.CaptureFixture[str]) -> None:
    path = str(GOLDEN / "jink.json")
    head = json.loads(Path(path).read_bytes())["head"]
    assert _run(capsys, "verify", path, "--head", head)[0] == 0
    status, out, _ = _run(capsys, "verify", path, "--head", "0" * 64)
    assert status == 1 and "expected" in out


@pytest.mark.parametrize("head", ["zz", "8ac23d3e53ae6b9c", "A" * 64])
def test_a_head_that_is_no_hash_is_a_usage_error_not_a_failed_history(
    capsys: pytest.CaptureFixture[str], head: str
) -> None:
    status, out, err = _run(capsys, "verify", str(GOLDEN / "jink.json"), "--head", head)
    assert (status, out) == (2, "")
    assert err.splitlines() == [f"fortyfive history verify: argument --head: expected a head "
                                f"hash of 64 lowercase hex digits, got {head!r}"]


def test_verify_an_unreadable_file_prints_positions_and_exits_1(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "bad.txt"
    path.write_text('[Profile "bruff"]\n[Deal "1"]\n1. 0:7S ZZ\n')
    status, out, err = _run(capsys, "verify", str(path))
    assert status == 1
    assert "line 3, column 9: error:" in err and "FAILED" in out


def test_a_missing_file_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = _run(capsys, "verify", "/nonexistent/history.json")
    assert status == 2 and out == ""
    assert err.startswith("fortyfive history: cannot read") and err.count("\n") == 1


def test_show_prints_the_deal_trick_by_trick(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = _run(capsys, "show", str(GOLDEN / "seed-000-09.json"))
    assert status == 0
    assert "trick 1: 1 7S · 2 5S · 3 KD · 4 2S · 5 QC · 6 4D → seat 2 (B) wins" in out
    assert ("renege allowed: AH may be withheld: every trump held is protected and outranks "
            "the 7S led") in out
    assert "bonus proven at trick 1, credited to trick 1" in out


def test_show_one_deal(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = _run(capsys, "show", str(GOLDEN / "all-pass-redeal.json"), "--deal", "2")
    assert status == 0 and "Deal 2:" in out and "Deal 1:" not in out
    status, _, err = _run(capsys, "show", str(GOLDEN / "all-pass-redeal.json"), "--deal", "7")
    assert status == 2 and "no deal 7" in err


@pytest.mark.parametrize(("content", "reason"), [
    (b"root:x:0:0:root:/root:/bin/bash\ndaemon:x:1:1::/usr/sbin:/usr/sbin/nologin\n",
     'it holds no header tag such as [Profile "bruff"]'),
    (b'{"games": [1, 2]}', 'its JSON has no "format": "fortyfive-hand-history"'),
    (b"\x7fELF\x02\x01\x01\x00\xff\xfe", "it is not UTF-8 text"),
    (b"\n  \n", "it is empty"),
])
@pytest.mark.parametrize("command", [["show"], ["convert", "--to", "json"], ["verify"],
                                     ["verify", "--json"], ["diagram", "--deal", "1"]])
def test_a_file_that_is_no_history_is_refused_in_one_line_with_status_2(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, content: bytes, reason: str,
    command: list[str],
) -> None:
    path = tmp_path / "some.file"
    path.write_bytes(content)
    status, out, err = _run(capsys, command[0], str(path), *command[1:])
    assert (status, out) == (2, "")
    assert err.startswith(f"fortyfive history {command[0]}: {path} is not a hand history: "
                          f"{reason}")
    assert err.count("\n") == 1


def test_show_of_a_history_with_errors_lists_them_and_exits_1(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "bad.txt"
    path.write_text('[Profile "bruff"]\n[Deal "1"]\n1. 0:7S ZZ\n')
    status, out, err = _run(capsys, "show", str(path))
    assert (status, out) == (1, "")
    assert "line 3, column 9: error:" in err


def test_show_imports_a_hand_written_table_record(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = _run(capsys, "show", str(GOLDEN / "chronology-finish.table.txt"))
    assert status == 0
    assert "target reached: Side A reached 45 at trick 1" in out


@pytest.mark.parametrize("name", ["seed-001-06", "dealer-robs-turned-ace.seat1"])
def test_convert_both_ways_to_stdout_and_to_a_file(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, name: str
) -> None:
    status, out, _ = _run(capsys, "convert", str(GOLDEN / f"{name}.json"), "--to", "text")
    assert status == 0 and out == (GOLDEN / f"{name}.txt").read_text()
    target = tmp_path / "back.json"
    status, out, _ = _run(capsys, "convert", str(GOLDEN / f"{name}.txt"), "--to", "json",
                          "-o", str(target))
    assert (status, out) == (0, "")
    assert target.read_bytes() == (GOLDEN / f"{name}.json").read_bytes()


def test_convert_seals_a_table_record(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = _run(capsys, "convert", str(GOLDEN / "seed-001-06.table.txt"), "--to",
                          "json")
    assert status == 0 and out.encode() == (GOLDEN / "seed-001-06.json").read_bytes()


def test_convert_needs_a_target_encoding(capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = _run(capsys, "convert", str(GOLDEN / "jink.json"))
    assert status == 2 and "--to" in err


def test_a_reader_that_goes_away_ends_the_command_quietly() -> None:
    """As `fortyfive history show FILE | head -1`: the pipe is closed when the command writes
    (here, before it starts), and it stops with SIGPIPE's status, no traceback."""
    script = installed_script()
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        done = subprocess.run([str(script), "history", "show", str(GOLDEN / "jink.json")],
                              stdout=write_end, stderr=subprocess.PIPE, text=True, timeout=60,
                              check=False)
    finally:
        os.close(write_end)
    assert (done.returncode, done.stderr) == (128 + signal.SIGPIPE, "")


DEEP = "[" * 100_000 + "]" * 100_000


@pytest.mark.parametrize("line", [
    '%event {"type":"x","data":' + DEEP + "}", '[Checkpoint "' + DEEP + '"]',
    "=json game " + DEEP,
])
def test_verify_says_a_text_history_nests_json_too_deep(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, line: str,
) -> None:
    path = tmp_path / "deep.txt"
    path.write_text('% fortyfive hand history 1.0\n[Profile "classic"]\n' + line + "\n")
    status, out, err = _run(capsys, "verify", str(path))
    assert status == 1 and "Traceback" not in err
    assert "line 3, column" in err and "JSON nested more than 32 levels deep" in err


def test_verify_and_drive_verify_say_a_json_file_nests_too_deep(
    capsys: pytest.CaptureFixture[str], tmp_path: Path,
) -> None:
    path = tmp_path / "deep.json"
    path.write_text('{"format": "fortyfive-hand-history", "x": ' + DEEP + "}")
    status, out, err = _run(capsys, "verify", str(path))
    assert status == 1 and "JSON nested more than 32 levels deep" in err
    assert main(["drive", "verify", str(path)]) == 1
    assert "JSON nested more than 32 levels deep" in capsys.readouterr().err


def test_show_escapes_a_name_that_is_no_text(capsys: pytest.CaptureFixture[str],
                                             tmp_path: Path) -> None:
    """A history written before names were checked may name a seat with an escape sequence, a
    line break or a bidi override: show writes each such character escaped, never as it is."""
    document = json.loads((GOLDEN / "jink.json").read_text())
    created = next(event for event in document["events"] if event["type"] == "game_created")
    created["data"]["names"] = ["\x1b[2J\x1b[32mOK", "A\r\nOK: verified", "\u202eX", None,
                                None, None]
    path = tmp_path / "named.json"
    path.write_text(json.dumps(document))
    status, out, _ = _run(capsys, "show", str(path))
    assert status == 0
    assert not any(c in out for c in "\x1b\r\u202e")
    assert not any(line.startswith("OK") for line in out.splitlines()), "no line is faked"
    assert ("A = seats 1 (\\u001b[2J\\u001b[32mOK), 4; B = seats 2 "
            "(A\\u000d\\u000aOK: verified), 5; C = seats 3 (\\u202eX), 6") in out
