"""The same situation gets the same rule id and sentence from a hand history, from
``fortyfive rules`` and from ``/v1/rules/*``: every trick won and every trump withheld in the
golden corpus is asked again of the CLI and of the API."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient

from engine.fold import apply_event
from engine.state import GameState
from events.types import event_from_data
from events.upcasting import upcast
from service.cli import main

GOLDEN = Path(__file__).resolve().parents[1] / "replay" / "golden"
GAMES = sorted(path for path in GOLDEN.glob("*.json") if path.stem.count(".") == 0)


def _situations(path: Path) -> list[tuple[str, dict[str, Any], dict[str, str]]]:
    """Returns each (query, request, ruling the history states) of a history: a ``winner`` for
    every trick won, a ``legal`` for every trump withheld."""
    document = json.loads(path.read_bytes())
    facts = {(fact["version"], fact["kind"]): fact
             for deal in document["results"]["deals"] for fact in deal["facts"]}
    rules = document["rules"]
    table = {"profile": rules["profile"], "options": rules["options"],
             "players": rules["players"]}
    state: GameState | None = None
    found = []
    for item in document["events"]:
        event = event_from_data(item["type"], upcast(item["type"], item["schema"], item["data"]))
        before = state
        state = apply_event(state, event)
        if before is None or before.deal is None or item["type"] != "card_played":
            continue
        deal = before.deal
        assert deal.trump is not None and deal.current is not None
        trick = [card.code() for card in deal.current.cards]
        trump = deal.trump.name
        withheld = facts.get((item["version"], "renege_allowed"))
        if withheld is not None:
            hand = [card.code() for card in deal.hands[item["data"]["seat"]]]
            found.append(("legal", {**table, "trump": trump, "trick": trick, "hand": hand},
                          withheld["ruling"]))
        won = facts.get((item["version"], "trick_won"))
        if won is not None:
            found.append(("winner", {**table, "trump": trump,
                                     "trick": trick + [item["data"]["card"]]}, won["ruling"]))
    return found


def _cli(capsys: pytest.CaptureFixture[str], query: str, body: dict[str, Any]) -> Any:
    argv = ["rules", query, "--profile", body["profile"], "--players", str(body["players"]),
            "--trump", body["trump"], "--trick", ",".join(body["trick"]), "--json"]
    for name, value in body["options"].items():
        text = value if isinstance(value, str) else json.dumps(value)
        argv += ["--option", f"{name}={text}"]
    if query == "legal":
        argv += ["--hand", ",".join(body["hand"])]
    assert main(argv) == 0
    out, err = capsys.readouterr()
    assert err == "", err
    return json.loads(out)


@pytest.mark.parametrize("path", GAMES, ids=lambda p: p.stem)
def test_history_cli_and_api_give_the_same_rule_and_sentence(
    path: Path, client: FlaskClient, capsys: pytest.CaptureFixture[str]
) -> None:
    situations = _situations(path)
    assert any(query == "winner" for query, _, _ in situations)
    for query, body, stated in situations:
        api = client.post(f"/v1/rules/{query}", json=body)
        assert api.status_code == 200, api.get_json()
        answer = api.get_json()
        assert (answer["rule"], answer["ruling"]) == (stated["rule"], stated["text"]), body
        assert _cli(capsys, query, body) == answer


def test_the_corpus_asks_about_a_trump_withheld() -> None:
    assert any(query == "legal" for path in GAMES for query, _, _ in _situations(path))
