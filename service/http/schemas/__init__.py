"""The marshmallow schemas of the HTTP API: requests, responses, views, histories, drives.
"""
