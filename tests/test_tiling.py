"""Wall tiling, scoring and floor penalties: rules.md section 1, "Wall tiling" (classic wall).

Each position leaves one white tile in factory 1; player 1 takes it to the floor, which ends the
factory offer, so the round's wall tiling runs and round 2 begins.  The tests then read player 0.
"""

import pytest

from helpers import make_state


def tiled(engine, **position):
    """The position, after player 1 takes the last tile ('1WF') and the wall tiling has run."""
    position.setdefault("factories", ["W"])
    state = make_state(engine, turn=1, **position)
    state.apply("1WF")
    assert state.round == 2, "the round should have ended"
    return state


# -- moving tiles to the wall ------------------------------------------------------------------

def test_full_line_moves_one_tile_to_its_wall_cell_and_the_rest_to_the_lid(engine):
    """Colour k sits in row r at column (k + r) mod 5: red (2) in row 3 (index 2) is column 5."""
    state = tiled(engine, lines=["//RRR//", None])
    assert state.walls[0] == [".....", ".....", "....R", ".....", "....."]
    assert state.pattern_lines[0] == ["", "", "", "", ""]
    assert state.lid == "RRW"  # two reds from the line, player 1's white from the floor


def test_classic_wall_layout(engine):
    """Row 1 reads B Y R K W, row 2 W B Y R K, ...: blue on the main diagonal."""
    state = tiled(engine, lines=["B/YY/RRR/KKKK/WWWWW", None])
    assert state.walls[0] == ["B....", "..Y..", "....R", ".K...", "...W."]


def test_incomplete_lines_keep_their_tiles(engine):
    state = tiled(engine, lines=["/Y/RR//KKKK", None])
    assert state.pattern_lines[0] == ["", "Y", "RR", "", "KKKK"]
    assert state.walls[0] == ["....."] * 5


# -- scoring a placed tile ---------------------------------------------------------------------

def test_lone_tile_scores_one(engine):
    state = tiled(engine, lines=["B////", None], scores=[10, 0])
    assert state.scores[0] == 11


def test_horizontal_run_scores_its_length(engine):
    state = tiled(engine, lines=["R////", None], walls=["BY.../...../...../...../.....", None])
    assert state.scores[0] == 3


def test_vertical_run_scores_its_length(engine):
    """Red in row 3 goes to column 5, under the white and black already there."""
    state = tiled(engine, lines=["//RRR//", None], walls=["....W/....K/...../...../.....", None])
    assert state.scores[0] == 3


def test_worked_example_four_across_and_three_down_scores_seven(engine):
    """rules 1: H and V are the runs through the tile, the tile counted in both: 4 + 3 = 7."""
    wall = ["..R..",
            "..Y..",
            "KW.Y.",
            ".....",
            "....."]
    state = tiled(engine, lines=["//BBB//", None], walls=[wall, None])
    assert state.walls[0][2] == "KWBY."
    assert state.scores[0] == 7


def test_diagonal_neighbours_never_count(engine):
    state = tiled(engine, lines=["R////", None], walls=["...../.B.R./...../...../.....", None])
    assert state.walls[0][0] == "..R.."
    assert state.scores[0] == 1


def test_tiles_placed_earlier_in_the_tiling_count_as_neighbours(engine):
    """Blue goes to row 1 first (1 point); white below it then scores a vertical run of 2."""
    state = tiled(engine, lines=["B/WW///", None])
    assert state.walls[0][:2] == ["B....", "W...."]
    assert state.scores[0] == 1 + 2


def test_lines_are_tiled_top_to_bottom_and_the_order_changes_the_score(engine):
    """Yellow sits at row 1, column 2.  Top to bottom: blue scores 2 (next to yellow), then
    white under it scores 2 (vertical run): 4.  Bottom to top would give 1 + (2 + 2) = 5."""
    state = tiled(engine, lines=["B/WW///", None], walls=[".Y.../...../...../...../.....", None])
    assert state.walls[0][:2] == ["BY...", "W...."]
    assert state.scores[0] == 4


# -- floor penalties ---------------------------------------------------------------------------

@pytest.mark.parametrize("items, penalty", [(0, 0), (1, 1), (2, 2), (3, 4), (4, 6), (5, 8),
                                            (6, 11), (7, 14)])
def test_floor_penalty_table(engine, items, penalty):
    """Cumulative penalty by floor items: 1, 2, 4, 6, 8, 11, 14."""
    state = tiled(engine, floors=["K" * items, None], scores=[20, 0])
    assert state.scores[0] == 20 - penalty


def test_four_floor_tiles_and_the_marker_cost_eight(engine):
    state = tiled(engine, floors=["MKKKK", None], scores=[20, 0])
    assert state.scores[0] == 12


def test_nine_floor_items_cost_fourteen_and_two_tiles_go_to_the_lid(engine):
    """Five tiles on the floor, four more taken to it: spaces 6 and 7 fill, two go to the lid."""
    state = make_state(engine, factories=["BBBB", "W"], floors=["KKKKK", ""], scores=[20, 0])
    state.apply("1BF")
    assert state.floors[0] == "BBKKKKK"
    assert state.lid == "BB"
    state.apply("2WF")
    assert state.round == 2
    assert state.scores[0] == 20 - 14
    assert state.lid == "BBBBKKKKKW"  # the floors emptied into the lid, plus the two


def test_score_is_clamped_at_zero(engine):
    """Score 3, penalty 8: the score is 0, not -5."""
    state = tiled(engine, floors=["MKKKK", None], scores=[3, 0])
    assert state.scores[0] == 0


def test_tile_points_are_scored_before_the_floor_penalty(engine):
    """5 + 1 (a lone tile) - 6 = 0; penalty first would give max(0, 5 - 6) + 1 = 1."""
    state = tiled(engine, lines=["B////", None], floors=["MKKK", None], scores=[5, 0])
    assert state.scores[0] == 0


def test_floor_tiles_go_to_the_lid_and_the_marker_returns_to_the_centre(engine):
    state = tiled(engine, floors=["MKKRR", None])
    assert state.floors == ["", ""]
    assert state.lid == "RRKKW"
    assert state.first_player_marker == -1
    assert state.starting_player == 0


def test_a_full_line_puts_exactly_one_tile_in_its_wall_row(engine):
    """Russian summary, common mistakes: never two tiles in one wall row in a round."""
    state = tiled(engine, lines=["/YY///", None], walls=["...../....K/...../...../.....", None])
    assert state.walls[0] == [".....", "..Y.K", ".....", ".....", "....."]
    assert state.lid == "YW"
