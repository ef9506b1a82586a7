// The director's page: the director's actions over the API (POST /v1/drives/{id}/director),
// with the director's token. The token is typed in, or read once from the URL fragment
// (#director=..., which the browser never sends to the server, so no log holds it) and then
// taken out of the address; it stays in this tab's sessionStorage only. The page follows the
// drive's stream (drivestream.js), so it shows each change as it happens.
//
// Wired here: every director action of the API (pause, resume, stop, the bell, abandon one
// table, or in duplicate one board at one table, with an adjusted score per side, substitute,
// add and withdraw a player) and each paper
// table's score card (opened with the director's token). A refusal's words (the problem's
// detail) show next to the control that was refused; a person seated by an action gets their
// link and token shown once. The bell and the abandonments name the round the page shows
// (round), so one that ended meanwhile is refused, not the next one acted on. Tables are numbered from 1, seats from 1 and sides A, B, C, as
// the table names them.

import { botNote, el, fill, readProblem, sideName } from "./cards.js";
import { followDrive } from "./drivestream.js";
import { $, api, copyButton, say, showProblem } from "./page.js";

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

function sentence(text) {
  const words = text.trim();
  return words.charAt(0).toUpperCase() + words.slice(1) + (/[.!?]$/.test(words) ? "" : ".");
}

/** Shows *text* as the refusal of the control whose refusal line is *where* (or hides it). */
function refuse(where, text) {
  const line = $(where);
  if (!line) return;
  line.textContent = text ? `Not done: ${sentence(text)}` : "";
  line.hidden = !text;
  if (text) line.setAttribute("role", "alert"); else line.removeAttribute("role");
}

function clearRefusals() {
  for (const line of document.querySelectorAll(".field-error")) refuse(line.id, "");
}

/** Shows the person an action seated: their page's link and token, which the API shows once. */
function showIssued(issued) {
  const box = $("issued");
  if (!issued) return;
  const link = new URL(issued.page, location.origin).href;
  $("issued-text").textContent = `Hand ${issued.name} (player ${issued.player}) this link; `
    + "it is shown only now:";
  $("issued-page").href = link;
  $("issued-page").textContent = link;
  fill($("issued-token"), issued.token);
  const copy = box.querySelector("button.copy");
  if (copy) copy.remove();
  box.append(copyButton(link, `Copy ${issued.name}'s link`, "copy-issued"));
  box.hidden = false;
}

async function direct(body, done, where = "drive-refusal") {
  clearRefusals();
  if (!state.token) {
    refuse(where, "enter the director's token first (above)");
    $("director-token").focus();
    return false;
  }
  const answer = await api(`/v1/drives/${encodeURIComponent(driveId)}/director`, {
    method: "POST", body: JSON.stringify({ reason: $("action-reason").value.trim(), ...body }),
    headers: { "Content-Type": "application/json", Authorization: `Bearer ${state.token}` } });
  if (!answer.ok) {
    const problem = await readProblem(answer);
    refuse(where, problem.detail);
    return false;
  }
  const result = await answer.json();
  state.drive = result;
  $("issued").hidden = true;
  showIssued(result.issued);
  render();
  say(done, "success");
  return true;
}

/** The control that abandons one board, still to be revealed, at a duplicate *table*: the
 * table skips it and goes on with the next; each side scores its adjusted score on it. */
function boardControl(table, roundNumber, sides, boards) {
  const open = boards.filter((b) => b.seed === null);
  if (!open.length) return null;
  const id = `abandon-board-${table.table}`;
  return el("details", { id },
    el("summary", { text: `Abandon a board at table ${table.table}` }),
    el("p", { class: "field" }, el("label", { for: `${id}-board`, text: "Board" }),
      el("select", { id: `${id}-board` },
        open.map((b) => el("option", { value: String(b.deal) }, `Board ${b.deal}`)))),
    sides.map((side) => el("p", { class: "field" },
      el("label", { for: `${id}-${side}`, text: `Side ${sideName(side)} scores on it` }),
      el("select", { id: `${id}-${side}` },
        ADJUSTED.map(([value, label]) => el("option", { value }, label))))),
    el("button", { type: "button", "aria-describedby": `${id}-refusal`,
      onclick: () => direct({
        action: "abandon_board", round: roundNumber, table: table.table, board: Number($(`${id}-board`).value),
        adjusted: sides.map((side) => $(`${id}-${side}`).value) },
      `Board ${$(`${id}-board`).value} at table ${table.table} of round ${roundNumber} is `
        + "abandoned with adjusted scores; the table goes on with the next board.",
      `${id}-refusal`) },
    `Abandon the board at table ${table.table}`),
    el("p", { id: `${id}-refusal`, class: "field-error", hidden: true }));
}

function tableCard(table, roundNumber, boards) {
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
      `Seat ${p.seat + 1}: ${p.name} (side ${sideName(p.side)}${botNote(p)})`))),
    el("p", { text: over ? `Over: ${table.scores.join(" - ")}` : "In play" }),
    table.paper ? el("p", {}, el("a", { href: `${card}#director=${encodeURIComponent(state.token || "")}` },
      `Score card of table ${table.table}`), " ",
    el("span", { class: "card-state", "data-table": String(table.table),
      text: CARD_STATES[state.cards[table.table]] || "" })) : null,
    over ? null : el("details", { id: `abandon-${table.table}` }, el("summary", { text: `Abandon table ${table.table}` }),
      selects,
      el("button", { type: "button", "aria-describedby": `abandon-refusal-${table.table}`,
        onclick: () => direct({
          action: "abandon_table", round: roundNumber, table: table.table,
          adjusted: sides.map((side) => $(`adjust-${table.table}-${side}`).value) },
        `Table ${table.table} of round ${roundNumber} is abandoned with adjusted scores.`,
        `abandon-refusal-${table.table}`) },
      `Abandon table ${table.table}`),
      el("p", { id: `abandon-refusal-${table.table}`, class: "field-error", hidden: true })),
    over || state.drive.format !== "duplicate" ? null
      : boardControl(table, roundNumber, sides, boards));
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
  // Drawn again at each event of the stream: what the director had opened and chosen stays.
  const opened = [...document.querySelectorAll("#director-tables details[open]")].map((d) => d.id);
  const chosen = [...document.querySelectorAll("#director-tables select")].map((s) => [s.id, s.value]);
  fill($("director-tables"), running ? current.tables.map((t) => tableCard(t, current.number, current.boards))
    : el("p", { text: "No round in play." }));
  for (const id of opened) if ($(id)) $(id).open = true;
  for (const [id, value] of chosen) if ($(id)) $(id).value = value;
  $("do-pause").disabled = d.paused || d.status === "finished";
  $("do-resume").disabled = !d.paused || d.status === "finished";
  $("do-stop").disabled = d.status === "finished";
  $("do-end-round").disabled = !running;
  for (const select of document.querySelectorAll("select.roster")) {
    const chosen = select.value;
    fill(select, d.players.filter((p) => !p.withdrawn).map((p) => el("option",
      { value: String(p.player) }, `${p.name} (player ${p.player}${botNote(p)})`)));
    if ([...select.options].some((o) => o.value === chosen)) select.value = chosen;
  }
  $("director-token").value = "";
}

/** The number of the round the page shows in play, or undefined between rounds. */
function shownRound() {
  const rounds = state.drive ? state.drive.rounds : [];
  const current = rounds[rounds.length - 1];
  return current && current.status === "running" ? current.number : undefined;
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
const DONE = { pause: "The drive is paused: the round in play ends and the next waits.",
  resume: "Done: resume.", stop: "The drive is stopped: its standings are final.",
  end_round: "The bell is rung: every table still playing ends as it stands." };
for (const id of ["do-pause", "do-resume", "do-stop", "do-end-round"]) {
  const action = $(id).dataset.action;
  $(id).setAttribute("aria-describedby", "drive-refusal");
  // The bell names the round the page shows: if it has ended meanwhile, the service refuses
  // rather than ring the next one.
  $(id).addEventListener("click", () => direct(action === "end_round"
    ? { action, round: shownRound() } : { action }, DONE[action]));
}
/** The newcomer's type, and a bot's level, from a "Played by" choice: "human", "bot:strong". */
function playedBy(choice) {
  const [type, level] = choice.split(":");
  return level ? { type, level } : { type };
}

function nameOf(player) {
  const found = state.drive && state.drive.players.find((p) => String(p.player) === player);
  return found ? found.name : `player ${player}`;
}
$("substitute-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const player = $("substitute-player").value;
  const leaving = nameOf(player);
  const name = $("substitute-name").value.trim();
  if (await direct({ action: "substitute", player: Number(player), name,
    ...playedBy($("substitute-type").value) }, `${name} takes ${leaving}'s place.`, "substitute-refusal")) {
    $("substitute-name").value = "";
  }
});
$("add-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const name = $("add-name").value.trim();
  if (await direct({ action: "add_player", name, ...playedBy($("add-type").value) },
    `${name} joins from the next round; the rounds not started are seated again.`, "add-refusal")) {
    $("add-name").value = "";
  }
});
$("withdraw-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const player = $("withdraw-player").value;
  direct({ action: "withdraw_player", player: Number(player) },
    `${nameOf(player)} leaves the drive from the next round.`, "withdraw-refusal");
});
// The stream starts after the version first shown, so nothing between the two is missed.
refresh().then(() => followDrive(driveId, () => refresh(),
  state.drive ? state.drive.version : null));
