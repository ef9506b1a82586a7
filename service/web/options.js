// The create-game options in the words players use (GET /v1/profiles gives the names, values
// and defaults; this module only words them), and a refused combination (the 422 of
// POST /v1/games, whose detail names the option) said in plain words next to its control.
// Every sentence restates docs/rules.md; an option not listed here shows the API's own text.

const YES_NO = { true: "Yes", false: "No" };

export const OPTION_WORDS = {
  target: {
    label: "Points to win",
    help: "The score a side needs to win a game (a multiple of 5, up to 1000).",
  },
  match_games: {
    label: "Games to win the match",
    help: "A side must win this many games to win the match; 1 plays a single game.",
  },
  turn_seconds: {
    label: "Turn clock (seconds)",
    help: "Seconds a player has to act before the clock acts for them, from 5 to 86400. Empty: no clock.",
    empty: "no clock",
  },
  min_bid: {
    label: "Lowest bid",
    help: "The lowest bid of the auction; bids go up in fives to 30.",
  },
  layout: {
    label: "Sides",
    help: "Who plays together. Partners alternate around the table, so they sit apart.",
    values: {
      individuals: "Each for themselves",
      pairs: "Partnerships of 2",
      triples: "Partnerships of 3",
    },
  },
  finish: {
    label: "When a game ends",
    help: "Trick by trick: the first side to reach the target wins at once, and later tricks do not count. End of the deal: all five tricks are played, then the scores are checked.",
    values: {
      trick: "As soon as a side reaches the target",
      deal_end: "At the end of the deal",
    },
  },
  jink: {
    label: "Jink",
    help: "Before the opening lead a player may announce taking all five tricks: made, the side's points for the deal are doubled; failed, the game goes to the other side. Only with exactly two sides.",
    values: { none: "No jink", announced: "Announced jink" },
  },
  follow: {
    label: "Following suit",
    help: "On a plain-suit lead: \u201cTrump or follow suit\u201d lets you trump even when you hold the suit led; \u201cMust follow suit\u201d makes you play the suit led when you hold it. Without it, any card may be played.",
    values: {
      trump_or_follow: "Trump or follow suit",
      must_follow: "Must follow suit",
    },
  },
  diamond_ace: {
    label: "Ace of diamonds",
    help: "Where the A\u2666 ranks when diamonds are not trumps.",
    values: { low: "Lowest diamond", below_jack: "Just below the J\u2666" },
  },
  deal_pattern: {
    label: "Dealing",
    help: "Cards to each player in the first round of the deal, then the second.",
    values: { "3-2": "3 then 2 cards", "2-3": "2 then 3 cards" },
  },
  joker: {
    label: "Joker",
    help: "A joker in the pack, always a trump: one of the top trumps.",
    values: { none: "No joker (52 cards)", below_ah: "Joker: below the A\u2665 (53 cards)" },
  },
  decks: {
    label: "Packs",
    help: "Two packs only with 7 or more players; of two identical cards, the one played first ranks higher.",
    values: { 1: "One pack", 2: "Two packs" },
  },
  robbing: {
    label: "Robbing the turn-up",
    help: "The holder of the ace of trumps may take the turn-up, putting a card face down, before their first play (the dealer, when that ace is turned up).",
    values: YES_NO,
  },
  cap_at_target: {
    label: "Scores capped at the target",
    help: "Scores are shown no higher than the target; nothing else changes.",
    values: YES_NO,
  },
  spoil_five: {
    label: "Spoil Five",
    help: "Nobody scores a deal in which no side takes three of the five tricks.",
    values: YES_NO,
  },
  bonus: {
    label: "Highest-trump bonus",
    help: "The trick holding the deal's highest trump scores 5 more: 30 points a deal.",
    values: YES_NO,
  },
};

/** The label, help and value words of option *name* (the API's words where none are here). */
export function optionWords(name, spec) {
  const words = OPTION_WORDS[name] || {};
  return {
    label: words.label || name.replaceAll("_", " "),
    help: words.help || spec.description,
    value: (value) => (words.values && String(value) in words.values ? words.values[String(value)] : String(value)),
    empty: words.empty || "none",
  };
}

const SIZES = { pairs: 2, triples: 3 };

/**
 * A refusal of POST /v1/games in plain words, for the form's choices: {option, text}, or null
 * when the problem names no option. *choices* is {players, options} (every option's value).
 */
export function explainRefusal(detail, choices) {
  const match = /^option '([a-z_]+)'/.exec(detail || "");
  if (!match) return null;
  const option = match[1];
  const { players, options } = choices;
  const size = SIZES[options.layout] || 1;
  const sides = Math.floor(players / size);
  const texts = {
    layout: `Partnerships of ${size} need a number of players that ${size} divides, with at least two sides: ${players} players cannot be seated so.`,
    decks: `Two packs need 7 or more players; this game has ${players}.`,
    jink: `An announced jink needs exactly two sides; these seats make ${sides}.`,
    target: "Points to win must be a multiple of 5, from 5 to 1000.",
    turn_seconds: "The turn clock must be a whole number of seconds from 5 to 86400, or empty for no clock.",
    match_games: "Games to win the match must be a whole number, 1 or more.",
  };
  return { option, text: texts[option] || `This choice does not go with the others: ${detail}.` };
}
