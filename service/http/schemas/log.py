"""The schemas of the transparency log's endpoints (``/v1/log``)."""

from __future__ import annotations

import marshmallow as ma
from marshmallow import fields, validate

from events.transparency_log import MAX_ENTRIES

_HEX_HASH = validate.Regexp(r"^[0-9a-f]{64}$", error="must be 64 lowercase hex digits")
_SIZE = validate.Range(min=0, max=2**53)


class TreeHeadSchema(ma.Schema):
    """A signed tree head (docs/verification.md, "The log")."""

    tree_size = fields.Integer(required=True, metadata={"description": "Leaves in the tree"})
    root_hash = fields.String(required=True, metadata={
        "description": "The tree's root hash (RFC 9162 MTH), 64 hex digits"})
    timestamp = fields.String(required=True, metadata={
        "description": "When it was signed, YYYY-MM-DDTHH:MM:SSZ"})
    key_id = fields.String(required=True, metadata={
        "description": "The key that signed it, as GET /v1/keys lists it"})
    signature = fields.String(required=True, metadata={
        "description": 'Ed25519 over b"fortyfive/tree-head/1" and the canonical JSON of the '
                       "four other fields, 128 hex digits"})


class TreeHeadRequestSchema(ma.Schema):
    """Asking for a fresh tree head: an empty JSON object (every ``POST`` body is JSON)."""


class EntriesQuerySchema(ma.Schema):
    """Which leaves: ``[start, end)``."""

    start = fields.Integer(required=True, validate=_SIZE,
                           metadata={"description": "Index of the first leaf"})
    end = fields.Integer(required=True, validate=_SIZE, metadata={
        "description": f"Index after the last leaf; at most {MAX_ENTRIES} come at once"})


class EntrySchema(ma.Schema):
    """One leaf of the log."""

    leaf_index = fields.Integer(required=True)
    leaf_hash = fields.String(required=True, metadata={
        "description": "SHA-256 of 0x00 and the leaf, 64 hex digits"})
    leaf = fields.String(required=True, metadata={
        "description": "The leaf: the canonical JSON of a signed checkpoint"})


class EntriesSchema(ma.Schema):
    """Leaves of the log, in order (fewer than asked for when the range is long)."""

    entries = fields.List(fields.Nested(EntrySchema), required=True)


class InclusionQuerySchema(ma.Schema):
    """Which leaf, in which tree."""

    leaf_hash = fields.String(required=True, validate=_HEX_HASH, metadata={
        "description": "The leaf's hash, 64 hex digits"})
    tree_size = fields.Integer(required=True, validate=validate.Range(min=1, max=2**53),
                               metadata={"description": "The size of the tree"})


class InclusionSchema(ma.Schema):
    """The audit path of a leaf (RFC 9162 PATH), the leaf's sibling first."""

    leaf_index = fields.Integer(required=True)
    tree_size = fields.Integer(required=True)
    audit_path = fields.List(fields.String(), required=True,
                             metadata={"description": "Hashes, 64 hex digits each"})


class ConsistencyQuerySchema(ma.Schema):
    """Which two trees."""

    first = fields.Integer(required=True, validate=_SIZE,
                           metadata={"description": "The size of the earlier tree"})
    second = fields.Integer(required=True, validate=_SIZE,
                            metadata={"description": "The size of the later tree"})


class ConsistencySchema(ma.Schema):
    """The consistency proof between two trees (RFC 9162 PROOF)."""

    first = fields.Integer(required=True)
    second = fields.Integer(required=True)
    proof = fields.List(fields.String(), required=True,
                        metadata={"description": "Hashes, 64 hex digits each"})
