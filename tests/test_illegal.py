"""Refused moves: every one raises IllegalMoveError with a message naming the rule broken, and
leaves the state unchanged (``helpers.assert_refused`` compares the full text, history included).

The Russian summary's "common mistakes" (seeds/000, last section; rules.md section 4):
- colour already on that wall row: test_colour_already_on_the_wall_row_is_refused
- the forgotten first-player marker: test_first_taker_from_the_centre_cannot_leave_the_marker
- two tiles in one wall row in a round: test_full_pattern_line_is_refused, and
  test_tiling.py::test_a_full_line_puts_exactly_one_tile_in_its_wall_row
- extra tiles back to the bag or a factory:
  test_excess_tiles_go_to_the_floor_and_lid_never_to_the_bag
- a score below zero: test_tiling.py::test_score_is_clamped_at_zero
- final bonuses forgotten or doubled: test_end.py::test_end_bonuses_are_added_exactly_once
"""

import pytest

from helpers import assert_refused, make_state


def offer(engine, **position):
    position.setdefault("factories", ["BBYR", "W"])
    return make_state(engine, **position)


def grey_tiling(engine, lines="B////", wall="...../...../...../...../....."):
    """Grey wall, player 0 about to choose a column for their pattern line(s)."""
    state = make_state(engine, variant="grey", factories=["W"], lines=[lines, None],
                       walls=[wall, None], turn=1, start=0)
    state.apply("1WF")
    assert state.phase == "tiling"
    return state


# -- the factory offer -------------------------------------------------------------------------

def test_colour_already_on_the_wall_row_is_refused(engine):
    state = offer(engine, walls=["...../.B.../...../...../.....", None])
    assert_refused(engine, state, "1B2", "wall row 2 already has blue")


def test_second_colour_on_a_pattern_line_is_refused(engine):
    state = offer(engine, lines=["//R//", None])
    assert_refused(engine, state, "1B3", "pattern line 3 already holds red")


def test_full_pattern_line_is_refused(engine):
    state = offer(engine, lines=["/BB///", None])
    assert_refused(engine, state, "1B2", "pattern line 2 is full")


def test_factory_without_the_colour_is_refused(engine):
    state = offer(engine, factories=["BBBB", "RRRR", "KKKK", "BRKW", "W"])
    assert_refused(engine, state, "4Y1", "factory 4 has no yellow")


def test_centre_without_the_colour_is_refused(engine):
    state = offer(engine, center="BY")
    assert_refused(engine, state, "CK1", "the centre has no black")


def test_empty_factory_is_refused(engine):
    state = offer(engine, factories=["", "BBBB"])
    assert_refused(engine, state, "1B1", "factory 1 is empty")


def test_factory_beyond_the_player_count_is_refused(engine):
    state = offer(engine)
    assert_refused(engine, state, "6B1", "factory 6 does not exist with 2 players")


def test_refused_action_id_gives_the_same_message_as_its_notation(engine):
    state = offer(engine, lines=["//R//", None])
    action = state.string_to_action("1B3")
    assert action == (0 * 5 + 0) * 6 + 2
    assert_refused(engine, state, action, "pattern line 3 already holds red")


def test_move_after_the_game_is_over_is_refused(engine):
    state = make_state(engine, factories=["W"], walls=["BYRK./...../...../...../.....", None],
                       lines=["W////", None], turn=1)
    state.apply("1WF")
    assert state.is_over
    assert_refused(engine, state, "1B1", "game is over")
    assert_refused(engine, state, 0, "game is over")
    assert_refused(engine, state, "W11", "game is over")


# -- notation and ids --------------------------------------------------------------------------

@pytest.mark.parametrize("text", ["", "X", "CB", "3R", "3R45", "0R1", "3X1", "3r4", "3R6", "3R0",
                                  "CBG", "W1", "W61", "W16", "W1A", "~Z", "~9", "~", "~BB"])
def test_malformed_notation_is_refused(engine, text):
    state = offer(engine)
    assert_refused(engine, state, text, "is not a move")
    with pytest.raises(engine.IllegalMoveError, match="is not a move"):
        state.string_to_action(text)


@pytest.mark.parametrize("action", [-1, 314, 1000, 2**40])
def test_out_of_range_action_id_is_refused(engine, action):
    state = offer(engine)
    assert_refused(engine, state, action, "out of range 0-313")
    with pytest.raises(engine.IllegalMoveError, match="out of range"):
        state.action_to_string(action)


@pytest.mark.parametrize("move", [None, 1.5, True, b"1B1", ["1B1"]])
def test_move_of_the_wrong_type_is_a_type_error(engine, move):
    state = offer(engine)
    before = state.to_text()
    with pytest.raises(TypeError):
        state.apply(move)
    assert state.to_text() == before


def test_numpy_integer_action_ids_are_accepted(engine):
    numpy = pytest.importorskip("numpy")
    state = offer(engine)
    other = state.clone()
    action = state.legal_actions()[0]
    state.apply(numpy.int64(action))
    other.apply(action)
    assert state == other
    assert_refused(engine, state, numpy.int32(400), "out of range 0-313")


# -- chance nodes ------------------------------------------------------------------------------

@pytest.mark.parametrize("move", [305, 309, 310, "~B", "~0"])
def test_chance_outcome_at_a_decision_node_is_refused(engine, move):
    state = offer(engine)
    assert_refused(engine, state, move, "is a chance outcome, and this is not a chance node")


def test_chance_outcomes_at_a_decision_node_raise(engine):
    state = offer(engine)
    with pytest.raises(engine.IllegalMoveError, match="not a chance node"):
        state.chance_outcomes()


def test_decision_at_the_first_player_chance_node_is_refused(engine):
    state = engine.new_game(2, "classic", 0, "explicit")
    assert_refused(engine, state, "1B1", "this is a chance node (the first player is drawn)")
    assert_refused(engine, state, "~B", "this is a chance node (the first player is drawn)")


def test_decision_at_a_tile_draw_chance_node_is_refused(engine):
    state = engine.new_game(2, "classic", 0, "explicit")
    state.apply("~0")
    assert_refused(engine, state, 0, "this is a chance node (a tile from the bag is drawn)")
    assert_refused(engine, state, "~1", "this is a chance node (a tile from the bag is drawn)")


def test_first_player_seat_beyond_the_player_count_is_refused(engine):
    state = engine.new_game(2, "classic", 0, "explicit")
    assert_refused(engine, state, "~3", "seat 3 does not exist with 2 players")


def test_drawing_a_colour_the_bag_lacks_is_refused(engine):
    state = make_state(engine, chance="explicit", factories=["W"], bag="BY", rest="lid", turn=1)
    state.apply("1WF")
    assert_refused(engine, state, "~W", "the bag has no white")


# -- grey wall tiling --------------------------------------------------------------------------

def test_draft_during_grey_tiling_is_refused(engine):
    state = grey_tiling(engine)
    assert_refused(engine, state, "CW1",
                   "wall tiling: player 0 must first choose a wall column for pattern line 1")


def test_tiling_choice_for_another_row_is_refused(engine):
    state = grey_tiling(engine)
    assert_refused(engine, state, "W21",
                   "the pending wall tiling decision is for pattern line 1, not 2")


def test_tiling_choice_of_a_taken_cell_is_refused(engine):
    state = grey_tiling(engine, wall="Y..../...../...../...../.....")
    assert_refused(engine, state, "W11", "wall row 1, column 1 is already taken")


def test_tiling_choice_of_a_column_holding_the_colour_is_refused(engine):
    state = grey_tiling(engine, wall="...../..B../...../...../.....")
    assert_refused(engine, state, "W13", "wall column 3 already has blue")
    assert_refused(engine, state, 302, "wall column 3 already has blue")


def test_tiling_choice_during_the_offer_is_refused(engine):
    state = offer(engine, variant="grey")
    assert_refused(engine, state, 300,
                   "action 300 is a wall tiling choice, and no wall tiling decision is pending")
    assert_refused(engine, state, "W11", "no wall tiling decision is pending")
    with pytest.raises(engine.IllegalMoveError, match="no wall tiling decision is pending"):
        state.action_to_string(300)


# -- the Russian summary's mistakes that are not moves -----------------------------------------

def test_first_taker_from_the_centre_cannot_leave_the_marker(engine):
    """Every way of taking first from the centre puts the marker on the taker's floor."""
    state = offer(engine, center="BYR", factories=["KKKK"])
    centre_moves = [m for m in state.legal_moves() if m.startswith("C")]
    assert len(centre_moves) == 18
    for move in centre_moves:
        after = state.clone()
        after.apply(move)
        assert after.floors[0].startswith("M"), move
        assert after.first_player_marker == 0


def test_excess_tiles_go_to_the_floor_and_lid_never_to_the_bag(engine):
    state = offer(engine, factories=["BBBB", "W"], floors=["KKKKKK", None])
    bag, factories = state.bag, state.factories
    state.apply("1B1")
    assert state.pattern_lines[0][0] == "B"
    assert state.floors[0] == "BKKKKKK"
    assert state.lid == "BB"
    assert state.bag == bag
    assert state.factories == [""] + factories[1:]


# -- deal --------------------------------------------------------------------------------------

def test_deal_after_the_round_started_is_refused(engine):
    state = engine.new_game(2, seed=7)
    state.apply(state.legal_actions()[0])
    before = state.to_text()
    with pytest.raises(engine.IllegalMoveError, match="before the round's first move"):
        state.deal(["BBBB", "YYYY", "RRRR", "KKKK", "WWWW"])
    assert state.to_text() == before


@pytest.mark.parametrize("factories, message", [
    (["BBBB", "YYYY", "RRRR", "KKKK"], "2 players need 5 factory strings"),
    (["BBBBB", "YYYY", "RRRR", "KKKK", "WWW"], "factory 1 holds 5 tiles; a factory holds 4"),
    (["BBBB", "YYYY", "RRRR", "KKKK", "WWW"], "factory 5 holds 3 tiles"),
    (["BBBB", "YYYY", "RRRR", "KKKK", "WWWX"], "unknown colour"),
])
def test_impossible_deal_is_refused(engine, factories, message):
    state = engine.new_game(2, seed=7)
    before = state.to_text()
    with pytest.raises(engine.IllegalMoveError, match=message):
        state.deal(factories)
    assert state.to_text() == before
