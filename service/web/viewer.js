// The hand-history viewer: a history (from a game, a file or pasted JSON) event by event and
// trick by trick, with the rulings, and linkable to an event with #v=<version>. Every history
// shown is verified first (verdict.js): its verdict heads the page.

import { cardFace, el, factItem, fill, kindLabel, readProblem, seatNumber, sideName, suitFace, tokens } from "./cards.js";
import { HistoryError, describeEvent, readHistory, scoresBefore, sectionAt } from "./history.js";
import { showLogStatus } from "./logcheck.js";
import { checkAndShow } from "./verdict.js";
import { showDiagramLink } from "./diagram.js";

const $ = (id) => document.getElementById(id);

const viewer = { model: null, index: 0, source: null };
/** source: where the history came from ({ gameId, view, token }), or null for a pasted one. */

function say(text, kind = "info") {
  const message = el("p", { class: `message ${kind}`, text });
  if (kind === "error") message.setAttribute("role", "alert");
  fill($("messages"), message);
}

// Loading -------------------------------------------------------------------------------------

async function loadGame(gameId, { deal = null, token = null, view = null } = {}) {
  viewer.source = null;
  const params = new URLSearchParams({ format: "json" });
  if (deal) params.set("deal", String(deal));
  if (view) params.set("view", view);
  say(`Loading the history of game ${gameId}\u2026`);
  let response;
  try {
    response = await fetch(`/v1/games/${encodeURIComponent(gameId)}/history?${params}`, {
      headers: { Accept: "application/json", ...(token ? { Authorization: `Bearer ${token}` } : {}) },
      cache: "no-store",
      credentials: "omit",
    });
  } catch (error) {
    say(`Could not load the history: ${error.message}`, "error");
    return;
  }
  if (!response.ok) {
    const problem = await readProblem(response);
    say(`Could not load the history: ${problem.title} (${problem.status}): ${problem.detail}`, "error");
    return;
  }
  let doc;
  try {
    doc = await response.json();
  } catch {
    say("The server did not answer with JSON.", "error");
    return;
  }
  viewer.source = { gameId, view, token };
  showHistory(doc);
}

function loadText(text, origin) {
  viewer.source = null;
  const trimmed = text.trim();
  if (!trimmed) {
    say("Choose a file or paste a history first.", "error");
    return;
  }
  if (!trimmed.startsWith("{")) {
    say(`${origin} is not JSON: this viewer reads the JSON form of a history (convert a text history with \`fortyfive history convert\`).`, "error");
    return;
  }
  let doc;
  try {
    doc = JSON.parse(trimmed);
  } catch (error) {
    say(`${origin} is not valid JSON: ${error.message}`, "error");
    return;
  }
  showHistory(doc);
}

/** Shows history *doc*; returns true if it could be read. */
function showHistory(doc) {
  let model;
  try {
    model = readHistory(doc);
  } catch (error) {
    if (error instanceof HistoryError) {
      say(`This is not a hand history this viewer can show: ${error.message}`, "error");
      viewer.model = null;
      $("verdict").hidden = true;
      $("log-status").hidden = true;
      $("history").hidden = true;
      return false;
    }
    throw error;
  }
  viewer.names = seatNames(doc.events || []);
  const created = (doc.events || []).find((event) => event.type === "game_created");
  // Each bot's level as the creation records it; a creation without levels (every game before
  // them, and games of basic bots only) is basic bots; a history without its creation, unknown.
  viewer.levels = !created ? [] : Array.isArray(created.data.bot_levels) ? created.data.bot_levels
    : (created.data.seats || []).map((kind) => (kind === "bot" ? "basic" : null));
  viewer.model = model;
  checkAndShow($("verdict"), doc, () => viewer.model === model);
  showLogStatus($("log-status"), doc, () => viewer.model === model);
  $("load").open = false;
  $("slider").max = String(model.events.length - 1);
  $("history").hidden = false;
  renderSummary(model);
  const version = versionFromHash();
  go(version === null ? model.events.length - 1 : indexOfVersion(version), false);
  say(`History of game ${doc.game_id}: ${model.events.length} events, ${model.sections.length} deal${model.sections.length === 1 ? "" : "s"}.`);
  return true;
}

// Position ------------------------------------------------------------------------------------

function versionFromHash() {
  const params = new URLSearchParams(window.location.hash.slice(1));
  const value = params.get("v");
  return value !== null && /^\d+$/.test(value) ? Number.parseInt(value, 10) : null;
}

/** The index of the event at *version*, or of the last one before it. */
function indexOfVersion(version) {
  const { events } = viewer.model;
  let found = 0;
  events.forEach((event, index) => {
    if (event.version <= version) found = index;
  });
  return found;
}

function go(index, updateHash = true) {
  const { model } = viewer;
  if (!model) return;
  viewer.index = Math.max(0, Math.min(index, model.events.length - 1));
  const version = model.events[viewer.index].version;
  if (updateHash) {
    window.history.replaceState(null, "", `${window.location.pathname}${window.location.search}#v=${version}`);
  }
  render();
}

/** A link to the event at *version*; from a game, it names the deal on screen (diagram=N), whose
 * picture a shared link's preview shows (the page's Open Graph image). */
function permalink(version, section) {
  const params = new URLSearchParams(window.location.search);
  if (viewer.source && section) params.set("diagram", String(section.number));
  else params.delete("diagram");
  const query = params.toString();
  return `${window.location.pathname}${query ? `?${query}` : ""}#v=${version}`;
}

function currentVersion() {
  return viewer.model.events[viewer.index].version;
}

function nextTrick() {
  const version = currentVersion();
  const target = viewer.model.trickEnds.find((end) => end > version);
  go(target === undefined ? viewer.model.events.length - 1 : indexOfVersion(target));
}

function previousTrick() {
  const version = currentVersion();
  const ends = viewer.model.trickEnds.filter((end) => end < version);
  go(ends.length ? indexOfVersion(ends[ends.length - 1]) : 0);
}

// Rendering -----------------------------------------------------------------------------------

/** Each seat's name as the history records it: game_created's, each replaced by the name given
 * when the seat was claimed (seat_named), as `history diagram` reads them. */
function seatNames(events) {
  const created = events.find((event) => event.type === "game_created");
  const names = created && Array.isArray(created.data.names) ? [...created.data.names] : [];
  for (const event of events) {
    if (event.type === "seat_named" && Number.isInteger(event.data.seat)) names[event.data.seat] = event.data.name;
  }
  return names;
}

function seatText(seat) {
  const info = viewer.model.seats.find((item) => item.seat === seat);
  if (!Number.isInteger(seat)) return `seat ${seat}`;
  if (!info) return `seat ${seatNumber(seat)}`;
  const name = viewer.names && viewer.names[seat] ? ` ${viewer.names[seat]}` : "";
  if (info.type !== "bot") return `seat ${seatNumber(seat)}${name}`;
  return `seat ${seatNumber(seat)}${name} (${kindLabel("bot", viewer.levels && viewer.levels[seat])})`;
}

function viewName(value) {
  if (value === "auditor") return "the auditor (every card)";
  if (value === "spectator") return "a spectator (public play only)";
  return `seat ${seatNumber(value)} (its own cards and public play)`;
}

function renderSummary(model) {
  const { doc } = model;
  const rules = doc.rules || {};
  const view = doc.view || {};
  const sides = new Map();
  for (const seat of model.seats) {
    if (!sides.has(seat.side)) sides.set(seat.side, []);
    sides.get(seat.side).push(seat.seat);
  }
  const sideText = Array.from(sides, ([side, seats]) => `${sideName(side)}: ${seats.map((seat) => seatText(seat)).join(", ")}`);
  fill($("history-title"), `Hand history of game ${doc.game_id}`);
  fill($("history-summary"),
    `${rules.profile}, ${rules.players} players, target ${rules.options ? rules.options.target : "?"}`,
    ` \u00b7 sides ${sideText.join("; ")}`,
    ` \u00b7 as seen by ${viewName(view.viewer)}`,
    view.deal ? ` \u00b7 deal ${view.deal} only` : "",
    ` \u00b7 up to version ${view.as_of}`,
    doc.head ? [" \u00b7 head ", el("code", { text: `${doc.head.slice(0, 16)}\u2026`, title: doc.head })] : "");
}

function render() {
  const { model, index } = viewer;
  const event = model.events[index];
  const version = event.version;
  const section = sectionAt(model, version);
  const total = model.events.length;

  $("first").disabled = index === 0;
  $("prev").disabled = index === 0;
  $("next").disabled = index === total - 1;
  $("last").disabled = index === total - 1;
  $("prev-trick").disabled = index === 0;
  $("next-trick").disabled = index === total - 1;
  $("slider").value = String(index);
  $("slider").setAttribute("aria-valuetext", `event ${index + 1} of ${total}, version ${version}`);
  $("permalink").href = permalink(version, section);
  showDiagramLink($("diagram-link"), viewer.source, section ? section.number : null);
  $("history").dataset.version = String(version);

  let where = "before the first deal";
  let trick = null;
  if (section) {
    trick = currentTrick(section, version);
    where = `deal ${section.number}${trick ? `, trick ${trick.number}` : ""}`;
  }
  $("history").dataset.trick = trick ? String(trick.number) : "";
  $("history").dataset.deal = section ? String(section.number) : "";
  fill($("position"),
    el("strong", { text: `Event ${index + 1} of ${total}` }),
    ` (version ${version}), ${where}: `,
    eventLine(event));

  renderDeal(model, section, version, index === total - 1);
  renderTricks(section, version, trick);
  renderRulings(section, version);
  renderHands(section, version);
  renderEvents(model, section, version);
}

function eventLine(event) {
  if (event.type === "card_played" && !(event.redacted && event.redacted.length) && event.data.card) {
    return el("span", {}, `${seatText(event.data.seat)} plays `, cardFace(event.data.card));
  }
  return describeEvent(event);
}

function currentTrick(section, version) {
  let found = null;
  for (const trick of section.tricks) {
    if (trick.plays[0].version <= version) found = trick;
  }
  return found;
}

function renderDeal(model, section, version, atEnd) {
  const items = [];
  const add = (term, ...value) => items.push(el("dt", { text: term }), el("dd", {}, ...value));
  if (!section) {
    fill($("deal-title"), "Deal");
    add("Status", "The game was created; no deal yet.");
  } else {
    const entry = section.entry;
    fill($("deal-title"), `Deal ${section.number}`);
    if (entry) {
      add("Dealer", seatText(entry.dealer));
      if (entry.turn_up && section.turnUpAt !== null && version >= section.turnUpAt) add("Turn-up", cardFace(entry.turn_up));
      const trumpKnown = entry.trump && section.trumpAt !== null && version >= section.trumpAt;
      add("Trumps", trumpKnown ? suitFace(entry.trump) : "not known yet");
    }
    const before = scoresBefore(model, section);
    add("Scores before the deal", scoreText(before));
    const tricksWon = new Map();
    for (const fact of section.facts) {
      if (fact.kind === "trick_won" && fact.version <= version) {
        tricksWon.set(fact.side, (tricksWon.get(fact.side) || 0) + 1);
      }
    }
    add("Tricks won so far", tricksWon.size
      ? Array.from(tricksWon, ([side, count]) => `${sideName(side)} ${count}`).join(", ") : "none");
    if (entry && entry.result && version >= section.lastVersion) {
      const result = entry.result;
      add("Points this deal", result.points.map((points, side) => `${sideName(side)} ${points >= 0 ? "+" : ""}${points}`).join(", "));
      add("Scores after the deal", scoreText(result.scores));
      add("Counted to trick", String(result.ended_at_trick));
      if (result.winner !== null && result.winner !== undefined) add("Winner", `side ${sideName(result.winner)} wins the game`);
    }
  }
  const game = model.results && model.results.game;
  if (atEnd && game) {
    add("Game", game.winner === null || game.winner === undefined
      ? `${game.phase}: scores ${scoreText(game.scores)}`
      : el("strong", { text: `Side ${sideName(game.winner)} wins (scores ${scoreText(game.scores)})` }));
  }
  fill($("deal-info"), items);
}

function scoreText(scores) {
  return scores.map((score, side) => `${sideName(side)} ${score}`).join(", ");
}

function renderTricks(section, version, current) {
  fill($("tricks-title"), section ? `Tricks of deal ${section.number}` : "Tricks");
  if (!section) {
    fill($("tricks"), el("li", { class: "muted", text: "No deal yet." }));
    return;
  }
  const items = [];
  for (const trick of section.tricks) {
    const plays = trick.plays.filter((play) => play.version <= version);
    if (plays.length === 0) break;
    const won = trick.won && trick.won.version <= version ? trick.won : null;
    const isCurrent = trick === current;
    items.push(el("li", {
      class: `trick-row${isCurrent ? " current" : ""}`,
      "aria-current": isCurrent ? "step" : null,
      "data-trick": String(trick.number),
    },
    el("span", { class: "trick-number", text: `Trick ${trick.number}` }),
    el("span", { class: "plays" }, plays.map((play) => el("span", {
      class: `play${play.version === version ? " just-played" : ""}${won && won.seat === play.seat ? " winning" : ""}`,
    }, el("span", { class: "who", text: seatText(play.seat) }), cardFace(play.card)))),
    won ? el("span", { class: "trick-winner" },
      `\u2192 ${seatText(won.seat)} (side ${sideName(won.side)}) wins: `,
      el("span", { class: "ruling-text", text: won.ruling.text }), " ",
      el("code", { class: "rule-id", text: won.ruling.rule }))
      : (plays.length < trick.plays.length || !trick.complete ? el("span", { class: "muted", text: " (in play)" }) : null)));
  }
  if (items.length === 0) items.push(el("li", { class: "muted", text: "No card played yet." }));
  fill($("tricks"), items);
}

function renderRulings(section, version) {
  const facts = section ? section.facts.filter((fact) => fact.version <= version) : [];
  const items = facts.map((fact) => factItem(fact, { class: fact.version === version ? "new" : "" }));
  if (items.length === 0) items.push(el("li", { class: "muted", text: "No ruling yet." }));
  fill($("rulings"), items);
}

/**
 * What became of the dealt cards up to *version*, per seat: cards played, cards set aside
 * (a robbing discard, a buried card, cards thrown out in the exchange) and cards taken in
 * (the robbed turn-up), from the deal's events as this view sees them.
 */
function handChanges(section, version) {
  const played = new Map();
  const setAside = new Map();
  const taken = new Map();
  const count = (map, seat, card) => {
    const key = `${seat}:${String(card).toUpperCase()}`;
    map.set(key, (map.get(key) || 0) + 1);
  };
  for (const trick of section.tricks) {
    for (const play of trick.plays) {
      if (play.version <= version) count(played, play.seat, play.card);
    }
  }
  const notes = new Map();
  for (const event of section.events) {
    if (event.version > version) break;
    const data = event.data || {};
    if (event.type === "turn_up_robbed") {
      if (section.entry && section.entry.turn_up) taken.set(data.seat, section.entry.turn_up);
      if (data.discard) count(setAside, data.seat, data.discard);
      else notes.set(data.seat, "set a card aside face down");
    } else if (event.type === "joker_buried") {
      if (data.card) count(setAside, data.seat, data.card);
    } else if (event.type === "cards_discarded") {
      for (const card of data.cards || []) count(setAside, data.seat, card);
      const number = Array.isArray(data.cards) ? data.cards.length : data.count;
      if (number) notes.set(data.seat, `threw out ${number} and drew ${number}`);
    }
  }
  return { played, setAside, taken, notes };
}

function renderHands(section, version) {
  const entry = section ? section.entry : null;
  if (!entry || !Array.isArray(entry.hands)) {
    fill($("hands"), el("li", { class: "muted", text: "No hands to show." }));
    return;
  }
  const changes = handChanges(section, version);
  fill($("hands"), entry.hands.map((hand, seat) => {
    if (!Array.isArray(hand)) return el("li", {}, el("span", { class: "who", text: seatText(seat) }), el("span", { class: "muted", text: " hidden from this view" }));
    const played = new Map(changes.played);
    const setAside = new Map(changes.setAside);
    const take = (map, key) => {
      if ((map.get(key) || 0) === 0) return false;
      map.set(key, map.get(key) - 1);
      return true;
    };
    const face = (card, robbed = false) => {
      const key = `${seat}:${String(card).toUpperCase()}`;
      const aside = take(setAside, key);
      const gone = !aside && take(played, key);
      const classes = [gone ? "played" : "", aside ? "set-aside" : "", robbed ? "robbed" : ""].filter(Boolean).join(" ");
      const node = cardFace(card, "span", { class: classes });
      const notes = [robbed ? "the robbed turn-up" : null, aside ? "set aside" : null, gone ? "played" : null].filter(Boolean);
      if (notes.length) node.setAttribute("aria-label", `${node.getAttribute("aria-label")} (${notes.join(", ")})`);
      if (robbed || aside) node.title = notes.join(", ");
      return node;
    };
    const robbed = changes.taken.get(seat);
    const note = changes.notes.get(seat);
    return el("li", {}, el("span", { class: "who", text: seatText(seat) }),
      el("span", { class: "cards" }, hand.map((card) => face(card)), robbed ? face(robbed, true) : null),
      robbed ? el("span", { class: "hand-note", text: "robbed the turn-up" }) : null,
      note ? el("span", { class: "hand-note", text: note }) : null);
  }));
}

function renderEvents(model, section, version) {
  const events = section ? section.events : model.preamble;
  fill($("events-title"), section ? `Events of deal ${section.number}` : "Events before the first deal");
  fill($("events"), events.map((event) => el("li", {
    class: event.version === version ? "current" : null,
    "aria-current": event.version === version ? "step" : null,
  }, el("a", {
    href: `#v=${event.version}`,
    onclick: (click) => {
      click.preventDefault();
      go(model.events.indexOf(event));
    },
  }, `v${event.version}`), " ", eventLine(event))));
  const current = $("events").querySelector("li.current");
  if (current) {
    // Scroll the list (not the page) so that the current event is in view.
    const list = $("events");
    list.scrollTop = Math.max(0, current.offsetTop - list.clientHeight / 2);
  }
}

// Start ---------------------------------------------------------------------------------------

function main() {
  $("first").addEventListener("click", () => go(0));
  $("prev").addEventListener("click", () => go(viewer.index - 1));
  $("next").addEventListener("click", () => go(viewer.index + 1));
  $("last").addEventListener("click", () => go(viewer.model.events.length - 1));
  $("prev-trick").addEventListener("click", previousTrick);
  $("next-trick").addEventListener("click", nextTrick);
  $("slider").addEventListener("input", (event) => go(Number.parseInt(event.target.value, 10)));
  window.addEventListener("hashchange", () => {
    const version = versionFromHash();
    if (viewer.model && version !== null) go(indexOfVersion(version), false);
  });
  document.addEventListener("keydown", (event) => {
    if (!viewer.model || event.altKey || event.ctrlKey || event.metaKey) return;
    if (event.target.closest("input, textarea, select")) return;
    const keys = {
      ArrowLeft: () => go(viewer.index - 1),
      ArrowRight: () => go(viewer.index + 1),
      PageUp: previousTrick,
      PageDown: nextTrick,
      Home: () => go(0),
      End: () => go(viewer.model.events.length - 1),
    };
    if (keys[event.key]) {
      event.preventDefault();
      keys[event.key]();
    }
  });

  $("game-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const gameId = $("game-id").value.trim();
    const deal = Number.parseInt($("game-deal").value, 10) || null;
    const view = $("game-view").value || null;
    const params = new URLSearchParams({ game: gameId });
    if (deal) params.set("deal", String(deal));
    if (view) params.set("view", view);
    // Keep the place: the other view opens at the event shown now (or the one linked).
    const keep = viewer.model ? currentVersion() : versionFromHash();
    window.history.replaceState(null, "", `/viewer?${params}${keep === null ? "" : `#v=${keep}`}`);
    loadGame(gameId, { deal, view, token: $("game-token").value.trim() || null });
  });
  $("file-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const file = $("history-file").files[0];
    if (file) loadText(await file.text(), file.name);
    else loadText($("history-text").value, "The pasted text");
  });
  $("history-file").addEventListener("change", async () => {
    const file = $("history-file").files[0];
    if (file) loadText(await file.text(), file.name);
  });

  const params = new URLSearchParams(window.location.search);
  const gameId = params.get("game");
  if (gameId) {
    $("game-id").value = gameId;
    const seat = params.get("seat");
    const deal = Number.parseInt(params.get("deal") || "", 10) || null;
    if (deal) $("game-deal").value = String(deal);
    const view = ["own", "spectator", "auditor"].includes(params.get("view")) ? params.get("view") : null;
    if (view && view !== "own") $("game-view").value = view;
    const token = seat !== null ? tokens.get(gameId, seat) : null;
    loadGame(gameId, { deal, token, view });
  }
}

main();
