// The seat's hand at the table: trumps and top trumps marked, and for every card that may not
// be played the engine's reason, both from POST /v1/rules/legal (the engine's legality and
// ranking: nothing of the rules is worked out here). app.js binds the table's state.

import { cardText, el, fill } from "./cards.js";
import { renderHand, renderTrumpBox, rove, seatLabel as labelOf } from "./felt.js";
import { $, api } from "./page.js";
import { chosenDiscard, exchanging, robChoices, toggleDiscard } from "./actions.js";

let table = null;
let act = null;

/** Gives this module the table's state and its act(). */
export function bindHand(state, actOn) {
  table = state;
  act = actOn;
}

function seatLabel(seat, view = table.view) {
  return labelOf(seat, view, table.seat);
}

function playRequest(view) {
  const deal = view.deal;
  if (!deal || !view.trump || table.seat === null || !Array.isArray(view.hand)) return null;
  if (view.hand.length === 0 || view.hand.length > 5) return null;
  const current = deal.current_trick ? deal.current_trick.cards.map((play) => play.card) : [];
  return {
    profile: view.profile, options: view.options, players: view.players, trump: view.trump,
    trick: current.length < view.players ? current : [], hand: view.hand,
  };
}

/** Asks the engine (POST /v1/rules/legal) about the hand: legal cards, why, and its trumps. */
export function fetchLegal(view) {
  const body = playRequest(view);
  if (!body) return Promise.resolve(null);
  const key = JSON.stringify(body);
  if (table.legal.key === key) return table.legal.pending;
  table.legal = { key, answer: null, pending: null };
  table.legal.pending = (async () => {
    try {
      const response = await api("/v1/rules/legal", {
        method: "POST", headers: { "Content-Type": "application/json" }, body: key,
      });
      if (!response.ok) return null;
      const answer = await response.json();
      if (table.legal.key !== key) return answer;
      table.legal.answer = answer;
      if (table.view) {
        renderMyHand(table.view);
        renderTrumpBox($("trump-info"), table.view, table.seat, marksFor(table.view));
      }
      return answer;
    } catch {
      return null;
    }
  })();
  return table.legal.pending;
}

export function marksFor(view) {
  const body = playRequest(view);
  const answer = body && table.legal.key === JSON.stringify(body) ? table.legal.answer : null;
  if (!answer) return null;
  return { trumps: new Set(answer.trumps), top: new Set(answer.top_trumps), list: answer.trumps, topList: answer.top_trumps };
}

export function renderMyHand(view) {
  const plays = new Map();
  for (const action of view.legal_actions) {
    if (action.type === "play") plays.set(action.card.toUpperCase(), action);
  }
  const playing = Boolean(view.deal && view.deal.phase === "play" && view.winner === null);
  const marks = marksFor(view);
  const exchange = exchanging(view);
  const rob = robChoices(view);
  const key = JSON.stringify([view.version, view.hand, Boolean(marks), table.busy, table.seat, exchange, Boolean(rob)]);
  if (table.handKey === key) return; // Nothing changed: keep the buttons (and focus) as they are.
  table.handKey = key;
  const hadFocus = document.activeElement && document.activeElement.closest("#hand") ? document.activeElement.dataset.card : null;
  renderHand($("hand"), view, table.seat, {
    marks: marks ? { trumps: marks.trumps, top: marks.top } : null,
    plays, playing, busy: table.busy, onPlay: act, onExplain: explainCard,
    choose: exchange ? { chosen: chosenDiscard(), onToggle: toggleDiscard } : null,
    rob,
  });
  if (hadFocus) {
    const again = $("hand").querySelector(`[data-card="${hadFocus}"]`);
    if (again) {
      rove(again.closest("ul"), again);
      again.focus({ preventScroll: true });
    }
  }
  const reason = $("card-reason");
  if (reason.dataset.version !== String(view.version)) {
    fill(reason);
    delete reason.dataset.card;
    delete reason.dataset.rule;
  }
}

/** Says why the card *code* of the hand may not be played now. */
async function explainCard(code) {
  const view = table.view;
  if (!view) return;
  const box = $("card-reason");
  box.dataset.version = String(view.version);
  box.dataset.card = code;
  const deal = view.deal;
  const name = cardText(code);
  if (view.turn !== table.seat) {
    fill(box, el("strong", { text: `${name}: not your turn.` }), ` ${view.turn === null ? "Nobody" : seatLabel(view.turn, view)} is to act.`);
    box.dataset.rule = "";
    return;
  }
  const answer = await fetchLegal(view);
  if (table.view !== view || box.dataset.card !== code) return;
  if (!answer || !deal) {
    fill(box, el("strong", { text: `${name} may not be played now.` }));
    return;
  }
  box.dataset.rule = answer.rule;
  // The engine's words for this card (POST /v1/rules/legal's refusals), then its ruling and
  // rule id for the curious: the ruling stays the authority.
  const refusal = answer.refusals && answer.refusals[code];
  fill(box, el("strong", { class: "refusal", text: refusal || `${name} may not be played.` }), " ",
    el("details", { class: "rule-details" },
      el("summary", { text: "The rule" }),
      el("span", { class: "ruling-text", text: answer.ruling }), " ",
      el("code", { class: "rule-id", text: answer.rule })));
}
