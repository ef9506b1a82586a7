"""The event store's errors: one root, :class:`StoreError`, and a type for each way a store
fails. Every module of ``events`` may raise them, so they depend on nothing else here."""

from __future__ import annotations


class StoreError(Exception):
    """Root of every error the event store raises on purpose."""


class StoreUnavailableError(StoreError):
    """Raised when the store cannot be reached or refuses to work (down, loading, out of memory).

    The message starts with ``store unavailable at redis://host:port: `` and never shows a
    password, so it can be shown to an operator as is.
    """


class ConcurrencyError(StoreError):
    """Raised when an append's expected version is not the game's current version.

    Nothing was written. The caller reloads the game (from :attr:`actual`) and decides again.
    """

    def __init__(self, game_id: str, expected: int, actual: int) -> None:
        super().__init__(
            f"version conflict on game {game_id!r}: expected version {expected}, "
            f"current version is {actual}"
        )
        self.game_id = game_id
        """The game the append was for."""
        self.expected = expected
        """The version the caller expected."""
        self.actual = actual
        """The game's version when the append was refused."""


class CorruptStreamError(StoreError):
    """Raised when a stored history fails verification: a broken hash chain, a gap, an entry
    whose id and version disagree, or an event that cannot be decoded."""


class SchemaError(StoreError, ValueError):
    """Raised when a stored event's schema cannot be read as the current one (a schema newer
    than this code, or a missing upcaster)."""


class CommitmentReusedError(StoreError):
    """Raised when a shuffle's seed commitment was recorded before for another context or deal:
    a seed is used once (a duplicate board's one seed at every table of its round excepted).
    Nothing was written."""

    def __init__(self, commitment: str, claimed: str, wanted: str) -> None:
        super().__init__(
            f"seed commitment {commitment[:16]}... was already used for {claimed}; refused "
            f"for {wanted}")
        self.commitment = commitment
