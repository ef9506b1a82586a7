// The director's page: the director's actions over the API (POST /v1/drives/{id}/director),
// with the director's token. The token is typed in, or read once from the URL fragment
// (#director=..., which the browser never sends to the server, so no log holds it) and then
// taken out of the address; it stays in this tab's sessionStorage only. The page follows the
// drive's stream (drivestream.js), so it shows each change as it happens.
//
// Wired here: pause, resume, stop, and abandon one table with an adjusted score per side, and
// each paper table's score card (opened with the director's token). Tables are numbered from 1,
// seats from 1 and sides A, B, C, as the table names them.

import { el, fill, sideName } from "./cards.js";
import { followDrive } from "./drivestream.js";
import { $, api, say, showProblem } from "./page.js";

const driveId = decodeURIComponent(location.pathname.split("/").filter(Boolean)[1] || "");
const storeKey = `fortyfive.director.${driveId}`;
const ADJUSTED = [["average", "Average (50%)"], ["average_plus", "Average-plus (60%)"],
  ["average_minus", "Average-minus (40%)"]];
const state = { token: sessionStorage.getItem(storeKey), drive: null, cards: {} };
const CARD_STATES = { empty: "(nothing entered)", entered: "(entered, not confirmed)",
  disputed: "(disputed: yours to settle)", confirmed: "(confirmed)", abandoned: "(abandoned)" };

function readFragment() {
  const params = new URLSearchParams(location.hash.slice(1));
  if (params.get("director")) {
    state.token = params.get("director");
    sessionStorage.setItem(storeKey, state.token);
    history.replaceState(null, "", location.pathname + location.search);
  }
}

async function direct(body, done) {
  if (!state.token) { say("Enter the director's token first.", "error"); $("director-token").focus(); return; }
  const answer = await api(`/v1/drives/${encodeURIComponent(driveId)}/director`, {
    method: "POST", body: JSON.stringify({ reason: $("action-reason").value.trim(), ...body }),
    headers: { "Content-Type": "application/json", Authorization: `Bearer ${state.token}` } });
  if (!answer.ok) { await showProblem(answer, "Not done: "); return; }
  state.drive = await answer.json();
  render();
  say(done);
}

function tableCard(table, roundNumber) {
  const sides = [...new Set(table.players.map((p) => p.side))];
  const selects = sides.map((side) => el("p", { class: "field" },
    el("label", { for: `adjust-${table.table}-${side}`, text: `Side ${sideName(side)} scores` }),
    el("select", { id: `adjust-${table.table}-${side}` },
      ADJUSTED.map(([value, label]) => el("option", { value }, label)))));
  const card = `/drive/${encodeURIComponent(driveId)}/table/${table.table}/score-card`;
  const over = table.status === "over";
  return el("article", { class: over ? "over" : "" },
    el("h3", { text: `Table ${table.table}${table.paper ? " (paper)" : ""}` }),
    el("ul", {}, table.players.map((p) => el("li", {},
      `Seat ${p.seat + 1}: ${p.name} (side ${sideName(p.side)}${p.type === "bot" ? ", bot" : ""})`))),
    el("p", { text: over ? `Over: ${table.scores.join(" - ")}` : "In play" }),
    table.paper ? el("p", {}, el("a", { href: `${card}#director=${encodeURIComponent(state.token || "")}` },
      `Score card of table ${table.table}`), " ",
    el("span", { class: "card-state", "data-table": String(table.table),
      text: CARD_STATES[state.cards[table.table]] || "" })) : null,
    over ? null : el("details", {}, el("summary", { text: `Abandon table ${table.table}` }),
      selects,
      el("button", { type: "button", onclick: () => direct({
        action: "abandon_table", table: table.table,
        adjusted: sides.map((side) => $(`adjust-${table.table}-${side}`).value) },
      `Table ${table.table} of round ${roundNumber} is abandoned with adjusted scores.`) },
      `Abandon table ${table.table}`)));
}

function render() {
  const d = state.drive;
  if (!d) return;
  const current = d.rounds[d.rounds.length - 1];
  $("director-title").textContent = `Director: drive ${d.id}`;
  $("director-state").textContent = `${d.status}${d.paused ? ", paused" : ""}${d.stopped ? ", stopped" : ""}; `
    + (current ? `round ${current.number} of ${d.round_count} ${current.status}.` : "round 1 not started yet.");
  $("director-state").dataset.version = String(d.version);
  const running = current && current.status === "running";
  fill($("director-tables"), running ? current.tables.map((t) => tableCard(t, current.number))
    : el("p", { text: "No round in play." }));
  $("do-pause").disabled = d.paused || d.status === "finished";
  $("do-resume").disabled = !d.paused || d.status === "finished";
  $("do-stop").disabled = d.status === "finished";
  $("director-token").value = "";
}

async function refresh() {
  const answer = await api(`/v1/drives/${encodeURIComponent(driveId)}`);
  if (!answer.ok) { await showProblem(answer, "Cannot load the drive: "); return; }
  state.drive = await answer.json();
  // Each paper table's card state: a dispute is the director's to settle.
  const current = state.drive.rounds[state.drive.rounds.length - 1];
  const paper = current && current.status === "running" ? current.tables.filter((t) => t.paper) : [];
  const cards = await Promise.all(paper.map((t) => api(
    `/v1/drives/${encodeURIComponent(driveId)}/tables/${t.table}/score_card`)));
  state.cards = {};
  for (const [index, answerOf] of cards.entries()) {
    if (answerOf.ok) state.cards[paper[index].table] = (await answerOf.json()).status;
  }
  render();
}

readFragment();
for (const [id, href] of [["link-drive", ""], ["link-projector", "/projector"], ["link-print", "/print"]]) {
  $(id).href = `/drive/${encodeURIComponent(driveId)}${href}`;
}
$("token-form").addEventListener("submit", (event) => {
  event.preventDefault();
  state.token = $("director-token").value.trim() || null;
  if (state.token) sessionStorage.setItem(storeKey, state.token);
  say(state.token ? "The token is kept in this tab." : "No token given.");
  render();
});
for (const id of ["do-pause", "do-resume", "do-stop"]) {
  const action = $(id).dataset.action;
  $(id).addEventListener("click", () => direct({ action }, `Done: ${action}.`));
}
// The stream starts after the version first shown, so nothing between the two is missed.
refresh().then(() => followDrive(driveId, () => refresh(),
  state.drive ? state.drive.version : null));
