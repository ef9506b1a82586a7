"""``/v1/log``: the transparency log of every signed checkpoint (public, no auth).

The latest signed tree head, a fresh one on request, the leaves in a range, the audit path of
a leaf by its hash and the consistency proof between two tree sizes: what a client needs to
check that a checkpoint it holds is in the log, and a monitor that the log only grows
(docs/verification.md, "The log").
"""

# flask-smorest ships no type hints, so its decorators would make every view "untyped".
# mypy: disable-error-code="untyped-decorator"

from __future__ import annotations

from typing import Any, NoReturn

from flask.views import MethodView
from flask_smorest import Blueprint, abort

from events import merkle
from events.transparency_log import LogRangeError
from service.http.errors import problems
from service.http.repository import services
from service.http.schemas.log import (
    ConsistencyQuerySchema,
    ConsistencySchema,
    EntriesQuerySchema,
    EntriesSchema,
    InclusionQuerySchema,
    InclusionSchema,
    TreeHeadRequestSchema,
    TreeHeadSchema,
)

blp = Blueprint("log", __name__, url_prefix="/v1/log",
                description="The transparency log of signed checkpoints")


def _bad_range(error: LogRangeError) -> NoReturn:
    abort(400, message=str(error), code="invalid_log_range")
    raise AssertionError("abort returns no more")


def _no_leaf(message: str) -> NoReturn:
    abort(404, message=message, code="leaf_not_found")
    raise AssertionError("abort returns no more")


@blp.route("/tree-head")
class TreeHead(MethodView):
    """The signed tree head."""

    @blp.doc(security=[{}])
    @blp.response(200, TreeHeadSchema)
    @problems(blp, 429, 503)
    def get(self) -> Any:
        """The latest signed tree head (the workers sign one every minute; ``POST`` signs
        one now)."""
        signing = services().signing
        return signing.log.latest_head() or signing.tree_head()

    @blp.doc(security=[{}])
    @blp.arguments(TreeHeadRequestSchema())
    @blp.response(200, TreeHeadSchema)
    @problems(blp, 400, 413, 415, 422, 429, 503)
    def post(self, body: dict[str, Any]) -> Any:
        """Signs a tree head of the log as it is now, unless the latest head covers every
        leaf already; returns the latest head."""
        signing = services().signing
        latest = signing.log.latest_head()
        if latest is not None and latest["tree_size"] >= signing.log.size():
            return latest
        return signing.tree_head()


@blp.route("/entries")
class Entries(MethodView):
    """Leaves of the log."""

    @blp.doc(security=[{}])
    @blp.arguments(EntriesQuerySchema(), location="query")
    @blp.response(200, EntriesSchema)
    @problems(blp, 400, 429, 503)
    def get(self, query: dict[str, Any]) -> Any:
        """The leaves ``[start, end)``, each a signed checkpoint's canonical JSON, with its
        index and hash (at most 1000 at once: ask again from where the answer stops)."""
        log = services().signing.log
        try:
            leaves = log.entries(query["start"], query["end"])
        except LogRangeError as error:
            _bad_range(error)
        return {"entries": [
            {"leaf_index": query["start"] + offset, "leaf_hash": merkle.leaf_hash(leaf).hex(),
             "leaf": leaf.decode()} for offset, leaf in enumerate(leaves)]}


@blp.route("/proof")
class Inclusion(MethodView):
    """Inclusion proofs."""

    @blp.doc(security=[{}])
    @blp.arguments(InclusionQuerySchema(), location="query")
    @blp.response(200, InclusionSchema)
    @problems(blp, 400, 404, 429, 503)
    def get(self, query: dict[str, Any]) -> Any:
        """The audit path of the leaf hashed ``leaf_hash`` in the tree of ``tree_size``
        leaves (404 ``leaf_not_found`` when no such leaf is in that tree)."""
        log = services().signing.log
        size = query["tree_size"]
        index = log.index_of(bytes.fromhex(query["leaf_hash"]))
        if index is None:
            _no_leaf(f"no leaf hashed {query['leaf_hash']} is in the log")
        if index >= size:
            _no_leaf(f"the leaf hashed {query['leaf_hash']} is leaf {index}, not in the tree "
                     f"of {size} leaves: ask with a tree of {index + 1} or more")
        try:
            path = log.inclusion(index, size)
        except LogRangeError as error:
            _bad_range(error)
        return {"leaf_index": index, "tree_size": size,
                "audit_path": [hashed.hex() for hashed in path]}


@blp.route("/consistency")
class Consistency(MethodView):
    """Consistency proofs."""

    @blp.doc(security=[{}])
    @blp.arguments(ConsistencyQuerySchema(), location="query")
    @blp.response(200, ConsistencySchema)
    @problems(blp, 400, 429, 503)
    def get(self, query: dict[str, Any]) -> Any:
        """The proof that the tree of ``first`` leaves is a prefix of the tree of ``second``
        (empty when they are the same size or ``first`` is 0)."""
        log = services().signing.log
        try:
            proof = log.consistency(query["first"], query["second"])
        except LogRangeError as error:
            _bad_range(error)
        return {"first": query["first"], "second": query["second"],
                "proof": [hashed.hex() for hashed in proof]}
