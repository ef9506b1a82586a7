"""The signing key: read from a PEM file or made in the data directory, published once, and a
new key retires the old one without unpublishing it."""

from __future__ import annotations

import argparse
import os
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from events import checkpoints
from events.keys import SIGNING_KEYS_KEY
from service.application import signing
from service.cli.serve import _choose_signing_key


@pytest.fixture
def client(redis_url: str) -> Iterator[redis.Redis]:
    """A client of a database of its own (the suite's keys stay as they are)."""
    connection = redis.Redis.from_url(redis_url, db=7)
    connection.delete(SIGNING_KEYS_KEY)
    yield connection
    connection.delete(SIGNING_KEYS_KEY)
    connection.close()


def test_the_data_directory_key_is_made_once_and_kept(tmp_path: Path) -> None:
    path = signing.data_dir_key(tmp_path)
    assert path == tmp_path / signing.DATA_DIR_KEY
    assert path.stat().st_mode & 0o077 == 0
    first = checkpoints.public_bytes(signing.load_key(path))
    assert signing.data_dir_key(tmp_path) == path
    assert checkpoints.public_bytes(signing.load_key(path)) == first


def test_a_key_file_that_is_not_an_ed25519_pem_is_refused(tmp_path: Path) -> None:
    bad = tmp_path / "bad.pem"
    bad.write_text("not a key")
    with pytest.raises(signing.SigningKeyError, match="not an unencrypted PEM"):
        signing.load_key(bad)
    with pytest.raises(signing.SigningKeyError, match="cannot read"):
        signing.load_key(tmp_path / "missing.pem")


def test_a_new_key_retires_the_old_which_stays_published(client: redis.Redis) -> None:
    old = signing.Signer(Ed25519PrivateKey.generate())
    new = signing.Signer(Ed25519PrivateKey.generate())
    assert signing.publish(client, old) is True
    assert signing.publish(client, old) is False
    (only,) = signing.published_keys(client)
    assert only["retired_at"] is None and only["key_id"] == old.key_id
    signed = old.checkpoint("g1", 4, "ab" * 32)
    assert signing.publish(client, new) is True
    listed = {key["key_id"]: key for key in signing.published_keys(client)}
    assert listed[old.key_id]["retired_at"] is not None
    assert listed[new.key_id]["retired_at"] is None
    # What the old key signed keeps verifying with the published keys.
    checkpoints.check(signed, checkpoints.read_keys({"keys": list(listed.values())}))


def test_the_signer_signs_a_version_once(client: redis.Redis) -> None:
    signer = signing.Signer(Ed25519PrivateKey.generate())
    first = signer.checkpoint("g1", 4, "ab" * 32)
    assert signer.checkpoint("g1", 4, "ab" * 32) is first
    assert signer.signed == 1
    signer.checkpoint("g1", 5, "cd" * 32)
    assert signer.signed == 2


def test_serve_names_one_key_for_every_process_it_starts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv(signing.KEY_ENV, raising=False)
    _choose_signing_key(argparse.Namespace(signing_key=None, data_dir=str(tmp_path)))
    assert signing.KEY_ENV in os.environ
    assert Path(os.environ[signing.KEY_ENV]) == tmp_path / signing.DATA_DIR_KEY
    given = tmp_path / "operator.pem"
    signing.write_key(given)
    _choose_signing_key(argparse.Namespace(signing_key=str(given), data_dir=str(tmp_path)))
    assert os.environ[signing.KEY_ENV] == str(given)
