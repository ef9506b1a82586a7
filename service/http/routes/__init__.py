"""One module per resource of the HTTP API, each a flask-smorest blueprint.
"""
