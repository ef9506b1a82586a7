// Reading a hand history (the JSON form, docs/hand-history.md) into deals and tricks, the way
// `fortyfive history show` does: events grouped into deals, card plays into tricks, each
// trick closed by its trick_won fact (or when every seat has played), facts by version.

import { seatNumber } from "./cards.js";
import { SAYS, SAYS_HIDDEN } from "./event-types.js";

export const FORMAT = "fortyfive-hand-history";
const DEAL_START = new Set(["deck_shuffled", "deal_recorded"]);

export class HistoryError extends Error {}

/** Returns the model of history *doc* (already parsed JSON); throws HistoryError. */
export function readHistory(doc) {
  if (doc === null || typeof doc !== "object" || Array.isArray(doc)) {
    throw new HistoryError("a hand history is a JSON object");
  }
  if (doc.format !== FORMAT) {
    throw new HistoryError(`not a hand history: "format" must be "${FORMAT}"`);
  }
  if (typeof doc.format_version !== "string" || !doc.format_version.startsWith("1.")) {
    throw new HistoryError(`unsupported format_version ${JSON.stringify(doc.format_version)}: this viewer reads 1.x`);
  }
  if (!Array.isArray(doc.events) || doc.events.length === 0) {
    throw new HistoryError("the history has no events");
  }
  for (const [index, event] of doc.events.entries()) {
    if (!event || !Number.isInteger(event.version) || typeof event.type !== "string" || typeof event.data !== "object") {
      throw new HistoryError(`event ${index + 1} needs a version, a type and data`);
    }
  }
  const rules = doc.rules || {};
  const players = Number.isInteger(rules.players) ? rules.players : (doc.seats || []).length;
  const results = doc.results || { deals: [], game: null, irregularities: [] };
  const events = doc.events;

  let first = events.findIndex((event) => DEAL_START.has(event.type));
  if (first < 0) first = events.length;
  const preamble = events.slice(0, first);
  const groups = [];
  for (const event of events.slice(first)) {
    if (DEAL_START.has(event.type) || groups.length === 0) groups.push([]);
    groups[groups.length - 1].push(event);
  }
  const entries = Array.isArray(results.deals) ? results.deals : [];
  const sections = [];
  for (let index = 0; index < Math.max(groups.length, entries.length); index += 1) {
    const dealEvents = groups[index] || [];
    const entry = entries[index] || null;
    let number = index + 1;
    if (entry && Number.isInteger(entry.number)) number = entry.number;
    else if (dealEvents.length && Number.isInteger(dealEvents[0].data.deal)) number = dealEvents[0].data.deal;
    sections.push(buildSection(number, entry, dealEvents, players));
  }
  const trickEnds = [];
  for (const section of sections) {
    for (const trick of section.tricks) {
      if (trick.complete) trickEnds.push(trick.plays[trick.plays.length - 1].version);
    }
  }
  return {
    doc, players, events, preamble, sections, trickEnds,
    seats: Array.isArray(doc.seats) ? doc.seats : [],
    results,
  };
}

function buildSection(number, entry, events, players) {
  const facts = entry && Array.isArray(entry.facts) ? entry.facts : [];
  const wonAt = new Map();
  for (const fact of facts) {
    if (fact.kind === "trick_won") wonAt.set(fact.version, fact);
  }
  const tricks = [];
  let current = null;
  for (const event of events) {
    if (event.type !== "card_played" || (event.redacted && event.redacted.length)) continue;
    if (current === null) {
      current = { number: tricks.length + 1, plays: [], won: null, complete: false };
      tricks.push(current);
    }
    current.plays.push({ seat: event.data.seat, card: event.data.card, version: event.version });
    const won = wonAt.get(event.version);
    if (won || (players && current.plays.length === players)) {
      current.won = won || null;
      current.complete = true;
      current = null;
    }
  }
  let trumpAt = null;
  let turnUpAt = null;
  for (const event of events) {
    if (turnUpAt === null && (event.type === "deck_cut" || event.type === "deal_recorded")) {
      turnUpAt = event.version;
    }
    if (event.type === "trump_named") trumpAt = event.version;
  }
  if (trumpAt === null && entry && entry.turn_up) trumpAt = turnUpAt;
  return {
    number, entry, events, tricks, facts, trumpAt, turnUpAt,
    firstVersion: events.length ? events[0].version : null,
    lastVersion: events.length ? events[events.length - 1].version : null,
  };
}

/** The deal section holding the event at *version*, or null (the game's creation). */
export function sectionAt(model, version) {
  for (const section of model.sections) {
    if (section.firstVersion !== null && section.firstVersion <= version && version <= section.lastVersion) {
      return section;
    }
  }
  return null;
}

/** Scores before *section* (the previous deal's result, else the start block, else zeros). */
export function scoresBefore(model, section) {
  const index = model.sections.indexOf(section);
  for (let i = index - 1; i >= 0; i -= 1) {
    const entry = model.sections[i].entry;
    if (entry && entry.result && Array.isArray(entry.result.scores)) return entry.result.scores;
  }
  if (model.doc.start && Array.isArray(model.doc.start.scores)) return model.doc.start.scores;
  const sides = new Set(model.seats.map((seat) => seat.side).filter((side) => Number.isInteger(side)));
  return Array.from({ length: sides.size || model.players }, () => 0);
}

/** One line saying what an event was, as its viewer may see it (as `history show`). */
export function describeEvent(event) {
  const data = event.data || {};
  // Seats counted from 1, as people count them (the history counts from 0).
  const seat = Number.isInteger(data.seat) ? seatNumber(data.seat) : data.seat;
  const hidden = event.redacted && event.redacted.length ? "a card face down" : null;
  const short = (value) => (value ? `${String(value).slice(0, 16)}\u2026` : "hidden");
  switch (event.type) {
    case "game_created":
      return `Game created: ${data.profile}, seats ${(data.seats || []).map((kind, index) => `${seatNumber(index)} ${kind}${data.names && data.names[index] ? ` (${data.names[index]})` : ""}`).join(", ")}`;
    case "deck_shuffled":
      return `Deal ${data.deal}: shuffled (${data.algorithm}); commitment ${short(data.commitment)}; `
        + (data.seed ? `seed ${short(data.seed)}` : "seed hidden until the deal is over");
    case "board_dealt":
      return `Deal ${data.deal}: board ${data.board} dealt (${data.algorithm}, cut ${data.cut}); `
        + `commitment ${short(data.commitment)}; `
        + (data.seed ? `seed ${short(data.seed)}` : "seed hidden until every table has played it");
    case "deck_cut":
      return `Seat ${seat} cut the deck at ${data.position}` + (data.nonce ? ` and contributed ${short(data.nonce)}` : "");
    case "deal_contributed":
      return `Seat ${seat} contributes ${short(data.nonce)} to deal ${data.deal}`;
    case "deal_recorded":
      return `Deal ${data.deal}: dealt at a real table and recorded; turn-up ${data.turn_up || "none"}`;
    case "joker_buried":
      return `The joker was turned: seat ${seat} took it and buried ${hidden || data.card}`;
    case "turn_up_robbed":
      return `Seat ${seat} robbed the turn-up, setting aside ${hidden || data.discard}`;
    case "bid_made":
      return `Seat ${seat} bids ${data.amount}`;
    case "bid_passed":
      return `Seat ${seat} passes`;
    case "bid_held":
      return `Seat ${seat} holds`;
    case "trump_named":
      return `Seat ${seat} names ${data.suit} trumps`;
    case "cards_discarded":
      if (hidden) return `Seat ${seat} discards ${data.count} card(s) face down and draws`;
      return `Seat ${seat} discards ${(data.cards || []).join(" ") || "nothing"} and draws ${(data.cards || []).length}`;
    case "jink_announced":
      return `Seat ${seat} announces a jink`;
    case "seed_revealed":
      return `Seed of deal ${data.deal} revealed: ${short(data.seed)}`;
    case "card_played":
      return hidden ? `Seat ${seat} plays a card` : `Seat ${seat} plays ${data.card}`;
    case "game_abandoned":
      return `Game abandoned by the server after ${data.idle_seconds} s without an action`;
    case "board_skipped":
      return `Deal ${data.deal}: board ${data.board} skipped here, where the drive's director `
        + "abandoned it (no result; the table goes on with the next board)";
    default:
      return said(event);
  }
}

/** The event type's own sentence (`SAYS` in events/types.py) filled with *event*'s data, as
 * `history show` fills it (seats counted from 1); the type and its data for a type or data it cannot say. */
function said(event) {
  const data = event.data || {};
  const hiddenSays = SAYS_HIDDEN[event.type];
  let template = SAYS[event.type];
  if (hiddenSays && ((event.redacted && event.redacted.length)
      || (template.includes("{seed:") && data.seed == null))) {
    template = hiddenSays;
  }
  const values = {};
  for (const [name, value] of Object.entries(data)) {
    if (Array.isArray(value)) {
      values[name] = value.join(" ") || "nothing";
      values[`${name}_count`] = value.length;
    } else if (name === "seat" && Number.isInteger(value)) {
      values[name] = seatNumber(value);
    } else {
      values[name] = value === null ? "none" : value;
    }
  }
  let unsaid = !template;
  const line = (template || "").replace(/\{(\w+)(?::\.(\d+))?\}/g, (_, name, width) => {
    if (!(name in values)) unsaid = true;
    const text = String(values[name]);
    return width ? text.slice(0, Number(width)) : text;
  });
  if (unsaid) return `${event.type} ${JSON.stringify(data)}`;
  return line.charAt(0).toUpperCase() + line.slice(1);
}
