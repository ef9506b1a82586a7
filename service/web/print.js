// The hall's printouts of a drive, from its view (GET /v1/drives/{id}): for each round a
// movement sheet (every player: table, seat, side) and a card for each table (its players by
// seat, and for a paper table a grid to write its deals in); then each player's score card for
// the evening. Seats are numbered from 1 and sides named A, B, C, as the table names them. It
// prints the rounds the schedule seats now: every round from the creation, seated again by a
// change of players (print again then), except in a winners_move drive, where a round is
// seated only as the one before ends; a player's card leaves such a round's table to write in.
// A player with no table in a round (sitting out, not arrived yet, withdrawn) gets a line
// saying which, from the drive's roster changes (GET /v1/drives/{id}/standings).

import { el, fill, sideName } from "./cards.js";
import { $, api, say, showProblem } from "./page.js";

const driveId = decodeURIComponent(location.pathname.split("/").filter(Boolean)[1] || "");

function seated(drive, roundIndex) {
  // Per table, its players in seat order with their seat (0-based) and side, from the schedule.
  const sides = drive.players.length && drive.schedule[0][0].length / 2;
  return drive.schedule[roundIndex].map((names, index) => ({
    table: index + 1,
    players: names.map((name, seat) => ({ name, seat, side: seat % sides })),
  }));
}

function inDrive(roster, playerIndex, roundIndex) {
  // True if the player is in the drive in that round: not a late arrival or a substitute still
  // to come (the player they replaced sat that round, and the view shows that player there),
  // nor withdrawn before it (a roster change's round is the first round it applies to).
  const number = roundIndex + 1;
  return !roster.some((c) => c.player === playerIndex && (
    ((c.action === "add_player" || c.action === "substitute") && number < c.round) ||
    (c.action === "withdraw_player" && number >= c.round)));
}

function tableOf(drive, roundIndex, name) {
  // The player's table in that round and their place at it, or null if they have none.
  const table = seated(drive, roundIndex).find((t) => t.players.some((p) => p.name === name));
  return table ? { table, me: table.players.find((p) => p.name === name) } : null;
}

function noTable(roster, playerIndex, roundIndex) {
  return inDrive(roster, playerIndex, roundIndex) ? "Sits out this round" : "Not playing this round";
}

function movementSheet(drive, roster, roundIndex) {
  const rows = seated(drive, roundIndex).flatMap((t) => t.players.map((p) => ({ ...p, table: t.table })));
  const out = drive.players.filter((p, index) => inDrive(roster, index, roundIndex)
    && !tableOf(drive, roundIndex, p.name)).map((p) => ({ name: p.name, table: null }));
  return el("section", { class: "sheet movement-sheet" },
    el("h2", { text: `Round ${roundIndex + 1} of ${drive.round_count}: where everyone sits` }),
    el("table", {}, el("thead", {}, el("tr", {}, ["Player", "Table", "Seat", "Side"].map((h) =>
      el("th", { scope: "col", text: h })))),
    el("tbody", {}, [...rows, ...out].sort((a, b) => a.name.localeCompare(b.name)).map((r) =>
      el("tr", {}, el("td", { text: r.name }), r.table === null
        ? el("td", { colspan: "3", text: "Sits out this round" })
        : [el("td", { text: String(r.table) }), el("td", { text: String(r.seat + 1) }),
          el("td", { text: sideName(r.side) })])))));
}

function tableCard(drive, roundIndex, table) {
  const paper = (drive.paper_tables || []).includes(table.table);
  const sides = [...new Set(table.players.map((p) => p.side))];
  return el("section", { class: "sheet table-card" },
    el("p", { class: "big", text: `Table ${table.table}` }),
    el("h2", { text: `Round ${roundIndex + 1} of ${drive.round_count}${paper ? ", played with cards" : ""}` }),
    el("table", { class: "seats" }, el("thead", {}, el("tr", {},
      ["Seat", "Player", "Side"].map((h) => el("th", { scope: "col", text: h })))),
    el("tbody", {}, table.players.map((p) => el("tr", {}, el("td", { text: String(p.seat + 1) }),
      el("td", { text: p.name }), el("td", { text: sideName(p.side) }))))),
    paper ? [el("h3", { text: `Score card (first to ${drive.options.target})` }),
      el("table", { class: "write-in" }, el("thead", {}, el("tr", {},
        el("th", { scope: "col", text: "Deal" }), el("th", { scope: "col", text: "Dealer (seat)" }),
        sides.map((s) => el("th", { scope: "col", text: `Side ${sideName(s)}` })))),
      el("tbody", {}, Array.from({ length: 8 }, (_, n) => el("tr", {},
        el("td", { text: String(n + 1) }), el("td"), sides.map(() => el("td")))))),
      el("p", { text: "Enter it on the score card page; a player of the other side confirms it." })] : null);
}

function playerCard(drive, roster, playerIndex) {
  const name = drive.players[playerIndex].name;
  const rows = Array.from({ length: drive.round_count }, (_, roundIndex) => {
    const round = el("td", { text: String(roundIndex + 1) });
    if (roundIndex >= drive.schedule.length) {  // Seated as the round before ends: write it in.
      return el("tr", {}, round, Array.from({ length: 7 }, () => el("td")));
    }
    const place = tableOf(drive, roundIndex, name);
    if (!place) {
      return el("tr", {}, round, el("td", { colspan: "5", text: noTable(roster, playerIndex, roundIndex) }),
        el("td"), el("td"));
    }
    const { table, me } = place;
    const partners = table.players.filter((p) => p.side === me.side && p.name !== name);
    const others = table.players.filter((p) => p.side !== me.side);
    return el("tr", {}, round, el("td", { text: String(table.table) }),
      el("td", { text: String(me.seat + 1) }), el("td", { text: sideName(me.side) }),
      el("td", { text: partners.map((p) => p.name).join(", ") }),
      el("td", { text: others.map((p) => p.name).join(", ") }), el("td"), el("td"));
  });
  return el("section", { class: "sheet player-card" },
    el("h2", { text: `Score card: ${name}` }),
    el("table", { class: "write-in" }, el("thead", {}, el("tr", {},
      ["Round", "Table", "Seat", "Side", "Partner", "Opponents", "Points", "Won"].map((h) =>
        el("th", { scope: "col", text: h })))), el("tbody", {}, rows)),
    drive.schedule.length < drive.round_count ? el("p", { text: laterRounds(drive) }) : null);
}

function laterRounds(drive) {
  // What a winners_move drive's printouts leave out: the rounds seated as the one before ends.
  const first = drive.schedule.length + 1;
  const which = first === drive.round_count ? `Round ${first} is` : `Rounds ${first} to ${drive.round_count} are`;
  return `${which} seated as the round before ends (winners move): the drive page and the projector show where.`;
}

async function load() {
  const path = `/v1/drives/${encodeURIComponent(driveId)}`;
  const [answer, standings] = await Promise.all([api(path), api(`${path}/standings`)]);
  for (const got of [answer, standings]) {
    if (!got.ok) { await showProblem(got, "Cannot load the drive: "); return; }
  }
  const drive = await answer.json();
  const { roster } = await standings.json();
  document.title = `Forty-Five: printouts of drive ${drive.id}`;
  if (drive.schedule.length < drive.round_count) say(laterRounds(drive));
  const sheets = [];
  drive.schedule.forEach((_, roundIndex) => {
    sheets.push(movementSheet(drive, roster, roundIndex));
    for (const table of seated(drive, roundIndex)) sheets.push(tableCard(drive, roundIndex, table));
  });
  drive.players.forEach((_, index) => sheets.push(playerCard(drive, roster, index)));
  fill($("sheets"), sheets);
  $("sheets").dataset.ready = "true";
}

$("paper").addEventListener("change", (event) => {
  $("paper-size").href = `/web/print-${event.target.value}.css`;
});
$("print-now").addEventListener("click", () => window.print());
load();
