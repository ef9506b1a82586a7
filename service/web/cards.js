// Shared by the table and the viewer: cards, suits, sides, rulings and small DOM helpers.

export const SUITS = {
  S: { symbol: "\u2660", name: "spades", colour: "black" },
  C: { symbol: "\u2663", name: "clubs", colour: "black" },
  D: { symbol: "\u2666", name: "diamonds", colour: "red" },
  H: { symbol: "\u2665", name: "hearts", colour: "red" },
};

const RANK_NAMES = {
  A: "ace", K: "king", Q: "queen", J: "jack", T: "10",
};

/** Creates an element with attributes (class, text, aria-*, data-*...) and children. */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (name === "text") node.textContent = value;
    else if (name === "class") node.className = value;
    else if (name === "hidden") node.hidden = Boolean(value);
    else if (name === "disabled") node.disabled = Boolean(value);
    else if (name.startsWith("on") && typeof value === "function") {
      node.addEventListener(name.slice(2), value);
    } else node.setAttribute(name, value === true ? "" : String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

/** Replaces the children of *node*. */
export function fill(node, ...children) {
  node.replaceChildren();
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

/** The parts of a card code ("5S", "TD", "10h", "JK"): rank to show, suit letter. */
export function parseCard(code) {
  const text = String(code).toUpperCase();
  if (text === "JK") return { rank: "JK", suit: null };
  const suit = text.slice(-1);
  let rank = text.slice(0, -1);
  if (rank === "10") rank = "T";
  return { rank, suit };
}

/** "10 of hearts", "ace of spades", "the joker". */
export function cardName(code) {
  const { rank, suit } = parseCard(code);
  if (rank === "JK") return "joker";
  const suitName = SUITS[suit] ? SUITS[suit].name : suit;
  return `${RANK_NAMES[rank] || rank} of ${suitName}`;
}

/** "10♥", "A♠", "Joker": the short text form. */
export function cardText(code) {
  const { rank, suit } = parseCard(code);
  if (rank === "JK") return "Joker";
  return `${rank === "T" ? "10" : rank}${SUITS[suit] ? SUITS[suit].symbol : suit}`;
}

/** The text a card's face shows ("10♥", "A♠", "Jkr": the joker's star is drawn by the style
 * sheet), with which a control showing the card starts its accessible name (WCAG 2.5.3). */
export function cardShown(code) {
  return parseCard(code).rank === "JK" ? "Jkr" : cardText(code);
}

/** A card face as an element (a <span>, or *tag* such as "button"). */
export function cardFace(code, tag = "span", attrs = {}) {
  const { rank, suit } = parseCard(code);
  const colour = rank === "JK" ? "joker" : (SUITS[suit] ? SUITS[suit].colour : "black");
  const face = el(tag, {
    ...attrs,
    class: `card ${colour}${attrs.class ? ` ${attrs.class}` : ""}`,
    "data-card": String(code).toUpperCase(),
  });
  if (tag === "span") {
    face.setAttribute("role", "img");
    face.setAttribute("aria-label", cardName(code));
  } else if (!attrs["aria-label"]) {
    face.setAttribute("aria-label", cardName(code));
  }
  if (rank === "JK") {
    face.append(el("span", { class: "rank", "aria-hidden": "true", text: "Jkr" }),
      el("span", { class: "suit star", "aria-hidden": "true" }));
  } else {
    face.append(
      el("span", { class: "rank", "aria-hidden": "true", text: rank === "T" ? "10" : rank }),
      el("span", { class: "suit", "aria-hidden": "true", text: SUITS[suit] ? SUITS[suit].symbol : suit }),
    );
  }
  return face;
}

/** A face-down card (a hidden card of another seat). */
export function cardBack() {
  return el("span", { class: "card back", "aria-hidden": "true" });
}

/** "♠ spades" for a suit letter. */
export function suitLabel(letter) {
  const suit = SUITS[String(letter).toUpperCase()];
  return suit ? `${suit.symbol} ${suit.name}` : String(letter);
}

/** An element showing a suit symbol in its colour, with its name. */
export function suitFace(letter) {
  const suit = SUITS[String(letter).toUpperCase()];
  if (!suit) return el("span", { text: String(letter) });
  return el("span", { class: `suit-name ${suit.colour}` },
    el("span", { class: "suit", "aria-hidden": "true", text: suit.symbol }), ` ${suit.name}`);
}

/** The letter of side *n*: 0 is A, 1 is B... (as in the text notation). */
/** The number a person reads for a seat: the API and the histories count seats from 0, people
 * (and the ruling texts from version 3) from 1. */
export function seatNumber(seat) {
  return seat + 1;
}

export function sideName(side) {
  if (side < 26) return String.fromCharCode(65 + side);
  return sideName(Math.floor(side / 26) - 1) + String.fromCharCode(65 + (side % 26));
}

/** "human", or "bot, strong": a bot with its level (docs/bots.md). */
export function kindLabel(kind, level) {
  return kind === "bot" && level ? `bot, ${level}` : kind;
}

/** ", bot, strong" after a bot player's name in a drive's view; "" for a person. */
export function botNote(player) {
  return player.type === "bot" ? `, ${kindLabel(player.type, player.level)}` : "";
}

const FACT_TITLES = {
  trick_won: "Trick won",
  renege_allowed: "Renege allowed",
  bonus_proven: "Bonus proven",
  bonus_none: "No bonus",
  target_reached: "Target reached",
  jink: "Jink",
  bid_made: "Bid made",
  bid_set: "Bid set",
  auction_won: "Auction won",
  passed_out: "Passed out",
  spoiled: "Spoiled",
  game_won: "Game won",
  match_won: "Match won",
};

/** A one-line heading for a fact: "Trick 2 won by seat 1 (side B), 5 points". */
export function factHeading(fact) {
  const title = FACT_TITLES[fact.kind] || fact.kind.replaceAll("_", " ");
  const parts = [];
  if (fact.kind === "trick_won") {
    let text = `Trick ${fact.trick} won`;
    if (fact.seat !== undefined) text += ` by seat ${seatNumber(fact.seat)}`;
    if (fact.side !== undefined) text += ` (side ${sideName(fact.side)})`;
    parts.push(text);
  } else if (fact.kind === "bonus_proven") {
    let text = `${title} at trick ${fact.trick}`;
    if (fact.credited_trick !== undefined) text += `, credited to trick ${fact.credited_trick}`;
    if (fact.side !== undefined) text += ` (side ${sideName(fact.side)})`;
    parts.push(text);
  } else {
    let text = title;
    if (fact.seat !== undefined) text += `: seat ${seatNumber(fact.seat)}`;
    if (fact.side !== undefined) text += `${fact.seat !== undefined ? "," : ":"} side ${sideName(fact.side)}`;
    if (fact.trick !== undefined) text += `, trick ${fact.trick}`;
    parts.push(text);
  }
  if (fact.points !== undefined && fact.points !== null) parts.push(`${fact.points} points`);
  return parts.join(", ");
}

/** A list item for a fact and its ruling (rule id and sentence). */
export function factItem(fact, attrs = {}) {
  return el("li", { ...attrs, class: `fact fact-${fact.kind}${attrs.class ? ` ${attrs.class}` : ""}` },
    el("span", { class: "fact-heading", text: factHeading(fact) }),
    el("span", { class: "ruling" },
      el("span", { class: "ruling-text", text: fact.ruling ? fact.ruling.text : "" }),
      " ",
      el("code", { class: "rule-id", text: fact.ruling ? fact.ruling.rule : "" })));
}

/** A random id for Idempotency-Key (crypto.randomUUID needs a secure context). */
export function randomKey() {
  if (globalThis.crypto && typeof crypto.randomUUID === "function") return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6] & 0x0f) | 0x40;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** Reads a problem+json (or any) error response into {status, title, detail, body}. */
export async function readProblem(response) {
  let body = null;
  try {
    body = await response.json();
  } catch {
    body = null;
  }
  const detail = body && typeof body.detail === "string" && body.detail
    ? body.detail
    : `${response.status} ${response.statusText || "error"}`;
  const title = body && body.title ? body.title : response.statusText || "Error";
  return { status: response.status, title, detail, body };
}

/** Session-scoped storage of seat tokens (never in the URL the server sees). */
export const tokens = {
  key(gameId, seat) {
    return `fortyfive.token.${gameId}.${seat}`;
  },
  get(gameId, seat) {
    try {
      return sessionStorage.getItem(this.key(gameId, seat));
    } catch {
      return null;
    }
  },
  set(gameId, seat, token) {
    try {
      sessionStorage.setItem(this.key(gameId, seat), token);
    } catch {
      // Storage may be disabled; the token then lives only in this page.
    }
  },
  remove(gameId, seat) {
    try {
      sessionStorage.removeItem(this.key(gameId, seat));
    } catch {
      // Nothing stored.
    }
  },
};

/** Session-scoped storage of the invite links of a game this tab created. */
export const invites = {
  key(gameId, seat) {
    return `fortyfive.invite.${gameId}.${seat}`;
  },
  get(gameId, seat) {
    return tokens.get.call(this, gameId, seat);
  },
  set(gameId, seat, link) {
    tokens.set.call(this, gameId, seat, link);
  },
};
