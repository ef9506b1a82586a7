// Whether a history's checkpoint is in the service's transparency log (docs/verification.md
// section 11), checked in this browser: a fresh signed tree head (its Ed25519 signature against
// GET /v1/keys), then the checkpoint's audit path in that tree, verified as RFC 9162 2.1.3.2
// says. Shown beside the verdict, never changing it: a log that cannot be reached proves nothing
// either way.

import { canonicalJson, concat, fromHex, toHex, utf8 } from "./verify.js";
import { el, fill } from "./cards.js";
import { fetchKeys } from "./verdict.js";

async function sha256(bytes) {
  return new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
}

/** The leaf hash of *checkpoint*: SHA-256(0x00 || its canonical JSON). */
export async function leafHash(checkpoint) {
  return sha256(concat(new Uint8Array([0]), utf8(canonicalJson(checkpoint))));
}

/** True when *path* (hex hashes) leads from leaf *index*'s hash to *root* in a tree of *size*. */
export async function inclusionHolds(hash, index, size, path, root) {
  if (index >= size) return false;
  let fn = index, sn = size - 1, r = hash;
  for (const hex of path) {
    if (sn === 0) return false;
    const p = fromHex(hex);
    if (fn % 2 === 1 || fn === sn) {
      r = await sha256(concat(new Uint8Array([1]), p, r));
      while (fn % 2 === 0 && fn !== 0) { fn = Math.floor(fn / 2); sn = Math.floor(sn / 2); }
    } else {
      r = await sha256(concat(new Uint8Array([1]), r, p));
    }
    fn = Math.floor(fn / 2); sn = Math.floor(sn / 2);
  }
  return sn === 0 && toHex(r) === root;
}

/** True when *head*'s signature verifies with one of *keys* (GET /v1/keys's list). */
async function headSigned(head, keys) {
  const key = (keys || []).find((item) => item.key_id === head.key_id);
  if (!key) return false;
  const { key_id, root_hash, timestamp, tree_size } = head;
  const message = concat(utf8("fortyfive/tree-head/1"), utf8(canonicalJson({ key_id, root_hash, timestamp, tree_size })));
  const publicKey = await crypto.subtle.importKey("raw", fromHex(key.public_key), { name: "Ed25519" }, false, ["verify"]);
  return crypto.subtle.verify({ name: "Ed25519" }, publicKey, fromHex(head.signature), message);
}

/** `{state, text}` of *checkpoint* in this service's log: included, missing, invalid or unreachable. */
export async function logStatus(checkpoint) {
  const keys = await fetchKeys();
  let head;
  try {
    const response = await fetch("/v1/log/tree-head", {
      method: "POST", headers: { "Content-Type": "application/json", Accept: "application/json" },
      body: "{}", credentials: "omit",
    });
    if (!response.ok) return { state: "unreachable", text: `The transparency log did not answer (${response.status}).` };
    head = await response.json();
  } catch {
    return { state: "unreachable", text: "The transparency log could not be reached." };
  }
  if (!await headSigned(head, keys)) {
    return { state: "invalid", text: "The transparency log's tree head is not signed by a published key." };
  }
  const hash = await leafHash(checkpoint);
  const params = new URLSearchParams({ leaf_hash: toHex(hash), tree_size: String(head.tree_size) });
  const response = await fetch(`/v1/log/proof?${params}`, { headers: { Accept: "application/json" }, credentials: "omit" });
  if (response.status === 404) {
    return { state: "missing", text: `The checkpoint of event ${checkpoint.version} is not in this service's transparency log (${head.tree_size} checkpoints, signed ${head.timestamp}).` };
  }
  if (!response.ok) return { state: "unreachable", text: `The transparency log did not answer (${response.status}).` };
  const proof = await response.json();
  if (!await inclusionHolds(hash, proof.leaf_index, head.tree_size, proof.audit_path, head.root_hash)) {
    return { state: "invalid", text: "The transparency log's proof for this checkpoint does not verify." };
  }
  return { state: "included", text: `The checkpoint of event ${checkpoint.version} is in this service's transparency log: entry ${proof.leaf_index + 1} of ${head.tree_size}, under a tree head signed ${head.timestamp} (proof checked in this browser).` };
}

/** Shows in *container* whether *doc*'s checkpoint is in the log (hidden when it has none). */
export async function showLogStatus(container, doc, current) {
  if (!doc.checkpoint) {
    container.hidden = true;
    return;
  }
  container.hidden = false;
  container.dataset.log = "checking";
  fill(container, el("span", { text: "Looking for the checkpoint in the transparency log\u2026" }));
  let status;
  try {
    status = await logStatus(doc.checkpoint);
  } catch (error) {
    status = { state: "unreachable", text: `The transparency log could not be checked: ${error.message}` };
  }
  if (!current()) return;
  container.dataset.log = status.state;
  fill(container, el("span", { text: status.text }));
}
