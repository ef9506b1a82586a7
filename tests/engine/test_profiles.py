"""Rule profiles: each profile's defaults, sides and seats, and refusals that name the option."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from engine.cards import Suit
from engine.errors import ProfileError
from engine.profiles import (
    OPTIONS,
    PROFILES,
    RuleSet,
    find_ruleset,
    make_ruleset,
    option_specs,
    parse_option_text,
    profile_players,
    shared_ruleset,
)
from engine.ranking import ranking, ranking_for
from events.sizing import deep_size


def test_bruff_defaults() -> None:
    rules = make_ruleset("bruff")
    assert rules.options() == {"target": 45, "match_games": 1, "turn_seconds": None}
    assert (rules.players, rules.layout, rules.sides, rules.joker) == (6, "pairs", 3, "above_ah")
    assert (rules.robbing, rules.auction, rules.finish, rules.jink) == (
        True, False, "trick", "take_all"
    )
    assert rules.deck_size == 53


def test_auction_defaults() -> None:
    rules = make_ruleset("auction")
    assert rules.options() == {
        "target": 120, "min_bid": 5, "match_games": 1, "turn_seconds": None
    }
    assert (rules.players, rules.sides, rules.joker, rules.deck_size) == (4, 2, "none", 52)
    assert (rules.robbing, rules.auction, rules.finish) == (False, True, "deal_end")


def test_classic_defaults() -> None:
    rules = make_ruleset("classic")
    assert rules.options() == {
        "layout": "individuals",
        "bonus": True,
        "target": 45,
        "finish": "trick",
        "jink": "none",
        "follow": "trump_or_follow",
        "diamond_ace": "low",
        "deal_pattern": "3-2",
        "joker": "none",
        "decks": 1,
        "robbing": True,
        "cap_at_target": False,
        "spoil_five": False,
        "match_games": 1,
        "turn_seconds": None,
    }
    assert rules.players == 2
    assert rules.deal_pattern == (3, 2)


def test_the_smallest_table_is_the_default_player_count() -> None:
    assert [make_ruleset(name).players for name in PROFILES] == [6, 4, 2]
    assert [profile_players(name) for name in PROFILES] == [(6, 6), (4, 4), (2, 10)]


@pytest.mark.parametrize(
    ("players", "layout"),
    [(2, "individuals"), (3, "individuals"), (4, "pairs"), (5, "individuals"),
     (6, "triples"), (7, "individuals"), (8, "pairs"), (9, "individuals"),
     (10, "individuals")],
)
def test_classic_layout_default_depends_on_the_player_count(players: int, layout: str) -> None:
    assert make_ruleset("classic", players=players).layout == layout
    assert option_specs("classic", players)["layout"]["default"] == layout
    # Without a table size the description gives the default at each (GET /v1/profiles).
    spec = option_specs("classic")["layout"]
    assert spec["default_by_players"].get(str(players), spec["default"]) == layout


@pytest.mark.parametrize("profile", PROFILES)
def test_every_default_described_is_the_engines_at_every_table_size(profile: str) -> None:
    low, high = profile_players(profile)
    for name, spec in option_specs(profile).items():
        for players in range(low, high + 1):
            shown = (spec["default_by_players"] or {}).get(str(players), spec["default"])
            # Choosing the default shown makes the same rules as choosing nothing.
            chosen = make_ruleset(profile, {name: shown}, players)
            assert chosen == make_ruleset(profile, players=players), (name, players, shown)


@pytest.mark.parametrize(
    ("players", "layout", "sides"),
    [(4, "individuals", 4), (6, "pairs", 3), (9, "triples", 3), (10, "pairs", 5)],
)
def test_classic_layout_may_be_any_that_divides_the_table(
    players: int, layout: str, sides: int
) -> None:
    assert make_ruleset("classic", {"layout": layout}, players).sides == sides


def test_partners_alternate_round_the_table_seat_s_on_side_s_mod_k() -> None:
    rules = make_ruleset("classic", {"layout": "triples"}, 9)
    assert [rules.side_of(seat) for seat in range(9)] == [0, 1, 2, 0, 1, 2, 0, 1, 2]
    assert rules.seats_of(1) == (1, 4, 7)


def test_bruff_seats_zero_and_three_are_partners() -> None:
    rules = make_ruleset("bruff")
    assert rules.side_of(0) == rules.side_of(3) == 0
    assert [rules.side_of(seat) for seat in range(6)] == [0, 1, 2, 0, 1, 2]
    assert [rules.seats_of(side) for side in range(3)] == [(0, 3), (1, 4), (2, 5)]


def test_auction_partners_sit_opposite() -> None:
    rules = make_ruleset("auction")
    assert rules.seats_of(0) == (0, 2) and rules.seats_of(1) == (1, 3)


def test_classic_six_players_default_to_two_sides_of_three() -> None:
    rules = make_ruleset("classic", players=6)
    assert rules.sides == 2 and rules.seats_of(0) == (0, 2, 4)


def test_individuals_are_each_their_own_side() -> None:
    rules = make_ruleset("classic", players=5)
    assert [rules.side_of(seat) for seat in range(5)] == [0, 1, 2, 3, 4]


def test_two_packs_with_a_joker_hold_two_jokers() -> None:
    rules = make_ruleset("classic", {"decks": 2, "joker": "below_ah"}, 7)
    assert rules.deck_size == 106


def test_options_given_override_defaults_and_show_in_options() -> None:
    rules = make_ruleset(
        "classic", {"target": 120, "follow": "must_follow", "deal_pattern": "2-3"}, 4
    )
    assert rules.target == 120 and rules.follow == "must_follow"
    assert rules.deal_pattern == (2, 3)
    assert rules.options()["deal_pattern"] == "2-3"
    assert rules.options()["layout"] == "pairs"


def test_digest_changes_with_an_option_and_not_with_an_equal_rule_set() -> None:
    assert make_ruleset("bruff").digest() == make_ruleset("bruff", {"target": 45}).digest()
    assert make_ruleset("bruff").digest() != make_ruleset("bruff", {"target": 50}).digest()
    assert len(make_ruleset("bruff").digest()) == 64


def test_option_specs_show_the_profile_default_target() -> None:
    assert option_specs("auction")["target"]["default"] == 120
    assert option_specs("bruff")["target"]["default"] == 45
    assert option_specs("classic")["follow"]["values"] == ["trump_or_follow", "must_follow"]
    assert option_specs("classic")["target"]["values"] is None


# Refusals.


def _refusal(profile: str, options: dict[str, Any] | None = None,
             players: int | None = None) -> str:
    with pytest.raises(ProfileError) as caught:
        make_ruleset(profile, options, players)
    return str(caught.value)


def test_refuses_eleven_players() -> None:
    assert _refusal("classic", players=11) == "classic is played by 2 to 10 players, got 11"


def test_refuses_one_player() -> None:
    assert _refusal("classic", players=1) == "classic is played by 2 to 10 players, got 1"


def test_refuses_bruff_with_four_players() -> None:
    assert _refusal("bruff", players=4) == "bruff is played by exactly 6 players, got 4"


def test_refuses_a_player_count_that_is_a_bool() -> None:
    assert "got true" in _refusal("classic", players=True)


def test_refuses_pairs_with_five_players() -> None:
    message = _refusal("classic", {"layout": "pairs"}, 5)
    assert message.startswith("option 'layout' 'pairs' does not divide 5 players")


def test_refuses_triples_with_four_players() -> None:
    message = _refusal("classic", {"layout": "triples"}, 4)
    assert message.startswith("option 'layout' 'triples' does not divide 4 players")


def test_refuses_a_layout_that_leaves_a_single_side() -> None:
    assert _refusal("classic", {"layout": "pairs"}, 2).startswith("option 'layout'")
    assert _refusal("classic", {"layout": "triples"}, 3).startswith("option 'layout'")


def test_refuses_an_announced_jink_with_three_sides() -> None:
    message = _refusal("classic", {"layout": "pairs", "jink": "announced"}, 6)
    assert message.startswith("option 'jink' 'announced' needs exactly two sides")
    assert "gives 3" in message


def test_allows_an_announced_jink_with_two_sides() -> None:
    assert make_ruleset("classic", {"jink": "announced"}, 6).jink == "announced"
    assert make_ruleset("classic", {"jink": "announced"}, 2).jink == "announced"


def test_refuses_a_joker_option_in_the_auction_saying_why() -> None:
    assert _refusal("auction", {"joker": "below_ah"}) == (
        "unknown option 'joker' for profile 'auction': the auction is played with 52 cards "
        "and no joker"
    )


def test_refuses_two_decks_with_four_players() -> None:
    assert _refusal("classic", {"decks": 2}, 4) == (
        "option 'decks' 2 needs 7 or more players, got 4"
    )
    assert make_ruleset("classic", {"decks": 2}, 7).decks == 2


@pytest.mark.parametrize("target", [47, 0, -5, 1005, 44.0])
def test_refuses_a_target_that_is_not_a_positive_multiple_of_five(target: object) -> None:
    message = _refusal("bruff", {"target": target})
    assert message == (
        f"option 'target' must be a positive multiple of 5 up to 1000, got {target!r}"
    )


def test_refuses_a_target_given_as_a_string() -> None:
    assert _refusal("classic", {"target": "45"}).endswith('got "45"')


def test_refuses_a_bool_where_an_int_is_expected() -> None:
    assert _refusal("classic", {"target": True}).startswith("option 'target'")
    assert _refusal("classic", {"decks": True}, 8) == (
        "option 'decks' must be one of 1, 2, got true"
    )


def test_refuses_an_int_where_a_bool_is_expected() -> None:
    assert _refusal("classic", {"bonus": 1}) == (
        "option 'bonus' must be one of true, false, got 1"
    )


def test_refuses_a_value_outside_the_listed_values() -> None:
    assert _refusal("classic", {"follow": "trump"}) == (
        "option 'follow' must be one of \"trump_or_follow\", \"must_follow\", got \"trump\""
    )


def test_refuses_an_unknown_option_listing_the_known_ones() -> None:
    message = _refusal("classic", {"colour": "red"})
    assert message.startswith("unknown option 'colour' for profile 'classic' (options: layout,")


def test_refuses_an_option_that_belongs_to_another_profile() -> None:
    assert _refusal("bruff", {"min_bid": 15}) == (
        "unknown option 'min_bid' for profile 'bruff': bruff has no auction"
    )


def test_refuses_an_unknown_profile() -> None:
    assert _refusal("x").startswith("unsupported ruleset: 'x'")
    with pytest.raises(ProfileError, match=r"^unsupported ruleset: 'x'"):
        find_ruleset("x")


def test_profile_error_is_a_value_error() -> None:
    with pytest.raises(ValueError):
        make_ruleset("x")


@pytest.mark.parametrize(
    ("option", "value"),
    [("turn_seconds", 4), ("turn_seconds", 86401), ("match_games", 0), ("match_games", 10)],
)
def test_refuses_clock_and_match_values_out_of_range(option: str, value: int) -> None:
    assert _refusal("bruff", {option: value}).startswith(f"option {option!r} must be")


# parse_option_text.


@pytest.mark.parametrize(
    ("profile", "name", "text", "value"),
    [
        ("classic", "bonus", "true", True),
        ("classic", "bonus", "FALSE", False),
        ("bruff", "turn_seconds", "none", None),
        ("bruff", "turn_seconds", "null", None),
        ("bruff", "turn_seconds", "30", 30),
        ("bruff", "target", " 50 ", 50),
        ("bruff", "target", "-5", -5),
        ("classic", "deal_pattern", "2-3", "2-3"),
        ("classic", "joker", "below_ah", "below_ah"),
        ("classic", "decks", "2", 2),
        ("auction", "min_bid", "15", 15),
    ],
)
def test_parse_option_text_converts_to_the_value_type(
    profile: str, name: str, text: str, value: object
) -> None:
    parsed = parse_option_text(profile, name, text)
    assert parsed == value and type(parsed) is type(value)


def test_parsed_option_text_builds_a_rule_set() -> None:
    options = {
        name: parse_option_text("classic", name, text)
        for name, text in [("bonus", "false"), ("decks", "2"), ("deal_pattern", "2-3")]
    }
    rules = make_ruleset("classic", options, 8)
    assert (rules.bonus, rules.decks, rules.deal_pattern) == (False, 2, (2, 3))


@pytest.mark.parametrize("text", ["--5", "5-", "²", "4.5"])
def test_parse_option_text_leaves_non_numbers_as_text_for_make_ruleset_to_refuse(
    text: str,
) -> None:
    value = parse_option_text("bruff", "target", text)
    assert value == text
    with pytest.raises(ProfileError, match="option 'target'"):
        make_ruleset("bruff", {"target": value})


def test_parse_option_text_minus_minus_five_bug() -> None:
    # "--5" passed str.isdigit after lstrip("-") and then made int() raise a bare ValueError,
    # which escaped the command line as a traceback.
    assert parse_option_text("bruff", "target", "--5") == "--5"


def test_parse_option_text_refuses_an_unknown_option() -> None:
    with pytest.raises(ProfileError, match="unknown option 'joker' for profile 'auction'"):
        parse_option_text("auction", "joker", "below_ah")


def test_parse_option_text_refuses_an_unknown_profile() -> None:
    with pytest.raises(ProfileError, match="unsupported ruleset: 'x'"):
        parse_option_text("x", "target", "45")



def test_a_rule_set_names_its_rankings_without_holding_them() -> None:
    plain = make_ruleset("classic", {"layout": "individuals"}, 2)
    also_plain = make_ruleset("classic", {"layout": "individuals", "target": 60}, 3)
    with_joker = make_ruleset("classic", {"layout": "individuals", "joker": "below_ah"}, 2)
    for suit in Suit:
        assert ranking(suit, plain) is ranking_for(suit, "none", "low")
        assert ranking(suit, with_joker) is ranking_for(suit, "below_ah", "low")
        assert ranking(suit, also_plain) is ranking(suit, plain)
    # The fold cache bounds its games by deep_size: tables that every game under the same
    # options shares must not count again in each game.
    assert deep_size(plain) < deep_size(ranking(Suit.H, plain)) / 4


def test_each_option_is_described_once_and_is_a_rule_set_field_of_its_name() -> None:
    # A new option is its RuleSet field, its entry in OPTIONS and the rule that reads it.
    fields = {field.name for field in dataclasses.fields(RuleSet) if field.init}
    assert fields == {option.name for option in OPTIONS} | {"profile", "players", "auction"}
    for profile in PROFILES:
        rules = make_ruleset(profile)
        offered = [option.name for option in OPTIONS if profile not in option.fixed]
        assert list(rules.options()) == offered == list(option_specs(profile))
        for option in OPTIONS:
            if profile in option.fixed:
                assert getattr(rules, option.name) == option.to_rule(option.fixed[profile])


def test_shared_ruleset_gives_one_value_per_profile_players_and_options() -> None:
    # Every new game and every load of one makes its rule set: the same options share one.
    first = shared_ruleset("classic", {"match_games": 3}, 2)
    assert shared_ruleset("classic", {"match_games": 3}, 2) is first
    assert first == make_ruleset("classic", {"match_games": 3}, 2)
    assert shared_ruleset("classic", {"match_games": 1}, 2).match_games == 1
    assert shared_ruleset("classic", {"match_games": 3}, 4) is not first
    # True == 1, but only the number is a count of games: the cache must not answer for it.
    with pytest.raises(ProfileError, match="match_games"):
        shared_ruleset("classic", {"match_games": True}, 2)
    assert shared_ruleset("classic", {"match_games": 1}, 2).match_games == 1
    # An option no cache key can hold is still checked, as make_ruleset checks it.
    with pytest.raises(ProfileError, match="match_games"):
        shared_ruleset("classic", {"match_games": [3]}, 2)
