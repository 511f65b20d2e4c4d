"""State text (``to_text`` / ``GameState.from_text``), copies and pickles.

``from_text`` must refuse malformed or inconsistent text with a StateFormatError naming the field.
"""

import copy
import pickle

import pytest

from helpers import Picker, drop_field, replace_field, state_text


def field(text, key):
    return next(tok for tok in text.split(" ") if tok.startswith(key + "="))[len(key) + 1:]


def states(engine):
    """A few states of different kinds: start, mid-game, chance nodes, grey tiling, game over."""
    out = [engine.new_game(2, "classic", 3), engine.new_game(4, "grey", 8, "explicit")]
    game = engine.new_game(3, "grey", 21)
    pick = Picker(21)
    while not game.is_over:
        if game.phase == "tiling" and not any(s.phase == "tiling" for s in out):
            out.append(game.clone())
        if game.round == 2 and game.moves_this_round == 3 and len(out) < 4:
            out.append(game.clone())
        game.apply(pick.choice(game.legal_actions()))
    out.append(game)
    explicit = engine.new_game(2, "classic", 4, "explicit")
    explicit.apply("~1")
    explicit.apply("~K")
    out.append(explicit)
    return out


# -- round trips -------------------------------------------------------------------------------

def test_text_round_trip_gives_an_equal_state(engine):
    for state in states(engine):
        text = state.to_text()
        again = engine.GameState.from_text(text)
        assert again == state
        assert again.to_text() == text


def test_text_is_one_versioned_line(engine):
    text = engine.new_game(2, seed=1).to_text()
    assert text.startswith("azul-state/%d " % engine.TEXT_VERSION)
    assert engine.TEXT_VERSION == 1
    assert "\n" not in text


def test_history_text_round_trip_keeps_the_record(engine):
    for state in states(engine):
        again = engine.GameState.from_text(state.to_text(history=True))
        assert again == state
        assert again.record() == state.record()
        assert again.record_json() == state.record_json()


def test_record_of_a_state_read_without_history_raises(engine):
    game = engine.new_game(2, seed=3)
    game.apply(game.legal_actions()[0])
    again = engine.GameState.from_text(game.to_text())
    with pytest.raises(ValueError, match="history"):
        again.record()


def test_repr_evaluates_to_an_equal_state(engine):
    state = states(engine)[2]
    assert eval(repr(state), {"GameState": engine.GameState}) == state


def test_clone_is_equal_and_independent(engine):
    state = engine.new_game(3, seed=5)
    other = state.clone()
    assert other == state
    other.apply(other.legal_actions()[0])
    assert other != state
    assert state.moves_this_round == 0
    assert state.record()["rounds"][0]["moves"] == []


@pytest.mark.parametrize("variant", ["classic", "grey", "summer-pavilion"])
def test_clones_keep_their_own_history_across_rounds(engine, variant):
    """Clones taken all through a game, each played on to its own end, leave the game's record as it was, and
    keep the rounds they were cloned with."""
    game = engine.new_game(2, variant, seed=8)
    picker = Picker(8)
    clones = []
    while not game.is_over:
        clones.append((game.clone(), game.record()["rounds"]))
        game.apply(picker.choice(game.legal_actions()))
    final = game.record_json()
    for i, (clone, before) in enumerate(clones[::7]):
        assert clone.record()["rounds"] == before
        clone_picker = Picker(100 + i)
        while not clone.is_over:
            clone.apply(clone_picker.choice(clone.legal_actions()))
        after = clone.record()["rounds"]
        assert after[:len(before) - 1] == before[:-1]  # the finished rounds, unchanged
        assert after[len(before) - 1]["moves"][:len(before[-1]["moves"])] == before[-1]["moves"]
    assert game.record_json() == final


@pytest.mark.parametrize("how", ["copy", "deepcopy", "pickle"])
def test_copies_and_pickles_are_equal_with_their_history(engine, how):
    make = {"copy": copy.copy, "deepcopy": copy.deepcopy,
            "pickle": lambda s: pickle.loads(pickle.dumps(s))}[how]
    for state in states(engine):
        other = make(state)
        assert other == state
        assert other.record_json() == state.record_json()
        if not state.is_over:
            other.apply(other.legal_actions()[0])
            assert other != state


def test_equality_covers_the_generator(engine):
    a = engine.new_game(2, seed=3)
    b = engine.GameState.from_text(a.to_text())
    b.reseed(4)
    assert a != b
    assert a != "not a state"


def test_states_hash_as_their_position_key(engine):
    g = engine.new_game(2, seed=1)
    assert hash(g) == hash(g.key()) == hash(g.clone())
    assert {g: "x"}[engine.from_text(g.to_text())] == "x"


# -- refused text ------------------------------------------------------------------------------

BASE = dict(factories=["BBYR", "W"], lines=["/Y/RR//", None],
            walls=["B..../...../...../...../.....", None], floors=["MK", ""], scores=[7, 3])


def refused(engine, text, *fragments):
    with pytest.raises(engine.StateFormatError) as info:
        engine.GameState.from_text(text)
    for fragment in fragments:
        assert fragment in str(info.value)
    assert isinstance(info.value, ValueError)


def test_base_text_is_accepted(engine):
    state = engine.GameState.from_text(state_text(**BASE))
    assert state.floors == ["MK", ""]
    assert state.first_player_marker == 0


def test_too_few_tiles_of_a_colour_are_refused(engine):
    text = state_text(**BASE)
    bag = field(text, "bag").split(",")
    bag[0] = str(int(bag[0]) - 1)
    refused(engine, replace_field(text, "bag", ",".join(bag)), "wrong tile total", "19 blue")


def test_too_many_tiles_of_a_colour_are_refused(engine):
    text = state_text(**BASE)
    refused(engine, replace_field(text, "lid", "0,0,0,0,1"), "wrong tile total", "21 white")


def test_classic_wall_colour_in_the_wrong_cell_is_refused(engine):
    text = state_text(walls=[".B.../...../...../...../.....", None], factories=["W"])
    refused(engine, text, "field p0", "impossible wall", "blue cannot be in row 1, column 2")


def test_grey_wall_repeating_a_colour_in_a_column_is_refused(engine):
    text = state_text(variant="grey", walls=[None, "B..../B..../...../...../....."],
                      factories=["W"])
    refused(engine, text, "field p1", "impossible wall", "column 1 repeats a colour")


def test_grey_wall_repeating_a_colour_in_a_row_is_refused(engine):
    text = state_text(variant="grey", walls=["B.B../...../...../...../.....", None],
                      factories=["W"])
    refused(engine, text, "field p0", "impossible wall", "row 1 repeats a colour")


def test_too_many_tiles_on_a_pattern_line_are_refused(engine):
    text = state_text(lines=["/BBB///", None], factories=["W"])
    refused(engine, text, "field p0", "pattern line 2 holds 3 tiles, more than its 2 spaces")


def test_pattern_line_mixing_colours_is_refused(engine):
    text = state_text(lines=[None, "//BY//"], factories=["W"])
    refused(engine, text, "field p1", "pattern line 3 mixes colours")


def test_pattern_line_colour_already_on_its_wall_row_is_refused(engine):
    text = state_text(lines=["B////", None], walls=["B..../...../...../...../.....", None],
                      factories=["W"])
    refused(engine, text, "field p0", "pattern line 1 holds blue, which wall row 1 already has")


def test_floor_of_more_than_seven_items_is_refused(engine):
    text = state_text(floors=["MKKKKKKK", None], factories=["W"])
    refused(engine, text, "field p0", "more than 7 items")


def test_marker_on_a_floor_must_match_the_marker_field(engine):
    text = replace_field(state_text(**BASE), "marker", "C")
    refused(engine, text, "field p0", "marker")


def test_marker_kept_aside_needs_a_full_floor_during_the_offer(engine):
    """The marker is kept aside only when taken onto a floor of 7 items (rules.md section 1)."""
    text = state_text(**dict(BASE, floors=["K", ""]))
    refused(engine, replace_field(text, "marker", "0"), "field marker", "full floor")
    full = state_text(**dict(BASE, floors=["KKKKKKK", ""]))
    state = engine.GameState.from_text(replace_field(full, "marker", "0"))
    assert state.first_player_marker == 0 and state.floors[0] == "KKKKKKK"


def test_unknown_field_is_refused(engine):
    refused(engine, state_text(**BASE) + " colour=blue", "unknown field colour")


def test_field_for_a_missing_seat_is_refused(engine):
    refused(engine, state_text(**BASE) + " p2=0:-/-/-/-/-:...../...../...../...../.....:-",
            "unknown field p2")


@pytest.mark.parametrize("key", ["bag", "lid", "phase", "rng", "factories", "p1"])
def test_missing_field_is_refused(engine, key):
    refused(engine, drop_field(state_text(**BASE), key), "field %s is missing" % key)


def test_repeated_field_is_refused(engine):
    refused(engine, state_text(**BASE) + " round=2", "field round appears twice")


def test_unsupported_version_is_refused(engine):
    text = state_text(**BASE).replace("azul-state/1", "azul-state/2", 1)
    refused(engine, text, "unsupported state text version", "azul-state/2")


@pytest.mark.parametrize("text", ["", "hello", "azul-record/1 variant=classic"])
def test_text_that_is_not_a_state_is_refused(engine, text):
    refused(engine, text, "not an Azul state")


@pytest.mark.parametrize("key, value", [
    ("variant", "summer"), ("players", "5"), ("players", "two"), ("chance", "maybe"),
    ("seed", "-1"), ("rng", "12345"), ("rng", "ABCDEF0123456789"), ("round", "0"),
    ("phase", "draft"), ("turn", "2"), ("start", "-2"), ("marker", "4"), ("moves", "x"),
    ("factories", "BBYR,W,-,-"), ("factories", "BBBBB,W,-,-,-"), ("factories", "YBBR,W,-,-,-"),
    ("center", "Q"), ("bag", "1,2,3"), ("lid", "0,0,0,0,0,0"), ("prefill", "20,20,20,20,20"),
])
def test_malformed_field_is_refused_naming_it(engine, key, value):
    refused(engine, replace_field(state_text(**BASE), key, value), "field %s" % key)


@pytest.mark.parametrize("value", ["7", "7:-/Y/RR/-/-:B..../...../...../...../.....",
                                   "x:-/Y/RR/-/-:B..../...../...../...../.....:MK",
                                   "7:-/Y/RR/-:B..../...../...../...../.....:MK",
                                   "7:-/Y/RR/-/-:B..../...../...../.....:MK",
                                   "7:-/Y/RR/-/-:B..../...../...../...../....Q:MK"])
def test_malformed_player_field_is_refused_naming_it(engine, value):
    refused(engine, replace_field(state_text(**BASE), "p0", value), "field p0")


def test_offer_phase_with_nothing_on_offer_is_refused(engine):
    text = state_text(lines=["B////", None])
    refused(engine, text, "field phase", "offer")


def test_tiling_phase_on_the_classic_wall_is_refused(engine):
    text = state_text(lines=["B////", None], phase="tiling")
    refused(engine, text, "field phase", "grey wall")


def test_decision_phase_without_a_player_to_move_is_refused(engine):
    text = state_text(factories=["W"], turn=-1, start=0)
    refused(engine, text, "field turn")


def test_chance_phase_in_sampled_mode_is_refused(engine):
    text = state_text(phase="fill", turn=-1, start=0)
    refused(engine, text, "field phase", "explicit")


def test_state_text_must_be_a_string(engine):
    with pytest.raises(TypeError):
        engine.GameState.from_text(b"azul-state/1")


# -- states read without their history play on --------------------------------------------------------------

def test_a_mid_game_state_read_without_history_plays_on(engine):
    """The history before a state read from text is unknown; play goes on, and record() says why it cannot."""
    from helpers import Picker

    game = engine.new_game(3, "grey", seed=7)
    pick = Picker(7)
    for _ in range(23):
        game.apply(pick.choice(game.legal_actions()))
    state = engine.GameState.from_text(game.to_text())
    while not game.is_over:
        move = pick.choice(game.legal_actions())
        game.apply(move)
        state.apply(move)
        assert state == game
    with pytest.raises(ValueError, match="without its history"):
        state.record()


def test_a_round_start_read_without_history_can_be_dealt(engine):
    game = engine.new_game(2, seed=3)
    while game.round < 2:
        game.apply(game.legal_actions()[0])
    state = engine.GameState.from_text(game.to_text())
    factories = state.factories
    state.deal([factories[1], factories[0]] + factories[2:])
    assert state.factories == [factories[1], factories[0]] + factories[2:]
    state.apply(state.legal_actions()[0])


def test_prefill_must_hold_this_rounds_tiles(engine):
    """deal() takes its tiles from the prefill bag and lid, so they must be the tiles of bag, lid and factories."""
    game = engine.new_game(2, seed=7)
    text = replace_field(game.to_text(), "prefill", "0,0,0,0,0/0,0,0,0,0")
    refused(engine, text, "field prefill", "0 blue tiles in bag and lid before the fill")


def test_a_centre_over_twenty_tiles_of_a_colour_is_refused(engine):
    text = replace_field(state_text(**BASE), "center", "B" * 300)
    refused(engine, text, "field center: more than 20 tiles of a colour")
