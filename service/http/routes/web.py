"""The web client: the table (``/``, ``/table/<game_id>``), the hand-history viewer
(``/viewer``) and the drive page (``/drive/<drive_id>``), as static pages over the public API.

A plain Flask blueprint, not a flask-smorest one: these pages are not part of the API
contract and stay out of ``openapi.yaml``. The pages are vanilla JavaScript modules served
from ``service/web/`` (no build step, no external resource). Every response of this
blueprint carries a Content-Security-Policy that allows only this origin's scripts, styles
and connections, and no framing. See docs/web-client.md.
"""

from __future__ import annotations

import json
from html import escape
from pathlib import Path
from urllib.parse import quote

from flask import Blueprint, Response, request, send_from_directory

from events.store import check_game_id
from events.types import EVENT_TYPES

WEB_DIR = Path(__file__).resolve().parents[2] / "web"
"""The pages, scripts and style sheet: ``service/web/``, installed as the package data of
``service.web``."""

CONTENT_SECURITY_POLICY = "; ".join(
    (
        "default-src 'none'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "connect-src 'self'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    )
)
"""Only this origin's scripts (no inline script, no eval), styles and requests."""

bp = Blueprint("web", __name__, static_folder=WEB_DIR, static_url_path="/web")
"""Registered by :func:`service.http.app.create_app`."""


@bp.get("/")
def lobby() -> Response:
    """The table page without a game: create one or join one."""
    return _page("table.html")


@bp.get("/table/<game_id>")
def table(game_id: str) -> Response:
    """The table of one game, for the seat named by ``?seat=`` (or as a spectator).

    The seat's token never appears in the URL the server sees: the page reads it from
    ``sessionStorage``, or once from the URL fragment (``#token=...``).
    """
    del game_id  # The page reads it from its own URL.
    return _page("table.html")


@bp.get("/claim/<game_id>/<int:seat>")
def claim(game_id: str, seat: int) -> Response:
    """An invite link: the page claims the seat with the code in its fragment
    (``#code=...``, never sent to the server), keeps the token in the tab and opens the table.
    """
    del game_id, seat  # The page reads them from its own URL.
    return _page("table.html")


@bp.get("/drive/<drive_id>")
def drive(drive_id: str) -> Response:
    """The page of one drive: its round in play, its standings and a printable score card
    (``?card=<player>``); a player's token arrives in the fragment (``#token=...&player=N``)."""
    del drive_id  # The page reads it from its own URL.
    return _page("drive.html")


@bp.get("/drive/<drive_id>/table/<int:table>/score-card")
def score_card(drive_id: str, table: int) -> Response:
    """A paper table's score card on a phone (docs/web-client.md): entered, confirmed or
    disputed with the token in the fragment (``#token=...`` or ``#director=...``)."""
    del drive_id, table  # The page reads them from its own URL.
    return _page("scorecard.html")


@bp.get("/drive/<drive_id>/projector")
def projector(drive_id: str) -> Response:
    """The projector view of a drive: standings and the round clock in large type, following
    the drive's stream (docs/web-client.md)."""
    del drive_id  # The page reads it from its own URL.
    return _page("projector.html")


@bp.get("/drive/<drive_id>/director")
def director(drive_id: str) -> Response:
    """The director's page: the director actions over the API, the token entered or read
    once from the URL fragment (``#director=...``, never sent to the server)."""
    del drive_id  # The page reads it from its own URL.
    return _page("director.html")


@bp.get("/drive/<drive_id>/print")
def hall_print(drive_id: str) -> Response:
    """The hall's printouts: table cards and a movement sheet per round, and each player's
    score card, with a print style sheet for A4 and Letter."""
    del drive_id  # The page reads it from its own URL.
    return _page("print.html")


@bp.get("/viewer")
def viewer() -> Response:
    """The hand-history viewer (``?game=<id>``, or a pasted or uploaded history).

    A link to a deal of a game (``?game=<id>&diagram=<n>``, the viewer's "Link to this event")
    carries Open Graph tags whose image is that deal's picture as a spectator sees it
    (``/v1/games/<id>/deals/<n>/diagram.svg``), for the preview where the link is posted.
    """
    tags = preview_tags(request.url_root, request.args.get("game"), request.args.get("diagram"))
    if not tags:
        return _page("viewer.html")
    page = (WEB_DIR / "viewer.html").read_text(encoding="utf-8")
    response = Response(page.replace("</head>", tags + "</head>", 1), mimetype="text/html")
    response.headers["Cache-Control"] = "no-cache"
    return response


def preview_tags(root: str, game_id: str | None, deal: str | None) -> str:
    """Returns the Open Graph tags of a viewer link to deal *deal* of *game_id* (served from
    *root*), or ``""`` when the link names no valid game and deal."""
    if game_id is None or deal is None or not deal.isdigit() or not 1 <= int(deal) <= 9999:
        return ""
    try:
        check_game_id(game_id)
    except ValueError:
        return ""
    image = f"{root.rstrip('/')}/v1/games/{quote(game_id, safe='')}/deals/{int(deal)}/diagram.svg"
    number = int(deal)
    tags = {"og:title": f"Forty-Five: deal {number} of game {game_id}", "og:type": "website",
            "og:image": image, "og:image:type": "image/svg+xml",
            "og:image:alt": f"The hand diagram of deal {number}"}
    lines = [f'  <meta property="{name}" content="{escape(value)}">'
             for name, value in tags.items()]
    lines.append('  <meta name="twitter:card" content="summary_large_image">')
    return "\n".join(lines) + "\n"


@bp.get("/web/event-types.js")
def event_types() -> Response:
    """Every event type and what ``history show`` says of it, as a JavaScript module made from
    the one registry (:data:`events.types.EVENT_TYPES`): the table listens for each type, and
    the history reader says a type it has no sentence of its own for with the type's
    :attr:`~events.types.Event.SAYS`, so a new event type needs nothing in the web client."""
    response = Response(EVENT_TYPES_MODULE, mimetype="text/javascript")
    response.headers["Cache-Control"] = "no-cache"
    return response


def _module() -> str:
    """Returns the source of ``/web/event-types.js``."""
    def constant(name: str, value: object) -> str:
        return f"export const {name} = {json.dumps(value, indent=2)};\n"

    return (
        "// Made by service/http/routes/web.py from events.types.EVENT_TYPES.\n"
        + constant("EVENT_TYPES", list(EVENT_TYPES))
        + constant("SAYS", {name: kind.SAYS for name, kind in EVENT_TYPES.items()})
        + constant("SAYS_HIDDEN", {name: kind.SAYS_HIDDEN for name, kind in EVENT_TYPES.items()
                                   if kind.SAYS_HIDDEN}))


EVENT_TYPES_MODULE = _module()
"""The source of ``/web/event-types.js`` (made once: the registry does not change)."""


def _page(name: str) -> Response:
    response = send_from_directory(WEB_DIR, name, mimetype="text/html", max_age=0)
    response.headers["Cache-Control"] = "no-cache"
    return response


@bp.after_request
def _secure(response: Response) -> Response:
    """Adds the page headers to every response of the blueprint (static files included)."""
    response.headers["Content-Security-Policy"] = CONTENT_SECURITY_POLICY
    response.headers["Referrer-Policy"] = "no-referrer"
    response.headers["X-Frame-Options"] = "DENY"
    return response
