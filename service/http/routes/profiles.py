"""The built-in rules profiles and every option, with defaults."""

# flask-smorest ships no type hints, so its decorators would make every view "untyped".
# mypy: disable-error-code="untyped-decorator"

from __future__ import annotations

from typing import Any

from flask.views import MethodView
from flask_smorest import Blueprint

from engine.profiles import PROFILES, option_specs, profile_players
from service.http.errors import problems
from service.http.schemas.responses import ProfileListSchema

blp = Blueprint("profiles", __name__, url_prefix="/v1/profiles", description="Rules profiles")


def profiles() -> dict[str, Any]:
    """Returns every profile: its name, player counts and options (defaults for the
    smallest table)."""
    listed = []
    for name in PROFILES:
        low, high = profile_players(name)
        listed.append(
            {"name": name, "players": {"min": low, "max": high}, "options": option_specs(name)}
        )
    return {"profiles": listed}


@blp.route("")
class Profiles(MethodView):
    """The profiles."""

    @blp.doc(security=[{}])
    @blp.response(200, ProfileListSchema)
    @problems(blp, 429)
    def get(self) -> Any:
        """The built-in profiles and every option, with defaults."""
        return profiles()
