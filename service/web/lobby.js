// The lobby: create a game (profile, seats, options) or join one by its id and a seat token,
// and claim a seat from an invite link.

import { el, fill, invites, readProblem, seatNumber, tokens } from "./cards.js";
import { $, api, clearMessage, copyButton, say, showProblem } from "./page.js";
import { explainRefusal, optionWords } from "./options.js";

const lobby = { profiles: [] };
/** What a refused name (422 invalid_name) is told, in the page's words: the API's detail counts
 * seats from 0, the page from 1. */
const NAME_RULE = "That name cannot be used: a name has up to 40 characters, not all blank, and no control or text-direction characters.";


export async function openLobby() {
  $("lobby").hidden = false;
  document.title = "Forty-Five: create or join a game";
  $("create-form").addEventListener("submit", createGame);
  $("join-form").addEventListener("submit", joinGame);
  $("players").addEventListener("input", () => {
    renderSeatChoices();
    followDefaults();
  });
  $("profile").addEventListener("change", () => selectProfile());
  const response = await api("/v1/profiles");
  if (!response.ok) {
    await showProblem(response, "Could not load the rules profiles: ");
    return;
  }
  const body = await response.json();
  lobby.profiles = body.profiles;
  fill($("profile"), body.profiles.map((profile) => el("option", {
    value: profile.name,
    text: `${profile.name} (${profile.players.min === profile.players.max
      ? profile.players.min : `${profile.players.min} to ${profile.players.max}`} players)`,
  })));
  const preferred = body.profiles.find((profile) => profile.name === "classic");
  if (preferred) $("profile").value = preferred.name;
  selectProfile();
}

function currentProfile() {
  return (lobby.profiles || []).find((profile) => profile.name === $("profile").value);
}

function selectProfile() {
  const profile = currentProfile();
  if (!profile) return;
  const players = $("players");
  players.min = String(profile.players.min);
  players.max = String(profile.players.max);
  players.value = String(profile.players.min);
  players.disabled = profile.players.min === profile.players.max;
  renderSeatChoices();
  renderOptions(profile);
}

/** The table size the form asks for, within the profile's range. */
function tableSize(profile) {
  const players = Number.parseInt($("players").value, 10);
  return profile ? Math.min(Math.max(players || profile.players.min, profile.players.min), profile.players.max) : 2;
}

/** An option's default at *count* seats (classic's layout depends on the table size). */
function defaultAt(spec, count) {
  const varying = spec.default_by_players;
  return varying && String(count) in varying ? varying[String(count)] : spec.default;
}

/** Shows, for the new table size, the default of each option whose default depends on it. */
function followDefaults() {
  const profile = currentProfile();
  if (!profile) return;
  const count = tableSize(profile);
  for (const select of document.querySelectorAll("select[data-option]")) {
    const spec = profile.options[select.dataset.option];
    if (spec.default_by_players) select.value = JSON.stringify(defaultAt(spec, count));
  }
}

function renderSeatChoices() {
  const profile = currentProfile();
  const count = tableSize(profile);
  const previous = Array.from(document.querySelectorAll("#seat-choices select"), (select) => select.value);
  fill($("seat-choices"), Array.from({ length: count }, (_, seat) => el("p", { class: "field seat-choice" },
    el("label", { for: `seat-type-${seat}`, text: `Seat ${seatNumber(seat)}` }),
    el("select", { id: `seat-type-${seat}`, name: `seat-${seat}` },
      el("option", { value: "human", text: "Human", selected: (previous[seat] || (seat === 0 ? "human" : "bot")) === "human" }),
      el("option", { value: "bot", text: "Bot", selected: (previous[seat] || (seat === 0 ? "human" : "bot")) === "bot" })))));
}

function renderOptions(profile) {
  const count = tableSize(profile);
  const fields = Object.entries(profile.options).map(([name, spec]) => {
    const id = `option-${name}`;
    const words = optionWords(name, spec);
    const described = `${id}-help ${id}-error`;
    let input;
    if (Array.isArray(spec.values)) {
      input = el("select", { id, "data-option": name, "aria-describedby": described, onchange: clearOptionErrors },
        spec.values.map((value) => el("option", {
          value: JSON.stringify(value), text: words.value(value),
          selected: value === defaultAt(spec, count),
        })));
    } else {
      input = el("input", {
        id, type: "number", min: "0", "data-option": name, "aria-describedby": described,
        value: spec.default === null ? "" : String(spec.default),
        placeholder: spec.default === null ? words.empty : "", oninput: clearOptionErrors,
      });
    }
    return el("p", { class: "field option" },
      el("label", { for: id, text: words.label }), input,
      el("span", { id: `${id}-help`, class: "help", text: words.help }),
      el("span", { id: `${id}-error`, class: "field-error", hidden: true }));
  });
  fill($("option-fields"), fields);
}

function clearOptionErrors() {
  for (const box of document.querySelectorAll("#option-fields .field-error")) {
    box.hidden = true;
    fill(box);
  }
  for (const input of document.querySelectorAll("#option-fields [aria-invalid]")) input.removeAttribute("aria-invalid");
}

/** Says a refused option next to its control, in plain words, and takes the focus there. */
function showOptionError(problem, profile) {
  const options = {};
  for (const [name, spec] of Object.entries(profile.options)) options[name] = spec.default;
  Object.assign(options, chosenOptions(profile));
  const players = document.querySelectorAll("#seat-choices select").length;
  const said = explainRefusal(problem.detail, { players, options });
  const input = said && $(`option-${said.option}`);
  if (!input) return false;
  $("options-details").open = true;
  const box = $(`option-${said.option}-error`);
  fill(box, said.text);
  box.hidden = false;
  input.setAttribute("aria-invalid", "true");
  input.focus();
  say("The game was not created: one option does not go with the others (see Options).", "error");
  return true;
}

function chosenOptions(profile) {
  const count = tableSize(profile);
  const options = {};
  for (const input of document.querySelectorAll("[data-option]")) {
    const name = input.dataset.option;
    const spec = profile.options[name];
    let value;
    if (input.tagName === "SELECT") value = JSON.parse(input.value);
    else value = input.value.trim() === "" ? null : Number(input.value);
    if (value !== defaultAt(spec, count)) options[name] = value;
  }
  return options;
}

async function createGame(event) {
  event.preventDefault();
  const profile = currentProfile();
  if (!profile) return;
  const kinds = Array.from(document.querySelectorAll("#seat-choices select"), (select) => select.value);
  const own = kinds.indexOf("human");
  // Every human seat but the creator's own is claimable: its token goes to whoever opens its
  // invite link first, and the creator never holds it.
  const name = $("own-name").value.trim();
  const seats = kinds.map((type, seat) => (type === "human" && seat !== own
    ? { type, claimable: true } : { type, ...(seat === own && name ? { name } : {}) }));
  const auditor = $("want-auditor").checked;
  const button = $("create-button");
  button.disabled = true;
  say("Creating the game\u2026");
  try {
    const response = await api("/v1/games", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ profile: profile.name, options: chosenOptions(profile), seats, auditor }),
    });
    if (!response.ok) {
      const problem = await readProblem(response);
      if (problem.body && problem.body.code === "invalid_name") {
        say(`The game was not created: ${NAME_RULE}`, "error");
      } else if (problem.status !== 422 || !showOptionError(problem, profile)) {
        say(`The game was not created: ${problem.detail}`, "error");
      }
      return;
    }
    clearMessage();
    const created = await response.json();
    for (const seat of created.seats) {
      if (seat.token) tokens.set(created.id, seat.seat, seat.token);
      if (seat.claim) invites.set(created.id, seat.seat, new URL(seat.claim.invite, window.location.origin).href);
    }
    if (created.auditor_token) tokens.set(created.id, "auditor", created.auditor_token);
    const human = created.seats.find((seat) => seat.token);
    const tableUrl = `/table/${encodeURIComponent(created.id)}${human ? `?seat=${human.seat}` : ""}`;
    const claimable = created.seats.filter((seat) => seat.claim);
    if (claimable.length === 0) window.location.assign(tableUrl);
    else showInvites(created, claimable, tableUrl);
  } catch (error) {
    say(`The game was not created: ${error.message}`, "error");
  } finally {
    button.disabled = false;
  }
}

function showInvites(created, claimable, tableUrl) {
  $("create-form").hidden = true;
  fill($("invite-list"), claimable.map((seat) => {
    const link = invites.get(created.id, seat.seat);
    const id = `invite-${seat.seat}`;
    return el("li", {},
      el("label", { for: id, text: `Invite link for seat ${seatNumber(seat.seat)}` }),
      el("input", { id, type: "text", readonly: true, value: link, class: "mono", onfocus: (event) => event.target.select() }),
      " ", copyButton(link, `Copy the invite link for seat ${seatNumber(seat.seat)}`, `copy-invite-${seat.seat}`));
  }));
  fill($("invite-auditor"), created.auditor
    ? "This game has an auditor token (kept in this tab): every player sees that it exists, and its reads of a live deal are logged."
    : "This game has no auditor token: nobody can read the hands while it is played.");
  $("open-own-seat").onclick = () => window.location.assign(tableUrl);
  $("invites").hidden = false;
  say(`Game ${created.id} created. Send each invite link to its player, then open your seat.`, "success");
  ($("invite-list").querySelector("input") || $("open-own-seat")).focus();
}

/** The page of an invite link, `/claim/<game>/<seat>#code=<code>`: asks the name the player
 * wants to be called by (optional), claims the seat once and opens its table. The code is in
 * the fragment, so no server ever logs it. A refused name is said under its field and the seat
 * stays free (the server records nothing then). */
export async function claimFromLink(gameId, seat) {
  $("lobby").hidden = false;
  document.title = `Forty-Five: claim seat ${seatNumber(seat)}`;
  $("join-form").addEventListener("submit", joinGame);
  $("create-form").hidden = true;
  const code = new URLSearchParams(window.location.hash.slice(1)).get("code");
  window.history.replaceState(null, "", window.location.pathname);
  const tableUrl = `/table/${encodeURIComponent(gameId)}`;
  if (tokens.get(gameId, seat)) {
    window.location.assign(`${tableUrl}?seat=${seat}`);
    return;
  }
  if (!code) {
    say("This invite link has no claim code: ask for the whole link.", "error");
    return;
  }
  const usedAlready = () => say("This invite was used already: the seat belongs to whoever opened it first.",
    "error", el("a", { href: tableUrl, text: "Watch the game" }));
  try {
    const game = await api(`/v1/games/${encodeURIComponent(gameId)}`);
    if (game.ok && !((await game.json()).unclaimed_seats || []).includes(seat)) {
      usedAlready();
      return;
    }
  } catch (error) {
    // The claim itself will say what is wrong.
  }
  const form = $("claim-form");
  $("claim-title").textContent = `Take seat ${seatNumber(seat)}`;
  form.hidden = false;
  $("claim-name").focus();
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const field = $("claim-name");
    const error = $("claim-name-error");
    error.hidden = true;
    field.removeAttribute("aria-invalid");
    const name = field.value.trim() || null;
    $("claim-button").disabled = true;
    say(`Claiming seat ${seatNumber(seat)}\u2026`);
    try {
      const response = await api(`/v1/games/${encodeURIComponent(gameId)}/seats/${seat}/claim`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ code, name }),
      });
      if (!response.ok) {
        const problem = await readProblem(response);
        const kind = problem.body && problem.body.code;
        if (kind === "name_taken" || kind === "invalid_name") {
          // In the page's own words: the API's detail counts seats from 0.
          clearMessage();
          error.textContent = kind === "name_taken"
            ? `Another seat at this table is named ${JSON.stringify(name)} (case and spacing aside): choose another name. The seat is still free.`
            : `${NAME_RULE} The seat is still free.`;
          error.hidden = false;
          field.setAttribute("aria-invalid", "true");
          field.focus();
        } else if (problem.status === 410) {
          form.hidden = true;
          usedAlready();
        } else {
          say(`The seat was not claimed: ${problem.detail} (${problem.status})`, "error");
        }
        return;
      }
      const claimed = await response.json();
      tokens.set(gameId, claimed.seat, claimed.token);
      window.location.assign(`${tableUrl}?seat=${claimed.seat}`);
    } catch (failure) {
      say(`The seat was not claimed: ${failure.message}`, "error");
    } finally {
      $("claim-button").disabled = false;
    }
  });
}

export function joinGame(event) {
  event.preventDefault();
  const gameId = $("join-game").value.trim();
  const seat = Number.parseInt($("join-seat").value, 10) - 1;  // People count seats from 1.
  const token = $("join-token").value.trim();
  if (!gameId) {
    say("Enter the game id.", "error");
    return;
  }
  if (token && Number.isInteger(seat)) {
    tokens.set(gameId, seat, token);
    window.location.assign(`/table/${encodeURIComponent(gameId)}?seat=${seat}`);
  } else {
    window.location.assign(`/table/${encodeURIComponent(gameId)}`);
  }
}

