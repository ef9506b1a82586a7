// The hall's printouts of a drive, from its view (GET /v1/drives/{id}): for each round a
// movement sheet (every player: table, seat, side) and a card for each table (its players by
// seat, and for a paper table a grid to write its deals in); then each player's score card for
// the evening. Seats are numbered from 1 and sides named A, B, C, as the table names them. The
// whole schedule is fixed at the drive's creation, so everything prints before round 1.

import { el, fill, sideName } from "./cards.js";
import { $, api, showProblem } from "./page.js";

const driveId = decodeURIComponent(location.pathname.split("/").filter(Boolean)[1] || "");

function seated(drive, roundIndex) {
  // Per table, its players in seat order with their seat (0-based) and side, from the schedule.
  const sides = drive.players.length && drive.schedule[0][0].length / 2;
  return drive.schedule[roundIndex].map((names, index) => ({
    table: index + 1,
    players: names.map((name, seat) => ({ name, seat, side: seat % sides })),
  }));
}

function movementSheet(drive, roundIndex) {
  const rows = seated(drive, roundIndex).flatMap((t) => t.players.map((p) => ({ ...p, table: t.table })))
    .sort((a, b) => a.name.localeCompare(b.name));
  return el("section", { class: "sheet movement-sheet" },
    el("h2", { text: `Round ${roundIndex + 1} of ${drive.round_count}: where everyone sits` }),
    el("table", {}, el("thead", {}, el("tr", {}, ["Player", "Table", "Seat", "Side"].map((h) =>
      el("th", { scope: "col", text: h })))),
    el("tbody", {}, rows.map((r) => el("tr", {}, el("td", { text: r.name }),
      el("td", { text: String(r.table) }), el("td", { text: String(r.seat + 1) }),
      el("td", { text: sideName(r.side) }))))));
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

function playerCard(drive, playerIndex) {
  const name = drive.players[playerIndex].name;
  const rows = drive.schedule.map((_, roundIndex) => {
    const table = seated(drive, roundIndex).find((t) => t.players.some((p) => p.name === name));
    const me = table.players.find((p) => p.name === name);
    const partners = table.players.filter((p) => p.side === me.side && p.name !== name);
    const others = table.players.filter((p) => p.side !== me.side);
    return el("tr", {}, el("td", { text: String(roundIndex + 1) }), el("td", { text: String(table.table) }),
      el("td", { text: String(me.seat + 1) }), el("td", { text: sideName(me.side) }),
      el("td", { text: partners.map((p) => p.name).join(", ") }),
      el("td", { text: others.map((p) => p.name).join(", ") }), el("td"), el("td"));
  });
  return el("section", { class: "sheet player-card" },
    el("h2", { text: `Score card: ${name}` }),
    el("table", { class: "write-in" }, el("thead", {}, el("tr", {},
      ["Round", "Table", "Seat", "Side", "Partner", "Opponents", "Points", "Won"].map((h) =>
        el("th", { scope: "col", text: h })))), el("tbody", {}, rows)));
}

async function load() {
  const answer = await api(`/v1/drives/${encodeURIComponent(driveId)}`);
  if (!answer.ok) { await showProblem(answer, "Cannot load the drive: "); return; }
  const drive = await answer.json();
  document.title = `Forty-Five: printouts of drive ${drive.id}`;
  const sheets = [];
  drive.schedule.forEach((_, roundIndex) => {
    sheets.push(movementSheet(drive, roundIndex));
    for (const table of seated(drive, roundIndex)) sheets.push(tableCard(drive, roundIndex, table));
  });
  drive.players.forEach((_, index) => sheets.push(playerCard(drive, index)));
  fill($("sheets"), sheets);
  $("sheets").dataset.ready = "true";
}

$("paper").addEventListener("change", (event) => {
  $("paper-size").href = `/web/print-${event.target.value}.css`;
});
$("print-now").addEventListener("click", () => window.print());
load();
