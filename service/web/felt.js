// The felt of the table: the seats around it, the trick in the middle (each card toward the
// seat that played it), the trumps and the turn-up beside the trick, and the seat's own hand
// at the near edge. Pure rendering: app.js decides what to show and what a click does.

import { cardBack, cardFace, cardName, cardShown, el, fill, seatNumber, sideName, suitFace } from "./cards.js";

/** The seat's place around an ellipse: the viewer at the bottom, play going clockwise. */
export function seatAngle(seat, players, bottom) {
  const relative = (seat - bottom + players) % players;
  return Math.PI / 2 + (relative * 2 * Math.PI) / players;
}

/** Puts *node* at *angle* around the felt: style.css scales the direction by the radii of
 * seats or of the trick for the screen's size (so a phone's narrow felt keeps the trick's cards
 * clear of the seat plates). */
function place(node, angle) {
  // CSSOM properties are allowed by the Content-Security-Policy (style attributes are not).
  node.style.setProperty("--x", Math.cos(angle).toFixed(4));
  node.style.setProperty("--y", Math.sin(angle).toFixed(4));
}

/** "Seat 3 (bot)", "Seat 1 Ann (you)": seats counted from 1, as people count them (the API
 * counts from 0), with the name the player gave. */
export function seatLabel(seat, view, me, lower = false) {
  const kinds = view ? view.seat_types : [];
  let label = `${lower ? "seat" : "Seat"} ${seatNumber(seat)}`;
  const name = view && view.names ? view.names[seat] : null;
  if (name) label += ` ${name}`;
  if (seat === me) label += " (you)";
  else if (kinds[seat] === "bot") label += " (bot)";
  return label;
}

export function sideOf(seat, view) {
  return view.sides.findIndex((seats) => seats.includes(seat));
}

/** The seat plates around the felt: side letter, cards held, dealer chip, who is to act. */
export function renderSeats(node, view, me) {
  const deal = view.deal;
  const bottom = me === null ? 0 : me;
  fill(node, view.seat_types.map((kind, seat) => {
    const cards = deal ? deal.hand_sizes[seat] : 0;
    const toAct = view.turn === seat && view.winner === null;
    const dealer = (deal ? deal.dealer : view.dealer) === seat;
    const side = sideOf(seat, view);
    const plate = el("li", {
      class: `seat side-${side % 6}${toAct ? " to-act" : ""}${seat === me ? " me" : ""}`,
      "data-seat": String(seat),
      "aria-current": toAct ? "true" : null,
    },
    el("span", { class: "seat-line" },
      el("span", { class: "side-badge", title: `side ${sideName(side)}`, text: sideName(side) }),
      el("span", { class: "seat-name" }, `Seat ${seatNumber(seat)}`,
        view.names && view.names[seat] ? el("span", { class: "player-name", text: ` ${view.names[seat]}` }) : null,
        seat === me ? " (you)" : el("span", { class: "seat-kind", text: kind === "bot" ? " (bot)" : "" })),
      dealer ? el("span", { class: "dealer-chip", title: "dealer", "aria-label": "dealer", text: "D" }) : null),
    el("span", { class: "seat-detail" },
      seat === me ? null : el("span", { class: "backs", "aria-hidden": "true" },
        Array.from({ length: Math.min(cards, 5) }, () => cardBack())),
      el("span", { class: "visually-hidden", text: `, side ${sideName(side)}, ${cards} card${cards === 1 ? "" : "s"}${dealer ? ", dealer" : ""}` }),
      toAct ? el("span", { class: "to-act-label" }, "to act", el("span", { class: "seat-clock" })) : null));
    place(plate, seatAngle(seat, view.players, bottom));
    return plate;
  }));
}

/**
 * The trick in the middle. *shown* is {cards: [{seat, card}], winner, ruling, number, held,
 * note}: the trick in play, or a finished one being held so that it can be seen.
 */
export function renderTrick(nodes, view, me, shown) {
  const { title, list, note } = nodes;
  const bottom = me === null ? 0 : me;
  list.dataset.held = shown && shown.held ? "true" : "false";
  list.dataset.trick = shown ? String(shown.number) : "";
  list.dataset.cards = shown ? String(shown.cards.length) : "0";
  fill(title, shown ? (shown.calls ? "The auction" : `Trick ${shown.number}`) : "Trick");
  if (shown && shown.calls) {
    fill(list, shown.calls.map(({ seat, text, high }) => {
      const item = el("li", { class: `call${high ? " high" : ""}`, "data-seat": String(seat) },
        el("span", { class: "call-text", text }),
        whoLabel(seat, view, me, ""));
      place(item, seatAngle(seat, view.players, bottom));
      return item;
    }));
    fill(note, shown.note || "");
    return;
  }
  if (!shown || shown.cards.length === 0) {
    fill(list);
    fill(note, shown && shown.note ? shown.note : "");
    return;
  }
  fill(list, shown.cards.map((play, index) => {
    const winning = shown.winner === play.seat;
    const item = el("li", { class: `played${winning ? " winning" : ""}`, "data-seat": String(play.seat) },
      cardFace(play.card),
      whoLabel(play.seat, view, me, index === 0 ? ", led" : "",
        winning ? el("span", { class: "wins", text: ", wins" }) : null));
    place(item, seatAngle(play.seat, view.players, bottom));
    return item;
  }));
  fill(note, shown.note || "");
}

/** "Seat 2 (bot), led, wins" under a card or call: the word "Seat", the kind and "wins" are
 * spans of their own, which a phone's narrow felt shows only to screen readers ("2, led"; the
 * plates say the rest, the winning card is lit and the band under the felt names it). */
function whoLabel(seat, view, me, ...tail) {
  const kind = seat === me ? " (you)" : (view.seat_types[seat] === "bot" ? " (bot)" : "");
  return el("span", { class: "who" }, el("span", { class: "seat-word", text: "Seat " }), String(seatNumber(seat)),
    kind ? el("span", { class: "kind", text: kind }) : null, ...tail);
}

/** A trick as a sentence with its winner and the ruling that decided. */
export function trickSummary(trick, view, me) {
  const parts = [];
  if (trick.winner !== null && trick.winner !== undefined) {
    parts.push(el("strong", { text: `${seatLabel(trick.winner, view, me)}, side ${sideName(sideOf(trick.winner, view))}, wins trick ${trick.number}` }));
    if (trick.ruling) {
      parts.push(": ", el("span", { class: "ruling-text", text: trick.ruling.text }), " ",
        el("code", { class: "rule-id", text: trick.ruling.rule }));
    }
  }
  return parts;
}

/** The trumps and the turn-up, beside the trick. */
export function renderTrumpBox(node, view, me, trumpsInHand) {
  const deal = view.deal;
  const items = [];
  const add = (term, ...value) => items.push(el("dt", { text: term }), el("dd", {}, ...value));
  add("Trumps", view.trump ? suitFace(view.trump) : "not yet");
  if (deal && deal.turn_up) {
    const robbed = deal.robbed_by !== null ? el("span", { class: "robbed", text: ` robbed by ${seatLabel(deal.robbed_by, view, me, true)}` }) : null;
    add("Turn-up", cardFace(deal.turn_up), robbed);
  }
  if (deal && deal.bid !== null) {
    add("Contract", `${deal.bid} by ${seatLabel(deal.bidder, view, me, true)} (side ${sideName(sideOf(deal.bidder, view))})`);
  } else if (deal && deal.auction && deal.auction.high !== null) {
    add("High bid", `${deal.auction.high} by ${seatLabel(deal.auction.high_seat, view, me, true)}`);
  }
  if (deal && deal.jink !== null) add("Jink", `announced by ${seatLabel(deal.jink, view, me, true)}`);
  if (trumpsInHand && trumpsInHand.top.length) {
    add("Your top trumps", trumpsInHand.top.map((card) => cardFace(card)));
  }
  fill(node, items);
}

/**
 * The seat's hand at the near edge. *marks* is {trumps: Set, top: Set} (from the engine),
 * *plays* maps a card code to its legal play action; every card is a button while cards are
 * being played, so that a card that may not be played can say why.
 */
export function renderHand(node, view, me, { marks, plays, playing, busy, onPlay, onExplain, choose = null, rob = null }) {
  node.dataset.version = String(view.version);
  node.dataset.marked = marks ? "true" : "false";
  if (me === null || !Array.isArray(view.hand)) {
    fill(node, el("p", { class: "muted", text: "Spectators do not see any hand." }));
    return;
  }
  if (view.hand.length === 0) {
    fill(node, el("p", { class: "muted", text: "No cards in hand." }));
    return;
  }
  const remaining = new Map(plays);
  const list = el("ul", { class: "cards hand-cards", "aria-label": "Cards in your hand", onkeydown: moveInHand });
  fill(node, fill(list, view.hand.map((card) => {
    const code = card.toUpperCase();
    const trump = marks && marks.trumps.has(code);
    const top = marks && marks.top.has(code);
    const kind = top ? "top trump" : (trump ? "trump" : null);
    // The badge follows a space: what the card shows then reads "Jkr top" as its name begins
    // (axe joins the face's texts without one, "Jkrtop", which no name contains).
    const badge = kind ? el("span", { class: `trump-badge${top ? " top" : ""}`, "aria-hidden": "true", text: top ? "top" : "trump" }) : null;
    const classes = [trump ? "trump" : "", top ? "top-trump" : ""];
    const name = `${cardName(card)}${kind ? `, ${kind}` : ""}`;
    // The accessible name starts with the text on the card ("K♣ top"), as speech input users
    // say it (WCAG 2.5.3), then says it in words.
    const shown = `${cardShown(card)}${kind ? ` ${top ? "top" : "trump"}` : ""}`;
    if (choose) {
      // The exchange: each card a toggle, pressed when it is to be thrown out.
      const chosen = choose.chosen.has(code);
      const face = cardFace(card, "button", {
        type: "button",
        class: ["choosable", chosen ? "chosen" : "", ...classes].filter(Boolean).join(" "),
        "aria-pressed": chosen ? "true" : "false",
        "aria-describedby": "discard-help",
        "aria-label": `${shown}: throw out the ${name}`,
        disabled: busy,
        onclick: (event) => {
          const now = choose.onToggle(code);
          event.currentTarget.setAttribute("aria-pressed", now ? "true" : "false");
          event.currentTarget.classList.toggle("chosen", now);
        },
      });
      if (badge) face.append(" ", badge);
      return el("li", {}, face);
    }
    if (rob && rob.has(code)) {
      // The rob: tapping a card puts it face down and takes the turn-up.
      const face = cardFace(card, "button", {
        type: "button",
        class: ["action", "action-rob", "rob-choice", ...classes].filter(Boolean).join(" "),
        "data-type": "rob",
        "data-action": JSON.stringify(rob.get(code)),
        "aria-describedby": "rob-help",
        "aria-label": `${shown}: put the ${name} face down and take the turn-up`,
        disabled: busy,
        onclick: () => onPlay(rob.get(code)),
      });
      if (badge) face.append(" ", badge);
      return el("li", {}, face);
    }
    const action = remaining.get(code);
    if (action) {
      remaining.delete(code);
      const face = cardFace(card, "button", {
        type: "button",
        class: ["action", "action-play", "playable", ...classes].filter(Boolean).join(" "),
        "data-type": "play",
        "data-action": JSON.stringify(action),
        disabled: busy,
        "aria-label": `${shown}: play the ${name}`,
        onclick: () => onPlay(action),
      });
      if (badge) face.append(" ", badge);
      return el("li", {}, face);
    }
    if (!playing) {
      const face = cardFace(card, "span", { class: classes.filter(Boolean).join(" ") });
      face.setAttribute("aria-label", name);
      if (badge) face.append(" ", badge);
      return el("li", {}, face);
    }
    const face = cardFace(card, "button", {
      type: "button",
      class: ["unplayable", ...classes].filter(Boolean).join(" "),
      "aria-disabled": "true",
      "aria-describedby": "card-reason",
      "aria-label": `${shown}: the ${name}, may not be played now`,
      onclick: () => onExplain(code),
      onfocus: () => onExplain(code),
    });
    if (badge) face.append(" ", badge);
    return el("li", {}, face);
  })));
  rove(list, list.querySelector("button.playable, button.rob-choice") || list.querySelector("button"));
}

/** Makes *current* the hand's one tab stop (a roving tabindex): the arrow keys move within
 * the hand, so that Tab passes the whole hand at once, cards that may not be played too. */
export function rove(list, current) {
  for (const button of list.querySelectorAll("button")) button.tabIndex = button === current ? 0 : -1;
}

const MOVES = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 };

function moveInHand(event) {
  const buttons = [...event.currentTarget.querySelectorAll("button")];
  const at = buttons.indexOf(document.activeElement);
  if (at < 0) return;
  let next = null;
  if (event.key in MOVES) next = (at + MOVES[event.key] + buttons.length) % buttons.length;
  else if (event.key === "Home") next = 0;
  else if (event.key === "End") next = buttons.length - 1;
  if (next === null) return;
  event.preventDefault();
  rove(event.currentTarget, buttons[next]);
  buttons[next].focus();
}

/** Each seat's latest call of the auction, as said at the table. */
export function auctionCalls(deal) {
  const latest = new Map();
  for (const call of deal.auction.calls) {
    latest.set(call.seat, call.call === "bid" ? `${call.amount}` : (call.call === "hold" ? "Hold" : "Pass"));
  }
  return [...latest].map(([seat, text]) => ({ seat, text, high: seat === deal.auction.high_seat && text !== "Pass" }));
}

export function auctionNote(view, me) {
  const auction = view.deal.auction;
  const high = auction.high === null ? "No bid yet." : `High bid ${auction.high} by ${seatLabel(auction.high_seat, view, me)}.`;
  const next = view.turn === null ? "" : (view.turn === me ? " Your call." : ` ${seatLabel(view.turn, view, me)} to call.`);
  return high + next;
}
