"""The HTTP statuses as the API names them: response components and problem titles.

Python's :class:`http.HTTPStatus` follows the RFCs of its release: 3.13 renamed 413, 414, 416
and 422 after RFC 9110 (``UNPROCESSABLE_ENTITY`` became ``UNPROCESSABLE_CONTENT``, with a
new phrase). flask-smorest names the response components after ``HTTPStatus``, so the
published contract and the problem titles would change with the interpreter. This table is
ours, with RFC 9110's phrases, and every name the API shows comes from it, whatever Python
runs the service.
"""

from __future__ import annotations

import http
import re
from collections.abc import Mapping

PHRASES: Mapping[int, str] = {
    100: "Continue", 101: "Switching Protocols", 102: "Processing", 103: "Early Hints",
    200: "OK", 201: "Created", 202: "Accepted", 203: "Non-Authoritative Information",
    204: "No Content", 205: "Reset Content", 206: "Partial Content", 207: "Multi-Status",
    208: "Already Reported", 226: "IM Used",
    300: "Multiple Choices", 301: "Moved Permanently", 302: "Found", 303: "See Other",
    304: "Not Modified", 305: "Use Proxy", 307: "Temporary Redirect",
    308: "Permanent Redirect",
    400: "Bad Request", 401: "Unauthorized", 402: "Payment Required", 403: "Forbidden",
    404: "Not Found", 405: "Method Not Allowed", 406: "Not Acceptable",
    407: "Proxy Authentication Required", 408: "Request Timeout", 409: "Conflict",
    410: "Gone", 411: "Length Required", 412: "Precondition Failed",
    413: "Content Too Large", 414: "URI Too Long", 415: "Unsupported Media Type",
    416: "Range Not Satisfiable", 417: "Expectation Failed", 421: "Misdirected Request",
    422: "Unprocessable Content", 423: "Locked", 424: "Failed Dependency", 425: "Too Early",
    426: "Upgrade Required", 428: "Precondition Required", 429: "Too Many Requests",
    431: "Request Header Fields Too Large", 451: "Unavailable For Legal Reasons",
    500: "Internal Server Error", 501: "Not Implemented", 502: "Bad Gateway",
    503: "Service Unavailable", 504: "Gateway Timeout", 505: "HTTP Version Not Supported",
    506: "Variant Also Negotiates", 507: "Insufficient Storage", 508: "Loop Detected",
    510: "Not Extended", 511: "Network Authentication Required",
}  # fmt: skip
"""The phrase of each status (RFC 9110, and RFCs 6585, 4918, 8297, 8470, 7725, 2774)."""


def phrase(status: int) -> str:
    """Returns the phrase of *status*, e.g. ``"Unprocessable Content"`` for 422 (``"HTTP
    <status>"`` for a status the table does not know)."""
    return PHRASES.get(status, f"HTTP {status}")


def response_name(status: int) -> str:
    """Returns the name of the response component of *status*, its phrase in capitals with
    underscores: ``UNPROCESSABLE_CONTENT`` for 422."""
    return re.sub(r"[^A-Z0-9]+", "_", phrase(status).replace("'", "").upper())


def normalise_reference(name: str) -> str:
    """Returns our component name for *name* when it is a name :class:`http.HTTPStatus` has
    under this Python (an old one included, such as ``UNPROCESSABLE_ENTITY``), else *name*."""
    try:
        status = http.HTTPStatus[name]
    except KeyError:
        return name
    return response_name(status.value)
