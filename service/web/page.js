// Shared by the lobby and the table: the message area and requests to the API.

import { el, fill, readProblem } from "./cards.js";

export const $ = (id) => document.getElementById(id);

/** The seat's token for requests (set by the table once it knows it). */
export const session = { token: null };

// Messages ------------------------------------------------------------------------------------

/** Shows *text* in the live message area (kind: "info", "success" or "error"). */
export function say(text, kind = "info", extra = null) {
  const box = $("messages");
  const message = el("p", { class: `message ${kind}` }, text, extra ? [" ", extra] : null);
  if (kind === "error") message.setAttribute("role", "alert");
  fill(box, message);
}

export function clearMessage() {
  fill($("messages"));
}

export async function showProblem(response, prefix = "") {
  const problem = await readProblem(response);
  const code = problem.body && problem.body.code ? ` [${problem.body.code}]` : "";
  say(`${prefix}${problem.title} (${problem.status}): ${problem.detail}${code}`, "error");
  return problem;
}

// API -----------------------------------------------------------------------------------------

export function authHeaders() {
  return session.token ? { Authorization: `Bearer ${session.token}` } : {};
}

export async function api(path, options = {}) {
  const headers = { Accept: "application/json", ...(options.headers || {}) };
  return fetch(path, { ...options, headers, cache: "no-store", credentials: "omit" });
}

/** Returns a button that copies *text* to the clipboard (and says so), labelled *label*. */
export function copyButton(text, label, id = null) {
  return el("button", {
    type: "button", id, class: "copy", text: "Copy", "aria-label": label,
    onclick: async () => {
      try {
        await navigator.clipboard.writeText(text);
        say(`Copied: ${label.replace(/^Copy /, "")}.`, "success");
      } catch {
        say("The browser did not allow copying: select the link and copy it.", "error");
      }
    },
  });
}
