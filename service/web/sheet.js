// The score sheet (deal by deal, out of the hand history's results, and the deal in play out
// of the view's facts) and the bidding table of an auction. Numbers come from the API only:
// the points a fact credits, each deal's result, and the view's scores.

import { el, fill, sideName } from "./cards.js";
import { seatLabel, sideOf } from "./felt.js";

/** One deal of a history (results.deals entry and its events) as a row of the sheet; the
 * contract is the last bid before trumps were named, by the seat that named them. */
function sheetRow(entry, events, contract = null) {
  let bid = contract;
  let amount = null;
  for (const event of events || []) {
    if (event.type === "bid_made" && Number.isInteger(event.data.amount)) amount = event.data.amount;
    if (event.type === "trump_named" && amount !== null) bid = { seat: event.data.seat, amount };
  }
  const verdict = (entry.facts || []).find((fact) => fact.kind === "bid_made" || fact.kind === "bid_set");
  return {
    number: entry.number,
    dealer: entry.dealer,
    bid,
    verdict: verdict ? verdict.kind : null,
    jink: (entry.facts || []).some((fact) => fact.kind === "jink"),
    result: entry.result || null,
  };
}

/** The facts that credit a side with points as the deal goes (the others, such as
 * target_reached or bid_set, state a total or a verdict at the end). */
const CREDITS = new Set(["trick_won", "bonus_proven"]);

/** The finished deals of a history model (history.js) as rows of the sheet. */
export function sheetRows(model) {
  return model.sections.filter((section) => section.entry && section.entry.result)
    .map((section) => sheetRow(section.entry, section.events));
}

/** A deal of the view that has its result (the game's last deal) as a row of the sheet. */
export function rowOfDeal(deal) {
  return sheetRow(deal, [], deal.bid !== null ? { seat: deal.bidder, amount: deal.bid } : null);
}

/** Points each side has taken in the deal in play, from the facts seen so far. */
export function pointsSoFar(view) {
  const points = view.sides.map(() => 0);
  for (const fact of view.deal ? view.deal.facts : []) {
    if (CREDITS.has(fact.kind) && Number.isInteger(fact.side) && Number.isInteger(fact.points)) {
      points[fact.side] += fact.points;
    }
  }
  return points;
}

function signed(value) {
  return value > 0 ? `+${value}` : String(value);
}

/** Tricks each side has won in the deal in play. */
function tricksWon(view) {
  const tricks = view.sides.map(() => 0);
  for (const trick of view.deal ? view.deal.tricks : []) {
    if (trick.winner !== null) tricks[sideOf(trick.winner, view)] += 1;
  }
  return tricks;
}

/**
 * The running score of every side, at the top of the table (the first thing a card player
 * looks for): the score, the tricks of this deal, games won in a match, and the target.
 */
export function renderScoreline(node, view, me) {
  const tricks = tricksWon(view);
  const matchGames = view.options && view.options.match_games > 1;
  const target = view.options && Number.isInteger(view.options.target) ? view.options.target : null;
  const items = view.sides.map((seats, side) => {
    const mine = seats.includes(me);
    const games = matchGames ? `, games ${view.games_won[side]}` : "";
    return el("li", {
      class: `side-score side-${side % 6}${mine ? " mine" : ""}${view.winner === side ? " won" : ""}`,
      "data-side": String(side), "data-score": String(view.scores[side]),
    },
    el("span", { class: "side-badge", "aria-hidden": "true", text: sideName(side) }),
    el("span", { class: "visually-hidden", text: `Side ${sideName(side)}${mine ? " (you)" : ""}: ` }),
    el("span", { class: "score-points", text: String(view.scores[side]) }),
    el("span", { class: "score-tricks", text: ` \u00b7 ${tricks[side]} trick${tricks[side] === 1 ? "" : "s"}${games}` }));
  });
  if (target !== null) items.push(el("li", { class: "score-target", text: `to ${target}` }));
  fill(node, items);
}

/** The compact score line per side: total, tricks and points so far in this deal. */
export function renderScores(tableNode, view, me) {
  const deal = view.deal;
  const tricks = tricksWon(view);
  const soFar = pointsSoFar(view);
  const auction = Boolean(deal && deal.auction);
  const matchGames = view.options && view.options.match_games > 1;
  fill(tableNode.tHead, el("tr", {},
    el("th", { scope: "col", text: "Side" }), el("th", { scope: "col", text: "Seats" }),
    el("th", { scope: "col", text: "Score" }), el("th", { scope: "col", text: "Tricks" }),
    el("th", { scope: "col", text: auction ? "Taken this deal" : "Certain this deal" })));
  fill(tableNode.tBodies[0], view.sides.map((seats, side) => el("tr", {
    class: [seats.includes(me) ? "mine" : "", view.winner === side ? "won" : ""].join(" ").trim() || null,
    "data-side": String(side),
  },
  el("th", { scope: "row", text: sideName(side) }),
  el("td", { text: seats.map((seat) => seatLabel(seat, view, me)).join(", ") }),
  el("td", { class: "score", text: String(view.scores[side]) + (matchGames ? ` (games ${view.games_won[side]})` : "") }),
  el("td", { class: "tricks", text: String(tricks[side]) }),
  el("td", { class: "so-far", text: soFar[side] ? signed(soFar[side]) : "0" }))));
}

/**
 * The sheet: one row per finished deal (dealer, bid and made or set, points per side and
 * the running total), then the deal in play with what is certain so far.
 */
export function renderSheet(tableNode, caption, view, me, rows) {
  const auction = view.profile === "auction" || rows.some((row) => row.bid);
  const head = [el("th", { scope: "col", text: "Deal" }), el("th", { scope: "col", text: "Dealer" })];
  if (auction) head.push(el("th", { scope: "col", text: "Bid" }));
  view.sides.forEach((_, side) => head.push(el("th", { scope: "col", class: "side-col" },
    `Side ${sideName(side)}`, el("span", { class: "sub", text: "points → total" }))));
  fill(tableNode.tHead, el("tr", {}, head));

  const body = [];
  const finished = rows.filter((row) => row.result).sort((a, b) => a.number - b.number);
  for (const row of finished) {
    const cells = [el("th", { scope: "row", text: String(row.number) }), el("td", { text: seatLabel(row.dealer, view, me, true) })];
    if (auction) cells.push(el("td", { class: `bid ${row.verdict || ""}`.trim() }, bidText(row, view, me)));
    row.result.scores.forEach((score, side) => cells.push(el("td", { class: "side-cell", "data-side": String(side) },
      el("span", { class: "points", text: signed(row.result.points[side]) }), " → ",
      el("span", { class: "total", "data-total": String(score), text: String(score) }))));
    body.push(el("tr", { "data-deal": String(row.number), class: "done" }, cells));
  }
  const deal = view.deal;
  if (deal && !deal.result && view.winner === null && !finished.some((row) => row.number === deal.number)) {
    const soFar = pointsSoFar(view);
    const certain = !deal.auction;
    const cells = [el("th", { scope: "row", text: `${deal.number} (in play)` }), el("td", { text: seatLabel(deal.dealer, view, me, true) })];
    if (auction) {
      cells.push(el("td", { class: "bid" }, deal.bid !== null
        ? `${deal.bid} by ${sideName(sideOf(deal.bidder, view))}` : "bidding"));
    }
    view.scores.forEach((score, side) => cells.push(el("td", { class: "side-cell", "data-side": String(side) },
      el("span", { class: "points", text: soFar[side] ? signed(soFar[side]) : "0" }),
      el("span", { class: "muted", text: certain ? " certain" : " taken" }), " \u2192 ",
      el("span", { class: "total", "data-total": String(certain ? score + soFar[side] : score), text: String(certain ? score + soFar[side] : score) }))));
    body.push(el("tr", { "data-deal": String(deal.number), class: "in-play" }, cells));
  }
  if (body.length === 0) {
    body.push(el("tr", {}, el("td", { colspan: String(head.length), class: "muted", text: "No deal yet." })));
  }
  fill(tableNode.tBodies[0], body);
  fill(caption, deal && deal.auction
    ? "Deal by deal. During a deal, points taken count only when it ends: the side that bid must make its bid."
    : "Deal by deal. During a deal, points already won are certain (\u2192 the total with them).");
}

function bidText(row, view, me) {
  if (!row.bid) return "\u2014";
  const who = `${row.bid.amount} by ${sideName(sideOf(row.bid.seat, view))} (${seatLabel(row.bid.seat, view, me, true)})`;
  if (row.verdict === "bid_made") return [who, " ", el("strong", { class: "made", text: "made" })];
  if (row.verdict === "bid_set") return [who, " ", el("strong", { class: "set", text: "set" })];
  return who;
}

/** The auction as a table: one column per seat in calling order, one row per round. */
export function renderBidding(panel, tableNode, note, view, me) {
  const deal = view.deal;
  const auction = deal ? deal.auction : null;
  panel.hidden = !auction;
  if (!auction) return;
  const players = view.players;
  const first = (deal.dealer + 1) % players;
  const order = Array.from({ length: players }, (_, index) => (first + index) % players);
  fill(tableNode.tHead, el("tr", {}, order.map((seat) => el("th", {
    scope: "col", class: view.turn === seat && deal.phase === "bidding" ? "to-act" : null,
  }, seatLabel(seat, view, me), el("span", { class: "side-letter", text: ` ${sideName(sideOf(seat, view))}` }),
  seat === deal.dealer ? el("span", { class: "dealer-chip", title: "dealer", "aria-label": "dealer", text: "D" }) : null))));
  const rounds = [];
  let row = null;
  let last = players;
  let high = null;
  for (const call of auction.calls) {
    const column = order.indexOf(call.seat);
    if (row === null || column <= last) {
      row = new Array(players).fill(undefined);
      rounds.push(row);
    }
    last = column;
    if (call.call === "bid") high = call.amount;
    row[column] = call.call === "bid" ? `${call.amount}`
      : (call.call === "hold" ? `Hold ${call.amount ?? high ?? ""}`.trim() : "Pass");
  }
  const body = rounds.map((cells, index) => el("tr", { "data-round": String(index + 1) }, cells.map((cell) => el("td", {
    class: cell === undefined ? "empty" : (cell === "Pass" ? "pass" : (cell.startsWith("Hold") ? "hold" : "bid")),
    text: cell === undefined ? "" : cell,
  }))));
  if (body.length === 0) body.push(el("tr", {}, el("td", { colspan: String(players), class: "muted", text: "No call yet." })));
  fill(tableNode.tBodies[0], body);
  let text = auction.high === null ? "No bid yet." : `High bid ${auction.high} by ${seatLabel(auction.high_seat, view, me, true)}.`;
  if (deal.phase === "bidding" && view.turn !== null) text += ` ${seatLabel(view.turn, view, me)} to call.`;
  fill(note, text);
}
