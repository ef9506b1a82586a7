// The turn clock as the table shows it: with the game option turn_seconds, a countdown for
// the seat to act (from the time of the game's last event, read from the API), and a notice
// when the server's clock acted for a seat (an action event whose actor is "server").

import { cardText, fill, seatNumber } from "./cards.js";
import { seatLabel as labelOf } from "./felt.js";
import { $, authHeaders } from "./page.js";

let table = null;

/** Gives this module the table's state (its view, seat and countdown). */
export function bindClock(state) {
  table = state;
}

function seatLabel(seat, view = table.view) {
  return labelOf(seat, view, table.seat);
}

/** Event types of a seat's own actions: recorded with actor "server" only by the clock. */
export const SEAT_ACTIONS = new Set([
  "deck_cut", "joker_buried", "turn_up_robbed", "bid_made", "bid_passed", "bid_held",
  "trump_named", "cards_discarded", "jink_announced", "card_played",
]);

/** What the clock did for a seat, in words: "played 7♠", "passed", "bid 20". */
export function clockMove(event) {
  const data = event.data || {};
  switch (event.type) {
    case "card_played": return data.card ? `played ${cardText(data.card)}` : "played a card";
    case "bid_made": return `bid ${data.amount}`;
    case "bid_passed": return "passed";
    case "bid_held": return "held";
    case "trump_named": return `named ${data.suit} trumps`;
    case "cards_discarded": return "made the exchange";
    case "deck_cut": return `cut the deck at ${data.position}`;
    case "turn_up_robbed": return "robbed the turn-up";
    case "joker_buried": return "buried a card";
    default: return event.type.replaceAll("_", " ");
  }
}

/** True for an event that the clock appended for a seat whose time ran out. */
export function isClockMove(event) {
  return event && event.actor === "server" && SEAT_ACTIONS.has(event.type) && Number.isInteger((event.data || {}).seat);
}

/** A countdown that calls *onTick(secondsLeft | null)* every quarter second. */
export class Countdown {
  constructor(onTick) {
    this.onTick = onTick;
    this.deadline = null;
    this.key = null;
    this.timer = null;
  }

  /** Starts counting to *deadline* (a Date.now() value) for *key* (game version and seat). */
  start(key, deadline) {
    if (this.key === key && this.deadline === deadline) return;
    this.stop();
    this.key = key;
    this.deadline = deadline;
    const tick = () => this.onTick(Math.max(0, Math.ceil((this.deadline - Date.now()) / 1000)));
    tick();
    this.timer = window.setInterval(tick, 250);
  }

  stop() {
    if (this.timer) window.clearInterval(this.timer);
    this.timer = null;
    this.key = null;
    this.deadline = null;
    this.onTick(null);
  }

  get secondsLeft() {
    return this.deadline === null ? null : Math.max(0, Math.ceil((this.deadline - Date.now()) / 1000));
  }
}

/**
 * The local time (Date.now() scale) at which the clock of the turn begun by the game's
 * event at *version* falls due: that event's occurred_at plus *seconds*, corrected by the
 * server's Date header for a browser clock that is off. Null if it cannot be read.
 */
export async function turnDeadline(gameId, version, seconds, headers) {
  const response = await fetch(`/v1/games/${encodeURIComponent(gameId)}/events?after=${version - 1}&limit=1`, {
    headers: { Accept: "application/json", ...headers }, cache: "no-store", credentials: "omit",
  });
  if (!response.ok) return null;
  const body = await response.json();
  const event = (body.events || [])[0];
  const at = event ? Date.parse(event.occurred_at) : Number.NaN;
  if (Number.isNaN(at)) return null;
  const serverNow = Date.parse(response.headers.get("Date") || "");
  const skew = Number.isNaN(serverNow) ? 0 : Date.now() - serverNow;
  // The Date header has whole seconds: only trust a skew bigger than that.
  const correction = Math.abs(skew) > 1500 ? skew : 0;
  return at + seconds * 1000 + correction;
}

// The table's clock line and notice -----------------------------------------------------------

export function runClock(view) {
  const seconds = view.options ? view.options.turn_seconds : null;
  const seat = view.turn;
  if (!seconds || seat === null || view.winner !== null || view.seat_types[seat] !== "human") {
    table.countdown.stop();
    return;
  }
  const key = `${view.version}:${seat}`;
  if (table.countdown.key === key || table.clockKey === key) {
    showClock(table.countdown.secondsLeft);
    return;
  }
  table.clockKey = key;
  turnDeadline(table.gameId, view.version, seconds, authHeaders()).then((deadline) => {
    if (!table.view || table.view.version !== view.version) return;
    table.countdown.start(key, deadline === null ? Date.now() + seconds * 1000 : deadline);
  }).catch(() => table.countdown.start(key, Date.now() + seconds * 1000));
}

export function showClock(seconds) {
  const clock = $("clock");
  const view = table.view;
  const plate = document.querySelector("#seats .seat.to-act .seat-clock");
  if (seconds === null || !view || view.turn === null) {
    clock.hidden = true;
    fill(clock);
    if (plate) fill(plate);
    return;
  }
  const who = view.turn === table.seat ? "You have" : `${seatLabel(view.turn, view)} has`;
  clock.hidden = false;
  clock.dataset.seconds = String(seconds);
  clock.classList.toggle("urgent", seconds <= 10);
  fill(clock, seconds > 0 ? `${who} ${seconds} s to act.` : "Time is up: the clock acts for the seat.");
  if (plate) fill(plate, ` \u00b7 ${seconds} s`);
}

/** An event of the stream: if the clock acted for a seat, say so where the table is. */
export function noticeClock(message) {
  let event;
  try {
    event = JSON.parse(message.data);
  } catch {
    return;
  }
  if (!isClockMove(event)) return;
  const seat = event.data.seat;
  const who = seat === table.seat ? "Your time ran out" : `Time ran out for ${seatLabel(seat)}`;
  const text = `${who}: the clock ${clockMove(event)} for ${seat === table.seat ? "you" : `seat ${seatNumber(seat)}`}.`;
  const notice = $("clock-notice");
  notice.hidden = false;
  notice.dataset.version = String(event.version);
  fill(notice, text);
}
