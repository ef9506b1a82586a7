"""The HTTP layer: the Flask app, one route module per resource (``routes``), their
marshmallow schemas (``schemas``), errors, limits and server-sent events.
"""
