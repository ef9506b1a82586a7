"""events package."""
