// Verifying a hand history in the browser, with WebCrypto only: the hash chain and the head,
// each seed against its commitment, the deck order of each seeded deal against the hands the
// history shows, and the signed checkpoint. Written from docs/verification.md and the server's
// code (events/chain.py, engine/shuffle.py, replay/verification/reconstruct.py): nothing here trusts the
// server that served the page.

import { seatNumber } from "./cards.js";

const GENESIS = "0".repeat(64);
const ENCODER = new TextEncoder();

/** A finding: *where* (an event, a deal, the checkpoint) and *what* differs or was not checked. */
function finding(where, what) {
  return { where, what, text: `${where}: ${what}` };
}

// Bytes and hashes ------------------------------------------------------------------------------

export function utf8(text) {
  return ENCODER.encode(text);
}

export function toHex(bytes) {
  return Array.from(new Uint8Array(bytes), (byte) => byte.toString(16).padStart(2, "0")).join("");
}

/** The bytes of hex string *text*, or null if it is not an even number of hex digits. */
export function fromHex(text) {
  if (typeof text !== "string" || !/^([0-9a-fA-F]{2})*$/.test(text)) return null;
  const bytes = new Uint8Array(text.length / 2);
  for (let i = 0; i < bytes.length; i += 1) bytes[i] = Number.parseInt(text.slice(2 * i, 2 * i + 2), 16);
  return bytes;
}

export function concat(...parts) {
  const out = new Uint8Array(parts.reduce((total, part) => total + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

export async function sha256Hex(bytes) {
  return toHex(await crypto.subtle.digest("SHA-256", bytes));
}

async function hmacKey(keyBytes) {
  return crypto.subtle.importKey("raw", keyBytes, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
}

async function hmac(key, message) {
  return new Uint8Array(await crypto.subtle.sign("HMAC", key, message));
}

/** *number* as 8 bytes big-endian (the block counter of the byte streams). */
function counterBytes(number) {
  const bytes = new Uint8Array(8);
  new DataView(bytes.buffer).setBigUint64(0, BigInt(number));
  return bytes;
}

// Canonical JSON (RFC 8785), as events/codec.py writes it ------------------------------------

/** The RFC 8785 canonical JSON text of *value* (parsed JSON); throws on a value with none. */
export function canonicalJson(value) {
  if (value === null || typeof value === "boolean" || typeof value === "string") return JSON.stringify(value);
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw new Error(`the number ${value} has no canonical JSON form`);
    // ECMAScript's shortest form is RFC 8785's. (An integer beyond 2**53, which the service
    // refuses to hash, parses here as a double: its hash then differs, and the server says why.)
    return JSON.stringify(value);
  }
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (typeof value === "object") {
    // Array.prototype.sort compares UTF-16 code units, the order RFC 8785 asks for.
    const keys = Object.keys(value).filter((key) => value[key] !== undefined).sort();
    return `{${keys.map((key) => `${JSON.stringify(key)}:${canonicalJson(value[key])}`).join(",")}}`;
  }
  throw new Error(`a ${typeof value} has no canonical JSON form`);
}

// The envelope and its hash (events/envelope.py, events/chain.py) -----------------------------

/** The hash the stored envelope of history event *event* has with *data* as its data: the
 * history's event with `game_id` added, `hash` and `redacted` dropped. */
export async function envelopeHash(gameId, event, data = event.data) {
  const body = {
    game_id: gameId, version: event.version, type: event.type, schema: event.schema, data,
    actor: event.actor, command_id: event.command_id, occurred_at: event.occurred_at,
    prev_hash: event.prev_hash,
  };
  return sha256Hex(utf8(canonicalJson(body)));
}

// Decks (engine/shuffle.py; hmac-sha256-fy/2 per docs/verification.md) --------------------------

export const FY1 = "hmac-sha256-fy/1";
export const FY2 = "hmac-sha256-fy/2";
const SUITS = ["S", "C", "D", "H"];
const RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A"];
const PROFILE_DECKS = {
  bruff: { joker: true, decks: 1, pattern: [3, 2], auction: false },
  auction: { joker: false, decks: 1, pattern: [3, 2], auction: true },
};

/** How *rules* (a history's rules block) deal, or null for a profile this viewer does not know. */
export function dealingOf(rules) {
  if (!rules || !Number.isInteger(rules.players)) return null;
  const fixed = PROFILE_DECKS[rules.profile];
  if (fixed) return { ...fixed, players: rules.players };
  if (rules.profile !== "classic" || !rules.options) return null;
  const options = rules.options;
  const pattern = String(options.deal_pattern || "").split("-").map((part) => Number.parseInt(part, 10));
  if (pattern.length !== 2 || pattern.some((part) => !Number.isInteger(part))) return null;
  return { joker: options.joker !== "none", decks: options.decks, pattern, auction: false, players: rules.players };
}

/** The pack in canonical order: per deck, spades 2..A, clubs, diamonds, hearts, then the joker. */
export function pack({ joker, decks }) {
  const one = SUITS.flatMap((suit) => RANKS.map((rank) => `${rank}${suit}`));
  if (joker) one.push("JK");
  return Array.from({ length: decks }, () => one).flat();
}

/** An endless byte stream: blocks from *block(i)* (an async function), read a byte at a time. */
class ByteStream {
  constructor(block) {
    this.block = block;
    this.next = 0;
    this.buffer = new Uint8Array(0);
    this.offset = 0;
  }

  async byte() {
    if (this.offset >= this.buffer.length) {
      this.buffer = await this.block(this.next);
      this.next += 1;
      this.offset = 0;
    }
    const value = this.buffer[this.offset];
    this.offset += 1;
    return value;
  }
}

/** A number uniform in 0..bound-1 from *stream*: the fewest bytes k with 256**k >= bound, read
 * big-endian, accepted below the largest multiple of bound not above 256**k. */
export async function uniformBelow(bound, stream) {
  let width = 1;
  while (256 ** width < bound) width += 1;
  const space = 256 ** width;
  const limit = space - (space % bound);
  for (;;) {
    let value = 0;
    for (let i = 0; i < width; i += 1) value = value * 256 + await stream.byte();
    if (value < limit) return value % bound;
  }
}

/** *cards* shuffled by Fisher-Yates from the last position down, draws from *stream*. */
export async function fisherYates(cards, stream) {
  const order = [...cards];
  for (let i = order.length - 1; i > 0; i -= 1) {
    const j = await uniformBelow(i + 1, stream);
    [order[i], order[j]] = [order[j], order[i]];
  }
  return order;
}

/** *order* cut at *position*: the top *position* cards go underneath. */
export function cutDeck(order, position) {
  if (!Number.isInteger(position) || position < 1 || position >= order.length) {
    throw new Error(`invalid cut ${position}: expected 1 to ${order.length - 1}`);
  }
  return [...order.slice(position), ...order.slice(0, position)];
}

async function streamOf(keyBytes, label) {
  const key = await hmacKey(keyBytes);
  const prefix = utf8(label);
  return new ByteStream((block) => hmac(key, concat(prefix, counterBytes(block))));
}

/** The order of *cards* after the hmac-sha256-fy/1 shuffle of *seed* (bytes), before the cut. */
export async function shuffleFy1(seed, cards) {
  return fisherYates(cards, await streamOf(seed, "fortyfive/shuffle/1"));
}

/** The fy/2 deal key: HMAC-SHA256(seed, "fortyfive/shuffle/2" + canonical JSON of the inputs). */
export async function fy2Key(seed, { context, deal, cut, nonces }) {
  const inputs = canonicalJson({ context, cut, deal, nonces });
  return hmac(await hmacKey(seed), concat(utf8("fortyfive/shuffle/2"), utf8(inputs)));
}

/** The order of *cards* after the hmac-sha256-fy/2 shuffle and the cut (the cut is an input). */
export async function shuffleFy2(seed, cards, inputs) {
  const key = await fy2Key(seed, inputs);
  const order = await fisherYates(cards, await streamOf(key, "fortyfive/shuffle/2/block"));
  return cutDeck(order, inputs.cut);
}

/** The deck of one deal, cut, top card first (throws for an unknown algorithm). */
export async function dealtDeck(algorithm, seed, cards, inputs) {
  if (algorithm === FY1) return cutDeck(await shuffleFy1(seed, cards), inputs.cut);
  if (algorithm === FY2) return shuffleFy2(seed, cards, inputs);
  throw new Error(`unknown shuffle algorithm ${JSON.stringify(algorithm)}`);
}

/** The hands as dealt from the cut deck *order*: rounds of the pattern from the dealer's left,
 * then the turn-up (a turned joker goes to the dealer and the next card is turned) or, in the
 * auction, the stock. */
export function dealOut(order, { players, pattern, auction }, dealer) {
  const hands = Array.from({ length: players }, () => []);
  let top = 0;
  for (const batch of pattern) {
    for (let step = 1; step <= players; step += 1) {
      hands[(dealer + step) % players].push(...order.slice(top, top + batch));
      top += batch;
    }
  }
  if (auction) return { hands, turnUp: null, stock: order.slice(top) };
  let turnUp = order[top];
  if (turnUp === "JK") {
    hands[dealer].push("JK");
    turnUp = order[top + 1];
  }
  return { hands, turnUp, stock: order.slice(top + 1) };
}

function sameCards(left, right) {
  const sorted = (cards) => cards.map((card) => String(card).toUpperCase()).sort().join(" ");
  return sorted(left) === sorted(right);
}

// The checkpoint (Ed25519, docs/verification.md) -----------------------------------------------

/** The bytes a checkpoint signs: "fortyfive/checkpoint/1" + canonical JSON of its five fields. */
export function checkpointMessage(checkpoint) {
  const { game_id, head, key_id, signed_at, version } = checkpoint;
  return concat(utf8("fortyfive/checkpoint/1"), utf8(canonicalJson({ game_id, head, key_id, signed_at, version })));
}

/** The id of an Ed25519 public key: "ed25519:" + the first 16 hex digits of its SHA-256. */
export async function keyIdOf(publicKey) {
  return `ed25519:${(await sha256Hex(publicKey)).slice(0, 16)}`;
}

/** True when *signature* (hex) is *publicKey*'s (hex) Ed25519 signature of *checkpoint*. */
export async function checkpointSignatureValid(checkpoint, publicKeyHex) {
  const publicKey = fromHex(publicKeyHex);
  const signature = fromHex(checkpoint.signature);
  if (!publicKey || publicKey.length !== 32 || !signature || signature.length !== 64) return false;
  const key = await crypto.subtle.importKey("raw", publicKey, { name: "Ed25519" }, false, ["verify"]);
  return crypto.subtle.verify({ name: "Ed25519" }, key, signature, checkpointMessage(checkpoint));
}

// Walking a history ---------------------------------------------------------------------------

/** The outcome of the browser's checks: failures, what could not be checked, and counts. */
class Outcome {
  constructor() {
    this.failures = [];
    this.unchecked = [];
    this.counts = { hashes: 0, rebuilt: 0, seeds: 0, deals: 0, checkpoint: null };
  }

  fail(where, what) {
    this.failures.push(finding(where, what));
  }

  skip(where, what) {
    this.unchecked.push(finding(where, what));
  }
}

/** Per deal: its shuffle, cut, contributions and revealed seed, in the history's order. */
function dealsOf(events) {
  const deals = new Map();
  let current = null;
  for (const event of events) {
    const data = event.data || {};
    if (event.type === "deck_shuffled" || event.type === "deal_recorded" || event.type === "board_dealt") {
      // A duplicate board (board_dealt) is cut where the board says: nobody cuts it.
      const cut = event.type === "board_dealt" ? { data: { seat: null, position: data.cut } } : null;
      current = { number: data.deal, start: event, cut, contributions: [], reveal: null };
      deals.set(data.deal, current);
    } else if (event.type === "deck_cut" && current && !current.cut) {
      current.cut = event;
    } else if (event.type === "deal_contributed" && deals.has(data.deal)) {
      deals.get(data.deal).contributions.push(event);
    } else if (event.type === "seed_revealed" && deals.has(data.deal)) {
      deals.get(data.deal).reveal = event;
    }
  }
  return deals;
}

/** The seed of *deal* as hex, from its shuffle (an auditor's view) or its reveal, or null. */
function seedOf(deal) {
  const shown = deal.start.data.seed;
  if (typeof shown === "string") return shown;
  const revealed = deal.reveal && deal.reveal.data.seed;
  return typeof revealed === "string" ? revealed : null;
}

/** The full data of redacted *event* where the history allows it, checked against its hash. */
async function rebuild(gameId, event, deals, { cards, hand }) {
  const base = { ...event.data };
  if (event.type === "deck_shuffled" || event.type === "board_dealt") {
    const deal = deals.get(event.data.deal);
    const seed = deal ? seedOf(deal) : null;
    if (!seed) return { status: "impossible", why: `the seed of deal ${event.data.deal} is not revealed yet` };
    return tryData(gameId, event, [{ ...base, seed }], "rebuilt with the revealed seed, the hash differs");
  }
  if (event.type === "joker_buried" || event.type === "turn_up_robbed") {
    const name = event.type === "joker_buried" ? "card" : "discard";
    if (!cards.length) return { status: "impossible", why: `the face-down ${name} is hidden and the deal was not re-derived` };
    return tryData(gameId, event, cards.map((card) => ({ ...base, [name]: card })),
      `no card of the pack gives the stored hash for the face-down ${name}`);
  }
  if (event.type === "cards_discarded") {
    delete base.count;
    const count = event.data.count;
    if (count === 0) return tryData(gameId, event, [{ ...base, cards: [] }], "discarding nothing does not give the stored hash");
    if (!hand) return { status: "impossible", why: "the discards are face down and the hand is not known" };
    return tryData(gameId, event, permutations(hand, count).map((cards) => ({ ...base, cards })),
      `no ${count} cards of seat ${seatNumber(event.data.seat)}'s hand give the stored hash`);
  }
  if (event.type === "game_created") {
    return { status: "impossible", why: "the secret the bots' and the turn clock's cuts come from is hidden from this view (its commitment is public)" };
  }
  if (event.type === "deal_recorded") {
    return { status: "impossible", why: "the hands recorded at a real table are hidden from this view" };
  }
  return { status: "impossible", why: `${(event.redacted || []).join(", ")} hidden from this view` };
}

/** The first of *candidates* (full data of *event*) that gives its stored hash. Each is tried
 * as the view shows it and without its null fields: an optional field left unset is not
 * stored, and a view cannot say which of its nulls are such. */
async function tryData(gameId, event, candidates, missing) {
  for (const data of candidates) {
    const compact = Object.fromEntries(Object.entries(data).filter(([, value]) => value !== null));
    for (const form of [data, compact]) {
      if (await envelopeHash(gameId, event, form) === event.hash) return { status: "rebuilt", data: form };
    }
  }
  return { status: "mismatch", why: missing };
}

function permutations(cards, count) {
  if (count === 0) return [[]];
  const out = [];
  const seen = new Set();
  cards.forEach((card, index) => {
    const rest = [...cards.slice(0, index), ...cards.slice(index + 1)];
    for (const tail of permutations(rest, count - 1)) {
      const key = [card, ...tail].join(" ");
      if (!seen.has(key)) {
        seen.add(key);
        out.push([card, ...tail]);
      }
    }
  });
  return out;
}

/** Checks the versions, the links and every hash; returns the hash of each version. */
async function checkChain(doc, deals, derived, outcome) {
  const gameId = doc.game_id;
  const hashes = new Map();
  const withheld = [];
  let expectedVersion = 1;
  let expectedPrev = GENESIS;
  for (const [index, event] of doc.events.entries()) {
    if (index === 1 && doc.start) {
      expectedVersion = doc.start.version + 1;
      expectedPrev = doc.start.hash;
    }
    const where = `event ${event.version}`;
    if (event.version !== expectedVersion) outcome.fail(where, `expected event ${expectedVersion} here: events are missing, repeated or out of order`);
    if (event.hash === null || event.hash === undefined) {
      withheld.push(event.version);
    } else {
      hashes.set(event.version, event.hash);
      if (expectedPrev !== null && event.prev_hash !== expectedPrev) {
        outcome.fail(where, "chain link differs (its prev_hash is not the hash of the event before it)");
      }
      await checkHash(gameId, event, deals, derived, outcome);
    }
    expectedVersion = event.version + 1;
    expectedPrev = event.hash === undefined ? null : event.hash;
  }
  if (withheld.length) {
    const span = withheld.length === 1 ? `event ${withheld[0]}` : `events ${withheld[0]}-${withheld[withheld.length - 1]}`;
    outcome.skip(span, "hashes withheld by this view until the deal's seed is revealed (the auditor's history has them)");
  }
  return hashes;
}

async function checkHash(gameId, event, deals, derived, outcome) {
  const where = `event ${event.version}`;
  if (!(event.redacted && event.redacted.length)) {
    let hash;
    try {
      hash = await envelopeHash(gameId, event);
    } catch (error) {
      outcome.fail(where, error.message);
      return;
    }
    if (hash === event.hash) outcome.counts.hashes += 1;
    else outcome.fail(where, `chain hash differs: the event was changed (${event.type})`);
    return;
  }
  const rebuilt = await rebuild(gameId, event, deals, candidatesFor(event, derived));
  if (rebuilt.status === "rebuilt") outcome.counts.rebuilt += 1;
  else if (rebuilt.status === "mismatch") outcome.fail(where, `chain hash differs: ${rebuilt.why} (${event.type})`);
  else outcome.skip(where, `hash of ${event.type} not recomputed: ${rebuilt.why}`);
}

/** What a face-down card of *event* may be: any card of the pack; and the seat's hand as
 * dealt (re-derived from the seed), or null where it is not known. */
function candidatesFor(event, derived) {
  const deal = derived.byVersion(event.version);
  const seat = event.data && event.data.seat;
  return {
    cards: deal ? [...new Set(deal.pack)] : [],
    hand: deal && Number.isInteger(seat) ? deal.hands[seat] || null : null,
  };
}

/** The contributed nonces of *deal*, in the order fy/2 takes them. */
function noncesOf(deal) {
  const nonces = deal.contributions.map((event) => ({ seat: event.data.seat, nonce: event.data.nonce }));
  const cutNonce = deal.cut && deal.cut.data.nonce;
  if (typeof cutNonce === "string") nonces.push({ seat: deal.cut.data.seat, nonce: cutNonce });
  return nonces;
}

/** Checks each seed against its commitment and re-derives each seeded deal's cards; returns
 * what it derived, for rebuilding face-down cards. */
async function checkDeals(doc, deals, outcome) {
  const dealing = dealingOf(doc.rules);
  const entries = new Map(((doc.results && doc.results.deals) || []).map((entry) => [entry.number, entry]));
  const derived = [];
  for (const deal of deals.values()) {
    const where = `deal ${deal.number}`;
    if (deal.start.type === "deal_recorded") {
      outcome.skip(where, "dealt at a real table: there is no seed to check the cards against");
      continue;
    }
    const seed = seedOf(deal);
    if (!seed) {
      outcome.skip(where, "seed not yet revealed (it is revealed when the deal is over), so the deck is not checked");
      continue;
    }
    if (!await seedMatches(deal, seed, where, outcome)) continue;
    outcome.counts.seeds += 1;
    if (!deal.cut) {
      outcome.skip(where, "not cut yet, so there is no deck to check");
      continue;
    }
    if (!dealing) {
      outcome.skip(where, `the deck is not checked: this viewer does not know how the ${doc.rules && doc.rules.profile} profile deals`);
      continue;
    }
    const cards = pack(dealing);
    const entry = entries.get(deal.number);
    let order;
    try {
      order = await dealtDeck(deal.start.data.algorithm, fromHex(seed), cards, {
        context: deal.start.type === "board_dealt" ? deal.start.data.board
          : typeof deal.start.data.context === "string" ? deal.start.data.context : doc.game_id,
        deal: deal.number, cut: deal.cut.data.position, nonces: noncesOf(deal),
      });
    } catch (error) {
      outcome.fail(where, `the deck cannot be re-derived: ${error.message}`);
      continue;
    }
    if (!entry || !Number.isInteger(entry.dealer)) {
      outcome.skip(where, "the history names no dealer, so the hands are not checked");
      continue;
    }
    const dealt = dealOut(order, dealing, entry.dealer);
    derived.push({ first: deal.start.version, pack: cards, hands: dealt.hands });
    if (compareDeal(entry, dealt, where, outcome)) outcome.counts.deals += 1;
  }
  return {
    byVersion(version) {
      let found = null;
      for (const item of derived) if (item.first <= version) found = item;
      return found;
    },
  };
}

async function seedMatches(deal, seed, where, outcome) {
  const bytes = fromHex(seed);
  if (!bytes || bytes.length !== 32) {
    outcome.fail(where, "the seed is not 64 hex digits");
    return false;
  }
  const commitment = await sha256Hex(bytes);
  if (commitment !== deal.start.data.commitment) {
    const sources = [];
    if (deal.start.data.seed === seed) sources.push(`event ${deal.start.version}`);
    if (deal.reveal && deal.reveal.data.seed === seed) sources.push(`revealed at event ${deal.reveal.version}`);
    outcome.fail(where, `the seed (${sources.join(", ")}) does not match its commitment in event ${deal.start.version} (SHA-256 differs)`);
    return false;
  }
  const revealed = deal.reveal && deal.reveal.data.seed;
  if (typeof revealed === "string" && revealed !== seed) {
    outcome.fail(where, `the seed revealed at event ${deal.reveal.version} is not the seed of event ${deal.start.version}`);
    return false;
  }
  return true;
}

/** Compares the hands and the turn-up the history shows with those the seed gives. */
function compareDeal(entry, dealt, where, outcome) {
  let same = true;
  (entry.hands || []).forEach((hand, seat) => {
    if (!Array.isArray(hand)) return;
    if (!sameCards(hand, dealt.hands[seat] || [])) {
      outcome.fail(where, `seat ${seatNumber(seat)}'s hand is ${hand.join(" ")} in the file, the seed and cut give ${dealt.hands[seat].join(" ")}`);
      same = false;
    }
  });
  if (entry.turn_up && dealt.turnUp && entry.turn_up.toUpperCase() !== dealt.turnUp) {
    outcome.fail(where, `the turn-up is ${entry.turn_up} in the file, the seed and cut give ${dealt.turnUp}`);
    same = false;
  }
  return same;
}

function checkHead(doc, outcome) {
  const last = doc.events[doc.events.length - 1];
  if (last.hash === null || last.hash === undefined) {
    outcome.skip("head", "the last event's hash is withheld by this view");
  } else if (doc.head !== last.hash) {
    outcome.fail("head", `the head is not the hash of the last event (${last.version})`);
  }
}

/** The key to check *checkpoint* with, and who vouches for it: the keys the service serving
 * this page publishes (GET /v1/keys) first, else the key the history carries (checkpoint_key),
 * which proves the checkpoint unchanged since that key signed it, not that the key is the
 * service's. Null when neither has it. */
function keyFor(checkpoint, keys, carried) {
  const published = Array.isArray(keys) ? keys.find((item) => item.key_id === checkpoint.key_id) : null;
  if (published) return { key: published, trust: "service" };
  if (carried && typeof carried === "object") return { key: carried, trust: "history" };
  return null;
}

/** Checks the history's checkpoint: its signature (a signature present is a signature
 * checked) with the service's published *keys* (GET /v1/keys's list, or null if absent) or
 * else the key the history carries, then the head it signs against the history's. */
async function checkCheckpoint(doc, hashes, keys, outcome) {
  const checkpoint = doc.checkpoint;
  if (!checkpoint) {
    outcome.skip("checkpoint", "no checkpoint: this history carries no signed checkpoint");
    return;
  }
  const found = keyFor(checkpoint, keys, doc.checkpoint_key);
  if (!found) {
    outcome.skip("checkpoint", Array.isArray(keys)
      ? `signed with key ${checkpoint.key_id}, which this service does not publish and the history does not carry, so the signature is not checked`
      : "no checkpoint keys: the service publishes none (GET /v1/keys did not answer) and the history carries no key, so the signature is not checked");
    return;
  }
  const { key, trust } = found;
  const whose = trust === "service" ? "published" : "carried";
  if (key.key_id !== checkpoint.key_id) {
    outcome.fail("checkpoint", `it is signed with key ${checkpoint.key_id}, but the key the history carries is ${key.key_id}`);
    return;
  }
  if (key.algorithm !== "ed25519" || await keyIdOf(fromHex(key.public_key) || new Uint8Array(0)) !== key.key_id) {
    outcome.fail("checkpoint", `the ${whose} key ${key.key_id} does not match its id`);
    return;
  }
  if (!await checkpointSignatureValid(checkpoint, key.public_key)) {
    outcome.fail("checkpoint", `signature differs: it does not verify with the ${whose} key ${key.key_id}`);
    return;
  }
  if (trust === "history") {
    outcome.skip("checkpoint", `the signature verifies with key ${key.key_id}, but only the history itself vouches for that key: ${Array.isArray(keys) ? "this service does not publish it" : "the service's keys could not be fetched (GET /v1/keys did not answer)"}, so no trust root vouches for the signer`);
  }
  if (checkpoint.game_id !== doc.game_id) {
    outcome.fail("checkpoint", `it signs game ${checkpoint.game_id}, not ${doc.game_id}`);
    return;
  }
  const last = doc.events[doc.events.length - 1].version;
  if (checkpoint.version > last) {
    outcome.fail("checkpoint", `it signs event ${checkpoint.version}, but this history stops at event ${last}: it was cut short, ${counted(checkpoint.version - last, "event", "events")} missing`);
    return;
  }
  if (!hashes.has(checkpoint.version)) {
    outcome.skip("checkpoint", `the hash of event ${checkpoint.version} is withheld by this view, so the signed head is not compared`);
    return;
  }
  if (hashes.get(checkpoint.version) !== checkpoint.head) {
    outcome.fail("checkpoint", `event ${checkpoint.version} has a different hash in the file than the signed head`);
    return;
  }
  outcome.counts.checkpoint = { version: checkpoint.version, key_id: checkpoint.key_id, trust };
  // A checkpoint vouches for the history up to its event and no further: the service signs one
  // at the final event of every finished game, so a finished game's events after it (an early
  // checkpoint on a history rewritten since) are vouched for by no signature.
  const over = ((doc.results || {}).game || {}).phase === "over";
  if (over && checkpoint.version < last) {
    outcome.skip(`events ${checkpoint.version + 1}-${last}`, `no signature vouches for them: the checkpoint signs event ${checkpoint.version} only, and the service signs one at the final event of every finished game (docs/verification.md, "Extent")`);
  }
}

/** "1 event", "2 events". */
function counted(count, one, many) {
  return `${count} ${count === 1 ? one : many}`;
}

/** What the viewer says first when history *doc* stops before the game's end: null for a
 * whole game, or a one-deal history (a part of its game by design). The game's phase is the
 * history's own result, which the server's check re-folds. */
export function prefixOf(doc) {
  if (!doc || !doc.view || doc.view.deal !== null && doc.view.deal !== undefined) return null;
  const events = doc.events || [];
  if (!events.length) return null;
  const last = events[events.length - 1].version;
  const phase = ((doc.results || {}).game || {}).phase;
  const checkpoint = doc.checkpoint;
  const vouched = checkpoint && checkpoint.game_id === doc.game_id && Number.isInteger(checkpoint.version) && checkpoint.version > last ? checkpoint.version : null;
  if (phase === "over" && vouched === null) return null;
  const said = `This history stops at event ${last} of a game that was not over`;
  if (vouched === null) return `${said}.`;
  return `${said}: its checkpoint vouches for event ${vouched}, so at least ${counted(vouched - last, "event", "events")} of the game ${vouched - last === 1 ? "is" : "are"} missing.`;
}

/** Verifies history *doc* in the browser; *keys* is GET /v1/keys's `keys`, or null.
 * Returns `{failures, unchecked, counts}`, each finding `{where, what, text}`. */
export async function verifyHistory(doc, keys) {
  const outcome = new Outcome();
  const deals = dealsOf(doc.events);
  const derived = await checkDeals(doc, deals, outcome);
  const hashes = await checkChain(doc, deals, derived, outcome);
  checkHead(doc, outcome);
  await checkCheckpoint(doc, hashes, keys, outcome);
  return outcome;
}
