"""``fortyfive bot`` playing seats over the API of a real ``fortyfive serve``, beside the
worker's bot seats, through a dropped stream and a restart of the service."""

from __future__ import annotations

import json
import re
import socket
import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from serve_helpers import DEADLINE, Served, create_game, serving, wait_until

API_SEATS = (0, 2)


class Relay:
    """A TCP relay on a port the test holds for its whole run, forwarding to the service's
    current port: the bots keep one address while the service restarts elsewhere, and the
    test can cut every connection (a dropped stream) or refuse new ones (a service down)."""

    def __init__(self, target: int) -> None:
        self.target = target
        self.open = True
        self.lock = threading.Lock()
        self.connections: list[socket.socket] = []
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        threading.Thread(target=self._accept, daemon=True).start()

    def drop(self, *, refuse: bool = False) -> None:
        """Closes every connection; with *refuse*, new ones are closed as they come."""
        with self.lock:
            self.open = not refuse
            for connection in self.connections:
                _close(connection)
            self.connections.clear()

    def resume(self, target: int) -> None:
        """Forwards new connections to *target* from now on."""
        with self.lock:
            self.target, self.open = target, True

    def close(self) -> None:
        self.drop(refuse=True)
        self.listener.close()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            with self.lock:
                if not self.open:
                    _close(client)
                    continue
                target = self.target
            try:
                server = socket.create_connection(("127.0.0.1", target))
            except OSError:
                _close(client)
                continue
            with self.lock:
                self.connections += [client, server]
            for source, sink in ((client, server), (server, client)):
                threading.Thread(target=_pipe, args=(source, sink), daemon=True).start()


def _pipe(source: socket.socket, sink: socket.socket) -> None:
    try:
        while chunk := source.recv(65536):
            sink.sendall(chunk)
    except OSError:
        pass
    _close(source)
    _close(sink)


def _close(connection: socket.socket) -> None:
    try:
        connection.shutdown(socket.SHUT_RDWR)
    except OSError:
        pass
    connection.close()


def start_bot(relay: Relay, game: dict[str, Any], seat: int) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-c", "import sys; from service.cli import main; sys.exit(main())",
         "bot", "--url", f"http://127.0.0.1:{relay.port}", "--game", game["id"],
         "--token", game["seats"][seat]["token"], "--seed", f"seat-{seat}"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def bots_waited(bots: list[subprocess.Popen[bytes]], condition: Callable[[], Any],
                what: str) -> Any:
    """Waits until *condition* holds while every bot runs: a bot that exits first fails the
    test at once with what it said. The bound is generous (the test runs beside whole suites
    on a loaded machine: starting a bot process and the worker's paced bots take their time
    there), as for the bots' end below."""
    def holds() -> Any:
        for bot in bots:
            if bot.poll() is not None:
                out, err = bot.communicate()
                raise AssertionError(f"a bot exited ({bot.returncode}) before {what}: "
                                     f"{out.decode()}{err.decode()}")
        return condition()
    return wait_until(holds, what, DEADLINE * 3)


def actions_by(served: Served, game_id: str, after: int) -> dict[int, int]:
    """Counts the actions each seat took after version *after*."""
    counts: dict[int, int] = {}
    while True:
        page = served.json(f"/v1/games/{game_id}/events?after={after}&limit=200")
        assert page is not None
        for event in page["events"]:
            if isinstance(event["actor"], int):
                counts[event["actor"]] = counts.get(event["actor"], 0) + 1
            after = event["version"]
        if not page["events"]:
            return counts


def nonces_by(served: Served, game_id: str) -> set[int]:
    """The seats that gave a deal a nonce of their own (a contribution, or with their cut)."""
    seats: set[int] = set()
    after = 0
    while True:
        page = served.json(f"/v1/games/{game_id}/events?after={after}&limit=200")
        assert page is not None
        for event in page["events"]:
            if event["type"] == "deal_contributed" or (
                    event["type"] == "deck_cut" and event["data"].get("nonce")):
                if isinstance(event["actor"], int):
                    seats.add(event["actor"])
            after = event["version"]
        if not page["events"]:
            return seats


def version(served: Served, game_id: str) -> int:
    view = served.json(f"/v1/games/{game_id}")
    return view["version"] if view is not None else 0


def test_two_api_bots_play_a_game_with_the_worker_s_bots_through_a_dropped_stream_and_a_restart(
        tmp_path: Path) -> None:
    relay: Relay | None = None
    bots: list[subprocess.Popen[bytes]] = []
    try:
        with serving(tmp_path) as served:
            game = create_game(served, ["human", "bot", "human", "bot"], target=60)
            game_id = game["id"]
            relay = Relay(served.port)
            bots = [start_bot(relay, game, seat) for seat in API_SEATS]
            # Both API bots act, then lose every connection and must pick up where they were.
            bots_waited(bots, lambda: all(actions_by(served, game_id, 0).get(seat)
                                          for seat in API_SEATS), "both API bots acting")
            dropped = version(served, game_id)
            relay.drop()
            bots_waited(bots, lambda: all(actions_by(served, game_id, dropped).get(seat)
                                          for seat in API_SEATS),
                        "both API bots acting after a dropped stream")
            # Then the service goes away: the game waits at an API bot's turn.
            relay.drop(refuse=True)
            view = bots_waited(bots, lambda: waiting_for_api_bot(served, game_id),
                               "the game waiting for an API bot")
            assert view["phase"] != "over"
            stopped = view["version"]
        with serving(tmp_path) as restarted:
            relay.resume(restarted.port)
            outs = []
            for bot in bots:
                out, err = bot.communicate(timeout=DEADLINE * 3)
                assert bot.returncode == 0, err.decode()
                outs.append(out.decode())
            final = restarted.json(f"/v1/games/{game_id}")
            assert final["phase"] == "over" and final["winner"] is not None
            # The last line speaks as the table does: seats from 1, sides by letter.
            winner = "ABCD"[final["winner"]]
            for seat, out in zip(API_SEATS, outs, strict=True):
                assert re.fullmatch(rf"game {game_id} over: seat {seat + 1} played [1-9]\d* "
                                    rf"actions; side {winner} won\n", out), out
            after = actions_by(restarted, game_id, stopped)
            assert all(after.get(seat) for seat in (0, 1, 2, 3)), after
            # Each API bot gave the deals its own nonces, as the web table does.
            assert set(API_SEATS) <= nonces_by(restarted, game_id)
    finally:
        if relay is not None:
            relay.close()
        for bot in bots:
            if bot.poll() is None:
                bot.kill()
                bot.wait()


def waiting_for_api_bot(served: Served, game_id: str) -> dict[str, Any] | None:
    """The game's view once its turn is an API bot's (who cannot act now), else None."""
    view = served.json(f"/v1/games/{game_id}")
    return view if view is not None and view["turn"] in API_SEATS else None


def test_a_token_the_game_does_not_know_is_one_line_and_status_2(tmp_path: Path) -> None:
    with serving(tmp_path, "--no-worker") as served:
        game = create_game(served, ["human", "bot"])
        done = subprocess.run(
            [sys.executable, "-c", "import sys; from service.cli import main; sys.exit(main())",
             "bot", "--url", f"http://127.0.0.1:{served.port}", "--game", game["id"],
             "--token", "not-a-token"], capture_output=True, timeout=DEADLINE, check=False)
        assert done.returncode == 2
        lines = done.stderr.decode().splitlines()
        assert len(lines) == 1 and "401" in lines[0] and "not valid" in lines[0]
        assert json.loads(served.call("GET", f"/v1/games/{game['id']}")[2])["version"] >= 1
