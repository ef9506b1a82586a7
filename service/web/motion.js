// Motion and alerts at the table: a card played slides in from its seat's side to the trick,
// the cards of a won trick drift toward the winner's seat (both short, and none at all under
// prefers-reduced-motion: motion.css), and a "your turn" sound and vibration, each off until a
// person turns it on, remembered in this browser (localStorage).

const seen = new Set();
/** The plays already shown ("deal:trick:seat"), so that a card slides in once, not on every
 * re-render of the trick. */

const SETTINGS = { sound: "fortyfive.alert.sound", vibrate: "fortyfive.alert.vibrate" };

/** Whether the alert *kind* ("sound" or "vibrate") is on in this browser (off by default). */
export function alertOn(kind) {
  try {
    return localStorage.getItem(SETTINGS[kind]) === "on";
  } catch {
    return false;
  }
}

/** Turns the alert *kind* on or off in this browser. */
export function setAlert(kind, on) {
  try {
    localStorage.setItem(SETTINGS[kind], on ? "on" : "off");
  } catch {
    // A browser that keeps nothing: the setting lasts for this page only.
  }
}

/** Binds the checkboxes #alert-sound and #alert-vibrate (if present) to the settings. */
export function bindAlerts(doc = document) {
  for (const kind of Object.keys(SETTINGS)) {
    const box = doc.getElementById(`alert-${kind}`);
    if (!box) continue;
    box.checked = alertOn(kind);
    box.addEventListener("change", () => setAlert(kind, box.checked));
  }
}

let wasMyTurn = false;

/** Says "your turn" by the alerts that are on, once each time the turn comes to this seat. */
export function noticeTurn(myTurn) {
  const arrived = myTurn && !wasMyTurn;
  wasMyTurn = myTurn;
  if (!arrived) return;
  if (alertOn("vibrate") && typeof navigator.vibrate === "function") navigator.vibrate([90, 60, 90]);
  if (alertOn("sound")) chime();
}

function chime() {
  const Context = window.AudioContext || window.webkitAudioContext;
  if (!Context) return;
  try {
    const audio = new Context();
    const tone = audio.createOscillator();
    const gain = audio.createGain();
    tone.frequency.value = 660;
    gain.gain.setValueAtTime(0.0001, audio.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.2, audio.currentTime + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, audio.currentTime + 0.35);
    tone.connect(gain).connect(audio.destination);
    tone.start();
    tone.stop(audio.currentTime + 0.4);
    tone.onended = () => audio.close();
  } catch {
    // No sound where the browser refuses audio before a gesture.
  }
}

/**
 * Marks the cards of trick list *list* that arrive now ("arriving", from their seat's side,
 * *angleOf(seat)* in radians) and, when the trick is won and held, those that go to the
 * winner ("leaving", toward *angleOf(winner)*). *key* names the trick ("deal:trick").
 */
export function animateTrick(list, key, angleOf, winner = null) {
  for (const item of list.querySelectorAll("li[data-seat]")) {
    const seat = Number(item.dataset.seat);
    const id = `${key}:${seat}`;
    if (!seen.has(id)) {
      seen.add(id);
      const angle = angleOf(seat);
      item.style.setProperty("--from-x", `${Math.round(Math.cos(angle) * 120)}%`);
      item.style.setProperty("--from-y", `${Math.round(Math.sin(angle) * 120)}%`);
      item.classList.add("arriving");
    }
    if (winner !== null && winner !== undefined && list.dataset.held === "true") {
      const angle = angleOf(winner);
      item.style.setProperty("--to-x", `${Math.round(Math.cos(angle) * 80)}%`);
      item.style.setProperty("--to-y", `${Math.round(Math.sin(angle) * 80)}%`);
      item.classList.add("leaving");
    }
  }
}
