"""``GET /v1/keys``: the public keys that sign checkpoints (public, no auth)."""

# flask-smorest ships no type hints, so its decorators would make every view "untyped".
# mypy: disable-error-code="untyped-decorator"

from __future__ import annotations

from typing import Any

from flask.views import MethodView
from flask_smorest import Blueprint

from service.application.signing import published_keys
from service.http.errors import problems
from service.http.repository import services
from service.http.schemas.responses import SigningKeysSchema

blp = Blueprint("keys", __name__, url_prefix="/v1/keys", description="Checkpoint signing keys")


@blp.route("")
class SigningKeys(MethodView):
    """The checkpoint signing keys."""

    @blp.doc(security=[{}])
    @blp.response(200, SigningKeysSchema)
    @problems(blp, 429, 503)
    def get(self) -> Any:
        """Every key that signs or signed checkpoints, with its id, oldest first: the key
        signing now has ``retired_at`` null. Verify a checkpoint with the key its ``key_id``
        names (docs/verification.md section 8)."""
        svc = services()
        svc.signing.ensure()
        return {"keys": published_keys(svc.store.client)}
