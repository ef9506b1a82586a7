// The panels under the table: the deal's rulings, and the seats with links for the other
// human seats of this tab's game.

import { el, factItem, fill, invites, kindLabel, seatNumber, sideName, tokens } from "./cards.js";
import { seatLabel, sideOf } from "./felt.js";
import { $, copyButton } from "./page.js";

export function renderFacts(view, table) {
  const deal = view.deal;
  const facts = deal ? deal.facts : [];
  fill($("facts-title"), deal ? `Rulings of deal ${deal.number}` : "Rulings");
  const previous = table.previousDeal;
  const showPrevious = Boolean(previous && deal && previous.number === deal.number - 1);
  $("previous-deal").hidden = !showPrevious;
  fill($("previous-deal"), showPrevious ? previous.node : []);
  fill($("facts"), facts.map((fact) => factItem(fact)));
  $("facts").hidden = facts.length === 0;
  $("facts-empty").hidden = facts.length > 0;
}

export function renderSeatList(view, table) {
  const deal = view.deal;
  const unclaimed = view.unclaimed_seats || [];
  fill($("seat-list"), view.seat_types.map((kind, seat) => {
    const cards = deal ? deal.hand_sizes[seat] : 0;
    return el("li", { class: view.turn === seat ? "to-act" : null },
      el("span", { class: "seat-name", text: seatLabel(seat, view, table.seat) }),
      ` side ${sideName(sideOf(seat, view))} \u00b7 ${kindLabel(kind, (view.seat_levels || [])[seat])} \u00b7 ${cards} card${cards === 1 ? "" : "s"}`,
      deal && deal.dealer === seat ? " \u00b7 dealer" : null,
      unclaimed.includes(seat) ? el("em", { class: "unclaimed", text: " \u00b7 not claimed yet" }) : null,
      view.turn === seat ? el("strong", { text: " \u00b7 to act" }) : null);
  }));
  fill($("auditor-note"), view.auditor
    ? "This game has an auditor token: it can read every hand while the game is played, and each such read is logged for the seats to read once the game is over."
    : "This game has no auditor token: nobody reads the hands while it is played.");
  renderShare(view, table);
}

function renderShare(view, table) {
  const share = $("share");
  const links = [];
  const unclaimed = view.unclaimed_seats || [];
  view.seat_types.forEach((kind, seat) => {
    if (kind !== "human" || seat === table.seat) return;
    const invite = invites.get(table.gameId, seat);
    if (invite && unclaimed.includes(seat)) {
      const id = `share-invite-${seat}`;
      links.push(el("li", {},
        el("label", { for: id, text: `Invite link for seat ${seatNumber(seat)} (works once, for whoever opens it first)` }),
        el("input", { id, type: "text", readonly: true, value: invite, class: "mono", onfocus: (event) => event.target.select() }),
        " ", copyButton(invite, `Copy the invite link for seat ${seatNumber(seat)}`)));
      return;
    }
    const token = tokens.get(table.gameId, seat);
    if (!token) return;
    const base = `${window.location.origin}/table/${encodeURIComponent(table.gameId)}?seat=${seat}`;
    const id = `share-${seat}`;
    links.push(el("li", {},
      el("a", { href: `/table/${encodeURIComponent(table.gameId)}?seat=${seat}`, text: `Play seat ${seatNumber(seat)} in this tab` }),
      el("label", { for: id, text: `Link for seat ${seatNumber(seat)} (holds its token: give it only to that player)` }),
      el("input", { id, type: "text", readonly: true, value: `${base}#token=${token}`, class: "mono", onfocus: (event) => event.target.select() })));
  });
  share.hidden = links.length === 0;
  fill(share, links.length ? [el("h4", { text: "Other seats" }), el("ul", {}, links)] : []);
}
