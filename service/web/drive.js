// The drive page: the round in play with each table's state and a link to it, the standings
// (refetched on each event of the drive's stream, drivestream.js: a round started or ended, a
// board revealed, a score card confirmed, the director's actions; never polled), and a
// printable score card per player.
//
// A player's drive token arrives once in the URL fragment (#token=...&player=N, never sent to
// the server) and stays in sessionStorage; the link to that player's table carries it on in
// the fragment, where the table page reads it.

import { botNote, el, fill, seatNumber, sideName } from "./cards.js";
import { followDrive } from "./drivestream.js";
import { $, api, say, showProblem } from "./page.js";

const driveId = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() || "");
const storeKey = `fortyfive.drive.${driveId}`;
const state = { drive: null, standings: null, me: null, token: null };

function readFragment() {
  const params = new URLSearchParams(location.hash.slice(1));
  if (params.get("token")) {
    sessionStorage.setItem(storeKey, JSON.stringify({ token: params.get("token"),
                                                      player: Number(params.get("player")) }));
    history.replaceState(null, "", location.pathname + location.search);
  }
  const kept = JSON.parse(sessionStorage.getItem(storeKey) || "null");
  if (kept) { state.token = kept.token; state.me = kept.player; }
  const card = new URLSearchParams(location.search).get("card");
  if (card !== null && card !== "") state.me = Number(card);
}

function tableLink(table) {
  const mine = table.players.find((p) => state.drive.players[state.me]
    && p.name === state.drive.players[state.me].name);
  if (table.paper) {
    // Played with real cards: its link is the score card (docs/web-client.md).
    const card = `/drive/${encodeURIComponent(driveId)}/table/${table.table}/score-card`;
    return el("a", { href: mine && state.token
      ? `${card}#token=${encodeURIComponent(state.token)}` : card },
    mine && state.token ? "Enter our score card" : "Score card");
  }
  if (mine && state.token) {
    return el("a", { href: `/table/${encodeURIComponent(table.game)}?seat=${mine.seat}#token=${encodeURIComponent(state.token)}` },
      "Open my table");
  }
  return el("a", { href: `/table/${encodeURIComponent(table.game)}` }, "Watch");
}

function renderRound() {
  const drive = state.drive;
  const current = drive.rounds[drive.rounds.length - 1];
  $("round-title").textContent = current
    ? `Round ${current.number} of ${drive.round_count} (${current.status})` : "Waiting for round 1";
  fill($("round-tables"), current ? current.tables.map((table) => el("article",
    { class: table.status === "over" ? "over" : "" },
    el("h3", { text: `Table ${table.table}` }),
    el("ol", {}, table.players.map((p) => el("li", {},
      `${p.name} (side ${sideName(p.side)}${botNote(p)})`))),
    el("p", {}, table.status === "over" ? "Over" : "In play",
      table.scores.length ? `: ${table.scores.join(" - ")}` : "",
      // In duplicate a board's points show once every table has played it (docs/api.md).
      table.status !== "over" && drive.format === "duplicate" ? " on the boards revealed" : ""),
    tableLink(table))) : []);
}

function renderStandings() {
  const rows = state.standings.players.map((row) => el("tr", { class: row.player === state.me ? "me" : "" },
    el("td", { text: String(row.place) }), el("td", { text: row.name }),
    el("td", { text: String(row.games_won) }), el("td", { text: String(row.points) })));
  fill($("standings").tBodies[0], rows);
  $("tie-rule").textContent = `Ties: ${state.standings.tie_rule}.`;
}

function renderCard() {
  const drive = state.drive;
  const card = $("score-card");
  const player = drive.players[state.me];
  card.hidden = !player;
  if (!player) return;
  $("card-title").textContent = `Score card: ${player.name}`;
  const rows = [];
  for (const round of drive.rounds) {
    for (const table of round.tables) {
      const me = table.players.find((p) => p.name === player.name);
      if (!me) continue;
      const partner = table.players.filter((p) => p.side === me.side && p.name !== me.name);
      const others = table.players.filter((p) => p.side !== me.side);
      const result = table.status !== "over" ? "in play"
        : table.winner === me.side ? "won" : table.winner === null ? "no winner" : "lost";
      rows.push(el("tr", {}, el("td", { text: String(round.number) }),
        el("td", { text: String(table.table) }), el("td", { text: String(seatNumber(me.seat)) }),
        el("td", { text: partner.map((p) => p.name).join(", ") }),
        el("td", { text: others.map((p) => p.name).join(", ") }),
        el("td", { text: table.scores.length ? String(table.scores[me.side]) : "" }),
        el("td", { text: result })));
    }
  }
  fill(card.querySelector("tbody"), rows);
  const standing = state.standings.players.find((row) => row.name === player.name);
  $("card-total").textContent = standing
    ? `Place ${standing.place}: ${standing.games_won} game(s) won, ${standing.points} point(s).` : "";
}

function renderPlayers() {
  const select = $("drive-player");
  if (select.options.length > 1) return;
  state.drive.players.forEach((p, index) => select.append(el("option", { value: String(index) }, p.name)));
  if (state.me !== null) select.value = String(state.me);
}

async function refresh() {
  const [drive, standings] = await Promise.all([
    api(`/v1/drives/${encodeURIComponent(driveId)}`),
    api(`/v1/drives/${encodeURIComponent(driveId)}/standings`)]);
  if (!drive.ok) { await showProblem(drive, "Cannot load the drive: "); return false; }
  if (!standings.ok) { await showProblem(standings, "Cannot load the standings: "); return false; }
  state.drive = await drive.json();
  state.standings = await standings.json();
  const d = state.drive;
  $("drive-title").textContent = `Drive ${d.id}`;
  $("drive-summary").textContent = `${d.format} ${d.profile}, ${d.players.length} players, `
    + `${d.round_count} round(s): ${d.status}`
    + (d.stopped ? ", stopped by the director after round " + d.rounds.length
      : d.paused ? ", paused by the director: the next round waits" : "") + ".";
  renderPlayers();
  renderRound();
  renderStandings();
  renderCard();
  return d.status === "running";
}

async function update() {
  try { await refresh(); } catch (error) { say(`Cannot reach the server: ${error}`, "error"); }
}

readFragment();
$("drive-player").addEventListener("change", (event) => {
  state.me = event.target.value === "" ? null : Number(event.target.value);
  if (state.drive) { renderStandings(); renderCard(); }
});
$("print-card").addEventListener("click", () => {
  if (state.me === null) { say("Choose a player first.", "error"); return; }
  window.print();
});
// The stream starts after the version first shown, so nothing between the two is missed.
update().then(() => followDrive(driveId, update, state.drive ? state.drive.version : null));
