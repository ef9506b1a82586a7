// The viewer's verdict on a history: the server's full check (POST /v1/histories?mode=dry_run:
// rulings and results, re-folded by the engine) and the browser's own (verify.js: chain, head,
// seeds, decks, checkpoint signature), judged together. Any failure fails the history.

import { el, fill, readProblem } from "./cards.js";
import { prefixOf, verifyHistory } from "./verify.js";

const VERDICTS = {
  checking: { symbol: "\u2026", title: "Checking this history\u2026" },
  verified: { symbol: "\u2713", title: "Verified: every check passed" },
  failed: { symbol: "\u2717", title: "Failed: this history does not verify" },
  partly: { symbol: "!", title: "Partly checked: nothing is contradicted, but not everything could be checked" },
};

/** GET /v1/keys's keys, or null when the service publishes none (or does not answer). */
export async function fetchKeys() {
  try {
    const response = await fetch("/v1/keys", { headers: { Accept: "application/json" }, credentials: "omit" });
    if (!response.ok) return null;
    const body = await response.json();
    return Array.isArray(body.keys) ? body.keys : null;
  } catch {
    return null;
  }
}

/** The server's findings on *doc*: `{failures, unchecked, counts}` like verifyHistory's. The
 * checkpoint stays out of the request: the browser checks it, the server judges the play. */
export async function serverCheck(doc) {
  const history = { ...doc };
  delete history.checkpoint;
  delete history.checkpoint_key;
  const outcome = { failures: [], unchecked: [], counts: null };
  const add = (list, where, what) => list.push({ where, what, text: `${where}: ${what}` });
  let response;
  try {
    response = await fetch("/v1/histories?mode=dry_run", {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json" },
      body: JSON.stringify({ history }),
      credentials: "omit",
    });
  } catch (error) {
    add(outcome.unchecked, "the server's check", `rulings and results not checked: the server did not answer (${error.message})`);
    return outcome;
  }
  if (response.status === 413) {
    add(outcome.unchecked, "the server's check", "rulings and results not checked: the history is larger than the server takes in one request (check it with `fortyfive history verify`)");
    return outcome;
  }
  if (response.status === 422) {
    const problem = await readProblem(response);
    add(outcome.failures, "the history", `the server cannot read it: ${problem.detail}`);
    return outcome;
  }
  if (!response.ok) {
    const problem = await readProblem(response);
    add(outcome.unchecked, "the server's check", `rulings and results not checked: ${problem.title} (${problem.status})`);
    return outcome;
  }
  const report = (await response.json()).verification || {};
  for (const problem of report.problems || []) {
    const { where, what } = describeProblem(problem, doc);
    add(outcome.failures, where, what);
  }
  for (const item of report.unchecked || []) {
    // Which events a signature vouches for is the browser's to say: the checkpoint stayed here.
    if (item.what === "signature") continue;
    const span = item.first === item.last ? `event ${item.first}` : `events ${item.first}-${item.last}`;
    add(outcome.unchecked, span, `${item.what} not checked: ${item.why}`);
  }
  outcome.counts = report.checked || null;
  return outcome;
}

/** Where a server problem is, and what differs, in the words of the history. */
function describeProblem(problem, doc) {
  const where = Number.isInteger(problem.version) ? `event ${problem.version}` : "the history";
  const fact = /^\/results\/deals\/(\d+)\/facts\/(\d+)\/(seat|side)$/.exec(problem.pointer || "");
  const says = /the history says (.+), the engine derives (.+)$/.exec(problem.message || "");
  if (fact && says) {
    const entry = ((doc.results || {}).deals || [])[Number(fact[1])] || {};
    const item = (entry.facts || [])[Number(fact[2])] || {};
    if (item.kind === "trick_won" && Number.isInteger(entry.number)) {
      return {
        where: `deal ${entry.number}`,
        what: `trick ${item.trick} winner ${fact[3]} is ${says[1]} in the file, the rules give ${says[2]}`,
      };
    }
  }
  if (problem.pointer === "/results/game/winner" && says) {
    return { where: "the game", what: `the winner is side ${says[1]} in the file, the rules give ${says[2]}` };
  }
  return { where, what: problem.message };
}

/** The verdict on both outcomes: "verified", "failed" or "partly"; *prefix* is what to say
 * first when the history stops before the game's end (prefixOf), or null. */
export function judge(server, browser, prefix = null) {
  const failures = [...browser.failures.map((item) => ({ ...item, by: "browser" })),
    ...server.failures.map((item) => ({ ...item, by: "server" }))];
  const unchecked = [...browser.unchecked.map((item) => ({ ...item, by: "browser" })),
    ...server.unchecked.map((item) => ({ ...item, by: "server" }))];
  const verdict = failures.length ? "failed" : unchecked.length ? "partly" : "verified";
  return { verdict, failures, unchecked, browser: browser.counts, server: server.counts, prefix };
}

/** Checks *doc* both ways and shows the verdict in *container*; *current* says whether the
 * history is still the one shown (a later one may have replaced it). */
export async function checkAndShow(container, doc, current) {
  const prefix = prefixOf(doc);
  renderVerdict(container, { verdict: "checking", failures: [], unchecked: [], prefix });
  const [server, browser] = await Promise.all([
    serverCheck(doc),
    fetchKeys().then((keys) => verifyHistory(doc, keys)).catch((error) => ({
      failures: [], counts: null,
      unchecked: [{ where: "the browser's check", what: `not made: ${error.message}`, text: `the browser's check: not made: ${error.message}` }],
    })),
  ]);
  if (current()) renderVerdict(container, judge(server, browser, prefix));
}

/** "a, b and c" of the non-empty *parts*. */
function listing(parts) {
  const kept = parts.filter(Boolean);
  return kept.length > 1 ? `${kept.slice(0, -1).join(", ")} and ${kept[kept.length - 1]}` : kept.join("");
}

/** "1 event", "0 events", "2 events". */
function counted(count, one, many) {
  return `${count} ${count === 1 ? one : many}`;
}

/** As counted, or null for none (left out of a listing). */
function plural(count, one, many) {
  return count ? counted(count, one, many) : null;
}

/** What was checked, in a sentence per side. */
function countsText(result) {
  const parts = [];
  const browser = result.browser;
  if (browser) {
    const checkpoint = browser.checkpoint;
    parts.push(`Checked in this browser: ${listing([
      plural(browser.hashes, "hash recomputed", "hashes recomputed"),
      plural(browser.rebuilt, "hidden event rebuilt and its hash matched", "hidden events rebuilt and their hashes matched"),
      plural(browser.seeds, "seed matched its commitment", "seeds matched their commitments"),
      plural(browser.deals, "deal re-dealt from its seed", "deals re-dealt from their seeds"),
      checkpoint ? `the checkpoint of event ${checkpoint.version} signed by ${checkpoint.key_id} (${checkpoint.trust === "service" ? "a key this service publishes at GET /v1/keys" : "a key only the history itself carries"})` : null,
    ]) || "nothing"}.`);
  }
  const server = result.server;
  if (server) {
    parts.push(`On the server: ${listing([
      counted(server.events_folded, "event re-folded by the rules engine", "events re-folded by the rules engine"),
      counted(server.results, "ruling or result compared", "rulings and results compared"),
    ])}.`);
  }
  return parts.join(" ");
}

/** Shows *result* (judge's, or a "checking" placeholder) in *container*. */
export function renderVerdict(container, result) {
  const { symbol, title } = VERDICTS[result.verdict];
  container.hidden = false;
  container.className = `verdict ${result.verdict}`;
  container.dataset.verdict = result.verdict;
  container.setAttribute("aria-live", result.verdict === "failed" ? "assertive" : "polite");
  const item = (finding) => el("li", { "data-by": finding.by },
    el("strong", { text: `${finding.where}: ` }), finding.what,
    el("span", { class: "by", text: finding.by === "server" ? " (server check)" : " (checked in this browser)" }));
  const parts = result.prefix ? [el("p", { class: "prefix", id: "verdict-prefix", text: result.prefix })] : [];
  parts.push(el("h2", { id: "verdict-title" }, el("span", { class: "verdict-symbol", "aria-hidden": "true", text: symbol }), ` ${title}`));
  if (result.failures.length) {
    parts.push(el("h3", { text: "What differs" }), el("ul", { class: "failures" }, result.failures.map(item)));
  }
  if (result.unchecked.length) {
    parts.push(el("h3", { text: "Not checked" }), el("ul", { class: "unchecked" }, result.unchecked.map(item)));
  }
  if (result.verdict !== "checking") parts.push(el("p", { class: "counts", text: countsText(result) }));
  fill(container, parts);
}
