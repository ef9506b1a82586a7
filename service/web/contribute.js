// The seat's contribution to a deal's deck (hmac-sha256-fy/2): a nonce drawn here by
// crypto.getRandomValues, after the server's seed commitment is public. The cutter sends it
// with its cut; every other seat sends it with a `contribute` action as soon as its deal waits
// for the cut. The server cannot know it when it commits to its seed, so it cannot pick a
// seed that favours anyone (docs/verification.md, section 6).

const ALGORITHM = "hmac-sha256-fy/2";

/** 32 random bytes as lowercase hex (the server takes 16 to 64 bytes). */
export function freshNonce() {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** True when *seat* may still add a nonce to the deal of *view*. */
export function takesNonce(view, seat) {
  const deal = view && view.deal;
  return Boolean(deal) && Number.isInteger(seat) && view.phase === "cut"
    && deal.algorithm === ALGORITHM && Array.isArray(deal.contributed)
    && !deal.contributed.includes(seat);
}

/** Returns *action* with a fresh nonce added when it is this seat's cut of a deal taking one. */
export function withNonce(action, view, seat) {
  if (action.type !== "cut" || action.nonce || !takesNonce(view, seat)) return action;
  return { ...action, nonce: freshNonce() };
}

/** The `contribute` action due now from *seat* (not the cutter: its nonce goes with its cut),
 * or null. *sent* is the number of the last deal this page contributed to. */
export function dueContribution(view, seat, sent) {
  if (!takesNonce(view, seat) || view.turn === seat || view.deal.number === sent) return null;
  return { type: "contribute", nonce: freshNonce() };
}
