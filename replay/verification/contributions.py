"""Who contributed to each deal's deck, and whether the bots' and the clock's cuts are the
committed ones (docs/verification.md, section 6).

A ``hmac-sha256-fy/2`` deck depends on the seed and on every contribution made after the
seed's commitment was public. A person's nonce (lowercase hex, drawn by the seat's client)
makes the deck unknowable to everyone, the server included, until the cut: such a deal is
*unsteerable*. A person's cut without a nonce has only ``n - 1`` values, so a server choosing
among many seeds could still favour a seat a little (``fortyfive bench grind --cut-only``).
A deal with no person's contribution (bots and the clock only, or ``/1``) is only as fair as
the server: it knew every input when it drew the seed. The bots' and the clock's cuts come
from the game's contribution secret, committed in ``game_created`` before any seed; once the
secret is in the history (every view once the game is over) each such cut is checked. Where
``game_created`` commits a nonce window too, each such cut must also wait for it
(:mod:`engine.nonce_window`): it comes after every human seat's nonce, or at least the window
after its deal's shuffle by the events' ``occurred_at``.
"""

from __future__ import annotations

import dataclasses
import hashlib
from collections.abc import Mapping, Sequence
from typing import Any, Literal

from engine.errors import FortyFiveError
from engine.nonce_window import cut_wait, missing_nonces, nonce_too_late
from engine.profiles import RuleSet, make_ruleset
from engine.shuffle import ALGORITHM_2, committed_cut, pack
from engine.sides import seat_name
from events.envelope import parse_timestamp
from replay.formats.document import HandHistory, HistoryEvent
from replay.verification.findings import Finding

CODES = ("contribution",)
"""``contribution``: a bot's or the turn clock's cut is not the one the game's contribution
secret commits it to, the secret does not match its commitment, or a seed commitment is used
for two deals."""

Fairness = Literal["person_nonce", "person_cut", "server_only", "recorded", "pending"]


@dataclasses.dataclass(frozen=True, slots=True)
class DealContributions:
    """The contributions to one deal's deck, as the history shows them."""

    deal: int
    version: int
    """The event that opened the deal (its shuffle, or its recorded hands)."""
    algorithm: str | None
    context: str | None
    nonce_seats: tuple[int, ...]
    """Human seats that sent a nonce themselves (``deal_contributed``, or with their cut)."""
    cut_seat: int | None
    cut_by: Literal["person", "bot", "clock"] | None
    committed_cut: Literal["checked", "unchecked", "none"]
    """For a bot's or the clock's cut of a ``/2`` deal: ``checked`` against the revealed
    secret, ``unchecked`` while the secret is hidden; ``none`` for a person's cut."""
    fairness: Fairness

    def to_dict(self) -> dict[str, Any]:
        """Returns the JSON form (``contributions`` of a verification report)."""
        return dataclasses.asdict(self) | {"nonce_seats": list(self.nonce_seats)}

    def sentence(self) -> str:
        """Says what the deal's fairness rests on."""
        head = f"deal {self.deal} ({self.algorithm or 'recorded at a table'})"
        if self.fairness == "person_nonce":
            seats = ", ".join(map(seat_name, self.nonce_seats))
            return (f"{head}: a person's nonce after the commitment (seat {seats}): nobody, the "
                    "server included, could compute the deck while it could still change it")
        if self.fairness == "person_cut":
            return (f"{head}: a person's cut (seat {_seat(self.cut_seat)}) but no person's "
                    "nonce: the server could not know the deck, but could have chosen among "
                    "seeds for the cuts it might get")
        if self.fairness == "recorded":
            return f"{head}: the hands are as recorded; no seed"
        if self.fairness == "pending":
            return f"{head}: waits for its cut; the seats may still contribute"
        return (f"{head}: no person's contribution: this deal is only as fair as the server, "
                "which knew every input when it drew the seed")


def contributions(history: HandHistory) -> tuple[list[DealContributions], list[tuple[str, int]]]:
    """Returns each deal's contributions and the problems found: ``(message, version)`` for a
    bot's or clock's cut that is not the committed one or that did not wait for the nonce
    window, a secret that does not match its commitment, or a seed commitment used for two
    deals."""
    events = history.events
    problems: list[tuple[str, int]] = []
    created = events[0].data if events and events[0].type == "game_created" else {}
    listed = created.get("seats")
    # A tampered seat list is the seats check's to report; here it only means nobody is human.
    seats: Sequence[str] = listed if isinstance(listed, list | tuple) else ()
    secret = _secret(created, problems)
    window = _window(created, problems)
    rules = _rules(history)
    found: list[DealContributions] = []
    seen: dict[str, tuple[int, int]] = {}
    for opening, section in _deals(events):
        data = opening.data
        deal = data.get("deal")
        if not isinstance(deal, int):
            continue
        if opening.type == "deal_recorded":
            found.append(DealContributions(deal, opening.version, None, None, (), None, None,
                                           "none", "recorded"))
            continue
        commitment = data.get("commitment")
        if isinstance(commitment, str):
            if commitment in seen:
                problems.append((f"deal {deal} is shuffled with the seed commitment of deal "
                                 f"{seen[commitment][0]}: a seed is used once", opening.version))
            seen.setdefault(commitment, (deal, opening.version))
        found.append(_deal(opening, section, seats, secret, rules, problems))
        _check_window(found[-1], opening, section, seats, window, problems)
    return found, problems


def check(history: HandHistory) -> tuple[list[DealContributions], list[Finding]]:
    """Says per deal whether a person contributed, and checks the committed cuts: returns what
    :func:`contributions` finds, its problems as findings."""
    found, problems = contributions(history)
    return found, [Finding("contribution", message, version) for message, version in problems]


def _window(created: Mapping[str, Any], problems: list[tuple[str, int]]) -> int | None:
    window = created.get("nonce_window")
    if window is None:
        return None
    if type(window) is not int or window < 1:
        problems.append((f"game_created: the nonce window {window!r} is not a whole number of "
                         "seconds from 1", 1))
        return None
    return window


def _check_window(found: DealContributions, opening: HistoryEvent,
                  section: Sequence[HistoryEvent], seats: Sequence[str], window: int | None,
                  problems: list[tuple[str, int]]) -> None:
    """Checks that a bot's or the clock's cut waited for the human seats' nonces (after all of
    them, or at least *window* seconds after the deal's shuffle), and that a deal a bot cut
    took no nonce after the window."""
    if window is None or found.cut_by not in ("bot", "clock") or found.algorithm != ALGORITHM_2:
        return
    cut = next(event for event in section if event.type == "deck_cut")

    def since_shuffle(event: HistoryEvent) -> float | None:
        if opening.occurred_at is None or event.occurred_at is None:
            return None  # A draft: no times to check.
        try:
            return (parse_timestamp(event.occurred_at)
                    - parse_timestamp(opening.occurred_at)).total_seconds()
        except ValueError as error:
            problems.append((f"deal {found.deal}: {error}", event.version))
            return None

    for nonce in (event for event in section if event.type == "deal_contributed"
                  and event.version < cut.version):
        late = since_shuffle(nonce)
        if late is not None and nonce_too_late(window, late, found.cut_by == "bot"):
            seat = _seat(nonce.data.get("seat"))
            problems.append((f"deal {found.deal}: the nonce of seat {seat} "
                             f"was taken {late:.3f} s after the shuffle, after the {window} s "
                             "nonce window of a deal a bot cuts had closed: the server chose "
                             "to count it", nonce.version))
    missing = missing_nonces(seats, found.nonce_seats)
    waited = since_shuffle(cut) if missing else None
    if waited is not None and cut_wait(window, waited, missing) > 0:
        seat_list = ", ".join(map(seat_name, missing))
        problems.append((f"deal {found.deal}: the {found.cut_by}'s cut came {waited:.3f} s "
                         f"after the shuffle, before the {window} s nonce window closed, and "
                         f"without the nonce of seat {seat_list}: the server shut a person out "
                         "of the deck", cut.version))


def _seat(seat: object) -> str:
    """Returns a seat as people count it (from 1); a value that is no seat as it is."""
    return seat_name(seat) if isinstance(seat, int) else str(seat)


def _secret(created: Mapping[str, Any], problems: list[tuple[str, int]]) -> str | None:
    secret = created.get("contribution_secret")
    if not isinstance(secret, str):
        return None
    try:
        actual = hashlib.sha256(bytes.fromhex(secret)).hexdigest()
    except ValueError:
        actual = None
    if actual != created.get("contribution_commitment"):
        problems.append(("game_created: the contribution secret does not match its commitment",
                         1))
        return None
    return secret


def _rules(history: HandHistory) -> RuleSet | None:
    block = history.rules
    if block is None or block.players is None:
        return None
    try:
        return make_ruleset(block.profile, block.options, block.players)
    except FortyFiveError:
        return None


def _deals(events: Sequence[HistoryEvent]) -> list[tuple[HistoryEvent, list[HistoryEvent]]]:
    """Returns each deal's opening event and the events of the deal after it."""
    deals: list[tuple[HistoryEvent, list[HistoryEvent]]] = []
    for event in events:
        if event.type in ("deck_shuffled", "deal_recorded"):
            deals.append((event, []))
        elif deals:
            deals[-1][1].append(event)
    return deals


def _deal(opening: HistoryEvent, section: list[HistoryEvent], seats: Sequence[str],
          secret: str | None, rules: RuleSet | None,
          problems: list[tuple[str, int]]) -> DealContributions:
    data = opening.data
    deal = int(data["deal"])
    algorithm = data.get("algorithm")
    context = data.get("context")

    def human(actor: object) -> bool:
        return isinstance(actor, int) and 0 <= actor < len(seats) and seats[actor] == "human"

    nonce_seats = [event.data.get("seat") for event in section
                   if event.type == "deal_contributed" and human(event.actor)
                   and event.actor == event.data.get("seat")]
    cut = next((event for event in section if event.type == "deck_cut"), None)
    cut_seat = cut.data.get("seat") if cut is not None else None
    cut_by: Literal["person", "bot", "clock"] | None = None
    checked: Literal["checked", "unchecked", "none"] = "none"
    if cut is not None and isinstance(cut_seat, int):
        if cut.actor == "server":
            cut_by = "clock"
        elif human(cut.actor) and cut.actor == cut_seat:
            cut_by = "person"
            if cut.data.get("nonce") is not None:
                nonce_seats.append(cut_seat)
        else:
            cut_by = "bot"
        if cut_by != "person" and algorithm == ALGORITHM_2:
            checked = _check_cut(cut, deal, context, secret, rules, problems)
    fairness: Fairness = ("pending" if cut is None
                          else "person_nonce" if nonce_seats and algorithm == ALGORITHM_2
                          else "person_cut" if cut_by == "person" else "server_only")
    return DealContributions(deal, opening.version, algorithm if isinstance(algorithm, str)
                             else None, context if isinstance(context, str) else None,
                             tuple(seat for seat in nonce_seats if isinstance(seat, int)),
                             cut_seat if isinstance(cut_seat, int) else None, cut_by, checked,
                             fairness)


def _check_cut(cut: HistoryEvent, deal: int, context: object, secret: str | None,
               rules: RuleSet | None, problems: list[tuple[str, int]],
               ) -> Literal["checked", "unchecked"]:
    if secret is None or rules is None or not isinstance(context, str):
        return "unchecked"
    seat = int(cut.data["seat"])
    wanted = committed_cut(secret, context, deal, seat, len(pack(rules)))
    if cut.data.get("position") != wanted:
        problems.append((f"deal {deal}: the cut of seat {seat_name(seat)} by the "
                         f"{'clock' if cut.actor == 'server' else 'bot'} is at "
                         f"{cut.data.get('position')}, but the committed contribution secret "
                         f"gives {wanted}", cut.version))
    return "checked"
