"""replay.formats.jsontext: JSON text parsed within a nesting depth, its bytes decoded as
``json.loads`` decodes them."""

from __future__ import annotations

import pytest

from replay.formats import jsontext

KEYS = '{"keys": [{"key_id": "ed25519:0011"}]}'


@pytest.mark.parametrize("encoding", ["utf-8", "utf-8-sig", "utf-16", "utf-32"])
def test_a_file_in_any_json_encoding_reads_as_json_loads_reads_it(encoding: str) -> None:
    """A keys or checkpoint file saved with a byte order mark, or in UTF-16 (as a Windows
    shell writes a redirected answer), reads as it did before the depth limit."""
    assert jsontext.loads(KEYS.encode(encoding)) == {"keys": [{"key_id": "ed25519:0011"}]}


@pytest.mark.parametrize(("text", "deep"), [
    ("[" * jsontext.MAX_DEPTH + "]" * jsontext.MAX_DEPTH, False),
    ("[" * (jsontext.MAX_DEPTH + 1) + "]" * (jsontext.MAX_DEPTH + 1), True),
    ('["' + "[" * 100 + '"]', False),  # Brackets in a string are text.
    ('"' + "[" * 100, False),  # An unterminated string runs to the end.
    ("[" * 100, True),  # Unclosed: the parser would meet that depth first.
])
def test_the_depth_is_measured_as_the_parser_meets_it(text: str, deep: bool) -> None:
    assert jsontext.too_deep(text) is deep
    if deep:
        with pytest.raises(jsontext.JSONTooDeepError, match="nested more than 32 levels"):
            jsontext.loads(text)
