// The seat's actions other than playing a card: cut, rob, bury, bid, pass, hold, trumps,
// the exchange and the jink. Every button is one entry of the view's legal_actions, posted
// unchanged by the table's act().

import { cardFace, cardName, cardText, el, fill, suitFace } from "./cards.js";
import { $ } from "./page.js";

/** The table's state and its act(), set by renderActions. */
const context = {
  busy: false, act: null, redraw: null, discardOptions: [], chosen: new Set(), robbing: null,
};

/** A button posting *action*. */
export function actionButton(action, label, extra = {}) {
  return el("button", {
    type: "button",
    class: `action action-${action.type}${extra.class ? ` ${extra.class}` : ""}`,
    "data-type": action.type,
    "data-action": JSON.stringify(action),
    disabled: context.busy,
    "aria-label": extra.ariaLabel || null,
    title: extra.title || null,
    onclick: () => context.act(action),
  }, label);
}

export function renderActions(view, { busy, act, spectator, redraw }) {
  context.busy = busy;
  context.act = act;
  context.redraw = redraw;
  if (context.robbing !== view.version) context.robbing = null;
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
    else if (type === "rob") groups.push(robGroup(list, view));
    else if (type === "bury") {
      groups.push(group("Bury a card", "You took the turned joker: bury one card face down.",
        list.map((action) => actionButton(action, ["Bury ", cardFace(action.card)], {
          ariaLabel: `Bury ${cardText(action.card)}: the ${cardName(action.card)}`,
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
  if (groups.length === 0 && spectator) groups.push(el("p", { class: "muted", text: "Spectators cannot act." }));
  fill(box, groups);
  box.hidden = groups.length === 0;
  updateDiscard();
}

function group(title, help, buttons) {
  return el("div", { class: "action-group", role: "group", "aria-label": title },
    el("h4", { text: title }), help ? el("p", { class: "help", text: help }) : null,
    el("div", { class: "buttons" }, buttons));
}

/** The rob: "Rob the turn-up" turns the hand's cards into the choice of the card to put face
 * down (hand.js); playing a card instead declines it. */
function robGroup(list, view) {
  const choosing = context.robbing === view.version;
  const turnUp = view.deal && view.deal.turn_up ? cardText(view.deal.turn_up) : "the turn-up";
  const toggle = el("button", {
    type: "button", id: "rob-toggle", class: `action-rob-toggle${choosing ? "" : " primary"}`,
    disabled: context.busy,
    onclick: () => {
      context.robbing = choosing ? null : view.version;
      if (context.redraw) context.redraw();
    },
  }, choosing ? "Do not rob" : `Rob the turn-up (${turnUp})`);
  return el("div", { class: "action-group rob", role: "group", "aria-label": "Rob the turn-up" },
    el("h4", { text: "Rob the turn-up" }),
    el("p", { class: "help", id: "rob-help", text: choosing
      ? `Tap the card of your hand to put face down: you take ${turnUp} instead.`
      : `You may take ${turnUp}, putting one card of your hand face down. To keep your hand as it is, just play a card: playing declines the rob.` }),
    el("div", { class: "buttons" }, toggle));
}

/** The rob actions by the card they put face down, while the seat is choosing that card. */
export function robChoices(view) {
  if (context.robbing !== view.version) return null;
  const choices = new Map();
  for (const action of view.legal_actions) {
    if (action.type === "rob") choices.set(action.discard.toUpperCase(), action);
  }
  return choices.size ? choices : null;
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
  const hand = new Set((view.hand || []).map((card) => card.toUpperCase()));
  context.chosen = new Set([...context.chosen].filter((card) => hand.has(card)));
  const submit = el("button", {
    type: "button", id: "discard-submit", class: "action action-discard primary", "data-type": "discard",
    onclick: () => {
      const chosen = [...context.chosen];
      const action = list.find((candidate) => sameCards(candidate.cards, chosen));
      if (action) context.act(action);
    },
  }, "Keep all cards");
  const node = el("div", { class: "action-group discard", role: "group", "aria-label": "Exchange cards" },
    el("h4", { text: "Exchange cards" }),
    el("p", { class: "help", id: "discard-help", text: "Tap the cards in your hand that you throw out; you draw as many from the stock." }),
    el("div", { class: "buttons" }, submit));
  context.discardOptions = list;
  return node;
}

/** True while the seat may exchange cards: the hand's cards are then toggles (hand.js). */
export function exchanging(view) {
  return view.legal_actions.some((action) => action.type === "discard");
}

/** The cards chosen to throw out. */
export function chosenDiscard() {
  return context.chosen;
}

/** Adds *code* to the cards to throw out, or takes it back; returns whether it is chosen. */
export function toggleDiscard(code) {
  if (context.chosen.has(code)) context.chosen.delete(code);
  else context.chosen.add(code);
  updateDiscard();
  return context.chosen.has(code);
}

export function updateDiscard() {
  const submit = $("discard-submit");
  if (!submit) return;
  const chosen = [...context.chosen];
  const allowed = (context.discardOptions || []).some((candidate) => sameCards(candidate.cards, chosen));
  submit.disabled = context.busy || !allowed;
  submit.textContent = chosen.length === 0 ? "Keep all cards"
    : `Discard ${chosen.map(cardText).join(" ")} and draw ${chosen.length}`;
}

