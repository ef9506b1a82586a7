"""``fortyfive keys`` and ``fortyfive archive`` on the command line: what a script captures,
what the help says, and a store that cannot be reached."""

from __future__ import annotations

import pytest
import redis

from service.cli import main
from service.http.apikeys import KeyRegistry
from service.processes.free_ports import free_ports


def test_keys_create_prints_only_the_key_on_stdout(
    redis_url: str, redis_client: redis.Redis, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["keys", "create", "--name", "club-site", "--redis-url", redis_url]) == 0
    out, err = capsys.readouterr()
    # KEY=$(fortyfive keys create ...) holds the key and nothing else.
    assert out.count("\n") == 1 and out.startswith("f45k.")
    key = out.strip()
    assert KeyRegistry(redis_client).identify(key) is not None
    assert "keep the key now" in err and "club-site" in err


def test_keys_list_help_names_the_columns_in_their_order(
    redis_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["keys", "create", "--name", "columns", "--redis-url", redis_url]) == 0
    key_id = capsys.readouterr().out.strip().split(".")[1]
    assert main(["keys", "list", "--redis-url", redis_url]) == 0
    row = next(line for line in capsys.readouterr().out.splitlines() if line.startswith(key_id))
    assert row.split()[2:] == ["active", "columns"]
    with pytest.raises(SystemExit):
        main(["keys", "--help"])
    help_text = " ".join(capsys.readouterr().out.split())
    assert "id, created, status (active or revoked), name" in help_text


@pytest.mark.parametrize("command", [["archive"], ["keys", "list"]])
def test_an_unreachable_store_is_one_line_and_status_2(
    command: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    nobody = f"redis://127.0.0.1:{free_ports()[0]}"
    assert main([*command, "--redis-url", nobody]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1, err
    assert err.startswith(f"fortyfive {' '.join(command)}: store unavailable"), err


@pytest.mark.parametrize("command", [["archive"], ["keys", "list"]])
@pytest.mark.parametrize(("url", "named"), [
    ("notaurl", "'notaurl'"),
    ("redis://keeper:s3cret@127.0.0.1:port/0", "'redis://127.0.0.1:port/0'"),
    # Invalid for its db whatever the version of redis-py (8.2 accepts a scheme in capitals,
    # as RFC 3986 does, and would connect): named as given, the password left out.
    ("REDIS://127.0.0.1:6379/0?password=s3cret&db=x", "'REDIS://127.0.0.1:6379/0'"),
    ("keeper:s3cret@127.0.0.1:6379", "'127.0.0.1:6379'"),
    ("redis://[::1", "'redis://[::1'"),
])
def test_an_invalid_store_url_is_named_as_given_without_its_password(
    command: list[str], url: str, named: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([*command, "--redis-url", url]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1, err
    assert err.startswith(f"fortyfive {' '.join(command)}: invalid Redis URL {named}: "), err
    assert "s3cret" not in err and "localhost:6379" not in err


@pytest.mark.parametrize("command", [["archive"], ["keys", "list"]])
def test_several_addresses_without_a_cluster_are_refused_in_one_line(
    command: list[str], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("REDIS_CLUSTER", raising=False)
    seeds = "redis://127.0.0.1:7000,redis://:secret@127.0.0.1:7001"
    assert main([*command, "--redis-url", seeds]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "set REDIS_CLUSTER=true" in err, err
    assert "secret" not in err, "credentials are never shown"
