"""The service's checkpoint signing key: where it comes from, how it is published, and signing
with a cache.

The key (Ed25519, a PKCS#8 PEM file) is the one named by ``FORTYFIVE_SIGNING_KEY`` (or the
app's ``SIGNING_KEY``) when set: an operator's key, or the one ``fortyfive serve`` keeps in its
data directory (``DATA_DIR/signing-key.pem``, made on first start) and hands to its web and
job workers through that variable, so that every process signs with the same key. A process
given none (a test, ``fortyfive openapi``) signs with a key of its own, made at first use.

Every key that signs is published in the store (:data:`events.keys.SIGNING_KEYS_KEY`, served
by ``GET /v1/keys``) with its ``created_at``; when a new key is first published, every other key
gets its ``retired_at`` (docs/operating.md, "Rotating the signing key"). Old keys stay listed,
so checkpoints they signed keep verifying.
"""

from __future__ import annotations

import collections
import json
import logging
import os
import threading
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import (
    Encoding,
    NoEncryption,
    PrivateFormat,
    load_pem_private_key,
)

from events import checkpoints
from events.codec import canonical_json
from events.keys import SIGNING_KEYS_KEY, checkpoints_key, drive_checkpoints_key
from events.transparency_log import TransparencyLog
from service.application import transparency

log = logging.getLogger(__name__)

KEY_ENV = "FORTYFIVE_SIGNING_KEY"
"""The environment variable naming the PEM file of the signing key."""

DATA_DIR_KEY = "signing-key.pem"
"""The name of the key file ``fortyfive serve`` keeps in its data directory."""

CACHE_SIZE = 4096
"""Checkpoints kept per process, one per (game or drive, version, head): a view of a game that
has not moved on is answered without signing again."""

PUBLISH_SCRIPT = """
-- KEYS[1] signing keys hash  ARGV[1] key id  ARGV[2] JSON record  ARGV[3] now.
-- Publishes a key once; a key published for the first time retires every other.
if redis.call('HSETNX', KEYS[1], ARGV[1], ARGV[2]) == 0 then return 0 end
local all = redis.call('HGETALL', KEYS[1])
for i = 1, #all, 2 do
  if all[i] ~= ARGV[1] then
    local record = cjson.decode(all[i + 1])
    if record['retired_at'] == cjson.null then
      record['retired_at'] = ARGV[3]
      redis.call('HSET', KEYS[1], all[i], cjson.encode(record))
    end
  end
end
return 1
"""


class SigningKeyError(ValueError):
    """The signing key file cannot be read, or is not an unencrypted Ed25519 PEM key."""


def load_key(path: str | Path) -> Ed25519PrivateKey:
    """Returns the Ed25519 private key in the PEM file at *path*.

    :raises SigningKeyError: if it cannot be read or is not such a key.
    """
    try:
        data = Path(path).read_bytes()
    except OSError as error:
        raise SigningKeyError(f"cannot read the signing key {path}: {error.strerror}") from None
    try:
        key = load_pem_private_key(data, password=None)
    except (ValueError, TypeError) as error:
        raise SigningKeyError(f"the signing key {path} is not an unencrypted PEM private key: "
                              f"{error}") from None
    if not isinstance(key, Ed25519PrivateKey):
        raise SigningKeyError(f"the signing key {path} is not an Ed25519 key")
    return key


def write_key(path: str | Path) -> Ed25519PrivateKey:
    """Makes a new key and writes it to *path* (PKCS#8 PEM, readable by its owner only)."""
    key = Ed25519PrivateKey.generate()
    pem = key.private_bytes(Encoding.PEM, PrivateFormat.PKCS8, NoEncryption())
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    descriptor = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(descriptor, "wb") as file:
        file.write(pem)
    return key


def data_dir_key(data_dir: str | Path) -> Path:
    """Returns the path of the key kept in *data_dir*, making the key if there is none."""
    path = Path(data_dir) / DATA_DIR_KEY
    if not path.exists():
        write_key(path)
        log.info("made a new checkpoint signing key in %s", path)
    return path


class Signer:
    """Signs checkpoints with one key, remembering the last :data:`CACHE_SIZE` it signed."""

    def __init__(self, key: Ed25519PrivateKey, *,
                 clock: Callable[[], datetime] = lambda: datetime.now(UTC)) -> None:
        self.key = key
        self.public = checkpoints.public_bytes(key)
        self.key_id = checkpoints.key_id(self.public)
        self.clock = clock
        self.signed = 0
        """How many checkpoints this signer signed (cache hits excluded)."""
        self._cache: collections.OrderedDict[tuple[str, str, int, str], dict[str, Any]] = (
            collections.OrderedDict())
        self._lock = threading.Lock()

    def checkpoint(self, game_id: str, version: int, head: str, *,
                   subject: str = "game_id") -> dict[str, Any]:
        """Returns the checkpoint of *game_id* at *version* with *head*: the one signed for it
        before, if this process still has it. Every checkpoint the service signs, a game's or
        (*subject* ``drive_id``) a drive's, is signed here."""
        wanted = (subject, game_id, version, head)
        with self._lock:
            found = self._cache.get(wanted)
            if found is not None:
                self._cache.move_to_end(wanted)
                return found
        signed = checkpoints.sign(self.key, game_id, version, head,
                                  checkpoints.format_signed_at(self.clock()), subject=subject)
        with self._lock:
            self.signed += 1
            self._cache[wanted] = signed
            while len(self._cache) > CACHE_SIZE:
                self._cache.popitem(last=False)
        return signed

    def record(self, created_at: str) -> dict[str, Any]:
        """Returns this key as ``GET /v1/keys`` lists it, first published at *created_at*."""
        return {"key_id": self.key_id, "algorithm": checkpoints.ALGORITHM,
                "public_key": self.public.hex(), "created_at": created_at, "retired_at": None}


_process_lock = threading.Lock()
_process: dict[str, Signer] = {}


def signer_for(path: str | Path | None = None) -> Signer:
    """Returns this process's signer for the key at *path* (default ``FORTYFIVE_SIGNING_KEY``;
    without either, a key of this process's own, made once).

    :raises SigningKeyError: if the key file cannot be used.
    """
    chosen = str(path) if path else os.environ.get(KEY_ENV, "")
    with _process_lock:
        found = _process.get(chosen)
        if found is None:
            key = load_key(chosen) if chosen else Ed25519PrivateKey.generate()
            if not chosen:
                log.warning("no %s: checkpoints are signed with a key of this process only",
                            KEY_ENV)
            found = _process[chosen] = Signer(key)
        return found


def publish(client: Any, signer: Signer) -> bool:
    """Publishes *signer*'s key in the store at *client* if it is not there yet (retiring every
    other); returns True if it was new."""
    now = checkpoints.format_signed_at(signer.clock())
    record = json.dumps(signer.record(now), sort_keys=True)
    return bool(client.eval(PUBLISH_SCRIPT, 1, SIGNING_KEYS_KEY, signer.key_id, record, now))


def published_keys(client: Any) -> list[dict[str, Any]]:
    """Returns every published key, oldest first."""
    records = [json.loads(raw) for raw in client.hgetall(SIGNING_KEYS_KEY).values()]
    return sorted(records, key=lambda record: (record["created_at"], record["key_id"]))


def key_record(client: Any, key_id: str) -> dict[str, Any] | None:
    """Returns the published key *key_id* as ``GET /v1/keys`` lists it, or None when it is not
    published: what a history carries beside its checkpoint (``checkpoint_key``)."""
    raw = client.hget(SIGNING_KEYS_KEY, key_id)
    return None if raw is None else dict(json.loads(raw))


class Publisher:
    """Signs with the key at *path* (see :func:`signer_for`; loaded at first use), publishing
    it in the store at *client* once, before its first checkpoint is used, and appending
    every checkpoint it hands out to the transparency log *log* (default: the service's, in
    that store; :mod:`service.application.transparency`)."""

    def __init__(self, client: Any, path: str | Path | None = None,
                 log: TransparencyLog | None = None) -> None:
        self.client = client
        self.path = path
        self.log = log if log is not None else TransparencyLog(client)
        self._signer: Signer | None = None
        self._done = False
        self._logged: collections.OrderedDict[tuple[str, str, int, str, str], dict[str, Any]] = (
            collections.OrderedDict())
        self._lock = threading.Lock()

    @property
    def signer(self) -> Signer:
        """The signer (its key loaded on first use).

        :raises SigningKeyError: if the key file cannot be used.
        """
        if self._signer is None:
            self._signer = signer_for(self.path)
        return self._signer

    def ensure(self) -> None:
        """Publishes the key unless this process did already."""
        if not self._done:
            publish(self.client, self.signer)
            self._done = True

    def checkpoint(self, game_id: str, version: int, head: str, *,
                   subject: str = "game_id") -> dict[str, Any]:
        """Returns the signed checkpoint (see :meth:`Signer.checkpoint`; *subject* names what
        *game_id* is the id of: ``game_id``, or ``drive_id`` for a drive), the key published and
        the checkpoint in the log: the one logged first for this point, if another process
        signed it before (:func:`service.application.transparency.log_checkpoint`).

        :raises events.errors.StoreUnavailableError: if the store cannot be reached.
        """
        self.ensure()
        wanted = (subject, game_id, version, head, self.signer.key_id)
        with self._lock:
            found = self._logged.get(wanted)
            if found is not None:
                self._logged.move_to_end(wanted)
                return found
        logged = self.logged(self.signer.checkpoint(game_id, version, head, subject=subject))
        with self._lock:
            self._logged[wanted] = logged
            while len(self._logged) > CACHE_SIZE:
                self._logged.popitem(last=False)
        return logged

    def logged(self, checkpoint: dict[str, Any]) -> dict[str, Any]:
        """Appends *checkpoint*, just signed, to the log; returns the checkpoint logged for
        its subject. Every path that signs a checkpoint hands it out through this.

        :raises events.errors.StoreUnavailableError: if the store cannot be reached.
        """
        return transparency.log_checkpoint(self.log, checkpoint)

    def tree_head(self) -> dict[str, Any]:
        """Signs the log's head now, the key published; returns the latest head
        (:func:`service.application.transparency.sign_tree_head`)."""
        self.ensure()
        return transparency.sign_tree_head(self.log, self.signer)


def store_deal_end(client: Any, checkpoint: dict[str, Any], deal: int) -> None:
    """Keeps *checkpoint*, signed at the end of deal *deal*, as that deal's and (unless a later
    one is kept) as the game's latest."""
    key = checkpoints_key(checkpoint["game_id"])
    raw = canonical_json(checkpoint)
    client.hsetnx(key, f"deal:{deal}", raw)
    latest = client.hget(key, "latest")
    if latest is None or json.loads(latest)["version"] < checkpoint["version"]:
        client.hset(key, "latest", raw)


def latest_deal_end(client: Any, game_id: str, *, upto: int | None = None) -> dict[str, Any] | None:
    """Returns the latest checkpoint kept at a deal's end of *game_id* (at or before version
    *upto* when given), or ``None``."""
    key = checkpoints_key(game_id)
    raw = client.hget(key, "latest")
    latest = None if raw is None else dict(json.loads(raw))
    if latest is None or upto is None or latest["version"] <= upto:
        return latest
    best: dict[str, Any] | None = None
    for field, raw in client.hgetall(key).items():
        name = field.decode() if isinstance(field, bytes) else field
        if not name.startswith("deal:"):
            continue
        found = json.loads(raw)
        if found["version"] <= upto and (best is None or found["version"] > best["version"]):
            best = found
    return best


def store_drive_checkpoint(client: Any, checkpoint: dict[str, Any], moment: str) -> None:
    """Keeps a drive's *checkpoint*, signed at *moment* (``round:<n>`` when round *n* ended,
    ``finished`` when the drive did); the first kept for a moment stays."""
    client.hsetnx(drive_checkpoints_key(checkpoint["drive_id"]), moment,
                  canonical_json(checkpoint))


def drive_checkpoints(client: Any, drive_id: str) -> dict[str, dict[str, Any]]:
    """Returns the checkpoints kept of *drive_id*, by moment (see
    :func:`store_drive_checkpoint`)."""
    return {(name.decode() if isinstance(name, bytes) else name): dict(json.loads(raw))
            for name, raw in client.hgetall(drive_checkpoints_key(drive_id)).items()}
