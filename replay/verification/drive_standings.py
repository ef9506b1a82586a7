"""A drive's standings, derived for ``drive verify`` on a path of their own.

The service ranks players with :func:`engine.standings.standings` over
:func:`engine.standings.public_results`; a verifier calling those would agree with any mistake
they make. This module derives the same standings from the rules as docs/api.md states them
("Drives"), sharing only what says what the records mean: the game fold
(:func:`engine.fold.fold`, the rules that score each game, which the verifier re-runs on the
game's events) and the drive's fold (:func:`engine.drives.fold_drive`: its players, schedule,
rounds, their games and boards). What a game gave each side, which of it anyone may see in
duplicate, the points, the matchpoints, the games won and the ranking with its ties are
computed here.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from engine.drive_state import DriveState
from engine.state import GameState


@dataclasses.dataclass(frozen=True, slots=True)
class Outcome:
    """What one game of a drive gave: enough to rank its players."""

    over: bool
    winner: int | None
    """The winning side (``None``: none yet, or none at all)."""
    scores: tuple[int, ...]
    """Each side's points."""
    deals: Mapping[int, tuple[int, ...]]
    """Each side's points in each deal played out, by deal number."""

    @classmethod
    def of_game(cls, state: GameState) -> Outcome:
        """Returns the outcome of a game folded to *state*: a deal counts once its result is
        known (one abandoned half-way has none)."""
        deals = list(state.past_deals)
        if state.deal is not None and state.deal.phase == "over":
            deals.append(state.deal)
        points = {deal.number: tuple(deal.result.points) for deal in deals
                  if deal.result is not None}
        return cls(state.phase == "over", state.winner, tuple(state.scores), points)

    @classmethod
    def listed(cls, result: Mapping[str, Any]) -> Outcome:
        """Returns the outcome a drive history lists for a game (its ``result`` object).

        :raises KeyError, TypeError, ValueError: if it is not such an object.
        """
        deals = result["deals"]
        if not isinstance(deals, Mapping):
            raise TypeError("a result's deals are an object")
        return cls(bool(result["over"]), result["winner"], tuple(result["scores"]),
                   {int(number): tuple(points) for number, points in deals.items()})


def shown(drive: DriveState, outcomes: Mapping[str, Outcome]) -> dict[str, Outcome]:
    """Returns the outcomes as the standings count them (docs/api.md): in duplicate, a table's
    deals only on boards revealed, its scores their sum, and its end and winner only once
    every board of its round is revealed; in progressive, as they are."""
    if drive.format != "duplicate":
        return dict(outcomes)
    counted: dict[str, Outcome] = {}
    for played in drive.played:
        revealed = {board.deal for board in played.boards if board.seed is not None}
        whole = all(board.seed is not None for board in played.boards)
        for game in played.games:
            if game not in outcomes:
                continue
            outcome = outcomes[game]
            if whole:
                counted[game] = outcome
                continue
            deals = {n: p for n, p in outcome.deals.items() if n in revealed}
            sums = [0] * len(outcome.scores)
            for points in deals.values():
                for side, value in enumerate(points):
                    sums[side] += value
            counted[game] = Outcome(False, None, tuple(sums), deals)
    return counted


def derive(drive: DriveState, outcomes: Mapping[str, Outcome]) -> list[dict[str, Any]]:
    """Returns the players ranked as a drive's standings list them: ``name``, ``type``,
    ``player``, ``games_won``, ``points`` and ``place``, best first.

    *outcomes* are every game's (a game missing counts nothing); they are counted as
    :func:`shown` lets them be. Seat *s* plays for side *s* mod the number of sides. A side
    that wins its game wins it for each of its players. Progressive: a player's points are
    their side's points in each game. A table its director abandoned wins nothing; its sides
    score the adjustment named, a share of the top (docs/api.md); a player who sat the round
    out scores its average, as such a side given ``average`` would. Duplicate: on each board, a
    side scores 1 for every other
    table of the round that played the board and whose same side made fewer points, 1/2 for
    each that made as many; a board its director abandoned at one table is not compared there
    (whatever was played of it): that table's sides score the share named of the tables that
    played it. Ranked by points, then games won (by games won, then points, for a
    drive whose ``rank_by`` is ``games_won``); equal on both share the place
    and are listed by name.
    """
    counted = shown(drive, outcomes)
    sides = drive.size // 2
    count = len(drive.players)
    wins = [0] * count
    points = [Fraction(0)] * count
    abandoned = {(a.round, a.table): a.adjusted for a in drive.adjustments}
    boards_off = {(a.round, a.table, a.deal): a.adjusted for a in drive.board_adjustments}
    for played in drive.played:
        seating = drive.schedule[played.number - 1]
        best = max((score for t, game in enumerate(played.games, start=1)
                    if (played.number, t) not in abandoned and game in counted
                    for score in counted[game].scores), default=0)
        for t, (game, table) in enumerate(zip(played.games, seating, strict=True), start=1):
            outcome = counted.get(game)
            adjusted = abandoned.get((played.number, t))
            if adjusted is not None:
                if drive.format == "progressive":
                    for seat, player in enumerate(table):
                        points[player] += _SHARE[adjusted[seat % sides]] * best
                continue
            if outcome is None:
                continue
            winner = outcome.winner
            if winner is None and played.called and outcome.over:
                # Ended at the bell without a winner: the side strictly ahead wins it.
                leaders = [s for s, v in enumerate(outcome.scores) if v == max(outcome.scores)]
                winner = leaders[0] if len(leaders) == 1 else None
            for seat, player in enumerate(table):
                if winner == seat % sides:
                    wins[player] += 1
                if drive.format == "progressive":
                    points[player] += outcome.scores[seat % sides]
        # Present when the round started (the drive's fold says who), seated nowhere: the
        # round's average.
        out = played.sitting_out
        if drive.format == "progressive":
            for player in out:
                points[player] += _SHARE["average"] * best
        else:
            for deal in range(1, drive.boards + 1):
                top = _compared(played.number, played.games, deal, counted, boards_off)
                for player in out:
                    points[player] += _SHARE["average"] * top
        if drive.format == "duplicate":
            for player, earned in _matchpoints(drive, played.number, played.games, seating,
                                               counted, boards_off).items():
                points[player] += earned
            for player, earned in _adjusted_matchpoints(drive, played.number, played.games,
                                                        seating, counted, boards_off).items():
                points[player] += earned
            for (number, t, deal), adjusted in boards_off.items():
                if number != played.number:
                    continue
                top = _compared(number, played.games, deal, counted, boards_off)
                for seat, player in enumerate(seating[t - 1]):
                    points[player] += _SHARE[adjusted[seat % sides]] * top
            if played.called:
                for t, (game, table) in enumerate(zip(played.games, seating, strict=True),
                                                  start=1):
                    if (played.number, t) in abandoned or game not in counted:
                        continue
                    for deal in range(1, drive.boards + 1):
                        if deal in counted[game].deals or (played.number, t, deal) in boards_off:
                            continue  # Finished before the bell, or its director's ruling.
                        top = _compared(played.number, played.games, deal, counted,
                                        boards_off)
                        for player in table:
                            points[player] += _SHARE["average"] * top
    if drive.rank_by == "games_won":
        ranked = sorted(range(count), key=lambda p: (-wins[p], -points[p],
                                                      drive.players[p]["name"], p))
    else:
        ranked = sorted(range(count), key=lambda p: (-points[p], -wins[p],
                                                      drive.players[p]["name"], p))
    rows: list[dict[str, Any]] = []
    place = 0
    for position, player in enumerate(ranked):
        before = ranked[position - 1] if position else None
        if before is None or (points[before], wins[before]) != (points[player], wins[player]):
            place = position + 1
        value = points[player]
        rows.append({"name": drive.players[player]["name"],
                     "type": drive.players[player]["type"], "player": player,
                     "games_won": wins[player], "place": place,
                     "points": int(value) if value.denominator == 1 else float(value)})
    return rows


_SHARE = {"average": Fraction(50, 100), "average_plus": Fraction(60, 100),
          "average_minus": Fraction(40, 100)}
"""docs/api.md: average, average-plus and average-minus are 50, 60 and 40 per cent of the
top."""


def _compared(number: int, games: tuple[str, ...], deal: int, counted: Mapping[str, Outcome],
              boards_off: Mapping[tuple[int, int, int], object]) -> int:
    """Returns how many tables of round *number* compare on board *deal*: those that played
    it where its director did not abandon it."""
    return sum(1 for t, game in enumerate(games, start=1)
               if game in counted and deal in counted[game].deals
               and (number, t, deal) not in boards_off)


def _adjusted_matchpoints(drive: DriveState, number: int, games: tuple[str, ...],
                          seating: tuple[tuple[int, ...], ...], counted: Mapping[str, Outcome],
                          boards_off: Mapping[tuple[int, int, int], object],
                          ) -> dict[int, Fraction]:
    """Returns what the players of the tables abandoned in round *number* score on the
    boards their table did not finish (and its director did not abandon on its own): the
    named share of the tables that finished each."""
    sides = drive.size // 2
    earned: dict[int, Fraction] = {}
    for adjustment in drive.adjustments:
        if adjustment.round != number:
            continue
        game = games[adjustment.table - 1]
        for deal in range(1, drive.boards + 1):
            if game in counted and deal in counted[game].deals:
                continue  # Played before the table was abandoned: compared as any other.
            if (number, adjustment.table, deal) in boards_off:
                continue  # Abandoned on its own before: scored as such.
            top = _compared(number, games, deal, counted, boards_off)
            for seat, player in enumerate(seating[adjustment.table - 1]):
                earned[player] = earned.get(player, Fraction(0)) + (
                    _SHARE[adjustment.adjusted[seat % sides]] * top)
    return earned


def _matchpoints(drive: DriveState, number: int, games: tuple[str, ...],
                 seating: tuple[tuple[int, ...], ...], counted: Mapping[str, Outcome],
                 boards_off: Mapping[tuple[int, int, int], object]) -> dict[int, Fraction]:
    """Returns each player's matchpoints over the boards of round *number*, compared among
    the tables that played each where its director did not abandon it."""
    sides = drive.size // 2
    earned: dict[int, Fraction] = {}
    for deal in range(1, drive.boards + 1):
        scored = [(index, counted[game].deals[deal]) for index, game in enumerate(games)
                  if game in counted and deal in counted[game].deals
                  and (number, index + 1, deal) not in boards_off]
        for index, made in scored:
            for seat, player in enumerate(seating[index]):
                side = seat % sides
                beaten = sum(Fraction(1) if made[side] > theirs[side] else
                             Fraction(1, 2) if made[side] == theirs[side] else Fraction(0)
                             for other, theirs in scored if other != index)
                earned[player] = earned.get(player, Fraction(0)) + beaten
    return earned
