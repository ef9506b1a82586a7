// The table: create or join a game, then play it seat by seat over the public API.
//
// The seat's token stays in sessionStorage (or arrives once in the URL fragment, #token=...,
// which browsers never send to the server). Every action posted is one of the view's
// legal_actions, unchanged, with If-Match: "<version>" and a fresh Idempotency-Key. Live
// updates come from the game's spectator event stream: EventSource cannot send a token, so
// each message only triggers a fresh GET of the seat's own view.

import {
  cardBack, cardFace, cardName, cardText, el, factItem, fill, randomKey, readProblem, sideName,
  suitFace, tokens,
} from "./cards.js";
import { readHistory } from "./history.js";

const EVENT_TYPES = [
  "game_created", "deck_shuffled", "deck_cut", "deal_recorded", "joker_buried",
  "turn_up_robbed", "bid_made", "bid_passed", "bid_held", "trump_named", "cards_discarded",
  "jink_announced", "card_played", "seed_revealed", "game_abandoned", "message",
];
const PHASES = {
  cut: "the cut", joker: "a turned joker", bidding: "the auction", trump: "naming trumps",
  discard: "the exchange", play: "play", over: "game over", shuffle: "the shuffle",
};

const $ = (id) => document.getElementById(id);

const table = {
  gameId: null,
  seat: null,
  token: null,
  view: null,
  source: null,
  reconnectTimer: null,
  loading: null,
  reloadAgain: false,
  busy: false,
  keepFocus: false,
  parked: false,
  previousDeal: null,
};

// Messages ------------------------------------------------------------------------------------

/** Shows *text* in the live message area (kind: "info", "success" or "error"). */
function say(text, kind = "info", extra = null) {
  const box = $("messages");
  const message = el("p", { class: `message ${kind}` }, text, extra ? [" ", extra] : null);
  if (kind === "error") message.setAttribute("role", "alert");
  fill(box, message);
}

function clearMessage() {
  fill($("messages"));
}

async function showProblem(response, prefix = "") {
  const problem = await readProblem(response);
  const code = problem.body && problem.body.code ? ` [${problem.body.code}]` : "";
  say(`${prefix}${problem.title} (${problem.status}): ${problem.detail}${code}`, "error");
  return problem;
}

// API -----------------------------------------------------------------------------------------

function authHeaders() {
  return table.token ? { Authorization: `Bearer ${table.token}` } : {};
}

async function api(path, options = {}) {
  const headers = { Accept: "application/json", ...(options.headers || {}) };
  return fetch(path, { ...options, headers, cache: "no-store", credentials: "omit" });
}

// Lobby ---------------------------------------------------------------------------------------

async function openLobby() {
  $("lobby").hidden = false;
  document.title = "Forty-Five: create or join a game";
  $("create-form").addEventListener("submit", createGame);
  $("join-form").addEventListener("submit", joinGame);
  $("players").addEventListener("input", () => renderSeatChoices());
  $("profile").addEventListener("change", () => selectProfile());
  const response = await api("/v1/profiles");
  if (!response.ok) {
    await showProblem(response, "Could not load the rules profiles: ");
    return;
  }
  const body = await response.json();
  table.profiles = body.profiles;
  fill($("profile"), body.profiles.map((profile) => el("option", {
    value: profile.name,
    text: `${profile.name} (${profile.players.min === profile.players.max
      ? profile.players.min : `${profile.players.min} to ${profile.players.max}`} players)`,
  })));
  const preferred = body.profiles.find((profile) => profile.name === "classic");
  if (preferred) $("profile").value = preferred.name;
  selectProfile();
}

function currentProfile() {
  return (table.profiles || []).find((profile) => profile.name === $("profile").value);
}

function selectProfile() {
  const profile = currentProfile();
  if (!profile) return;
  const players = $("players");
  players.min = String(profile.players.min);
  players.max = String(profile.players.max);
  players.value = String(profile.players.min);
  players.disabled = profile.players.min === profile.players.max;
  renderSeatChoices();
  renderOptions(profile);
}

function renderSeatChoices() {
  const profile = currentProfile();
  const players = Number.parseInt($("players").value, 10);
  const count = profile ? Math.min(Math.max(players || profile.players.min, profile.players.min), profile.players.max) : 2;
  const previous = Array.from(document.querySelectorAll("#seat-choices select"), (select) => select.value);
  fill($("seat-choices"), Array.from({ length: count }, (_, seat) => el("p", { class: "field seat-choice" },
    el("label", { for: `seat-type-${seat}`, text: `Seat ${seat}` }),
    el("select", { id: `seat-type-${seat}`, name: `seat-${seat}` },
      el("option", { value: "human", text: "Human", selected: (previous[seat] || (seat === 0 ? "human" : "bot")) === "human" }),
      el("option", { value: "bot", text: "Bot", selected: (previous[seat] || (seat === 0 ? "human" : "bot")) === "bot" })))));
}

function renderOptions(profile) {
  const fields = Object.entries(profile.options).map(([name, spec]) => {
    const id = `option-${name}`;
    let input;
    if (Array.isArray(spec.values)) {
      input = el("select", { id, "data-option": name, "aria-describedby": `${id}-help` },
        spec.values.map((value) => el("option", {
          value: JSON.stringify(value), text: String(value), selected: value === spec.default,
        })));
    } else {
      input = el("input", {
        id, type: "number", min: "0", "data-option": name, "aria-describedby": `${id}-help`,
        value: spec.default === null ? "" : String(spec.default),
        placeholder: spec.default === null ? "none" : "",
      });
    }
    return el("p", { class: "field option" },
      el("label", { for: id, text: name.replaceAll("_", " ") }), input,
      el("span", { id: `${id}-help`, class: "help", text: spec.description }));
  });
  fill($("option-fields"), fields);
}

function chosenOptions(profile) {
  const options = {};
  for (const input of document.querySelectorAll("[data-option]")) {
    const name = input.dataset.option;
    const spec = profile.options[name];
    let value;
    if (input.tagName === "SELECT") value = JSON.parse(input.value);
    else value = input.value.trim() === "" ? null : Number(input.value);
    if (value !== spec.default) options[name] = value;
  }
  return options;
}

async function createGame(event) {
  event.preventDefault();
  const profile = currentProfile();
  if (!profile) return;
  const seats = Array.from(document.querySelectorAll("#seat-choices select"), (select) => ({ type: select.value }));
  const button = $("create-button");
  button.disabled = true;
  say("Creating the game\u2026");
  try {
    const response = await api("/v1/games", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ profile: profile.name, options: chosenOptions(profile), seats }),
    });
    if (!response.ok) {
      await showProblem(response, "The game was not created: ");
      return;
    }
    const created = await response.json();
    for (const seat of created.seats) {
      if (seat.token) tokens.set(created.id, seat.seat, seat.token);
    }
    tokens.set(created.id, "auditor", created.auditor_token);
    const human = created.seats.find((seat) => seat.token);
    const query = human ? `?seat=${human.seat}` : "";
    window.location.assign(`/table/${encodeURIComponent(created.id)}${query}`);
  } catch (error) {
    say(`The game was not created: ${error.message}`, "error");
  } finally {
    button.disabled = false;
  }
}

function joinGame(event) {
  event.preventDefault();
  const gameId = $("join-game").value.trim();
  const seat = Number.parseInt($("join-seat").value, 10);
  const token = $("join-token").value.trim();
  if (!gameId) {
    say("Enter the game id.", "error");
    return;
  }
  if (token && Number.isInteger(seat)) {
    tokens.set(gameId, seat, token);
    window.location.assign(`/table/${encodeURIComponent(gameId)}?seat=${seat}`);
  } else {
    window.location.assign(`/table/${encodeURIComponent(gameId)}`);
  }
}

// The table -----------------------------------------------------------------------------------

function openTable(gameId) {
  table.gameId = gameId;
  const params = new URLSearchParams(window.location.search);
  const seat = params.get("seat");
  table.seat = seat !== null && /^\d+$/.test(seat) ? Number.parseInt(seat, 10) : null;
  const fragment = new URLSearchParams(window.location.hash.slice(1));
  const given = fragment.get("token");
  if (given && table.seat !== null) tokens.set(gameId, table.seat, given);
  if (fragment.has("token")) {
    // Take the token out of the address bar (and so out of history and bookmarks).
    window.history.replaceState(null, "", window.location.pathname + window.location.search);
  }
  table.token = table.seat !== null ? tokens.get(gameId, table.seat) : null;
  document.title = `Forty-Five: game ${gameId}`;
  fill($("game-id"), gameId);
  $("table").hidden = false;
  $("viewer-link").href = viewerUrl();
  $("live").addEventListener("change", () => {
    if ($("live").checked) {
      reload();
      connect();
    } else {
      disconnect("paused");
    }
  });
  $("join-form").addEventListener("submit", joinGame);
  if (table.seat !== null && !table.token) {
    showJoinForm();
    say(`This tab has no token for seat ${table.seat}: paste it in "Join a game", or watch below as a spectator.`, "error");
    table.seat = null;
  }
  reload().then(() => {
    if ($("live").checked) connect();
  });
}

/** Shows the join form for this game (a missing or refused token). */
function showJoinForm() {
  $("lobby").hidden = false;
  $("create-form").hidden = true;
  $("join-game").value = table.gameId;
  if (table.seat !== null) $("join-seat").value = String(table.seat);
}

function viewerUrl(version = null, view = null) {
  const params = new URLSearchParams({ game: table.gameId });
  if (view) params.set("view", view);
  else if (table.seat !== null) params.set("seat", String(table.seat));
  return `/viewer?${params}${version ? `#v=${version}` : ""}`;
}

/** GETs the seat's view again (coalesced: one request at a time, the latest wins). */
async function reload() {
  if (table.loading) {
    table.reloadAgain = true;
    return table.loading;
  }
  table.loading = (async () => {
    do {
      table.reloadAgain = false;
      try {
        const response = await api(`/v1/games/${encodeURIComponent(table.gameId)}`, { headers: authHeaders() });
        if (!response.ok) {
          const problem = await showProblem(response, "Could not read the game: ");
          if (problem.status === 401 && table.seat !== null) {
            tokens.remove(table.gameId, table.seat);
            table.token = null;
            showJoinForm();
          }
          if (problem.status === 401 || problem.status === 404) disconnect("stopped");
          return;
        }
        show(await response.json());
      } catch (error) {
        say(`Could not read the game: ${error.message}`, "error");
        return;
      }
    } while (table.reloadAgain);
  })();
  try {
    await table.loading;
  } finally {
    table.loading = null;
  }
  return undefined;
}

function connect() {
  disconnect(null);
  if (!table.view || table.view.phase === "over") return;
  const url = `/v1/games/${encodeURIComponent(table.gameId)}/stream?after=${table.view.version}`;
  const source = new EventSource(url);
  table.source = source;
  setLive("connecting\u2026");
  source.addEventListener("open", () => {
    setLive("live");
    reload();
  });
  for (const type of EVENT_TYPES) source.addEventListener(type, () => reload());
  source.addEventListener("error", () => {
    if (source.readyState !== EventSource.CLOSED) {
      setLive("reconnecting\u2026");
      return;
    }
    // A 204 (the game is over and every event was sent) or an error status closes it.
    table.source = null;
    reload().then(() => {
      if (table.view && table.view.phase === "over") {
        setLive("the game is over");
      } else if ($("live").checked) {
        setLive("disconnected; retrying in 3 s");
        table.reconnectTimer = window.setTimeout(connect, 3000);
      }
    });
  });
}

function disconnect(state) {
  if (table.reconnectTimer) window.clearTimeout(table.reconnectTimer);
  table.reconnectTimer = null;
  if (table.source) table.source.close();
  table.source = null;
  if (state) setLive(state);
}

function setLive(text) {
  fill($("live-state"), text ? `(${text})` : "");
}

// Acting --------------------------------------------------------------------------------------

/** Posts *action* (an entry of legal_actions, unchanged) for the seat. */
async function act(action) {
  if (table.busy || !table.view) return;
  table.busy = true;
  const section = $("table");
  table.keepFocus = section.contains(document.activeElement) && document.activeElement !== section;
  setButtonsDisabled(true);
  const version = table.view.version;
  const key = randomKey();
  try {
    let response = null;
    for (let attempt = 0; attempt < 3 && response === null; attempt += 1) {
      try {
        response = await api(`/v1/games/${encodeURIComponent(table.gameId)}/actions`, {
          method: "POST",
          headers: {
            ...authHeaders(),
            "Content-Type": "application/json",
            "If-Match": `"${version}"`,
            "Idempotency-Key": key,
          },
          body: JSON.stringify(action),
        });
      } catch (error) {
        // A network failure: the same key makes a retry safe (the first result comes back).
        if (attempt === 2) throw error;
        await new Promise((resolve) => window.setTimeout(resolve, 300 * (attempt + 1)));
      }
    }
    if (response.ok) {
      clearMessage();
      show(await response.json());
      return;
    }
    if (response.status === 412) {
      await showProblem(response, "The game moved on before this action, so nothing was done; the table is now up to date. ");
    } else {
      await showProblem(response, "Action refused: ");
    }
    await reload();
  } catch (error) {
    say(`The action could not be sent: ${error.message}`, "error");
  } finally {
    table.busy = false;
    setButtonsDisabled(false);
    restoreFocus();
    table.keepFocus = false;
  }
}

/** Puts the focus back at the table when the control that had it was disabled or redrawn,
 * so that keyboard users are not sent back to the top of the page. */
function restoreFocus() {
  const section = $("table");
  if (!table.keepFocus || section.contains(document.activeElement)) return;
  const next = section.querySelector("button.action:not(:disabled)");
  table.parked = !next;
  (next || $("turn")).focus();
}

function setButtonsDisabled(disabled) {
  for (const button of document.querySelectorAll("#table button.action")) button.disabled = disabled;
  const discard = $("discard-submit");
  if (discard && !disabled) updateDiscard();
}

function actionButton(action, label, extra = {}) {
  return el("button", {
    type: "button",
    class: `action action-${action.type}${extra.class ? ` ${extra.class}` : ""}`,
    "data-type": action.type,
    "data-action": JSON.stringify(action),
    disabled: table.busy,
    "aria-label": extra.ariaLabel || null,
    title: extra.title || null,
    onclick: () => act(action),
  }, label);
}

// Rendering -----------------------------------------------------------------------------------

function seatLabel(seat, view = table.view, lower = false) {
  const kinds = view ? view.seat_types : [];
  let label = `${lower ? "seat" : "Seat"} ${seat}`;
  if (seat === table.seat) label += " (you)";
  else if (kinds[seat] === "bot") label += " (bot)";
  return label;
}

function sideOf(seat, view) {
  return view.sides.findIndex((seats) => seats.includes(seat));
}

function show(view) {
  if (table.view && view.version < table.view.version) return; // An older answer.
  const previous = table.view;
  table.view = view;
  // The token decides the seat, whatever the address says.
  table.seat = Number.isInteger(view.viewer) ? view.viewer : null;
  if (previous && previous.deal && view.deal && view.deal.number !== previous.deal.number) {
    announceDealOver(previous, view);
  }
  const section = $("table");
  if (section.contains(document.activeElement) && document.activeElement !== section) {
    table.keepFocus = true;
  }
  section.dataset.version = String(view.version);
  section.dataset.phase = view.phase;
  section.dataset.turn = view.turn === null ? "" : String(view.turn);
  renderSummary(view);
  renderWinner(view);
  renderScores(view);
  renderTrump(view);
  renderTrick(view);
  renderHand(view);
  renderActions(view);
  renderFacts(view);
  renderSeats(view);
  if (table.parked && document.activeElement === $("turn")) {
    // Focus waited on the turn line for the seat's next actions: move it to them.
    table.keepFocus = true;
    document.activeElement.blur();
  }
  if (!table.busy) {
    restoreFocus();
    table.keepFocus = false;
  }
  if (view.phase === "over") disconnect("the game is over");
}

function renderSummary(view) {
  const deal = view.deal;
  const parts = [
    `${view.profile}, ${view.players} players`,
    `game ${view.game_number}`,
    deal ? `deal ${deal.number}, dealer seat ${deal.dealer}` : null,
    `phase: ${PHASES[view.phase] || view.phase}`,
    `version ${view.version}`,
  ];
  fill($("summary"), parts.filter(Boolean).join(" \u00b7 "));
  let turn;
  if (view.winner !== null) turn = "The game is over.";
  else if (view.phase === "over") turn = "The game was abandoned: nobody acted for too long.";
  else if (view.turn === null) turn = "Waiting for the server\u2026";
  else if (view.turn === table.seat) turn = "Your turn.";
  else turn = `${seatLabel(view.turn, view)} to act.`;
  if (table.seat === null) turn += " You are watching as a spectator.";
  fill($("turn"), turn);
  $("turn").classList.toggle("your-turn", view.turn !== null && view.turn === table.seat && view.winner === null);
}

function renderWinner(view) {
  const box = $("winner");
  if (view.winner === null) {
    box.hidden = true;
    fill(box);
    return;
  }
  const seats = view.sides[view.winner] || [];
  let text = `Side ${sideName(view.winner)} (${seats.map((seat) => `seat ${seat}`).join(", ")}) wins the game`;
  if (table.seat !== null) text += seats.includes(table.seat) ? ": you win!" : ": you lose.";
  else text += ".";
  fill(box, el("strong", { text }), " ",
    el("a", { href: viewerUrl(view.version), text: "Replay the hand history" }), " ",
    el("a", { href: viewerUrl(view.version, "auditor"), text: "with every hand shown" }));
  box.hidden = false;
}

function renderScores(view) {
  const deal = view.deal;
  const tricks = view.sides.map(() => 0);
  for (const trick of deal ? deal.tricks : []) {
    if (trick.winner !== null) tricks[sideOf(trick.winner, view)] += 1;
  }
  const matchGames = view.options && view.options.match_games > 1;
  const rows = view.sides.map((seats, side) => el("tr", {
    class: [seats.includes(table.seat) ? "mine" : "", view.winner === side ? "won" : ""].join(" ").trim() || null,
  },
  el("th", { scope: "row", text: `${sideName(side)} (${side})` }),
  el("td", { text: seats.map((seat) => seatLabel(seat, view)).join(", ") }),
  el("td", { class: "score", text: String(view.scores[side]) + (matchGames ? ` (games ${view.games_won[side]})` : "") }),
  el("td", { text: String(tricks[side]) })));
  fill($("scores").tBodies[0], rows);
}

function renderTrump(view) {
  const deal = view.deal;
  const items = [];
  const add = (term, ...value) => items.push(el("dt", { text: term }), el("dd", {}, ...value));
  add("Trumps", view.trump ? suitFace(view.trump) : "not known yet");
  if (deal) {
    if (deal.turn_up) add("Turn-up", cardFace(deal.turn_up));
    if (deal.robbed_by !== null) add("Robbed by", seatLabel(deal.robbed_by, view));
    if (deal.auction) {
      const auction = deal.auction;
      add("Auction", auction.high === null ? "no bid yet"
        : `high bid ${auction.high} by ${seatLabel(auction.high_seat, view, true)}`);
      if (auction.calls.length) {
        add("Calls", auction.calls.map((call) => `seat ${call.seat} ${call.call === "bid"
          ? `bids ${call.amount}` : (call.call === "hold" ? "holds" : "passes")}`).join(", "));
      }
    }
    if (deal.bid !== null) add("Contract", `${deal.bid} by ${seatLabel(deal.bidder, view, true)}`);
    if (deal.jink !== null) add("Jink", `announced by ${seatLabel(deal.jink, view, true)}`);
    add("Highest-trump bonus", deal.bonus_proven ? "proven" : "not proven yet");
  }
  fill($("trump-info"), items);
}

function renderTrick(view) {
  const deal = view.deal;
  const trick = $("trick");
  if (!deal) {
    fill(trick);
    fill($("trick-note"), "No deal yet.");
    return;
  }
  let shown = deal.current_trick;
  let number = deal.tricks.length + 1;
  let note = "";
  if ((!shown || shown.cards.length === 0) && deal.tricks.length) {
    shown = deal.tricks[deal.tricks.length - 1];
    number = deal.tricks.length;
    note = shown.winner !== null ? `Trick ${number} was won by ${seatLabel(shown.winner, view, true)}.` : "";
  }
  fill($("trick-title"), `Trick ${number}`);
  if (!shown || shown.cards.length === 0) {
    fill(trick);
    fill($("trick-note"), deal.phase === "play" ? "No card played yet." : `Waiting for ${PHASES[deal.phase] || deal.phase}.`);
    return;
  }
  fill(trick, shown.cards.map((play, index) => el("li", {
    class: `played${shown.winner === play.seat ? " winning" : ""}`,
  },
  el("span", { class: "who", text: `${seatLabel(play.seat, view)}${index === 0 ? ", led" : ""}` }),
  cardFace(play.card))));
  fill($("trick-note"), note);
}

function renderHand(view) {
  const hand = $("hand");
  if (table.seat === null || !Array.isArray(view.hand)) {
    fill($("hand-title"), "Hand");
    fill(hand, el("p", { class: "muted", text: "Spectators do not see any hand." }));
    return;
  }
  fill($("hand-title"), `Your hand (seat ${table.seat})`);
  if (view.hand.length === 0) {
    fill(hand, el("p", { class: "muted", text: "No cards in hand." }));
    return;
  }
  const plays = new Map();
  for (const action of view.legal_actions) {
    if (action.type === "play") plays.set(action.card.toUpperCase(), action);
  }
  const playing = plays.size > 0;
  fill(hand, el("ul", { class: "cards", "aria-label": "Cards in your hand" }, view.hand.map((card) => {
    const action = plays.get(card.toUpperCase());
    if (!action) return el("li", {}, cardFace(card, "span", { class: playing ? "unplayable" : "" }));
    plays.delete(card.toUpperCase());
    return el("li", {}, cardFace(card, "button", {
      type: "button",
      class: "action action-play",
      "data-type": "play",
      "data-action": JSON.stringify(action),
      disabled: table.busy,
      "aria-label": `Play the ${cardName(card)}`,
      onclick: () => act(action),
    }));
  })));
  if (playing) hand.prepend(el("p", { class: "help", text: "Click a raised card to play it." }));
}

function renderActions(view) {
  const box = $("actions");
  const actions = view.legal_actions.filter((action) => action.type !== "play");
  const groups = [];
  const calls = [];
  const byType = new Map();
  for (const action of actions) {
    if (!byType.has(action.type)) byType.set(action.type, []);
    byType.get(action.type).push(action);
  }
  for (const [type, list] of byType) {
    if (type === "cut") groups.push(cutGroup(list));
    else if (type === "discard") groups.push(discardGroup(list, view));
    else if (type === "rob") {
      groups.push(group("Rob the turn-up", "Take the turn-up and put one card face down:",
        list.map((action) => actionButton(action, ["Discard ", cardFace(action.discard)], {
          ariaLabel: `Rob, discarding the ${cardName(action.discard)}`,
        }))));
    } else if (type === "bury") {
      groups.push(group("Bury a card", "You took the turned joker: bury one card face down.",
        list.map((action) => actionButton(action, ["Bury ", cardFace(action.card)], {
          ariaLabel: `Bury the ${cardName(action.card)}`,
        }))));
    } else if (type === "name_trump") {
      groups.push(group("Name trumps", null,
        list.map((action) => actionButton(action, suitFace(action.suit), {
          ariaLabel: `Name ${action.suit} trumps`,
        }))));
    } else if (type === "bid") {
      groups.push(group("Bid", null, list.map((action) => actionButton(action, `Bid ${action.amount}`))));
    } else if (type === "pass") calls.push(actionButton(list[0], "Pass"));
    else if (type === "hold") calls.push(actionButton(list[0], "Hold"));
    else if (type === "jink") calls.push(actionButton(list[0], "Announce a jink (all five tricks)"));
    else groups.push(group(type, null, list.map((action) => actionButton(action, JSON.stringify(action)))));
  }
  if (calls.length) groups.push(el("div", { class: "buttons" }, calls));
  if (groups.length === 0) {
    const plays = view.legal_actions.length > 0;
    groups.push(el("p", { class: "muted", text: plays ? "Play a card from your hand." : (table.seat === null ? "Spectators cannot act." : "Nothing to do now.") }));
  }
  fill(box, groups);
}

function group(title, help, buttons) {
  return el("div", { class: "action-group", role: "group", "aria-label": title },
    el("h4", { text: title }), help ? el("p", { class: "help", text: help }) : null,
    el("div", { class: "buttons" }, buttons));
}

function cutGroup(list) {
  const random = list[Math.floor(Math.random() * list.length)];
  return el("div", { class: "action-group cut", role: "group", "aria-label": "Cut the deck" },
    el("h4", { text: "Cut the deck" }),
    el("p", { class: "help", text: "Choose how many cards to lift off the top." }),
    el("div", { class: "buttons" }, actionButton(random, "Cut anywhere", { class: "primary", title: `Cut at ${random.position}` })),
    el("details", {},
      el("summary", { text: "Choose the position" }),
      el("div", { class: "buttons cut-grid" }, list.map((action) => actionButton(action, String(action.position), {
        ariaLabel: `Cut at ${action.position}`,
      })))));
}

function sameCards(a, b) {
  if (a.length !== b.length) return false;
  const left = [...a].map((c) => c.toUpperCase()).sort();
  const right = [...b].map((c) => c.toUpperCase()).sort();
  return left.every((card, index) => card === right[index]);
}

function discardGroup(list, view) {
  const boxes = (view.hand || []).map((card, index) => el("li", {},
    el("input", { type: "checkbox", id: `discard-${index}`, value: card, class: "discard-choice", onchange: updateDiscard }),
    el("label", { for: `discard-${index}` }, cardFace(card))));
  const submit = el("button", {
    type: "button", id: "discard-submit", class: "action action-discard primary", "data-type": "discard",
    onclick: () => {
      const chosen = selectedDiscard();
      const action = list.find((candidate) => sameCards(candidate.cards, chosen));
      if (action) act(action);
    },
  }, "Keep all cards");
  const node = el("div", { class: "action-group discard", role: "group", "aria-label": "Exchange cards" },
    el("h4", { text: "Exchange cards" }),
    el("p", { class: "help", text: "Tick the cards to throw out; you draw as many from the stock." }),
    el("ul", { class: "cards discard-cards" }, boxes), el("div", { class: "buttons" }, submit));
  table.discardOptions = list;
  return node;
}

function selectedDiscard() {
  return Array.from(document.querySelectorAll(".discard-choice:checked"), (box) => box.value);
}

function updateDiscard() {
  const submit = $("discard-submit");
  if (!submit) return;
  const chosen = selectedDiscard();
  const allowed = (table.discardOptions || []).some((candidate) => sameCards(candidate.cards, chosen));
  submit.disabled = table.busy || !allowed;
  submit.textContent = chosen.length === 0 ? "Keep all cards"
    : `Discard ${chosen.map(cardText).join(" ")} and draw ${chosen.length}`;
}

function renderFacts(view) {
  const deal = view.deal;
  const facts = deal ? deal.facts : [];
  fill($("facts-title"), deal ? `Rulings of deal ${deal.number}` : "Rulings");
  const previous = table.previousDeal;
  const showPrevious = Boolean(previous && deal && previous.number === deal.number - 1);
  $("previous-deal").hidden = !showPrevious;
  fill($("previous-deal"), showPrevious ? previous.node : []);
  fill($("facts"), facts.map((fact) => factItem(fact)));
  $("facts").hidden = facts.length === 0;
  $("facts-empty").hidden = facts.length > 0;
}

function renderSeats(view) {
  const deal = view.deal;
  fill($("seats"), view.seat_types.map((kind, seat) => {
    const cards = deal ? deal.hand_sizes[seat] : 0;
    const backs = seat === table.seat ? null : el("span", { class: "backs", "aria-hidden": "true" },
      Array.from({ length: Math.min(cards, 5) }, () => cardBack()));
    return el("li", { class: view.turn === seat ? "to-act" : null },
      el("span", { class: "seat-name", text: seatLabel(seat, view) }),
      ` side ${sideName(sideOf(seat, view))} \u00b7 ${kind} \u00b7 ${cards} card${cards === 1 ? "" : "s"}`,
      deal && deal.dealer === seat ? " \u00b7 dealer" : null,
      view.turn === seat ? el("strong", { text: " \u00b7 to act" }) : null,
      backs);
  }));
  renderShare(view);
}

function renderShare(view) {
  const share = $("share");
  const links = [];
  view.seat_types.forEach((kind, seat) => {
    if (kind !== "human" || seat === table.seat) return;
    const token = tokens.get(table.gameId, seat);
    if (!token) return;
    const base = `${window.location.origin}/table/${encodeURIComponent(table.gameId)}?seat=${seat}`;
    const id = `share-${seat}`;
    links.push(el("li", {},
      el("a", { href: `/table/${encodeURIComponent(table.gameId)}?seat=${seat}`, text: `Play seat ${seat} in this tab` }),
      el("label", { for: id, text: `Link for seat ${seat} (holds its token: give it only to that player)` }),
      el("input", { id, type: "text", readonly: true, value: `${base}#token=${token}`, class: "mono", onfocus: (event) => event.target.select() })));
  });
  share.hidden = links.length === 0;
  fill(share, links.length ? [el("h4", { text: "Other seats" }), el("ul", {}, links)] : []);
}

// A finished deal -----------------------------------------------------------------------------

/** The deal changed under us: say how it ended, and fetch its rulings if histories allow. */
function announceDealOver(previous, view) {
  const number = previous.deal.number;
  const gained = view.sides.map((_, side) => {
    const delta = view.game_number === previous.game_number ? view.scores[side] - previous.scores[side] : null;
    return `${sideName(side)} ${delta === null ? view.scores[side] : (delta >= 0 ? `+${delta}` : delta)}`;
  });
  const link = el("a", { href: viewerUrl(), text: "hand history" });
  say(`Deal ${number} is over (${gained.join(", ")}). Its last trick and rulings are in the `, "success", link);
  table.previousDeal = { number, node: el("span", { text: `Deal ${number} is over: ${gained.join(", ")}.` }) };
  loadFinishedDeal(number);
}

async function loadFinishedDeal(number) {
  try {
    const response = await api(
      `/v1/games/${encodeURIComponent(table.gameId)}/history?format=json&deal=${number}`,
      { headers: authHeaders() },
    );
    if (!response.ok) return;
    const model = readHistory(await response.json());
    const section = model.sections.find((candidate) => candidate.number === number);
    if (!section) return;
    const last = section.tricks[section.tricks.length - 1];
    const node = el("details", { class: "previous-deal" },
      el("summary", { text: `Deal ${number} is over: its last trick and rulings` }),
      last ? el("p", {}, `Last trick (${last.number}): `, last.plays.map((play) => el("span", { class: "play" },
        `seat ${play.seat} `, cardFace(play.card), " "))) : null,
      el("ol", { class: "facts" }, section.facts.map((fact) => factItem(fact))));
    table.previousDeal = { number, node };
    if (table.view) renderFacts(table.view);
  } catch {
    // Histories may not be served: the message above still says how the deal ended.
  }
}

// Start ---------------------------------------------------------------------------------------

function main() {
  const match = window.location.pathname.match(/^\/table\/([^/]+)\/?$/);
  if (match) openTable(decodeURIComponent(match[1]));
  else openLobby();
}

main();
