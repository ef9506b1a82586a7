"""The canonical JSON codec follows RFC 8785."""

from __future__ import annotations

import json

import pytest
import rfc8785
from hypothesis import given, settings
from hypothesis import strategies as st

from events.codec import CodecError, canonical_json, parse_json


def test_rfc8785_sample_is_encoded_as_the_rfc_shows() -> None:
    # RFC 8785 section 3.2.2, the sample input and its canonical output.
    raw = (
        '{"numbers": [333333333.33333329, 1E30, 4.50, 2e-3, 0.000000000000000000000000001],'
        ' "string": "\\u20ac$\\u000F\\u000aA\'\\u0042\\u0022\\u005c\\\\\\"\\/",'
        ' "literals": [null, true, false]}'
    )
    expected = (
        '{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],'
        '"string":"€$\\u000f\\nA\'B\\"\\\\\\\\\\"/"}'
    )
    assert canonical_json(json.loads(raw)) == expected.encode("utf-8")


def test_keys_sort_by_utf16_code_units_not_code_points() -> None:
    # RFC 8785 section 3.2.3: the emoji (a surrogate pair) sorts before U+FB33.
    keys = ["\u20ac", "\r", "\ufb33", "1", "\U0001f600", "\u0080", "\u00f6"]
    encoded = canonical_json({key: 0 for key in keys})
    order = json.loads(encoded, object_pairs_hook=lambda pairs: [key for key, _ in pairs])
    assert order == ["\r", "1", "\u0080", "\u00f6", "\u20ac", "\U0001f600", "\ufb33"]


def test_tuples_and_any_mapping_encode_like_lists_and_dicts() -> None:
    from types import MappingProxyType

    value = MappingProxyType({"cards": ("5S", "JK"), "nested": MappingProxyType({"b": 1})})
    assert canonical_json(value) == b'{"cards":["5S","JK"],"nested":{"b":1}}'


@pytest.mark.parametrize("bad", [float("nan"), {1, 2}, 2**53, object()])
def test_values_without_a_canonical_form_are_refused(bad: object) -> None:
    with pytest.raises(CodecError, match="no canonical JSON form"):
        canonical_json({"x": bad})


def test_parse_json_round_trips_canonical_bytes() -> None:
    value = {"a": [1, "x", None, True], "b": {"c": -0.5}}
    assert parse_json(canonical_json(value)) == value


def test_parse_json_refuses_garbage() -> None:
    with pytest.raises(CodecError, match="invalid JSON"):
        parse_json(b"{not json")


_json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**53) + 1, 2**53 - 1)
    | st.floats(allow_nan=False, allow_infinity=False) | st.text(),
    lambda children: st.lists(children, max_size=4)
    | st.dictionaries(st.text(max_size=6), children, max_size=4),
    max_leaves=12,
)  # fmt: skip


@settings(max_examples=200, deadline=None)
@given(_json_values)
def test_fast_path_and_rfc8785_package_agree(value: object) -> None:
    assert canonical_json(value) == rfc8785.dumps(value)


@pytest.mark.parametrize(
    "value",
    [{"\ufb33": 1, "\U0001f600": 2}, {"x": 1.5}, {"n": 2**53 - 1}, {"s": "\u2028\x00\x7f\"\\"},
     {"controls": "".join(map(chr, range(0x20))), "ascii": "".join(map(chr, range(0x20, 0x80)))},
     {"\ud7ff": "\ue000\uffff\u2029", "Z": "é", "a": [True, False, None, -(2**53) + 1]}],
)
def test_values_near_the_fast_path_edges_match_rfc8785(value: object) -> None:
    assert canonical_json(value) == rfc8785.dumps(value)


@pytest.mark.parametrize("text", [
    '{"a": 123456789012345678901234567890}',
    '[1.5, 18446744073709551616]',
    '{"data": {"n": -99999999999999999999999}}',
])
def test_parse_json_gives_integers_beyond_64_bits_exactly(text: str) -> None:
    assert parse_json(text) == json.loads(text)
    assert parse_json(text.encode()) == json.loads(text)


@pytest.mark.parametrize("text", ["NaN", "[Infinity]", '"\\ud800"', "{", b"\xff"])
def test_parse_json_refuses_what_is_not_strict_json(text: str | bytes) -> None:
    with pytest.raises(CodecError, match="invalid JSON"):
        parse_json(text)


@given(st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(),
    lambda inner: st.lists(inner) | st.dictionaries(st.text(), inner), max_leaves=20))
@settings(max_examples=200)
def test_parse_json_agrees_with_the_standard_decoder(value: object) -> None:
    text = json.dumps(value)
    assert parse_json(text) == json.loads(text)
