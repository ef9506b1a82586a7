"""A drive's results and standings, derived from its state and its games' results, never
stored: anyone holding the drive's history and its games can derive them again
(:mod:`replay.verification.drive_standings` does, on a path of its own).

Progressive tables rank by game points and games won; duplicate boards by matchpoints (one per
other table that finished the board, half for a tie); adjustments, paper tables' confirmed
cards and rounds ended at their time count by the rules the drive publishes
(:data:`engine.drive_state.ADJUSTMENT_RULE`, :data:`engine.drive_state.CALLED_RULE`,
:data:`engine.drive_state.TIE_RULES`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from engine.drive_state import (
    ADJUSTED,
    ADJUSTMENT_RULE,
    CALLED_RULE,
    TIE_RULES,
    Adjustment,
    BoardAdjustment,
    DriveState,
    RoundState,
)
from engine.seating import SIT_OUT_RULE, partner_pairs
from engine.state import GameState
from events.envelope import DIRECTOR


@dataclasses.dataclass(frozen=True, slots=True)
class TableResult:
    """What one game of a drive produced: enough to rank its players."""

    game: str
    over: bool
    winner: int | None
    """The winning side, or ``None`` (not over, or abandoned)."""
    scores: tuple[int, ...]
    """Final (or current) points of each side."""
    deals: Mapping[int, tuple[int, ...]]
    """Points each side made in each finished deal, by deal number."""

    def to_dict(self) -> dict[str, Any]:
        """Returns the result as JSON (deal numbers as strings)."""
        return {"game": self.game, "over": self.over, "winner": self.winner,
                "scores": list(self.scores),
                "deals": {str(n): list(points) for n, points in sorted(self.deals.items())}}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> TableResult:
        """Returns the result written by :meth:`to_dict`."""
        return cls(data["game"], bool(data["over"]), data["winner"], tuple(data["scores"]),
                   {int(n): tuple(p) for n, p in data["deals"].items()})


def table_result(game_id: str, state: GameState) -> TableResult:
    """Returns the result of *game_id* in *state*: its winner, scores and the points each
    finished deal gave each side. A deal that was not played out (its game abandoned during
    it) has no points: it is not a deal that table finished."""
    finished = list(state.past_deals)
    if state.deal is not None and state.deal.phase == "over":
        finished.append(state.deal)
    deals = {deal.number: tuple(deal.result.points) for deal in finished
             if deal.result is not None}
    return TableResult(game_id, state.phase == "over", state.winner, tuple(state.scores), deals)


def paper_results(drive: DriveState) -> dict[str, TableResult]:
    """Returns the result of every paper table whose score card is confirmed, by game id: a
    game over, its winner and scores the card's, its deals numbered from 1."""
    results = {}
    for played in drive.played:
        for table, game in enumerate(played.games, start=1):
            card = drive.score_card(played.number, table)
            if card is not None and card.confirmed:
                results[game] = TableResult(
                    game, True, card.result.winner, card.result.scores,
                    {n: deal.points for n, deal in enumerate(card.deals, start=1)})
    return results


def public_results(drive: DriveState,
                   results: Mapping[str, TableResult]) -> dict[str, TableResult]:
    """Returns *results* as anyone may see them while the drive runs.

    In duplicate, what a table made on a board tells the other tables about the cards they
    are playing, so until a board is revealed (every table has finished it) no table's
    result shows it: a table's deals are those of revealed boards, its scores their sum, and
    it is shown over, with its winner, once every board of its round is revealed. Progressive
    tables play deals of their own, and show everything.
    """
    if drive.format != "duplicate":
        return dict(results)
    shown: dict[str, TableResult] = {}
    for played in drive.played:
        revealed = {board.deal for board in played.boards if board.seed is not None}
        settled = len(revealed) == len(played.boards)
        for game in played.games:
            result = results.get(game)
            if result is None:
                continue
            if settled:
                shown[game] = result
                continue
            deals = {number: points for number, points in result.deals.items()
                     if number in revealed}
            scores = tuple(sum(points[side] for points in deals.values())
                           for side in range(len(result.scores)))
            shown[game] = TableResult(game, False, None, scores, deals)
    return shown


def standings(drive: DriveState, results: Mapping[str, TableResult]) -> list[dict[str, Any]]:
    """Returns the players ranked (see :data:`TIE_RULES`, by the drive's ``rank_by``), each
    with ``name``, ``type``, ``games_won``, ``points`` and ``place``; *results*
    maps game ids
    to their results (a game not yet in it counts nothing)."""
    count = len(drive.players)
    won = [0] * count
    points: list[Fraction] = [Fraction(0)] * count
    for number, played in enumerate(drive.played):
        tables = drive.schedule[number]
        top = _progressive_top(drive, played, results)
        for index, (game, table) in enumerate(zip(played.games, tables, strict=True), start=1):
            result = results.get(game)
            adjustment = drive.adjustment(played.number, index)
            if result is None and adjustment is None:
                continue
            for side, members in enumerate(partner_pairs(table, drive.sides)):
                for player in members:
                    if adjustment is not None:
                        if drive.format == "progressive":
                            points[player] += ADJUSTED[adjustment.adjusted[side]] * top
                        continue
                    assert result is not None
                    if table_winner(played, result) == side:
                        won[player] += 1
                    if drive.format == "progressive":
                        points[player] += result.scores[side]
        if drive.format == "progressive":
            for player in played.sitting_out:
                points[player] += ADJUSTED["average"] * top
        if drive.format == "duplicate":
            for player, mp in matchpoints(drive, number, results).items():
                points[player] += mp
    by_wins = drive.rank_by == "games_won"
    order = sorted(range(count), key=lambda p: (
        (-won[p], -points[p]) if by_wins else (-points[p], -won[p]), drive.players[p]["name"], p))
    ranked: list[dict[str, Any]] = []
    for position, player in enumerate(order):
        if ranked and (points[player], won[player]) == (ranked[-1]["_p"], ranked[-1]["games_won"]):
            place = ranked[-1]["place"]
        else:
            place = position + 1
        ranked.append({"name": drive.players[player]["name"], "type": drive.players[player]["type"],
                       "player": player, "games_won": won[player], "_p": points[player],
                       "points": _number(points[player]), "place": place})
    for row in ranked:
        del row["_p"]
    return ranked


def standings_document(drive: DriveState, players: list[dict[str, Any]]) -> dict[str, Any]:
    """Returns a drive's standings as they are served (``GET /v1/drives/{id}/standings``, and
    a drive's history): *players* ranked (:func:`standings`, or a verifier's own derivation),
    and around them what the drive's events alone decide: its rules, the rounds called, every
    adjustment, every change of the roster and every round's sit-outs. One home for the
    shape, so that ``drive verify`` compares every part a reader sees."""
    names = [p["name"] for p in drive.players]
    made: list[Adjustment | BoardAdjustment] = sorted(
        (*drive.adjustments, *drive.board_adjustments), key=lambda a: a.round)
    adjustments = [{
        "round": a.round, "table": a.table,
        "board": a.deal if isinstance(a, BoardAdjustment) else None,
        "by": DIRECTOR, "reason": a.reason,
        "sides": [{"players": [names[p] for p in members], "adjusted": a.adjusted[side]}
                  for side, members in enumerate(partner_pairs(
                      drive.schedule[a.round - 1][a.table - 1], drive.sides))],
    } for a in made]
    return {"id": drive.drive_id, "status": drive.status, "format": drive.format,
            "rank_by": drive.rank_by, "tie_rule": TIE_RULES[drive.rank_by],
            "adjustment_rule": ADJUSTMENT_RULE, "called_rule": CALLED_RULE,
            "called": [played.number for played in drive.played if played.called],
            "adjustments": adjustments,
            "roster": [{"action": c.action, "round": c.round, "by": DIRECTOR,
                        "reason": c.reason, "player": c.player, "name": c.name,
                        "replaced": c.replaced} for c in drive.roster],
            "odd_players": drive.odd_players, "sit_out_rule": SIT_OUT_RULE,
            "sit_outs": [{"round": played.number,
                          "players": [names[p] for p in played.sitting_out]}
                         for played in drive.played if played.sitting_out],
            "players": players}


def table_winner(played: RoundState, result: TableResult) -> int | None:
    """Returns the side that won *result*'s game: its winner, or in a round its director
    called, for a game that ended without one, the side ahead (:data:`CALLED_RULE`)."""
    if result.winner is not None or not played.called or not result.over:
        return result.winner
    best = max(result.scores)
    ahead = [side for side, score in enumerate(result.scores) if score == best]
    return ahead[0] if len(ahead) == 1 else None


def _progressive_top(drive: DriveState, played: RoundState,
                     results: Mapping[str, TableResult]) -> Fraction:
    """Returns the most points a side made at a table of round *played* that was not
    abandoned (what a progressive adjustment is a share of; 0 when there is none)."""
    scores = [score for index, game in enumerate(played.games, start=1)
              if drive.adjustment(played.number, index) is None and game in results
              for score in results[game].scores]
    return Fraction(max(scores, default=0))


def matchpoints(
    drive: DriveState, number: int, results: Mapping[str, TableResult]
) -> dict[int, Fraction]:
    """Returns each player's matchpoints in round *number* (0-based) of a duplicate drive:
    on every board, a side scores 1 for each other table whose same side it beat on that board
    (more points), and 1/2 for each tie; only tables that finished the deal compare. A side of
    a table where its director abandoned the board scores on it its adjusted share
    (:data:`ADJUSTED`) of the tables that finished it (the board is not compared there, even
    if the table finished it before its game could skip it); a side of
    a table its director abandoned scores, on each board that table did not finish, its
    adjusted share (:data:`ADJUSTED`) of the tables that finished it, and a player who sat
    the round out their average share of them (:data:`SIT_OUT_RULE`)."""
    played = drive.played[number]
    tables = drive.schedule[number]
    earned: dict[int, Fraction] = {}
    for deal in range(1, drive.boards + 1):
        scored = [(table, results[game].deals[deal]) for index, (game, table) in
                  enumerate(zip(played.games, tables, strict=True), start=1)
                  if game in results and deal in results[game].deals
                  and drive.board_adjustment(played.number, index, deal) is None]
        for player in played.sitting_out:
            earned[player] = earned.get(player, Fraction(0)) + ADJUSTED["average"] * len(scored)
        for index, (game, table) in enumerate(zip(played.games, tables, strict=True), start=1):
            board = drive.board_adjustment(played.number, index, deal)
            if board is not None:
                # Its director's ruling stands, whatever the table played of the board.
                for side, members in enumerate(partner_pairs(table, drive.sides)):
                    for player in members:
                        earned[player] = earned.get(player, Fraction(0)) + ADJUSTED[
                            board.adjusted[side]] * len(scored)
                continue
            adjustment = drive.adjustment(played.number, index)
            if game in results and deal in results[game].deals:
                continue
            if adjustment is None and played.called and game in results:
                # Did not finish the board when the round was called: average each side.
                for player in table:
                    earned[player] = earned.get(player, Fraction(0)) + ADJUSTED[
                        "average"] * len(scored)
                continue
            if adjustment is None:
                continue
            for side, members in enumerate(partner_pairs(table, drive.sides)):
                for player in members:
                    earned[player] = earned.get(player, Fraction(0)) + ADJUSTED[
                        adjustment.adjusted[side]] * len(scored)
        for table, mine in scored:
            for side, members in enumerate(partner_pairs(table, drive.sides)):
                mp = Fraction(0)
                for other, theirs in scored:
                    if other is table:
                        continue
                    if mine[side] > theirs[side]:
                        mp += 1
                    elif mine[side] == theirs[side]:
                        mp += Fraction(1, 2)
                for player in members:
                    earned[player] = earned.get(player, Fraction(0)) + mp
    return earned


def _number(value: Fraction) -> int | float:
    """Returns *value* as an int when whole (halves otherwise, exact in binary)."""
    return int(value) if value.denominator == 1 else float(value)
