"""Hand-history endpoints: history, replay, audit, and importing histories.

Owned by the hand-history work (issue 5); the app factory registers :data:`blp`.
"""

from __future__ import annotations

from flask_smorest import Blueprint

blp = Blueprint("histories", __name__, description="Hand histories, replays and audits")
