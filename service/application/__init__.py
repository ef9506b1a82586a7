"""The application layer: the command path for games and drives, seat tokens, signing,
heartbeats and store settings. No Flask, no marshmallow: the only part of ``service`` that
``workers`` imports.
"""
