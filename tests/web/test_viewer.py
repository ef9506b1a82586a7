"""The hand-history viewer as card players expect it: the hands as dealt account for robbing
(the robbed turn-up in the robber's hand, the card set aside marked as such), another view of
the same game opens at the same event, and axe-core finds nothing serious. Every history it
opens is verified, and the verdict heads the page: a changed card, winner or seed fails and is
named, an untouched history verifies. verify.js's deck derivations, canonical JSON and Ed25519
check agree with vectors computed here. Takes viewer.png (see ``./dev screenshots``).
"""

from __future__ import annotations

import copy
import hashlib
import hmac
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from accessibility import serious_violations
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from web_helpers import (
    DESKTOP,
    PHONE,
    Bots,
    LiveServer,
    by_id,
    console_errors,
    css,
    rehash,
    screenshot,
    wait_for,
    wait_for_game_over,
)

from engine.profiles import make_ruleset
from engine.shuffle import cut, deck_order, pack, shuffled
from events.codec import canonical_json
from replay.formats.build import build_history
from replay.formats.jsonformat import dumps
from replay.sample import GameDriver, seeded_choice
from service.application.signing import signer_for

# Checkpoints and keys, as docs/verification.md specifies them ------------------------------

SIGNING_KEY = Ed25519PrivateKey.from_private_bytes(hashlib.sha256(b"viewer test key").digest())
PUBLIC_KEY = SIGNING_KEY.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)
KEY_ID = "ed25519:" + hashlib.sha256(PUBLIC_KEY).hexdigest()[:16]
KEYS = {"keys": [{"key_id": KEY_ID, "algorithm": "ed25519", "public_key": PUBLIC_KEY.hex(),
                  "created_at": "2026-01-01T00:00:00Z", "retired_at": None}]}


def checkpoint_of(doc: dict[str, Any], version: int | None = None) -> dict[str, Any]:
    """A checkpoint of *doc* at *version* (its last event by default), signed with the test key."""
    event = doc["events"][-1] if version is None else next(
        item for item in doc["events"] if item["version"] == version)
    fields = {"game_id": doc["game_id"], "version": event["version"], "head": event["hash"],
              "signed_at": "2026-01-02T03:04:05Z", "key_id": KEY_ID}
    signature = SIGNING_KEY.sign(b"fortyfive/checkpoint/1" + canonical_json(fields))
    return {**fields, "signature": signature.hex()}


@pytest.fixture
def published_keys(browser: Any) -> Iterator[None]:
    """The browser answers GET /v1/keys with the test key (the checkpoint the tests sign is
    the service's in every other respect) beside the live service's own key, which signs its
    transparency log's tree heads."""
    listed = {"keys": [*KEYS["keys"], signer_for().record("2026-01-01T00:00:00Z")]}
    script = ("const fetched = window.fetch.bind(window); window.fetch = (input, init) => "
              "String(input) === '/v1/keys' ? Promise.resolve(new Response("
              f"{json.dumps(json.dumps(listed))}, {{status: 200, headers: "
              "{'Content-Type': 'application/json'}})) : fetched(input, init);")
    added = browser.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": script})
    try:
        yield
    finally:
        browser.execute_cdp_cmd("Page.removeScriptToEvaluateOnNewDocument",
                                {"identifier": added["identifier"]})


def open_file(browser: Any, url: str, path: Path) -> Any:
    """Opens *path* in the viewer at *url*; returns the verdict once the checks are done.

    The page is left for a blank one first, so that the viewer starts afresh: in one loaded run
    the verdict found was the previous test's, of another file opened at the same address."""
    browser.get("about:blank")
    browser.get(url)
    by_id(browser, "history-file").send_keys(str(path))
    return wait_for(browser, lambda b: by_id(b, "verdict") if by_id(b, "verdict").get_attribute(
        "data-verdict") not in (None, "", "checking") else None)


def write(directory: Path, name: str, doc: dict[str, Any]) -> Path:
    path = directory / f"{name}.json"
    path.write_text(json.dumps(doc), "utf-8")
    return path


@pytest.fixture(scope="module")
def robbed_game() -> GameDriver:
    """A finished bruff game in which a seat robbed the turn-up."""
    for attempt in range(20):
        driver = GameDriver("g-web-rob", f"web-rob-{attempt}").start("bruff", ["bot"] * 6)
        driver.play(seeded_choice(f"web-rob-{attempt}"))
        if any(item.envelope.type == "turn_up_robbed" for item in driver.recorded):
            return driver
    raise AssertionError("no sample game robbed the turn-up")


@pytest.fixture(scope="module")
def robbed_history(
    robbed_game: GameDriver, tmp_path_factory: pytest.TempPathFactory,
) -> tuple[Path, dict[str, Any]]:
    """The robbed game as the auditor sees it, with its checkpoint."""
    doc = json.loads(dumps(build_history("g-web-rob", robbed_game.recorded, "auditor")))
    doc["checkpoint"] = checkpoint_of(doc)
    path = tmp_path_factory.mktemp("robbed") / "robbed.json"
    path.write_text(json.dumps(doc), "utf-8")
    return path, doc


def test_a_card_set_aside_face_down_is_rebuilt_from_the_pack(
    live: LiveServer, browser: Any, robbed_game: GameDriver, published_keys: None,
    tmp_path: Path,
) -> None:
    rob = next(item for item in robbed_game.recorded if item.envelope.type == "turn_up_robbed")
    seat = (rob.envelope.data["seat"] + 1) % 6
    doc = json.loads(dumps(build_history("g-web-rob", robbed_game.recorded, seat)))
    hidden = next(event for event in doc["events"] if event["version"] == rob.version)
    assert hidden["redacted"] == ["discard"] and hidden["hash"] is not None
    doc["checkpoint"] = checkpoint_of(doc)
    verdict = open_file(browser, f"{live.url}/viewer", write(tmp_path, "rob-seat", doc))
    assert verdict.get_attribute("data-verdict") == "verified", verdict.text

    hidden["data"]["seat"] = seat  # Now no card of the pack gives the stored hash.
    verdict = open_file(browser, f"{live.url}/viewer", write(tmp_path, "rob-moved", doc))
    assert verdict.get_attribute("data-verdict") == "failed"
    assert (f"event {rob.version}: chain hash differs: no card of the pack gives the stored "
            "hash for the face-down discard") in verdict.text, verdict.text


@pytest.mark.screenshots
def test_hands_as_dealt_show_the_robbed_turn_up_and_the_card_set_aside(
    live: LiveServer, browser: Any, robbed_history: tuple[Path, dict[str, Any]],
    published_keys: None, screenshots: Path,
) -> None:
    path, doc = robbed_history
    rob = next(event for event in doc["events"] if event["type"] == "turn_up_robbed")
    deal = next(event["data"]["deal"] for event in reversed(doc["events"])
                if event["type"] == "deck_shuffled" and event["version"] < rob["version"])
    entry = next(item for item in doc["results"]["deals"] if item["number"] == deal)
    seat, discard, turn_up = rob["data"]["seat"], rob["data"]["discard"], entry["turn_up"]
    live.app.extensions["fortyfive"].signing.logged(doc["checkpoint"])  # As the service would.

    verdict = open_file(browser, f"{live.url}/viewer#v={rob['version']}", path)
    assert verdict.get_attribute("data-verdict") == "verified", verdict.text
    log_status = wait_for(browser, lambda b: by_id(b, "log-status") if by_id(
        b, "log-status").get_attribute("data-log") not in (None, "", "checking") else None)
    assert log_status.get_attribute("data-log") == "included", log_status.text
    assert by_id(browser, "history").get_attribute("data-version") == str(rob["version"])
    robber = css(browser, "#hands li")[seat]
    assert robber.find_elements("css selector", f".card.robbed[data-card='{turn_up}']")
    aside = robber.find_elements("css selector", f".card.set-aside[data-card='{discard}']")
    assert aside and "set aside" in aside[0].get_attribute("aria-label")
    assert "robbed the turn-up" in robber.text
    # One event earlier the turn-up is still on the table.
    by_id(browser, "prev").click()
    robber = css(browser, "#hands li")[seat]
    assert not robber.find_elements("css selector", ".card.robbed, .card.set-aside")

    by_id(browser, "next").click()
    by_id(browser, "next-trick").click()
    assert not serious_violations(browser), serious_violations(browser)
    screenshot(browser, screenshots, "viewer", *DESKTOP)
    assert not console_errors(browser)


def test_the_viewer_keeps_its_place_when_another_view_is_loaded(
    live: LiveServer, bots: Bots, browser: Any,
) -> None:
    created = live.create_game("classic", ["bot", "bot"])
    game_id = created["id"]
    bots.watch(game_id)
    wait_for_game_over(browser, live, game_id)
    browser.get(f"{live.url}/viewer?game={game_id}#v=9")
    wait_for(browser, lambda b: by_id(b, "history").get_attribute("data-version") == "9")
    by_id(browser, "next").click()
    assert browser.current_url.endswith("#v=10")

    by_id(browser, "load").click()  # Open the form again ("Open a hand history").
    from selenium.webdriver.support.ui import Select

    Select(by_id(browser, "game-view")).select_by_value("auditor")
    by_id(browser, "game-load").click()
    wait_for(browser, lambda b: "as seen by the auditor" in by_id(b, "history-summary").text)
    assert by_id(browser, "history").get_attribute("data-version") == "10"
    assert browser.current_url.endswith("#v=10")
    assert "hidden" not in by_id(browser, "hands").text
    # The service's own history verifies: every deck re-dealt from its seed and contributions.
    verdict = wait_for(browser, lambda b: by_id(b, "verdict") if by_id(b, "verdict").get_attribute(
        "data-verdict") not in (None, "", "checking") else None)
    assert verdict.get_attribute("data-verdict") in ("verified", "partly"), verdict.text
    deals = len(live.app.test_client().get(
        f"/v1/games/{game_id}/history?format=json&view=auditor").get_json()["results"]["deals"])
    redealt = "1 deal re-dealt from its seed" if deals == 1 else f"{deals} deals re-dealt"
    assert redealt in verdict.text, verdict.text
    summary = by_id(browser, "history-summary").text
    assert "A: seat 1" in summary and "side 0" not in summary, summary
    assert not console_errors(browser)


# The verdict ---------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def classic_game() -> GameDriver:
    """A finished classic game between two bots."""
    driver = GameDriver("g-web-verdict", "web-verdict").start("classic", ["bot", "bot"])
    driver.play(seeded_choice("web-verdict"))
    return driver


@pytest.fixture(scope="module")
def auditor_doc(classic_game: GameDriver) -> dict[str, Any]:
    """The game's auditor history with its signed checkpoint."""
    doc = json.loads(dumps(build_history("g-web-verdict", classic_game.recorded, "auditor")))
    doc["checkpoint"] = checkpoint_of(doc)
    return doc


def test_an_untouched_history_is_verified_first_thing_on_the_page(
    live: LiveServer, browser: Any, classic_game: GameDriver, auditor_doc: dict[str, Any],
    published_keys: None, tmp_path: Path,
) -> None:
    seat = json.loads(dumps(build_history("g-web-verdict", classic_game.recorded, 0)))
    seat["checkpoint"] = checkpoint_of(seat)
    assert any(event.get("redacted") for event in seat["events"]), "the seat's view hides seeds"
    one_deal = json.loads(dumps(build_history("g-web-verdict", classic_game.recorded, "auditor",
                                              deal=2)))
    one_deal["checkpoint"] = checkpoint_of(one_deal)
    assert one_deal["start"]["version"] > 1, "deal 2 links to the events before it"
    for name, doc in (("auditor", auditor_doc), ("deal", one_deal), ("seat", seat)):
        verdict = open_file(browser, f"{live.url}/viewer", write(tmp_path, name, doc))
        assert verdict.get_attribute("data-verdict") == "verified", (name, verdict.text)
        assert "Verified" in verdict.text and f"signed by {KEY_ID}" in verdict.text
        first = browser.execute_script(
            "return document.querySelector('main').firstElementChild.id")
        assert first == "verdict"
    assert "hidden events rebuilt" in verdict.text, verdict.text
    assert not console_errors(browser)


def test_a_changed_card_fails_naming_the_event(
    live: LiveServer, browser: Any, auditor_doc: dict[str, Any], published_keys: None,
    tmp_path: Path,
) -> None:
    doc = copy.deepcopy(auditor_doc)
    play = next(event for event in doc["events"] if event["type"] == "card_played")
    others = [card for hand in doc["results"]["deals"][0]["hands"] for card in hand]
    play["data"]["card"] = next(card for card in others if card != play["data"]["card"])
    verdict = open_file(browser, f"{live.url}/viewer", write(tmp_path, "card", doc))
    assert verdict.get_attribute("data-verdict") == "failed"
    assert verdict.get_attribute("aria-live") == "assertive"
    assert "Failed" in verdict.text
    assert f"event {play['version']}: chain hash differs" in verdict.text, verdict.text

    # A forger re-hashes the whole chain: the checkpoint and the rules still catch it.
    verdict = open_file(browser, f"{live.url}/viewer", write(tmp_path, "forged", rehash(doc)))
    assert verdict.get_attribute("data-verdict") == "failed"
    assert "chain hash differs" not in verdict.text
    assert "checkpoint: event" in verdict.text and "signed head" in verdict.text, verdict.text
    assert f"event {play['version']}: card_played cannot be applied" in verdict.text
    assert not serious_violations(browser), serious_violations(browser)


def test_a_changed_winner_fails_naming_the_trick(
    live: LiveServer, browser: Any, auditor_doc: dict[str, Any], published_keys: None,
    tmp_path: Path,
) -> None:
    doc = copy.deepcopy(auditor_doc)
    entry, fact = next((entry, fact) for entry in doc["results"]["deals"]
                       for fact in entry["facts"]
                       if fact["kind"] == "trick_won" and fact["trick"] == 3)
    true_seat = fact["seat"]
    fact["seat"], fact["side"] = 1 - fact["seat"], 1 - fact["side"]
    verdict = open_file(browser, f"{live.url}/viewer", write(tmp_path, "winner", doc))
    assert verdict.get_attribute("data-verdict") == "failed"
    expected = (f"deal {entry['number']}: trick 3 winner seat is {1 - true_seat} in the file, "
                f"the rules give {true_seat}")
    assert expected in verdict.text, verdict.text

    doc = copy.deepcopy(auditor_doc)
    doc["results"]["game"]["winner"] = 1 - doc["results"]["game"]["winner"]
    verdict = open_file(browser, f"{live.url}/viewer", write(tmp_path, "game", doc))
    assert verdict.get_attribute("data-verdict") == "failed"
    assert "the game: the winner is side" in verdict.text, verdict.text


def test_a_wrong_seed_fails_naming_the_deal(
    live: LiveServer, browser: Any, auditor_doc: dict[str, Any], published_keys: None,
    tmp_path: Path,
) -> None:
    doc = copy.deepcopy(auditor_doc)
    wrong = hashlib.sha256(b"another seed").hexdigest()
    for event in doc["events"]:
        if event["type"] in ("deck_shuffled", "seed_revealed") and event["data"]["deal"] == 1:
            event["data"]["seed"] = wrong
    rehash(doc)
    doc["checkpoint"] = checkpoint_of(doc)  # Even a checkpoint over it does not save it.
    verdict = open_file(browser, f"{live.url}/viewer", write(tmp_path, "seed", doc))
    assert verdict.get_attribute("data-verdict") == "failed"
    shuffle = next(event for event in doc["events"] if event["type"] == "deck_shuffled")
    assert (f"deal 1: the seed (event {shuffle['version']}, revealed at event"
            in verdict.text), verdict.text
    assert f"does not match its commitment in event {shuffle['version']}" in verdict.text
    assert "checkpoint" not in verdict.text.split("Not checked")[0].split("What differs")[1]


def test_a_history_without_checkpoint_is_partly_checked(
    live: LiveServer, browser: Any, auditor_doc: dict[str, Any], tmp_path: Path,
) -> None:
    doc = {name: value for name, value in auditor_doc.items() if name != "checkpoint"}
    verdict = open_file(browser, f"{live.url}/viewer", write(tmp_path, "bare", doc))
    assert verdict.get_attribute("data-verdict") == "partly", verdict.text
    assert "Partly checked" in verdict.text
    assert "checkpoint: no checkpoint" in verdict.text, verdict.text
    # A checkpoint whose keys this service does not publish is not taken on trust either.
    doc["checkpoint"] = checkpoint_of(doc)
    verdict = open_file(browser, f"{live.url}/viewer", write(tmp_path, "keyless", doc))
    assert verdict.get_attribute("data-verdict") == "partly", verdict.text
    assert "checkpoint: " in verdict.text


def test_an_early_checkpoint_vouches_for_no_event_after_it(
    live: LiveServer, browser: Any, auditor_doc: dict[str, Any], published_keys: None,
    tmp_path: Path,
) -> None:
    """A finished game carrying a genuine checkpoint of an early event (what ?at=N makes the
    service sign) is not verified: the events after it could have been rewritten."""
    doc = dict(auditor_doc)
    last = doc["events"][-1]["version"]
    doc["checkpoint"] = checkpoint_of(doc, 10)
    verdict = open_file(browser, f"{live.url}/viewer", write(tmp_path, "early", doc))
    assert verdict.get_attribute("data-verdict") == "partly", verdict.text
    assert f"events 11-{last}: no signature vouches for them" in verdict.text, verdict.text
    doc["checkpoint"] = checkpoint_of(doc)
    verdict = open_file(browser, f"{live.url}/viewer", write(tmp_path, "final", doc))
    assert verdict.get_attribute("data-verdict") == "verified", verdict.text


def test_the_verdict_reads_on_a_phone(
    live: LiveServer, browser: Any, auditor_doc: dict[str, Any], published_keys: None,
    tmp_path: Path,
) -> None:
    doc = copy.deepcopy(auditor_doc)
    doc["events"][3]["data"]["seat"] = 1 - doc["events"][3]["data"]["seat"]
    browser.set_window_size(*PHONE)
    verdict = open_file(browser, f"{live.url}/viewer", write(tmp_path, "phone", doc))
    assert verdict.get_attribute("data-verdict") == "failed"
    top = browser.execute_script("return arguments[0].getBoundingClientRect().top", verdict)
    assert top < 200, top
    overflow = browser.execute_script(
        "return document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0, overflow
    assert not serious_violations(browser), serious_violations(browser)


def fy2_order(profile: str, players: int, seed: bytes, inputs: dict[str, Any]) -> list[str]:
    """The deck of hmac-sha256-fy/2 as docs/verification.md specifies it, computed with hmac
    and hashlib (and the engine's Fisher-Yates and cut, which /2 shares with /1)."""
    key = hmac.new(seed, b"fortyfive/shuffle/2" + canonical_json(inputs), hashlib.sha256).digest()

    def stream() -> Iterator[int]:
        block = 0
        while True:
            message = b"fortyfive/shuffle/2/block" + block.to_bytes(8, "big")
            yield from hmac.new(key, message, hashlib.sha256).digest()
            block += 1

    rules = make_ruleset(profile, {}, players)
    return [card.code() for card in cut(shuffled(pack(rules), stream()), inputs["cut"])]


VERIFY_JS = """
const [vectors, done] = arguments;
import("/web/verify.js").then(async (v) => {
  const out = {fy1: [], fy2: []};
  for (const item of vectors.decks) {
    const dealing = v.dealingOf(item.rules);
    const seed = v.fromHex(item.seed);
    out.fy1.push(await v.dealtDeck(v.FY1, seed, v.pack(dealing), {cut: item.inputs.cut}));
    out.fy2.push(await v.dealtDeck(v.FY2, seed, v.pack(dealing), item.inputs));
  }
  out.canonical = v.canonicalJson(vectors.value);
  out.keyId = await v.keyIdOf(v.fromHex(vectors.publicKey));
  out.good = await v.checkpointSignatureValid(vectors.checkpoint, vectors.publicKey);
  out.otherVersion = await v.checkpointSignatureValid(
    {...vectors.checkpoint, version: vectors.checkpoint.version + 1}, vectors.publicKey);
  out.otherKey = await v.checkpointSignatureValid(vectors.checkpoint, "11".repeat(32));
  done(out);
}).catch((error) => done({error: String(error)}));
"""


def test_verify_js_agrees_with_vectors_computed_in_python(live: LiveServer, browser: Any) -> None:
    decks = []
    for index, (profile, players) in enumerate((("classic", 2), ("bruff", 6), ("classic", 5))):
        seed = hashlib.sha256(f"vector {index}".encode()).digest()
        inputs = {"context": f"g-vector-{index}", "deal": index + 1, "cut": 7 + index * 11,
                  "nonces": [{"seat": 1, "nonce": "ab" * 16}, {"seat": 0, "nonce": "0f" * 40}]}
        rules = make_ruleset(profile, {}, players)
        decks.append({
            "rules": {"profile": profile, "players": players, "options": rules.options()},
            "seed": seed.hex(), "inputs": inputs,
            "fy1": [c.code() for c in cut(deck_order(rules, seed.hex()), inputs["cut"])],
            "fy2": fy2_order(profile, players, seed, inputs),
        })
    value = {"b": [1, "x", None, True, -0.5, 1e21], "a": {"\u00e9": 'line\nbreak \u0001 "q" \\',
             "\u20ac": -5, "Z": 0}, "\U0001F600": "\u2028", "\ufb01": [], "": {}}
    checkpoint = {"game_id": "g-vector", "version": 41, "head": "ab" * 32,
                  "signed_at": "2026-01-02T03:04:05Z", "key_id": KEY_ID}
    checkpoint["signature"] = SIGNING_KEY.sign(
        b"fortyfive/checkpoint/1" + canonical_json(checkpoint)).hex()
    browser.get(f"{live.url}/viewer")
    out = browser.execute_async_script(VERIFY_JS, {
        "decks": decks, "value": value, "publicKey": PUBLIC_KEY.hex(), "checkpoint": checkpoint,
    })
    assert "error" not in out, out
    assert out["fy1"] == [deck["fy1"] for deck in decks]
    assert out["fy2"] == [deck["fy2"] for deck in decks]
    assert out["fy2"] != out["fy1"]
    assert out["canonical"].encode() == canonical_json(value)
    assert out["keyId"] == KEY_ID
    assert (out["good"], out["otherVersion"], out["otherKey"]) == (True, False, False)


def test_a_deal_in_progress_is_partly_checked_saying_why(
    live: LiveServer, browser: Any, published_keys: None, tmp_path: Path,
) -> None:
    driver = GameDriver("g-web-live", "web-live").start("classic", ["bot", "bot"])
    driver.play(seeded_choice("web-live"), until=lambda state: state.version >= 6)
    doc = json.loads(dumps(build_history("g-web-live", driver.recorded, 0)))
    verdict = open_file(browser, f"{live.url}/viewer", write(tmp_path, "live", doc))
    assert verdict.get_attribute("data-verdict") == "partly", verdict.text
    assert "deal 1: seed not yet revealed" in verdict.text, verdict.text
    assert "What differs" not in verdict.text


# Prefixes and carried keys (issue 23) ----------------------------------------------------------


def test_a_prefix_says_so_at_the_top_and_how_much_a_later_checkpoint_shows_missing(
    live: LiveServer, browser: Any, classic_game: GameDriver, auditor_doc: dict[str, Any],
    published_keys: None, tmp_path: Path,
) -> None:
    total = auditor_doc["events"][-1]["version"]
    at = total - 7
    prefix = json.loads(dumps(build_history("g-web-verdict", classic_game.recorded, "auditor",
                                            as_of=at)))
    prefix["checkpoint"] = checkpoint_of(prefix)
    verdict = open_file(browser, f"{live.url}/viewer", write(tmp_path, "prefix", prefix))
    said = f"This history stops at event {at} of a game that was not over."
    assert verdict.text.splitlines()[0] == said, verdict.text
    assert verdict.get_attribute("data-verdict") == "verified", verdict.text
    prefix["checkpoint"] = auditor_doc["checkpoint"]
    verdict = open_file(browser, f"{live.url}/viewer", write(tmp_path, "prefix-final", prefix))
    assert verdict.text.splitlines()[0] == (
        f"This history stops at event {at} of a game that was not over: its checkpoint vouches "
        f"for event {total}, so at least 7 events of the game are missing."), verdict.text
    assert verdict.get_attribute("data-verdict") == "failed"
    assert f"but this history stops at event {at}: it was cut short, 7 events missing" in (
        verdict.text)
    whole = open_file(browser, f"{live.url}/viewer", write(tmp_path, "whole", auditor_doc))
    assert "stops at event" not in whole.text


def test_a_carried_key_is_checked_and_said_to_be_only_the_historys(
    live: LiveServer, browser: Any, auditor_doc: dict[str, Any], tmp_path: Path,
) -> None:
    """Without the service's keys (GET /v1/keys answers none here) the signature is checked
    with the key the history carries: another game's signature fails, and a good one is
    only as good as that key, which the verdict says."""
    doc = {**auditor_doc, "checkpoint_key": KEYS["keys"][0]}
    verdict = open_file(browser, f"{live.url}/viewer", write(tmp_path, "carried", doc))
    assert verdict.get_attribute("data-verdict") == "partly", verdict.text
    assert "only the history itself vouches for that key" in verdict.text, verdict.text
    other = checkpoint_of({**auditor_doc, "game_id": "g-another"})
    forged = {**doc, "checkpoint": {**doc["checkpoint"], "signature": other["signature"]}}
    verdict = open_file(browser, f"{live.url}/viewer", write(tmp_path, "foreign", forged))
    assert verdict.get_attribute("data-verdict") == "failed"
    assert f"signature differs: it does not verify with the carried key {KEY_ID}" in (
        verdict.text), verdict.text
