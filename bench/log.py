"""The transparency log: appends per second, proof sizes and times at 10^3, 10^5 and 10^6 leaves,
and what the log costs per game.

One log in a private redis-server (AOF, ``--fsync``; or ``--redis-url``, a scratch server
only: the log is written under a name of this run), grown to each of ``--sizes`` in turn
(batches of ``--batch`` leaves through
:meth:`events.transparency_log.TransparencyLog.append_batch`; leaves shaped and sized like
real checkpoints but not signed, since signing a million would measure Ed25519). At each size:

- ``appends_per_second``: leaves appended one at a time by
  :meth:`~events.transparency_log.TransparencyLog.append`, the path every signed checkpoint
  takes (the subtrees it completes read, one script), against ``bare_writes_per_second``,
  a ``SET`` of a leaf-sized value on the same server (each a durable write: with ``appendfsync
  always`` both wait for the disk), in alternating rounds of 50; ``ratio_to_bare`` is the
  first over the second;
- ``inclusion`` and ``consistency``: the median and 95th percentile milliseconds of
  ``--proofs`` proofs of random leaves (random earlier sizes) read from the store, their length
  in hashes and the bytes of their JSON answer, and the client's time to verify one
  (:mod:`events.merkle`);
- ``root_ms``: the root hash of the whole tree (what signing a tree head reads);
- ``bytes_per_leaf``: the log's memory in Redis (``MEMORY USAGE`` of its keys) per leaf.

``per_game``: classic games of two bots played to the end (``--games``), with every version's
checkpoint signed and logged as a spectator watching each event would have it signed (the
most a game costs: one leaf per event), and with only the deal ends' (the least: the
workers sign those whatever happens); leaves and bytes for each.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import random
import statistics
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from bench import positive_int
from events import merkle
from events.codec import canonical_json
from events.redis_store import RedisEventStore
from events.transparency_log import TransparencyLog
from service.application import commands, transparency
from service.application.signing import Signer
from service.processes.embedded_redis import EmbeddedRedis

SIZES = (1_000, 100_000, 1_000_000)


def _sizes(text: str) -> tuple[int, ...]:
    try:
        sizes = tuple(sorted({int(part) for part in text.split(",")}))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected sizes like 1000,100000, got {text!r}") from None
    if not sizes or sizes[0] < 2:
        raise argparse.ArgumentTypeError(f"expected sizes of 2 leaves or more, got {text!r}")
    return sizes


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Adds this benchmark's options to *parser*."""
    parser.add_argument("--sizes", type=_sizes, default=SIZES,
                        help="the tree sizes to measure at (default 1000,100000,1000000)")
    parser.add_argument("--batch", type=positive_int, default=10_000,
                        help="leaves per batch while growing the tree (default 10000)")
    parser.add_argument("--appends", type=positive_int, default=500,
                        help="single appends timed at each size (default 500)")
    parser.add_argument("--proofs", type=positive_int, default=300,
                        help="proofs of each kind timed at each size (default 300)")
    parser.add_argument("--games", type=positive_int, default=3,
                        help="bot games played for the cost per game (default 3)")
    parser.add_argument("--fsync", choices=("always", "everysec"), default="always",
                        help="appendfsync of the private server (default always)")
    parser.add_argument("--redis-url", default=None,
                        help="measure on this (scratch) server instead of a private one")


def run(args: argparse.Namespace) -> dict[str, Any]:
    """Grows a log to each size and measures it; returns the figures."""
    chance = random.Random(45)
    with _server(args.redis_url, args.fsync) as url, RedisEventStore.from_url(url) as store:
        log = TransparencyLog.of(store, name=f"bench-{uuid.uuid4().hex[:12]}")
        sizes: dict[str, Any] = {}
        for size in args.sizes:
            started = time.perf_counter()
            _grow(log, size, args.batch)
            grown_s = time.perf_counter() - started
            sizes[str(size)] = {"grown_in_s": round(grown_s, 2),
                                **_measure(log, size, args.appends, args.proofs, chance)}
        per_game = _per_game(store, url, args.games)
        return {"fsync": store.client.config_get("appendfsync").get("appendfsync", "?"),
                "sizes": sizes, "per_game": per_game}


def _leaf(index: int) -> tuple[bytes, bytes]:
    """A leaf shaped like a real checkpoint (its signature random), and its subject."""
    checkpoint = {"game_id": f"g-{index:032x}", "version": 1 + index % 300,
                  "head": f"{index:064x}", "signed_at": "2026-01-02T03:04:05Z",
                  "key_id": "ed25519:0123456789abcdef",
                  "signature": random.Random(index).randbytes(64).hex()}
    return transparency.leaf(checkpoint), transparency.subject(checkpoint)


def _grow(log: TransparencyLog, size: int, batch: int) -> None:
    current = log.size()
    while current < size:
        count = min(batch, size - current)
        log.append_batch([_leaf(index) for index in range(current, current + count)])
        current += count


def _measure(log: TransparencyLog, size: int, appends: int, proofs: int,
             chance: random.Random) -> dict[str, Any]:
    tree = log.size()
    root = log.root(tree)
    hashes = {}
    inclusion_ms, consistency_ms, inclusion_lengths, consistency_lengths = [], [], [], []
    inclusion_bytes, consistency_bytes = [], []
    for _ in range(proofs):
        index = chance.randrange(tree)
        hashed = merkle.leaf_hash(log.entries(index, index + 1, tree)[0])
        started = time.perf_counter()
        found = log.index_of(hashed)
        assert found == index
        path = log.inclusion(found, tree)
        inclusion_ms.append((time.perf_counter() - started) * 1000)
        inclusion_lengths.append(len(path))
        inclusion_bytes.append(len(json.dumps(
            {"leaf_index": found, "tree_size": tree, "audit_path": [p.hex() for p in path]})))
        hashes[index] = (hashed, path)
        first = chance.randrange(1, tree)
        started = time.perf_counter()
        proof = log.consistency(first, tree)
        consistency_ms.append((time.perf_counter() - started) * 1000)
        consistency_lengths.append(len(proof))
        consistency_bytes.append(len(json.dumps(
            {"first": first, "second": tree, "proof": [p.hex() for p in proof]})))
    index, (hashed, path) = next(iter(hashes.items()))
    verify_inclusion_ms = _per_call_ms(
        lambda: merkle.verify_inclusion(hashed, index, tree, path, root), 2000)
    first = tree // 3 + 1
    proof, first_root = log.consistency(first, tree), log.root(first)
    verify_consistency_ms = _per_call_ms(
        lambda: merkle.verify_consistency(first, tree, proof, first_root, root), 2000)
    started = time.perf_counter()
    for _ in range(20):
        log.root(tree)
    root_ms = (time.perf_counter() - started) * 1000 / 20
    memory = _memory(log)
    log_s = bare_s = 0.0
    bare_key = log.key("bench-bare")
    for start in range(0, appends, 50):
        count = min(50, appends - start)
        started = time.perf_counter()
        for offset in range(start, start + count):
            log.append(*_leaf(10**9 + size + offset))
        log_s += time.perf_counter() - started
        started = time.perf_counter()
        for offset in range(start, start + count):
            log.client.set(bare_key, _leaf(offset)[0])
        bare_s += time.perf_counter() - started
    log.client.delete(bare_key)
    return {
        "leaves": tree,
        "appends_per_second": round(appends / log_s),
        "bare_writes_per_second": round(appends / bare_s),
        "ratio_to_bare": round(bare_s / log_s, 3),
        "inclusion": _proof_figures(inclusion_ms, inclusion_lengths, inclusion_bytes,
                                    verify_inclusion_ms),
        "consistency": _proof_figures(consistency_ms, consistency_lengths, consistency_bytes,
                                      verify_consistency_ms),
        "root_ms": round(root_ms, 3),
        "bytes_per_leaf": round(memory / tree),
    }


def _proof_figures(times: list[float], lengths: list[int], sizes: list[int],
                   verify_ms: float) -> dict[str, Any]:
    ordered = sorted(times)
    return {"median_ms": round(statistics.median(ordered), 3),
            "p95_ms": round(ordered[int(0.95 * (len(ordered) - 1))], 3),
            "hashes_max": max(lengths), "hashes_mean": round(statistics.fmean(lengths), 1),
            "json_bytes_max": max(sizes), "verify_ms": round(verify_ms, 4)}


def _per_call_ms(work: Callable[[], object], rounds: int) -> float:
    started = time.perf_counter()
    for _ in range(rounds):
        work()
    return (time.perf_counter() - started) * 1000 / rounds


def _memory(log: TransparencyLog) -> int:
    """Returns the bytes Redis holds for *log* (every key counted in full)."""
    total = 0
    for key in log.client.scan_iter(match=log.key("*"), count=1000):
        total += int(log.client.memory_usage(key, samples=0) or 0)
    return total


def _per_game(store: RedisEventStore, url: str, games: int) -> dict[str, Any]:
    """Plays *games* bot games; logs every version's checkpoint (a spectator watching each
    event) in one log and only the deal ends' (each deal's seed reveal, and the last event) in
    another; returns leaves and bytes per game."""
    from workers import context, jobs

    context.configure(url)
    signer = Signer(Ed25519PrivateKey.generate())
    every = TransparencyLog.of(store, name=f"bench-every-{uuid.uuid4().hex[:12]}")
    ends = TransparencyLog.of(store, name=f"bench-ends-{uuid.uuid4().hex[:12]}")
    events = deals = 0
    for _ in range(games):
        game_id = commands.create_game(store, "classic", {}, ["bot", "bot"]).game_id
        jobs.play_bots(game_id, store.version(game_id))
        recorded = store.read(game_id)
        events += len(recorded)
        for item in recorded:
            checkpoint = signer.checkpoint(game_id, item.version, item.envelope.hash)
            transparency.log_checkpoint(every, checkpoint)
            if item.envelope.type == "seed_revealed" or item is recorded[-1]:
                deals += item.envelope.type == "seed_revealed"
                transparency.log_checkpoint(ends, checkpoint)
    every_bytes, ends_bytes = _memory(every), _memory(ends)
    return {
        "games": games, "events_per_game": round(events / games, 1),
        "deals_per_game": round(deals / games, 1),
        "every_event": {"leaves_per_game": round(every.size() / games, 1),
                        "bytes_per_game": round(every_bytes / games),
                        "leaf_bytes": len(canonical_json(checkpoint))},
        "deal_ends_only": {"leaves_per_game": round(ends.size() / games, 1),
                           "bytes_per_game": round(ends_bytes / games)},
    }


@contextlib.contextmanager
def _server(url: str | None, fsync: str) -> Iterator[str]:
    if url:
        yield url
        return
    with tempfile.TemporaryDirectory(prefix="fortyfive-bench-") as data_dir:
        with EmbeddedRedis(data_dir, appendfsync="always" if fsync == "always" else
                           "everysec") as server:
            yield server.url

