// The projector view of a drive: the standings and the round clock in large type, for a
// screen at the front of the hall. It follows the drive's stream (drivestream.js): each drive
// event (a round started or ended, a board revealed, a score card confirmed, the director's
// actions) refetches the standings; nothing is polled. The clock counts the round in play since
// its round_started event, whose time the stream carries; it stops when the round ends.

import { el, fill } from "./cards.js";
import { followDrive } from "./drivestream.js";
import { $, api, showProblem } from "./page.js";

const driveId = decodeURIComponent(location.pathname.split("/").filter(Boolean)[1] || "");
const clock = { started: null, ended: false, timer: null };

async function refresh() {
  const [drive, standings] = await Promise.all([
    api(`/v1/drives/${encodeURIComponent(driveId)}`),
    api(`/v1/drives/${encodeURIComponent(driveId)}/standings`)]);
  if (!drive.ok) { await showProblem(drive, "Cannot load the drive: "); return; }
  if (!standings.ok) { await showProblem(standings, "Cannot load the standings: "); return; }
  const d = await drive.json();
  const s = await standings.json();
  $("projector-title").textContent = d.status === "finished" ? "Final standings" : "Standings";
  const current = d.rounds[d.rounds.length - 1];
  $("projector-round").textContent = current
    ? `Round ${current.number} of ${d.round_count}`
      + (current.status === "finished" ? ": over" : "")
      + (d.paused ? " (paused by the director)" : "") : "Waiting for round 1";
  fill($("projector-standings").tBodies[0], s.players.map((row) => el("tr", {},
    el("td", { text: String(row.place) }), el("td", { text: row.name }),
    el("td", { text: String(row.games_won) }), el("td", { text: String(row.points) }))));
  $("projector-rule").textContent = `Ties: ${s.tie_rule}.`;
}

function tick() {
  const shown = $("round-clock");
  if (clock.started === null) { shown.textContent = ""; return; }
  const seconds = Math.max(0, Math.floor((Date.now() - clock.started) / 1000));
  const minutes = Math.floor(seconds / 60);
  shown.textContent = `${minutes}:${String(seconds % 60).padStart(2, "0")}`;
  shown.setAttribute("aria-label", `Round clock: ${minutes} minutes ${seconds % 60} seconds played`);
}

function onEvent(event) {
  if (event.type === "round_started") {
    clock.started = Date.parse(event.occurred_at);
    clock.ended = false;
  } else if (event.type === "round_ended" || event.status === "finished") {
    clock.ended = true;
  }
  $("round-clock").dataset.started = clock.started === null ? "" : String(clock.started);
  clearInterval(clock.timer);
  tick();
  if (!clock.ended && clock.started !== null) clock.timer = setInterval(tick, 1000);
  refresh();
}

// From the start, so the clock learns when the round in play began.
followDrive(driveId, onEvent, 0);
refresh();
