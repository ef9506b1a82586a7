"""A whole evening of a drive over REST, as a director runs one: 40 players, winners move on,
one paper table whose score card a player of one side enters and a player of the other
confirms, a table abandoned with an adjusted score, a substitution and a late arrival between
rounds, people playing their seats by hand beside the workers' bots; the standings are then
recomputed here from the drive's history alone (a paper table's result from its card's
events), and `drive verify` passes it.

The evening is driven by :class:`Evening`: the director's requests, the people's seats
(:meth:`Evening.play_by_hand`, one seat at a time through its own token and the REST API,
as a person at a screen would), the paper tables' cards (:meth:`Evening.settle_paper`), and
the workers.
"""

from __future__ import annotations

import copy
import functools
import hashlib
import json
import random
from collections.abc import Mapping
from datetime import datetime, timedelta
from fractions import Fraction
from pathlib import Path
from typing import Any

from flask.testing import FlaskClient
from rq import Queue
from rq.registry import ScheduledJobRegistry
from worker_helpers import drive as run_workers
from worker_helpers import work as run_once

from engine.bots import choose_action
from events.codec import canonical_json
from events.drive_store import DriveStore
from replay.seat_state import state_from_view
from replay.verification.drive import verify_drive
from service.application import drives
from service.application.tokens import TokenRegistry
from service.cli import main
from workers import context, keys
from workers.dispatcher import Dispatcher

PAPER_TABLE = 10
PAPER_PEOPLE = (18, 19, 20, 21)
"""The whole evening's paper table, and the players its first round seats there."""

SHARE = {"average": Fraction(1, 2), "average_plus": Fraction(3, 5),
         "average_minus": Fraction(2, 5)}
"""docs/api.md: average, average-plus and average-minus, per cent of the top."""


class Evening:
    """A drive in a hall: its director, the people at its tables, and the workers."""

    def __init__(self, client: FlaskClient, dispatcher: Dispatcher, queue: Queue,
                 created: Mapping[str, Any]) -> None:
        self.client, self.dispatcher, self.queue = client, dispatcher, queue
        self.drive_id: str = created["id"]
        self.director: str = created["director_token"]
        self.people: dict[int, str] = {p["player"]: p["token"] for p in created["players"]
                                       if p["token"] is not None}
        """Each person's token, by player number; the people who play their seats."""
        self.absent: set[int] = set()
        """People who do not come to their table (their table stalls: no turn clock)."""
        self.chance = random.Random(25)

    def direct(self, action: str, **fields: Any) -> Any:
        """Sends one director's action; returns the answer."""
        return self.client.post(f"/v1/drives/{self.drive_id}/director",
                                json={"action": action, **fields},
                                headers={"Authorization": f"Bearer {self.director}"})

    def view(self) -> dict[str, Any]:
        answer: dict[str, Any] = self.client.get(f"/v1/drives/{self.drive_id}").json
        return answer

    def table_of(self, player: int) -> dict[str, Any]:
        """Returns the table of the round in play that seats *player*."""
        view = self.view()
        name = view["players"][player]["name"]
        return next(t for t in view["rounds"][-1]["tables"]
                    if any(p["name"] == name for p in t["players"]))

    def play_by_hand(self, player: int) -> bool:
        """Plays *player*'s seat of the round in play through their token, as long as the
        seat has something to do; True if it acted."""
        table = self.table_of(player)
        if table["paper"]:
            return False  # Played with real cards: its card is settle_paper's.
        headers = {"Authorization": f"Bearer {self.people[player]}"}
        acted = False
        while True:
            view = self.client.get(f"/v1/games/{table['game']}", headers=headers).json
            if view["phase"] == "over":
                return acted
            state, seat = state_from_view(view)
            action = choose_action(state, seat, self.chance)
            if action is None:
                return acted
            answer = self.client.post(f"/v1/games/{table['game']}/actions", json=action,
                                      headers={**headers, "If-Match": f'"{state.version}"'})
            assert answer.status_code in (201, 409, 412), answer.json
            acted = True

    def settle_paper(self) -> bool:
        """Enters and confirms the score card of each paper table of the round in play that
        is not settled: one deal that ends the game (to 10), written by a person of the first
        side that has one and confirmed by a person of another side, the director standing
        in where no side (or no other side) has a person at the table; True if it did."""
        current = self.view()["rounds"][-1]
        settled = False
        for table in current["tables"]:
            if not table["paper"]:
                continue
            url = f"/v1/drives/{self.drive_id}/tables/{table['table']}/score_card"
            card = self.client.get(url).json
            if card["status"] in ("confirmed", "abandoned"):
                continue
            people = [[self.people[p["player"]] for p in side["players"]
                       if p["player"] in self.people and p["player"] not in self.absent]
                      for side in card["sides"]]
            writer = next((s for s, tokens in enumerate(people) if tokens), None)
            confirmer = next((s for s, tokens in enumerate(people)
                              if tokens and s != writer), None)
            points = [25, 5] if self.chance.random() < 0.5 else [5, 25]
            entered = self.client.post(url, json={"deals": [{"dealer": 0, "points": points}]},
                                       headers={"Authorization": "Bearer " + (
                                           self.director if writer is None
                                           else people[writer][0])})
            assert entered.status_code == 200, entered.json
            confirmed = self.client.post(url + "/confirm", json={}, headers={
                "Authorization": "Bearer " + (self.director if confirmer is None
                                              else people[confirmer][0])})
            assert confirmed.json["status"] == "confirmed", confirmed.json
            settled = True
        return settled

    def run(self) -> None:
        """Runs the workers, plays the people's seats and settles the paper tables' cards
        until nobody has anything to do."""
        while True:
            run_workers(self.dispatcher, self.queue)
            view = self.view()
            if view["status"] == "finished" or not view["rounds"] or view["rounds"][-1][
                    "status"] == "finished":
                return
            played = [self.play_by_hand(p) for p in self.people if p not in self.absent]
            if not self.settle_paper() and not any(played):
                return  # A table waits for someone absent.


def test_a_whole_evening_of_forty_with_a_director_and_standings_recomputed_from_its_history(
    client: FlaskClient, dispatcher: Dispatcher, queue: Queue, tmp_path: Path,
) -> None:
    # winners_move's round 1 seats players 18, 19, 21 and 20 at table 10, the paper table:
    # they are people, who enter its card; later rounds seat bots there too.
    players = [{"name": "Ann", "type": "human"}] + [
        {"name": f"P{n}" if n in PAPER_PEOPLE else f"B{n}",
         "type": "human" if n in PAPER_PEOPLE else "bot"} for n in range(1, 40)]
    created = client.post("/v1/drives", json={
        "profile": "classic", "options": {"target": 10, "turn_seconds": None},
        "players": players, "format": "progressive", "rounds": 3,
        "movement": "winners_move", "paper_tables": [PAPER_TABLE]})
    assert created.status_code == 201, created.json
    evening = Evening(client, dispatcher, queue, created.json)
    assert evening.view()["movement"] == "winners_move"
    assert len(evening.view()["schedule"]) == 1  # Later rounds are seated from results.
    assert set(evening.view()["schedule"][0][PAPER_TABLE - 1]) == {
        f"P{n}" for n in PAPER_PEOPLE}

    # Round 1: Ann does not come; the director holds round 2 and abandons her table.
    evening.absent.add(0)
    evening.run()
    assert evening.direct("pause", reason="Ann is late").status_code == 200
    stalled = evening.table_of(0)
    assert stalled["status"] == "in_progress"
    ann_side = next(p["side"] for p in stalled["players"] if p["name"] == "Ann")
    adjusted = ["average_plus", "average_plus"]
    adjusted[ann_side] = "average_minus"
    late = evening.direct("add_player", name="Nora", type="human")
    assert (late.status_code, late.json["code"]) == (409, "round_in_play"), late.json
    answer = evening.direct("abandon_table", table=stalled["table"], adjusted=adjusted,
                            reason="Ann's table cannot play")
    assert answer.status_code == 200, answer.json
    evening.run()
    view = evening.view()
    assert [r["status"] for r in view["rounds"]] == ["finished"] and view["paused"]

    # Between rounds: Sam takes Ann's place (a new token; hers stops working), Nora arrives
    # late, house bots fill her table, and round 2 is seated from round 1's results.
    old_token = evening.people[0]
    taken = evening.direct("substitute", player=0, name="Sam", type="human",
                           reason="Ann went home")
    assert taken.status_code == 200, taken.json
    assert taken.json["issued"]["player"] == 0 and taken.json["issued"]["token"] != old_token
    evening.people[0] = taken.json["issued"]["token"]
    evening.absent.clear()
    refused = evening.direct("add_player", name=" b1 ", type="human")
    assert (refused.status_code, refused.json["code"]) == (409, "name_taken")
    nobody = evening.direct("withdraw_player", player=99)
    assert (nobody.status_code, nobody.json["code"]) == (422, "unknown_player")
    arrived = evening.direct("add_player", name="Nora", type="human", reason="traffic")
    assert arrived.status_code == 200, arrived.json
    nora = arrived.json["issued"]["player"]
    evening.people[nora] = arrived.json["issued"]["token"]
    assert [p["name"] for p in arrived.json["players"][40:]] == [
        "Nora", "Bot 1", "Bot 2", "Bot 3"]
    assert evening.direct("resume").status_code == 200
    evening.run()
    round_two = evening.view()["rounds"][1]["tables"]
    assert len(round_two) == 11
    sams = next(t for t in round_two if any(p["name"] == "Sam" for p in t["players"]))
    # Round 1 still shows who played it: Ann, not Sam, who took her place from round 2.
    round_one = evening.view()["rounds"][0]["tables"]
    names_one = [p["name"] for t in round_one for p in t["players"]]
    assert "Ann" in names_one and "Sam" not in names_one
    assert "Ann" in [name for t in evening.view()["schedule"][0] for name in t]
    assert client.get(f"/v1/games/{sams['game']}", headers={
        "Authorization": f"Bearer {old_token}"}).status_code == 401
    evening.run()
    view = evening.view()
    assert view["status"] == "finished", view["rounds"][-1]

    history = client.get(f"/v1/drives/{evening.drive_id}/history")
    document = json.loads(history.data)
    director_events = [(e["type"], e["actor"]) for e in document["events"]
                       if e["actor"] == "director" and not e["type"].startswith("score_card")]
    assert director_events == [
        ("drive_paused", "director"), ("table_abandoned", "director"),
        ("player_substituted", "director"), ("player_added", "director"),
        ("drive_resumed", "director")]
    standings = client.get(f"/v1/drives/{evening.drive_id}/standings").json
    assert standings["players"] == document["standings"]["players"]
    assert standings["adjustments"][0]["by"] == "director"
    assert [(c["action"], c["round"], c["name"], c["replaced"]) for c in standings["roster"]][
        :2] == [("substitute", 2, "Sam", "Ann"), ("add_player", 2, "Nora", None)]
    recomputed = recompute(document)
    assert {p["player"]: (p["points"], p["games_won"]) for p in standings["players"]} == (
        recomputed)
    assert recomputed[0][0] > 0  # Ann's adjusted score, then Sam's games, on one card.
    # The paper table: round 1's card entered by a person of one side, confirmed by a person
    # of the other; each round's listed result is its confirmed card's.
    marks = [(e["type"], e["actor"], e["data"]["side"]) for e in document["events"]
             if e["type"].startswith("score_card") and e["data"]["round"] == 1]
    assert [(kind, actor.split(":")[0]) for kind, actor, _ in marks] == [
        ("score_card_entered", "player"), ("score_card_confirmed", "player")]
    assert marks[0][2] != marks[1][2] and {marks[0][2], marks[1][2]} == {0, 1}
    deals = {(e["data"]["round"], e["data"]["table"]): e["data"]["deals"]
             for e in document["events"] if e["type"] == "score_card_entered"}
    where = {game: (e["data"]["round"], t) for e in document["events"]
             if e["type"] == "round_started" for t, game in enumerate(e["data"]["games"], 1)}
    paper = [g for g in document["games"] if g.get("paper")]
    assert [where[g["game"]] for g in paper] == [(n, PAPER_TABLE) for n in (1, 2, 3)]
    for listed in paper:
        assert listed["result"]["scores"] == [
            sum(d["points"][side] for d in deals[where[listed["game"]]]) for side in (0, 1)]
    check_winners_moved(document)
    path = tmp_path / "evening.json"
    path.write_bytes(history.data)
    assert main(["drive", "verify", str(path)]) == 0
    # Two players swapped in round 2's seating, the drive's chain rewritten to match: the
    # verifier seats the round again from round 1's results and tells.
    forged = copy.deepcopy(document)
    start = next(e for e in forged["events"]
                 if e["type"] == "round_started" and e["data"]["round"] == 2)
    tables = start["data"]["tables"]
    tables[0][0], tables[1][0] = tables[1][0], tables[0][0]
    forged["head"] = _rehash(forged["events"])
    assert "round 2 is not seated as winners_move seats it from round 1's results" in (
        verify_drive(forged))


def _rehash(envelopes: list[dict[str, Any]]) -> str:
    """Recomputes every hash and link of a chain of envelopes; returns the new head."""
    prev = "0" * 64
    for envelope in envelopes:
        envelope["prev_hash"] = prev
        body = {k: v for k, v in envelope.items() if k != "hash"}
        envelope["hash"] = prev = hashlib.sha256(canonical_json(body)).hexdigest()
    return prev


def _seatings(document: Mapping[str, Any]) -> dict[int, list[list[int]]]:
    """Returns each round's tables (player numbers in seat order), as the history's events
    give them: the creation's schedule, then each round seated at its start or again."""
    events = [(e["type"], e["data"]) for e in document["events"]]
    schedule = {n: tables for n, tables in enumerate(events[0][1]["schedule"], start=1)}
    started = 0
    for kind, data in events[1:]:
        if kind == "round_started":
            started = data["round"]
            if data.get("tables") is not None:
                schedule[started] = data["tables"]
        elif kind in ("player_added", "player_withdrawn"):
            for offset, tables in enumerate(data["schedule"], start=started + 1):
                schedule[offset] = tables
    return schedule


def assert_checks_out(standings: Mapping[str, Any], document: Mapping[str, Any],
                      tmp_path: Path) -> None:
    """Asserts the service's *standings* are the independent recomputation from the drive's
    history *document*, and that ``fortyfive drive verify`` passes that history."""
    assert {p["player"]: (p["points"], p["games_won"]) for p in standings["players"]} == (
        recompute(document))
    path = tmp_path / "drive.json"
    path.write_text(json.dumps(document))
    assert main(["drive", "verify", str(path)]) == 0


def recompute(document: Mapping[str, Any]) -> dict[int, tuple[int | float, int]]:
    """Returns each player's (points, games won) of a progressive drive, from its history
    alone (docs/api.md): a side's points in each game go to both its players, a winning side
    wins a game for each; an abandoned table scores each side its share of the most points a
    side made at the round's other tables; a player there when the round started whom it
    seats nowhere sat out and scores the round's average; in a round the director called, a
    game ended without a winner is won by the side ahead. A paper table's result is its
    card's, from the drive's own events (the card entered last, which was confirmed): each
    side's points summed over its deals, the side ahead the winner (these tests' cards end
    with one side alone past the target)."""
    seatings = _seatings(document)
    results = {g["game"]: g["result"] for g in document["games"] if not g.get("paper")}
    cards = {(e["data"]["round"], e["data"]["table"]): e["data"]["deals"]
             for e in document["events"] if e["type"] == "score_card_entered"}
    abandoned = {(e["data"]["round"], e["data"]["table"]): e["data"]["adjusted"]
                 for e in document["events"] if e["type"] == "table_abandoned"}
    called = {e["data"]["round"] for e in document["events"] if e["type"] == "round_called"}
    players = len(document["events"][0]["data"]["players"]) + sum(
        len(e["data"]["players"]) for e in document["events"]
        if e["type"] in ("player_added", "player_withdrawn"))
    points = [Fraction(0)] * players
    won = [0] * players
    present: dict[int, set[int]] = {}
    here = set(range(len(document["events"][0]["data"]["players"])))
    joined = len(here)
    for event in document["events"]:
        data = event["data"]
        if event["type"] in ("player_added", "player_withdrawn"):
            here |= set(range(joined, joined + len(data["players"])))
            joined += len(data["players"])
            here -= set(data["withdrawn"])
        elif event["type"] == "round_started":
            present[data["round"]] = set(here)
    for event in document["events"]:
        if event["type"] != "round_started":
            continue
        number, games = event["data"]["round"], event["data"]["games"]
        tables = seatings[number]
        for t, game in enumerate(games, start=1):
            if (number, t) in cards and (number, t) not in abandoned:
                scores = [sum(d["points"][side] for d in cards[number, t]) for side in (0, 1)]
                results[game] = {"scores": scores, "winner": scores.index(max(scores))}
        top = max(score for t, game in enumerate(games, start=1)
                  if (number, t) not in abandoned for score in results[game]["scores"])
        seated = {player for table in tables for player in table}
        for player in present[number]:
            if player not in seated:
                points[player] += SHARE["average"] * top
        for t, (game, table) in enumerate(zip(games, tables, strict=True), start=1):
            for seat, player in enumerate(table):
                if (number, t) in abandoned:
                    points[player] += SHARE[abandoned[number, t][seat % 2]] * top
                    continue
                result = results[game]
                winner = result["winner"]
                if winner is None and number in called and result["scores"][0] != result[
                        "scores"][1]:
                    winner = 0 if result["scores"][0] > result["scores"][1] else 1
                points[player] += result["scores"][seat % 2]
                won[player] += winner == seat % 2
    return {p: (int(points[p]) if points[p].denominator == 1 else float(points[p]), won[p])
            for p in range(players)}


def check_winners_moved(document: Mapping[str, Any]) -> None:
    """Checks each round after the first seats the players as winners_move says: at every
    table the side that won the last round's table before it has come, split."""
    seatings = _seatings(document)
    results = {g["game"]: g["result"] for g in document["games"]}
    starts = {e["data"]["round"]: e["data"]["games"] for e in document["events"]
              if e["type"] == "round_started"}
    for number in range(2, len(starts) + 1):
        before, now = seatings[number - 1], seatings[number]
        for t, (game, table) in enumerate(zip(starts[number - 1], before, strict=True)):
            result = results[game]
            side = result["winner"]
            if side is None:
                side = 0 if result["scores"][0] >= result["scores"][1] else 1
            movers = {table[side], table[side + 2]}
            stayers = set(table) - movers
            arrived = now[(t + 1) % len(before)]
            assert movers <= set(arrived), (number, t)
            assert stayers <= set(now[t]), (number, t)
            for pair, where in ((movers, arrived), (stayers, now[t])):
                first, second = sorted(pair)
                assert where.index(first) % 2 != where.index(second) % 2, "partners split"


def _start_first_round(evening: Evening) -> None:
    evening.dispatcher.poll()
    run_once(evening.queue)  # The creation is dispatched: round 1 starts, nobody has played.


def test_a_director_changes_the_players_between_rounds_and_a_person_at_once(
    client: FlaskClient, dispatcher: Dispatcher, queue: Queue, tmp_path: Path,
) -> None:
    players = [{"name": "H1", "type": "human"}] + [
        {"name": f"B{n}", "type": "bot"} for n in range(1, 8)]
    created = client.post("/v1/drives", json={
        "profile": "classic", "options": {"target": 10, "turn_seconds": None},
        "players": players, "format": "progressive", "rounds": 2})
    evening = Evening(client, dispatcher, queue, created.json)
    _start_first_round(evening)
    table = evening.table_of(0)
    game, seat = table["game"], next(p["seat"] for p in table["players"] if p["name"] == "H1")
    old = evening.people[0]
    # During a round a person takes a person's seat at once; nothing else changes.
    sam = evening.direct("substitute", player=0, name="Sam", type="human")
    assert sam.status_code == 200 and sam.json["issued"]["name"] == "Sam", sam.json
    evening.people[0] = sam.json["issued"]["token"]
    assert client.get(f"/v1/games/{game}", headers={
        "Authorization": f"Bearer {old}"}).status_code == 401
    assert client.get(f"/v1/games/{game}", headers={
        "Authorization": f"Bearer {evening.people[0]}"}).json["viewer"] == seat
    for action, fields, code in (
            ("substitute", {"player": 1, "name": "Pat", "type": "human"}, "round_in_play"),
            ("withdraw_player", {"player": 2}, "round_in_play"),
            ("add_player", {"name": "Nora", "type": "human"}, "round_in_play"),
            ("substitute", {"player": 1}, "director_action_incomplete"),
            ("substitute", {"player": 4, "name": "Max", "type": "bot", "level": "expert"},
             "unknown_bot_level"),
            ("substitute", {"player": 0, "name": "Pat", "type": "human", "level": "strong"},
             "invalid_request"),
            ("resume", {}, "drive_not_paused")):
        version = evening.view()["version"]
        refused = evening.direct(action, **fields)
        assert refused.json.get("code") == code, (action, fields, refused.json)
        assert evening.view()["version"] == version, "a refused action appends nothing"
    assert evening.direct("pause").status_code == 200
    evening.run()  # Sam plays round 1 out; round 2 waits.
    between = evening.direct("abandon_table", table=1, adjusted=["average", "average"])
    assert (between.status_code, between.json["code"]) == (409, "no_round_in_play")
    gone = evening.direct("withdraw_player", player=2, reason="not here")
    assert gone.status_code == 200, gone.json
    listed = {p["name"]: p for p in gone.json["players"]}
    assert listed["B2"]["withdrawn"] and listed["Bot 1"]["type"] == "bot"
    seated = {name for table in gone.json["schedule"][1] for name in table}
    assert "B2" not in seated and {"Bot 1", "Sam"} <= seated and len(seated) == 8
    again = evening.direct("withdraw_player", player=2)
    assert (again.status_code, again.json["code"]) == (409, "player_withdrawn")
    pat = evening.direct("substitute", player=3, name="Pat", type="human")
    assert pat.status_code == 200, pat.json
    evening.people[3] = pat.json["issued"]["token"]
    max_ = evening.direct("substitute", player=4, name="Max", type="bot", level="basic")
    assert max_.status_code == 200, max_.json
    zed = evening.direct("substitute", player=5, name="Zed", type="bot")
    assert zed.status_code == 200, zed.json
    # The house bot the withdrawal seated and Zed, brought without a level, are strong, as
    # every bot of a drive with people is unless named otherwise; Max is basic, as the
    # director named him.
    levels = {p["name"]: p["level"] for p in zed.json["players"]}
    assert (levels["Bot 1"], levels["Zed"], levels["Max"], levels["Sam"]) == (
        "strong", "strong", "basic", None)
    assert evening.direct("resume").status_code == 200
    evening.run()
    assert evening.view()["status"] == "finished"
    for name in ("Bot 1", "Max", "Zed"):  # Round 2's games record the levels they play at.
        table, seat = next((t, p["seat"]) for t in evening.view()["rounds"][1]["tables"]
                           for p in t["players"] if p["name"] == name)
        game = client.get(f"/v1/games/{table['game']}").json
        assert game["seat_levels"][seat] == levels[name], (name, game["seat_levels"])
    standings = client.get(f"/v1/drives/{evening.drive_id}/standings").json
    assert [(c["action"], c["round"], c["name"], c["replaced"]) for c in standings["roster"]] == [
        ("substitute", 1, "Sam", "H1"), ("add_player", 2, "Bot 1", None),
        ("withdraw_player", 2, "B2", None), ("substitute", 2, "Pat", "B3"),
        ("substitute", 2, "Max", "B4"), ("substitute", 2, "Zed", "B5")]
    document = json.loads(client.get(f"/v1/drives/{evening.drive_id}/history").data)
    assert_checks_out(standings, document, tmp_path)


def test_players_over_sit_out_in_turn_and_score_the_rounds_average(
    client: FlaskClient, dispatcher: Dispatcher, queue: Queue, tmp_path: Path,
) -> None:
    created = client.post("/v1/drives", json={
        "profile": "classic", "options": {"target": 10},
        "players": [{"name": f"B{n}", "type": "bot"} for n in range(1, 9)],
        "format": "progressive", "rounds": 3, "odd_players": "sit_out"})
    evening = Evening(client, dispatcher, queue, created.json)
    _start_first_round(evening)
    assert evening.direct("pause").status_code == 200
    evening.run()
    late = evening.direct("add_player", name="Late", type="bot")
    assert late.status_code == 200 and late.json["issued"] is None, late.json
    # Among bots alone, a bot brought without a level is basic, as at the drive's creation.
    assert {p["name"]: p["level"] for p in late.json["players"]}["Late"] == "basic"
    assert [len(r) for r in late.json["schedule"]] == [2, 2, 2]
    assert evening.direct("resume").status_code == 200
    evening.run()
    standings = client.get(f"/v1/drives/{evening.drive_id}/standings").json
    # The last to join sits out first; then, of those who have sat out least, the last.
    assert standings["sit_outs"] == [{"round": 2, "players": ["Late"]},
                                     {"round": 3, "players": ["B8"]}]
    assert "average" in standings["sit_out_rule"]
    document = json.loads(client.get(f"/v1/drives/{evening.drive_id}/history").data)
    assert_checks_out(standings, document, tmp_path)


def test_the_bell_ends_every_table_still_playing_as_it_stands(
    client: FlaskClient, dispatcher: Dispatcher, queue: Queue, tmp_path: Path,
) -> None:
    created = client.post("/v1/drives", json={
        "profile": "classic", "options": {"target": 120, "turn_seconds": None},
        "players": [{"name": "H1", "type": "human"}] + [
            {"name": f"B{n}", "type": "bot"} for n in range(1, 8)],
        "format": "progressive", "rounds": 1})
    evening = Evening(client, dispatcher, queue, created.json)
    early = evening.direct("end_round")
    assert (early.status_code, early.json["code"]) == (409, "no_round_in_play")
    run_workers(dispatcher, queue)
    while not any(evening.table_of(0)["scores"]):  # H1 plays until a deal is scored.
        assert evening.play_by_hand(0)
        run_workers(dispatcher, queue)
    assert evening.table_of(0)["status"] == "in_progress"  # Far from 120.
    rung = evening.direct("end_round", reason="the hall closes")
    assert rung.status_code == 200, rung.json
    again = evening.direct("end_round")
    assert (again.status_code, again.json["code"]) == (409, "round_called")
    shown = {t["game"]: t for t in rung.json["rounds"][0]["tables"]}
    for table in shown.values():
        assert table["status"] == "over"
        ahead = [s for s, v in enumerate(table["scores"]) if v == max(table["scores"])]
        assert table["winner"] == (ahead[0] if len(ahead) == 1 else None)
    run_workers(dispatcher, queue)  # The round ends, and the drive with it.
    assert evening.view()["status"] == "finished"
    standings = client.get(f"/v1/drives/{evening.drive_id}/standings").json
    assert standings["called"] == [1] and "side ahead wins" in standings["called_rule"]
    document = json.loads(client.get(f"/v1/drives/{evening.drive_id}/history").data)
    assert [e["actor"] for e in document["events"] if e["type"] == "round_called"] == [
        "director"]
    assert_checks_out(standings, document, tmp_path)


def test_a_drives_clock_calls_the_round_when_its_minutes_are_up(
    client: FlaskClient, dispatcher: Dispatcher, queue: Queue, tmp_path: Path,
) -> None:
    created = client.post("/v1/drives", json={
        "profile": "classic", "options": {"target": 10, "turn_seconds": None},
        "players": [{"name": "H1", "type": "human"}] + [
            {"name": f"B{n}", "type": "bot"} for n in range(1, 8)],
        "format": "progressive", "rounds": 1, "round_minutes": 30})
    assert created.status_code == 201, created.json
    evening = Evening(client, dispatcher, queue, created.json)
    run_workers(dispatcher, queue)  # H1 never comes: their table stalls.
    view = evening.view()
    deadline = datetime.fromisoformat(view["round_ends_at"].replace("Z", "+00:00"))
    assert view["round_minutes"] == 30 and evening.table_of(0)["status"] == "in_progress"
    # The workers have scheduled the bell for that moment (the test does not wait for it).
    bell = keys.drive_job_id(evening.drive_id, "bell-1")
    scheduled = ScheduledJobRegistry(queue=queue)
    assert bell in scheduled.get_job_ids()
    assert scheduled.get_scheduled_time(bell) == deadline  # Both to the second.
    store = context.store()
    advance = functools.partial(drives.advance, store, context.games(), DriveStore(store),
                                TokenRegistry(store.client), evening.drive_id)
    assert advance(now=lambda: deadline - timedelta(seconds=1)) == []
    assert advance(now=lambda: deadline)[0] == "round_called 1"
    run_workers(dispatcher, queue)
    view = evening.view()
    assert view["status"] == "finished" and view["round_ends_at"] is None
    document = json.loads(client.get(f"/v1/drives/{evening.drive_id}/history").data)
    assert [(e["actor"], e["data"]["reason"]) for e in document["events"]
            if e["type"] == "round_called"] == [("server", "30 minutes are up")]
    standings = client.get(f"/v1/drives/{evening.drive_id}/standings").json
    assert standings["called"] == [1]
    assert_checks_out(standings, document, tmp_path)
