// The table: create or join a game, then play it seat by seat over the public API.
//
// The seat's token stays in sessionStorage (or arrives once in the URL fragment, #token=...,
// which browsers never send to the server). Every action posted is one of the view's
// legal_actions, unchanged, with If-Match: "<version>" and a fresh Idempotency-Key. Live
// updates come from the game's spectator event stream: EventSource cannot send a token, so
// each message only triggers a fresh GET of the seat's own view (and tells of the clock's
// moves). A seat of a drive's game follows its own stream instead (fetch with the token),
// since spectators see nothing of a duplicate board in play. felt.js draws the table, sheet.js the score sheet and the bidding, clock.js the
// turn clock, actions.js the buttons; this module decides what they show.

import { cardFace, el, factItem, fill, randomKey, seatNumber, sideName, tokens } from "./cards.js";
import { readHistory } from "./history.js";
import { EVENT_TYPES } from "./event-types.js";
import { $, api, authHeaders, clearMessage, say, session, showProblem } from "./page.js";
import { claimFromLink, joinGame, openLobby } from "./lobby.js";
import { renderActions, updateDiscard } from "./actions.js";
import {
  auctionCalls, auctionNote, renderSeats, renderTrick, renderTrumpBox, seatAngle, seatLabel as labelOf, sideOf,
  trickSummary,
} from "./felt.js";
import { renderBidding, renderScoreline, renderScores, renderSheet, rowOfDeal, sheetRows } from "./sheet.js";
import { Countdown, bindClock, noticeClock, runClock, showClock } from "./clock.js";
import { bindHand, fetchLegal, marksFor, renderMyHand } from "./hand.js";
import { renderFacts, renderSeatList } from "./panels.js";
import { dueContribution, withNonce } from "./contribute.js";
import { rematchButton } from "./rematch.js";
import { animateTrick, bindAlerts, noticeTurn } from "./motion.js";

const PHASES = {
  cut: "the cut", joker: "a turned joker", bidding: "the auction", trump: "naming trumps",
  discard: "the exchange", play: "play", over: "game over", shuffle: "the shuffle",
};
/** How long a finished trick stays in the middle of the table (unless this seat plays on). */
const HOLD_MS = 1500;

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
  held: null,
  holdTimer: null,
  lastTrick: null,
  peek: false,
  rows: new Map(),
  legal: { key: null, answer: null, pending: null },
  countdown: null,
  contributing: false,
  contributedTo: null,
};

function seatLabel(seat, view = table.view, lower = false) {
  return labelOf(seat, view, table.seat, lower);
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
  session.token = table.token;
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
    say(`This tab has no token for seat ${seatNumber(table.seat)}: paste it in "Join a game", or watch below as a spectator.`, "error");
    table.seat = null;
  }
  table.countdown = new Countdown(showClock);
  bindClock(table);
  bindAlerts();
  bindHand(table, act);
  $("show-last").addEventListener("click", togglePeek);
  reload().then(() => {
    loadSheet();
    if ($("live").checked) connect();
  });
}

/** Shows the join form for this game (a missing or refused token). */
function showJoinForm() {
  $("lobby").hidden = false;
  $("create-form").hidden = true;
  $("join-game").value = table.gameId;
  if (table.seat !== null) $("join-seat").value = String(seatNumber(table.seat));
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
            session.token = null;
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

/** A game of a drive: its spectators see nothing of a duplicate board in play (403
 * board_in_play), so a seat's tab follows the seat's own stream there (see follow()). */
const DRIVE_GAME = /^dr-[0-9a-f]{20}\.\d+\.\d+$/;

function connect() {
  disconnect(null);
  if (!table.view || table.view.phase === "over") return;
  if (table.token && DRIVE_GAME.test(table.gameId)) {
    follow();
    return;
  }
  const url = `/v1/games/${encodeURIComponent(table.gameId)}/stream?after=${table.view.version}`;
  const source = new EventSource(url);
  table.source = source;
  setLive("connecting\u2026");
  source.addEventListener("open", () => {
    setLive("live");
    reload();
  });
  // Every event type of the registry, and "message" (an event the server sends unnamed).
  for (const type of [...EVENT_TYPES, "message"]) {
    source.addEventListener(type, (message) => {
      noticeClock(message);
      reload();
    });
  }
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

/**
 * Follows the seat's own event stream with its token: fetch can send it, EventSource cannot.
 * Each message triggers a fresh view, as connect()'s do; a stream the server ended (idle)
 * is resumed at once, a failed one after 3 s.
 */
async function follow() {
  const controller = new AbortController();
  const source = { close: () => controller.abort() };
  table.source = source;
  setLive("connecting\u2026");
  let ended = false;
  try {
    const response = await fetch(`/v1/games/${encodeURIComponent(table.gameId)}/stream?after=${table.view.version}`, {
      headers: { Accept: "text/event-stream", ...authHeaders() }, cache: "no-store", credentials: "omit",
      signal: controller.signal,
    });
    if (response.status === 200 && response.body) {
      setLive("live");
      reload();
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
      let buffer = "";
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += value.replace(/\r\n?/g, "\n");
        for (let end = buffer.indexOf("\n\n"); end >= 0; end = buffer.indexOf("\n\n")) {
          const lines = buffer.slice(0, end).split("\n");
          buffer = buffer.slice(end + 2);
          const data = lines.filter((line) => line.startsWith("data:")).map((line) => line.slice(5).replace(/^ /, ""));
          if (!data.length) continue; // retry: or a keep-alive comment
          noticeClock({ data: data.join("\n") });
          reload();
        }
      }
      ended = true;
    }
  } catch {
    if (controller.signal.aborted) return;
  }
  if (table.source !== source) return;
  table.source = null;
  await reload();
  if (table.source !== null) return;
  if (table.view && table.view.phase === "over") {
    setLive("the game is over");
  } else if ($("live").checked) {
    setLive(ended ? "reconnecting\u2026" : "disconnected; retrying in 3 s");
    table.reconnectTimer = window.setTimeout(connect, ended ? 0 : 3000);
  }
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
  action = withNonce(action, table.view, table.seat);
  table.busy = true;
  if (action.type === "play") endHold();
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

// Rendering -----------------------------------------------------------------------------------

function show(view) {
  if (table.view && view.version < table.view.version) return; // An older answer.
  const previous = table.view;
  table.view = view;
  // The token decides the seat, whatever the address says.
  table.seat = Number.isInteger(view.viewer) ? view.viewer : null;
  if (previous && previous.deal && view.deal && view.deal.number !== previous.deal.number) {
    announceDealOver(previous, view);
  } else {
    noteFinishedTrick(previous, view);
  }
  noteDealResult(view);
  const section = $("table");
  if (section.contains(document.activeElement) && document.activeElement !== section) {
    table.keepFocus = true;
  }
  section.dataset.version = String(view.version);
  section.dataset.phase = view.phase;
  section.dataset.turn = view.turn === null ? "" : String(view.turn);
  // Seven to ten seats need a tighter felt and smaller plates (style.css, "big tables").
  section.dataset.players = String(view.players);
  section.classList.toggle("big-table", view.players >= 7);
  renderSummary(view);
  renderWinner(view);
  renderSeats($("seats"), view, table.seat);
  renderCentre();
  renderTrumpBox($("trump-info"), view, table.seat, marksFor(view));
  renderActions(view, { busy: table.busy, act, spectator: table.seat === null, redraw: () => show(table.view) });
  renderMyHand(view);
  renderScoreline($("scoreline"), view, table.seat);
  renderScores($("scores"), view, table.seat);
  renderSheet($("sheet"), $("sheet-caption"), view, table.seat, [...table.rows.values()]);
  renderBidding($("bidding-panel"), $("bidding"), $("bidding-note"), view, table.seat);
  renderLastTrick();
  renderFacts(view, table);
  renderSeatList(view, table);
  runClock(view);
  fetchLegal(view);
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
  contribute(view);
}

/** Sends this seat's nonce for a deal waiting for its cut (see contribute.js), once a deal;
 * a refusal (the cut came first, or another action moved the game on) is not shown. */
async function contribute(view) {
  const action = dueContribution(view, table.seat, table.contributedTo);
  if (!action || table.contributing) return;
  table.contributing = true;
  table.contributedTo = view.deal.number;
  try {
    const response = await api(`/v1/games/${encodeURIComponent(table.gameId)}/actions`, {
      method: "POST",
      headers: {
        ...authHeaders(), "Content-Type": "application/json",
        "If-Match": `"${view.version}"`, "Idempotency-Key": randomKey(),
      },
      body: JSON.stringify(action),
    });
    // A 412: another seat's nonce came first; the next view tries again.
    if (response.status === 412) table.contributedTo = null;
    if (response.ok) show(await response.json());
    else reload();
  } catch (error) {
    table.contributedTo = null;
  } finally {
    table.contributing = false;
  }
}

function renderSummary(view) {
  const deal = view.deal;
  const parts = [
    `${view.profile}, ${view.players} players`,
    `game ${view.game_number}`,
    deal ? `deal ${deal.number}` : null,
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
  fill($("hand-title"), table.seat === null ? "Hands" : `Your hand (seat ${seatNumber(table.seat)}, side ${sideName(sideOf(table.seat, view))})`);
  const myTurn = view.turn !== null && view.turn === table.seat && view.winner === null;
  $("turn").classList.toggle("your-turn", myTurn);
  noticeTurn(myTurn);
}

function renderWinner(view) {
  const box = $("winner");
  if (view.winner === null) {
    box.hidden = true;
    fill(box);
    return;
  }
  const seats = view.sides[view.winner] || [];
  let text = `Side ${sideName(view.winner)} (${seats.map((seat) => labelOf(seat, view, null, true)).join(", ")}) wins the game`;
  if (table.seat !== null) text += seats.includes(table.seat) ? ": you win!" : ": you lose.";
  else text += ".";
  const jink = jinkRuling(view);
  fill(box, el("strong", { text }), " ",
    jink ? el("span", { class: "jink-note" }, el("strong", { text: jink.title }), ` ${jink.ruling.text} `,
      el("code", { class: "rule-id", text: jink.ruling.rule })) : null, " ",
    el("a", { href: viewerUrl(view.version), text: "Replay the hand history" }), " ",
    el("a", { href: viewerUrl(view.version, "auditor"), text: "with every hand shown" }), " ",
    view.phase === "over" ? rematchButton(table.gameId, table.seat) : null);
  box.hidden = false;
}

/** The jink that decided the game, if one did: the last deal's jink fact (its ruling is the
 * engine's sentence, shown as it is). */
const JINK_TITLES = {
  "jink.take_all": "Won by a jink:",
  "jink.announced.failed": "An announced jink failed:",
  "jink.announced.made": "An announced jink was made:",
};

function jinkRuling(view) {
  const facts = view.deal ? view.deal.facts : [];
  const fact = facts.find((candidate) => candidate.ruling && JINK_TITLES[candidate.ruling.rule]);
  return fact ? { title: JINK_TITLES[fact.ruling.rule], ruling: fact.ruling } : null;
}

// The trick in the middle, and the one just finished -----------------------------------------

/** A trick of the deal in play just closed: hold it in the middle of the table. */
function noteFinishedTrick(previous, view) {
  const deal = view.deal;
  if (!deal || !deal.tricks.length) return;
  const number = deal.tricks.length;
  const trick = deal.tricks[number - 1];
  const fact = deal.facts.find((candidate) => candidate.kind === "trick_won" && candidate.trick === number);
  const finished = {
    deal: deal.number, number, cards: trick.cards, winner: trick.winner, ruling: fact ? fact.ruling : null,
  };
  const before = previous && previous.deal && previous.deal.number === deal.number ? previous.deal.tricks.length : null;
  table.lastTrick = finished;
  if (before !== null && number > before) hold(finished);
}

function hold(trick) {
  table.lastTrick = trick;
  table.held = trick;
  table.peek = false;
  if (table.holdTimer) window.clearTimeout(table.holdTimer);
  table.holdTimer = window.setTimeout(endHold, HOLD_MS);
}

/** Ends the hold (its time is up, or this seat plays on) and shows the trick in play. */
function endHold() {
  if (table.holdTimer) window.clearTimeout(table.holdTimer);
  table.holdTimer = null;
  if (!table.held) return;
  table.held = null;
  renderCentre();
}

function togglePeek() {
  table.peek = !table.peek && Boolean(table.lastTrick);
  renderCentre();
}

function renderCentre() {
  const view = table.view;
  if (!view) return;
  const deal = view.deal;
  const nodes = { title: $("trick-title"), list: $("trick"), note: $("trick-note") };
  const button = $("show-last");
  button.hidden = !table.lastTrick || Boolean(table.held);
  button.setAttribute("aria-pressed", table.peek ? "true" : "false");
  fill(button, table.peek ? "Back to the trick" : "Last trick");
  const shownTrick = table.held || (table.peek ? table.lastTrick : null);
  if (shownTrick) {
    const note = [...trickSummary(shownTrick, view, table.seat)];
    if (shownTrick.dealOver) note.push(el("span", { class: "deal-over", text: ` ${shownTrick.dealOver}` }));
    renderTrick(nodes, view, table.seat, { ...shownTrick, held: true, note });
    if (table.held) animateTrick(nodes.list, `${shownTrick.deal}:${shownTrick.number}`, angleOf(view), shownTrick.winner);
    return;
  }
  if (!deal) {
    renderTrick(nodes, view, table.seat, { number: 1, cards: [], note: "No deal yet." });
    return;
  }
  if (deal.auction && deal.phase === "bidding") {
    renderTrick(nodes, view, table.seat, { number: 0, cards: [], calls: auctionCalls(deal), note: auctionNote(view, table.seat) });
    return;
  }
  const current = deal.current_trick;
  const cards = current ? current.cards : [];
  let note = "";
  if (cards.length === 0) {
    if (deal.phase === "play" && view.turn !== null) note = `${seatLabel(view.turn, view)} to lead.`;
    else if (deal.phase !== "play" && view.phase !== "over") note = `Waiting for ${PHASES[deal.phase] || deal.phase}.`;
  }
  if (view.phase === "over") {
    note = view.winner !== null ? `Game over: side ${sideName(view.winner)} wins.` : "The game is over.";
  }
  renderTrick(nodes, view, table.seat, { number: deal.tricks.length + 1, cards, winner: null, note });
  animateTrick(nodes.list, `${deal.number}:${deal.tricks.length + 1}`, angleOf(view));
}

/** Where each seat sits around the felt, as an angle (the cards move from and to it). */
function angleOf(view) {
  return (seat) => seatAngle(seat, view.players, table.seat === null ? 0 : table.seat);
}

function renderLastTrick() {
  const trick = table.lastTrick;
  const box = $("last-trick");
  if (!trick || !table.view) {
    fill(box, el("p", { class: "muted", text: "No trick finished yet in this deal." }));
    return;
  }
  fill(box,
    el("p", { class: "last-trick-title", text: `Deal ${trick.deal}, trick ${trick.number}` }),
    el("ol", { class: "plays" }, trick.cards.map((play) => el("li", { class: `play${play.seat === trick.winner ? " winning" : ""}` },
      el("span", { class: "who", text: seatLabel(play.seat) }), cardFace(play.card)))),
    el("p", { class: "trick-winner" }, trickSummary(trick, table.view, table.seat)));
}

// The sheet, the rulings and the seats ---------------------------------------------------------

/** Reads the finished deals' results once, from the game's hand history. */
async function loadSheet() {
  try {
    const response = await api(`/v1/games/${encodeURIComponent(table.gameId)}/history?format=json`, { headers: authHeaders() });
    if (!response.ok) return;
    for (const row of sheetRows(readHistory(await response.json()))) table.rows.set(row.number, row);
    if (table.view) renderSheet($("sheet"), $("sheet-caption"), table.view, table.seat, [...table.rows.values()]);
  } catch {
    // Histories may not be served: the sheet then starts with the deals seen here.
  }
}

/** The deal in view has a result (the game's last deal): put it on the sheet. */
function noteDealResult(view) {
  const deal = view.deal;
  if (deal && deal.result && !table.rows.has(deal.number)) table.rows.set(deal.number, rowOfDeal(deal));
}

// A finished deal -----------------------------------------------------------------------------

/** The deal changed under us: say how it ended, and fetch its last trick and rulings. */
function announceDealOver(previous, view) {
  const number = previous.deal.number;
  const gained = view.sides.map((_, side) => {
    const delta = view.game_number === previous.game_number ? view.scores[side] - previous.scores[side] : null;
    return `${sideName(side)} ${delta === null ? view.scores[side] : (delta >= 0 ? `+${delta}` : delta)}`;
  });
  const link = el("a", { href: viewerUrl(), text: "hand history" });
  say(`Deal ${number} is over (${gained.join(", ")}). Its tricks and rulings are in the `, "success", link);
  table.previousDeal = { number, node: el("span", { text: `Deal ${number} is over: ${gained.join(", ")}.` }) };
  table.lastTrick = null;
  endHold();
  loadFinishedDeal(number, `Deal ${number} is over: ${gained.join(", ")}.`);
}

async function loadFinishedDeal(number, summary) {
  try {
    const response = await api(
      `/v1/games/${encodeURIComponent(table.gameId)}/history?format=json&deal=${number}`,
      { headers: authHeaders() },
    );
    if (!response.ok) return;
    const model = readHistory(await response.json());
    const section = model.sections.find((candidate) => candidate.number === number);
    if (!section) return;
    for (const row of sheetRows(model)) table.rows.set(row.number, row);
    const last = section.tricks[section.tricks.length - 1];
    if (last && last.complete && table.view) {
      // The deal's last trick was never in a view of the deal in play: hold it now.
      hold({
        deal: number, number: last.number, cards: last.plays.map((play) => ({ seat: play.seat, card: play.card })),
        winner: last.won ? last.won.seat : null, ruling: last.won ? last.won.ruling : null, dealOver: summary,
      });
    }
    const node = el("details", { class: "previous-deal" },
      el("summary", { text: `Deal ${number} is over: its rulings` }),
      el("ol", { class: "facts" }, section.facts.map((fact) => factItem(fact))));
    table.previousDeal = { number, node };
    if (table.view) show(table.view);
  } catch {
    // Histories may not be served: the message above still says how the deal ended.
  }
}

// Start ---------------------------------------------------------------------------------------

function main() {
  const match = window.location.pathname.match(/^\/table\/([^/]+)\/?$/);
  const claim = window.location.pathname.match(/^\/claim\/([^/]+)\/(\d+)\/?$/);
  if (match) openTable(decodeURIComponent(match[1]));
  else if (claim) claimFromLink(decodeURIComponent(claim[1]), Number.parseInt(claim[2], 10));
  else openLobby();
}

main();
