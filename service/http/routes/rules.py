"""Stateless rulings over HTTP: which cards of a hand may be played to a trick, and who wins
a trick. A thin layer over :mod:`engine.query`, as ``fortyfive rules`` is: the same answer and
the same refusal, field for field.
"""

# flask-smorest ships no type hints, so its decorators would make every view "untyped".
# mypy: disable-error-code="untyped-decorator"

from __future__ import annotations

from typing import Any

from flask.views import MethodView
from flask_smorest import Blueprint

from engine.query import legal_query, winner_query
from service.http.errors import problems
from service.http.schemas.requests import LegalRequestSchema, WinnerRequestSchema
from service.http.schemas.responses import LegalSchema, WinnerSchema

blp = Blueprint(
    "rules", __name__, url_prefix="/v1/rules",
    description="Stateless rulings for a hand, a trick and a trump",
)


@blp.route("/legal")
class Legal(MethodView):
    """Legal plays."""

    @blp.doc(security=[{}])
    @blp.arguments(LegalRequestSchema())
    @blp.response(200, LegalSchema)
    @problems(blp, 400, 413, 415, 429)
    def post(self, body: dict[str, Any]) -> Any:
        """Which cards of a hand may be played to a trick, and the rule that decides."""
        return legal_query(
            body["profile"], body["options"], body.get("players"), body["trump"],
            body["trick"], body["hand"],
        )


@blp.route("/winner")
class Winner(MethodView):
    """Trick winners."""

    @blp.doc(security=[{}])
    @blp.arguments(WinnerRequestSchema())
    @blp.response(200, WinnerSchema)
    @problems(blp, 400, 413, 415, 429)
    def post(self, body: dict[str, Any]) -> Any:
        """Which card of a trick wins it, and the rule that decides."""
        return winner_query(
            body["profile"], body["options"], body.get("players"), body["trump"], body["trick"]
        )
