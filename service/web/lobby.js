// The lobby: create a game (profile, seats, options) or join one by its id and a seat token.

import { el, fill, tokens } from "./cards.js";
import { $, api, say, showProblem } from "./page.js";

const lobby = { profiles: [] };


export async function openLobby() {
  $("lobby").hidden = false;
  document.title = "Forty-Five: create or join a game";
  $("create-form").addEventListener("submit", createGame);
  $("join-form").addEventListener("submit", joinGame);
  $("players").addEventListener("input", () => renderSeatChoices());
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

function renderSeatChoices() {
  const profile = currentProfile();
  const players = Number.parseInt($("players").value, 10);
  const count = profile ? Math.min(Math.max(players || profile.players.min, profile.players.min), profile.players.max) : 2;
  const previous = Array.from(document.querySelectorAll("#seat-choices select"), (select) => select.value);
  fill($("seat-choices"), Array.from({ length: count }, (_, seat) => el("p", { class: "field seat-choice" },
    el("label", { for: `seat-type-${seat}`, text: `Seat ${seat}` }),
    el("select", { id: `seat-type-${seat}`, name: `seat-${seat}` },
      el("option", { value: "human", text: "Human", selected: (previous[seat] || (seat === 0 ? "human" : "bot")) === "human" }),
      el("option", { value: "bot", text: "Bot", selected: (previous[seat] || (seat === 0 ? "human" : "bot")) === "bot" })))));
}

function renderOptions(profile) {
  const fields = Object.entries(profile.options).map(([name, spec]) => {
    const id = `option-${name}`;
    let input;
    if (Array.isArray(spec.values)) {
      input = el("select", { id, "data-option": name, "aria-describedby": `${id}-help` },
        spec.values.map((value) => el("option", {
          value: JSON.stringify(value), text: String(value), selected: value === spec.default,
        })));
    } else {
      input = el("input", {
        id, type: "number", min: "0", "data-option": name, "aria-describedby": `${id}-help`,
        value: spec.default === null ? "" : String(spec.default),
        placeholder: spec.default === null ? "none" : "",
      });
    }
    return el("p", { class: "field option" },
      el("label", { for: id, text: name.replaceAll("_", " ") }), input,
      el("span", { id: `${id}-help`, class: "help", text: spec.description }));
  });
  fill($("option-fields"), fields);
}

function chosenOptions(profile) {
  const options = {};
  for (const input of document.querySelectorAll("[data-option]")) {
    const name = input.dataset.option;
    const spec = profile.options[name];
    let value;
    if (input.tagName === "SELECT") value = JSON.parse(input.value);
    else value = input.value.trim() === "" ? null : Number(input.value);
    if (value !== spec.default) options[name] = value;
  }
  return options;
}

async function createGame(event) {
  event.preventDefault();
  const profile = currentProfile();
  if (!profile) return;
  const seats = Array.from(document.querySelectorAll("#seat-choices select"), (select) => ({ type: select.value }));
  const button = $("create-button");
  button.disabled = true;
  say("Creating the game\u2026");
  try {
    const response = await api("/v1/games", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ profile: profile.name, options: chosenOptions(profile), seats }),
    });
    if (!response.ok) {
      await showProblem(response, "The game was not created: ");
      return;
    }
    const created = await response.json();
    for (const seat of created.seats) {
      if (seat.token) tokens.set(created.id, seat.seat, seat.token);
    }
    tokens.set(created.id, "auditor", created.auditor_token);
    const human = created.seats.find((seat) => seat.token);
    const query = human ? `?seat=${human.seat}` : "";
    window.location.assign(`/table/${encodeURIComponent(created.id)}${query}`);
  } catch (error) {
    say(`The game was not created: ${error.message}`, "error");
  } finally {
    button.disabled = false;
  }
}

export function joinGame(event) {
  event.preventDefault();
  const gameId = $("join-game").value.trim();
  const seat = Number.parseInt($("join-seat").value, 10);
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

