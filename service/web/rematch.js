// Play again: at game over a seat asks for the rematch (POST /v1/games/{id}/rematch) and the
// table opens the new game with the token it already holds: the rematch keeps every token, so
// the other seats, pressing the same button, land in the same new game as the same seats.

import { el, tokens } from "./cards.js";
import { api, authHeaders, say, showProblem } from "./page.js";

/** Returns the "Play again" button of *seat* at game *gameId* (null for a spectator). */
export function rematchButton(gameId, seat) {
  if (seat === null) return null;
  const button = el("button", { type: "button", id: "rematch", class: "rematch", text: "Play again" });
  button.addEventListener("click", async () => {
    button.disabled = true;
    let response;
    try {
      response = await api(`/v1/games/${encodeURIComponent(gameId)}/rematch`, {
        method: "POST", headers: { ...authHeaders(), "Content-Type": "application/json" }, body: "{}",
      });
    } catch (error) {
      button.disabled = false;
      say(`Could not start the rematch: ${error.message}`, "error");
      return;
    }
    if (!response.ok) {
      button.disabled = false;
      await showProblem(response, "Play again: ");
      return;
    }
    const { rematch } = await response.json();
    tokens.set(rematch, seat, tokens.get(gameId, seat));
    window.location.assign(`/table/${encodeURIComponent(rematch)}?seat=${seat}`);
  });
  return button;
}
