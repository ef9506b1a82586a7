"""The processes: the worker's supervisor, gunicorn's glue, and the Redis servers the service
starts itself (embedded single server and cluster, free TCP ports for them).
"""
