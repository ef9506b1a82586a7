// A paper table's score card, on a phone: a player of the table (or the director) enters the
// deals (who dealt, the points each side made), a player of another side confirms or disputes
// the card. Everything goes through the API (docs/api.md, "Paper tables"); the rules are the
// server's, which refuses a card they do not allow saying which deal and why.
//
// The token arrives once in the URL fragment, never sent to the server: a player's drive token
// (#token=...&player=N, as the drive page's link carries it) or the director's (#director=...).
// It stays in sessionStorage for this tab. Seats are numbered from 1 and sides named A, B, C, as
// the table names them.

import { el, fill, sideName } from "./cards.js";
import { $, api, say, showProblem } from "./page.js";

const parts = location.pathname.split("/").filter(Boolean).map(decodeURIComponent);
const driveId = parts[1] || "";
const tableNumber = Number(parts[3]);
const storeKey = `fortyfive.scorecard.${driveId}`;
const cardUrl = `/v1/drives/${encodeURIComponent(driveId)}/tables/${tableNumber}/score_card`;
const state = { view: null, token: null, director: false, players: 0 };

function readFragment() {
  const params = new URLSearchParams(location.hash.slice(1));
  const token = params.get("director") || params.get("token");
  if (token) {
    sessionStorage.setItem(storeKey, JSON.stringify({ token, director: params.has("director") }));
    history.replaceState(null, "", location.pathname + location.search);
  }
  const kept = JSON.parse(sessionStorage.getItem(storeKey) || "null");
  if (kept) { state.token = kept.token; state.director = kept.director; }
}

function seatLabel(seat) {
  const player = state.view.sides.flatMap((side) => side.players).find((p) => p.seat === seat);
  return `Seat ${seat + 1}${player ? ` (${player.name})` : ""}`;
}

function dealRow(number, deal) {
  const sides = state.view.sides.length;
  const dealer = el("select", { "aria-label": `Dealer of deal ${number}`, class: "dealer" },
    Array.from({ length: state.players }, (_, seat) => el("option", { value: String(seat) },
      seatLabel(seat))));
  dealer.value = String(deal.dealer);
  return el("tr", {}, el("th", { scope: "row", text: String(number) }),
    el("td", {}, dealer),
    Array.from({ length: sides }, (_, side) => el("td", {}, el("input", {
      type: "number", min: "0", max: "60", step: "5", inputmode: "numeric", class: "points",
      "aria-label": `Side ${sideName(side)} points in deal ${number}`,
      value: deal.points[side] === undefined ? "" : String(deal.points[side]) }))));
}

function readDeals() {
  return [...$("deals").rows].map((row) => ({
    dealer: Number(row.querySelector(".dealer").value),
    points: [...row.querySelectorAll(".points")].map((input) => Number(input.value || 0)),
  }));
}

function addDeal() {
  const deals = readDeals();
  const dealer = deals.length ? (deals[deals.length - 1].dealer + 1) % state.players : 0;
  $("deals").append(dealRow(deals.length + 1, { dealer, points: [] }));
  $("deals").rows[deals.length].querySelector(".points").focus();
}

function render() {
  const view = state.view;
  $("card-title").textContent = `Table ${view.table}, round ${view.round}: score card`;
  $("drive-link").href = `/drive/${encodeURIComponent(driveId)}`;
  fill($("card-sides"), view.sides.map((side) => el("li", {},
    `Side ${sideName(side.side)}: `
    + side.players.map((p) => `${p.name} (seat ${p.seat + 1})`).join(", "))));
  const card = view.card;
  const status = {
    empty: "Nothing entered yet.",
    entered: "Entered, waiting for the other side to confirm.",
    disputed: `Disputed: ${card && card.dispute}. Enter it again, or the director confirms it.`,
    confirmed: "Confirmed: this is the table's result.",
    abandoned: "The director abandoned this table.",
  }[view.status] || view.status;
  const totals = card ? ` Totals: ${card.scores.map((s, i) => `${sideName(i)} ${s}`).join(", ")}`
    + (card.winner === null ? "." : `; side ${sideName(card.winner)} wins.`) : "";
  const by = card ? ` Entered by ${card.entered_by === "director" ? "the director"
    : `side ${sideName(card.entered_by.side)}`}.` : "";
  const record = card && card.record ? ` Its deals are recorded in history ${card.record}.` : "";
  $("card-status").textContent = `${status}${totals}${by}${record}`;
  $("card-status").dataset.status = view.status;
  $("card-who").textContent = state.token
    ? (state.director ? "You act as the director." : "You act as a player of this table.")
    : "Open this page from your link (it carries your token) to enter or confirm the card.";
  fill($("deals-head"), el("tr", {}, el("th", { scope: "col", text: "Deal" }),
    el("th", { scope: "col", text: "Dealer" }),
    view.sides.map((side) => el("th", { scope: "col", text: `Side ${sideName(side.side)}` }))));
  const deals = card ? card.deals : [];
  fill($("deals"), deals.map((deal) => dealRow(deal.deal, deal)));
  if (!deals.length) $("deals").append(dealRow(1, { dealer: 0, points: [] }));
  const winner = $("card-winner");
  if (winner.options.length === 1) {
    view.sides.forEach((side) => winner.append(el("option", { value: String(side.side) },
      `Side ${sideName(side.side)}`)));
  }
  // A confirmed card only the director corrects; an abandoned table has none to enter.
  const open = view.status !== "confirmed" && view.status !== "abandoned";
  const canEnter = Boolean(state.token) && (open || (state.director && view.status !== "abandoned"));
  const canAnswer = Boolean(state.token) && open && view.status !== "empty";
  for (const id of ["enter-card", "add-deal", "remove-deal"]) $(id).disabled = !canEnter;
  $("confirm-card").disabled = !canAnswer;
  $("dispute-card").disabled = !canAnswer || state.director;
}

async function load() {
  const answer = await api(cardUrl);
  if (!answer.ok) { await showProblem(answer, "Cannot load the score card: "); return; }
  state.view = await answer.json();
  state.players = state.view.sides.reduce((count, side) => count + side.players.length, 0);
  render();
}

async function send(path, body, done) {
  const answer = await api(cardUrl + path, {
    method: "POST", body: JSON.stringify(body),
    headers: { "Content-Type": "application/json", Authorization: `Bearer ${state.token}` } });
  if (!answer.ok) { await showProblem(answer, "Not taken: "); return; }
  state.view = await answer.json();
  render();
  say(done);
}

readFragment();
// A second link opened in the same tab (another player's, the director's) changes only the
// fragment: take its token and show the card again.
window.addEventListener("hashchange", () => { if (location.hash) { readFragment(); load(); } });
$("add-deal").addEventListener("click", addDeal);
$("remove-deal").addEventListener("click", () => {
  if ($("deals").rows.length > 1) $("deals").lastElementChild.remove();
});
$("card-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const winner = $("card-winner").value;
  const record = $("card-record").value.trim();
  send("", { deals: readDeals(), winner: winner === "" ? null : Number(winner),
    record: record === "" ? null : record },
    "The card is entered: a player of another side confirms it.");
});
$("confirm-card").addEventListener("click", () => send("/confirm", {}, "The card is confirmed."));
$("dispute-card").addEventListener("click", () => {
  const reason = $("dispute-reason").value.trim();
  if (!reason) { say("Say what is wrong first.", "error"); $("dispute-reason").focus(); return; }
  send("/dispute", { reason }, "The card is disputed: the director is told.");
});
load();
