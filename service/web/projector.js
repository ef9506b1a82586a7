// The projector view of a drive: the standings and the round clock in large type, for a
// screen at the front of the hall. It follows the drive's stream (drivestream.js): each drive
// event (a round started or ended, a board revealed, a score card confirmed, the director's
// actions) refetches the standings; nothing is polled. The clock counts down to the drive
// view's round_ends_at when the drive has round_minutes (refetched at each event, so a bell
// rung early shows "time is up" at once), else it counts the round in play since its
// round_started event, whose time the stream carries; it stops when the round ends.

import { el, fill } from "./cards.js";
import { followDrive } from "./drivestream.js";
import { $, api, showProblem } from "./page.js";

const driveId = decodeURIComponent(location.pathname.split("/").filter(Boolean)[1] || "");
// endsAt: null without round_minutes or between rounds; 0 once the round in play is called.
// timed: the drive has round_minutes (between its rounds the clock shows nothing).
const clock = { started: null, ended: false, timed: false, endsAt: null, timer: null };

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
  const running = current && current.status === "running";
  clock.timed = Boolean(d.round_minutes);
  clock.endsAt = clock.timed && running
    ? (d.round_ends_at ? Date.parse(d.round_ends_at) : 0) : null;
  $("round-clock").dataset.endsAt = clock.endsAt === null ? "" : String(clock.endsAt);
  runClock();
}

function shown(seconds) {
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
}

function tick() {
  const face = $("round-clock");
  if (clock.timed && (clock.ended || clock.endsAt === null)) { face.textContent = ""; return; }
  if (clock.timed) {
    // Whole seconds left, rounded down: never more than the round's minutes (its end is its
    // start rounded up to a whole second, plus round_minutes).
    const left = Math.max(0, Math.floor((clock.endsAt - Date.now()) / 1000));
    face.textContent = left ? shown(left) : "Time is up";
    face.setAttribute("aria-label", left ? `Round clock: ${Math.floor(left / 60)} minutes `
      + `${left % 60} seconds left` : "Round clock: time is up");
    return;
  }
  if (clock.started === null) { face.textContent = ""; return; }
  const seconds = Math.max(0, Math.floor((Date.now() - clock.started) / 1000));
  face.textContent = shown(seconds);
  face.setAttribute("aria-label",
    `Round clock: ${Math.floor(seconds / 60)} minutes ${seconds % 60} seconds played`);
}

/** Shows the clock now and, while the round is in play, each second (the face only). */
function runClock() {
  clearInterval(clock.timer);
  tick();
  if (!clock.ended && (clock.started !== null || clock.endsAt)) clock.timer = setInterval(tick, 1000);
}

function onEvent(event) {
  if (event.type === "round_started") {
    clock.started = Date.parse(event.occurred_at);
    clock.ended = false;
  } else if (event.type === "round_ended" || event.status === "finished") {
    clock.ended = true;
  }
  $("round-clock").dataset.started = clock.started === null ? "" : String(clock.started);
  runClock();
  refresh();
}

// From the start, so the clock learns when the round in play began.
followDrive(driveId, onEvent, 0);
refresh();
