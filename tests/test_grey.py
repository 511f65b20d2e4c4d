"""The grey wall (free placement) variant: rules.md section 2.

As in test_tiling, player 1 normally ends the factory offer by taking the white tile of factory 1
to the floor ('1WF'); the wall tiling then asks for the players' column choices.
"""

from helpers import assert_refused, make_state

# Row 3 lacks red, but its empty cells (columns 1, 3, 5) are all in columns that hold red.
RED_BLOCKED_ROW3 = "R..../..R../.Y.K./....R/....."


def grey(engine, **position):
    position.setdefault("factories", ["W"])
    position.setdefault("turn", 1)
    position.setdefault("start", 0)
    return make_state(engine, variant="grey", **position)


def test_column_choice_is_a_decision_of_the_player(engine):
    """rules 2: the player chooses the cell at tiling time; ids 300-304, notation W<row><col>."""
    state = grey(engine, lines=["B////", None])
    state.apply("1WF")
    assert state.phase == "tiling"
    assert not state.is_chance_node
    assert state.current_player == 0
    assert state.pending_row == 0
    assert state.legal_actions() == [300, 301, 302, 303, 304]
    assert engine.TILE_ACTION_BASE == 300
    assert state.legal_moves() == ["W11", "W12", "W13", "W14", "W15"]
    state.apply("W13")
    assert state.walls[0][0] == "..B.."
    assert state.round == 2
    assert state.record()["rounds"][0]["moves"] == ["1WF", "W13"]


def test_tiling_choice_by_id_is_written_with_the_pending_row(engine):
    state = grey(engine, lines=["//RRR//", None])
    state.apply("1WF")
    assert state.pending_row == 2
    assert state.action_to_string(301) == "W32"
    assert state.string_to_action("W32") == 301
    state.apply(301)
    assert state.walls[0][2] == ".R..."
    assert state.record()["rounds"][0]["moves"] == ["1WF", "W32"]


def test_one_allowed_cell_is_still_a_decision(engine):
    state = grey(engine, lines=["B////", None], walls=["YRKW./...../...../...../.....", None])
    state.apply("1WF")
    assert state.phase == "tiling"
    assert state.legal_actions() == [304]
    assert state.legal_moves() == ["W15"]
    state.apply("W15")
    assert state.walls[0][0] == "YRKWB"


def test_line_with_no_allowed_cell_goes_to_the_floor_without_a_decision(engine):
    """rules 2: all r+1 tiles go to the floor, overflow to the lid; no move is recorded."""
    state = grey(engine, lines=["//RRR//", None], walls=[RED_BLOCKED_ROW3, None],
                 floors=["KKKKK", ""], scores=[20, 0])
    state.apply("1WF")
    assert state.round == 2
    assert state.record()["rounds"][0]["moves"] == ["1WF"]
    assert state.walls[0][2] == ".Y.K."
    assert state.pattern_lines[0][2] == ""
    assert state.scores[0] == 20 - 14  # 5 + 2 floor tiles; the third red went to the lid
    assert state.lid == "RRRKKKKKW"


def test_earlier_placements_in_the_same_tiling_restrict_the_columns(engine):
    state = grey(engine, lines=["B/BB///", None])
    state.apply("1WF")
    state.apply("W13")
    assert state.pending_row == 1
    assert state.legal_moves() == ["W21", "W22", "W24", "W25"]


def test_earlier_placements_in_the_same_tiling_score_as_neighbours(engine):
    state = grey(engine, lines=["B/YY///", None])
    state.apply("1WF")
    state.apply("W13")
    state.apply("W23")
    assert state.walls[0][:2] == ["..B..", "..Y.."]
    assert state.scores[0] == 1 + 2


def test_choice_that_blocks_a_later_line_is_allowed(engine):
    """Row 2's only empty cell is column 4; putting line 1's blue there sends line 2 (two
    blues) to the floor."""
    state = grey(engine, lines=["B/BB///", None], walls=["...../YRK.W/...../...../.....", None],
                 scores=[10, 0])
    state.apply("1WF")
    assert "W14" in state.legal_moves()
    state.apply("W14")
    assert state.round == 2
    assert state.walls[0][:2] == ["...B.", "YRK.W"]
    assert state.scores[0] == 10 + 1 - 2
    assert state.record()["rounds"][0]["moves"] == ["1WF", "W14"]


def test_tiling_goes_player_by_player_from_the_starting_player_lines_top_to_bottom(engine):
    """rules 2 [decided]: starting player 1 chooses for lines 1 and 3, then player 2, then 0."""
    state = grey(engine, players=3, lines=["B////", "Y//RRR//", "/KK///"], turn=0, start=1)
    state.apply("1WF")
    order = []
    while state.phase == "tiling":
        order.append((state.current_player, state.pending_row))
        state.apply(state.legal_actions()[0])
    assert order == [(1, 0), (1, 2), (2, 1), (0, 0)]
    assert state.record()["rounds"][0]["moves"] == ["1WF", "W11", "W31", "W21", "W11"]


def test_offer_allows_a_colour_unless_its_wall_row_has_it_without_looking_at_columns(engine):
    """rules 2: red may go to line 3 although no cell of row 3 could take it."""
    state = grey(engine, factories=["RRRR", "W"], walls=[RED_BLOCKED_ROW3, None], turn=0)
    assert [m for m in state.legal_moves() if m.startswith("1R")] == [
        "1R3", "1R5", "1RF"]  # rows 1, 2 and 4 already hold red


def test_offer_refuses_a_colour_already_in_the_wall_row(engine):
    state = grey(engine, factories=["RRRR", "W"], walls=["...../R..../...../...../.....", None],
                 turn=0)
    assert "1R2" not in state.legal_moves()
    assert_refused(engine, state, "1R2", "wall row 2 already has red")


def test_grey_wall_scores_and_ends_like_the_classic_wall(engine):
    """The blue completes row 1 in column 5: 5 points, then +2 for the row."""
    state = grey(engine, lines=["B////", None], walls=["YRKW./...../...../...../.....", None])
    state.apply("1WF")
    state.apply("W15")
    assert state.is_over
    assert state.scores == [5 + 2, 0]
    assert state.winners == [0]
