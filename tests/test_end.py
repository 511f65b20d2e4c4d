"""The end of the game: rules.md section 1, "End" and "Stuck games [decided]".

As in test_tiling, each position leaves the last tile of the round in factory 1 and the last
move (normally player 1's '1WF') ends the factory offer, so the wall tiling runs at once.
"""

import pytest

from helpers import assert_refused, end_bonus, make_state
from test_playouts import play_by_hand, splitmix_output

ROW1_MISSING_WHITE = "BYRK./...../...../...../....."
FULL_WALL_BUT_ONE = "BYRK./WBYRK/KWBYR/RKWBY/YRKWB"
COLUMN1_BUT_ONE = "B..../W..../K..../R..../....."
DIAGONAL_BUT_ONE = "B..../.B.../..B../...B./....."


def last_round(engine, move="1WF", **position):
    position.setdefault("factories", ["W"])
    position.setdefault("turn", 1)
    state = make_state(engine, **position)
    state.apply(move)
    return state


# -- when the game ends ------------------------------------------------------------------------

def test_game_ends_after_the_round_in_which_a_row_is_completed(engine):
    state = last_round(engine, walls=[ROW1_MISSING_WHITE, None], lines=["W////", None])
    assert state.is_over
    assert state.phase == "over"
    assert state.round == 1
    assert state.current_player == engine.CHANCE == -1
    assert state.legal_actions() == []
    assert state.legal_moves() == []


def test_game_goes_on_when_no_row_is_complete(engine):
    state = last_round(engine, walls=["BYR../...../...../...../.....", None],
                       lines=["///K/", None])
    assert not state.is_over
    assert state.round == 2
    assert state.winners == []
    assert state.returns() == [0.0, 0.0]  # nothing until the end


def test_last_round_still_tiles_and_penalises_every_player(engine):
    """Player 0 completes a row; player 1 still tiles yellow (+1) and pays 4 for 3 floor items."""
    state = last_round(engine, walls=[ROW1_MISSING_WHITE, None], lines=["W////", "/YY///"],
                       floors=["", "KK"], scores=[0, 10])
    assert state.is_over
    assert state.walls[1][1] == "..Y.."
    assert state.record()["rounds"][0]["scores"] == [5, 10 + 1 - 4]
    assert state.scores == [5 + 2, 7]


# -- end bonuses -------------------------------------------------------------------------------

def test_complete_row_bonus_is_two(engine):
    """The white completes row 1: 5 points for the tile, then +2 for the row."""
    state = last_round(engine, walls=[ROW1_MISSING_WHITE, None], lines=["W////", None])
    assert state.record()["rounds"][0]["scores"] == [5, 0]
    assert state.scores == [7, 0]


def test_complete_column_bonus_is_seven(engine):
    """Player 1 ends the game with a row; player 0's yellow completes column 1: 5 + 7."""
    state = last_round(engine, walls=[COLUMN1_BUT_ONE, ROW1_MISSING_WHITE],
                       lines=["////YYYYY", "W////"])
    assert state.walls[0][4] == "Y...."
    assert state.scores == [5 + 7, 5 - 1 + 2]


def test_complete_colour_bonus_is_ten(engine):
    """Player 0's fifth blue (a lone tile, 1 point) completes the colour: +10."""
    state = last_round(engine, walls=[DIAGONAL_BUT_ONE, ROW1_MISSING_WHITE],
                       lines=["////BBBBB", "W////"])
    assert state.scores == [1 + 10, 5 - 1 + 2]


def test_full_wall_earns_every_bonus(engine):
    """5 rows x 2 + 5 columns x 7 + 5 colours x 10 = 95, after 10 for the last tile."""
    state = last_round(engine, walls=[FULL_WALL_BUT_ONE, None], lines=["W////", None])
    assert state.walls[0] == ["BYRKW", "WBYRK", "KWBYR", "RKWBY", "YRKWB"]
    assert state.scores[0] == 10 + 95


def test_end_bonuses_are_added_exactly_once(engine):
    """Russian summary, common mistakes: bonuses forgotten or counted twice."""
    state = last_round(engine, walls=[FULL_WALL_BUT_ONE, ROW1_MISSING_WHITE],
                       lines=["W////", "W////"], factories=["K"], move="1KF")
    record = state.record()
    for p in range(2):
        assert record["final_scores"][p] == (record["rounds"][-1]["scores"][p]
                                             + end_bonus(state.walls[p]))
    assert state.scores == record["final_scores"] == [105, 6]
    again = engine.GameState.from_text(state.to_text())
    assert again.scores == [105, 6]
    assert_refused(engine, state, "1B1", "game is over")
    assert state.scores == [105, 6]


def test_score_clamp_applies_before_end_bonuses(engine):
    """Player 0: 3 - 8 is clamped to 0 in the last tiling, then +7 for a column: 7, not 2."""
    column = "B..../W..../K..../R..../Y...."
    state = last_round(engine, walls=[column, ROW1_MISSING_WHITE], lines=[None, "W////"],
                       floors=["MKKKK", ""], scores=[3, 0])
    assert state.record()["rounds"][0]["scores"] == [0, 4]
    assert state.scores == [0 + 7, 4 + 2]


# -- the winner --------------------------------------------------------------------------------

def test_highest_score_wins(engine):
    state = last_round(engine, walls=[ROW1_MISSING_WHITE, ROW1_MISSING_WHITE],
                       lines=["W////", "W////"], scores=[3, 0])
    assert state.scores == [3 + 5 + 2, 5 - 1 + 2]
    assert state.winners == [0]
    assert state.returns() == [1.0, -1.0]


def test_tie_is_broken_by_more_complete_rows(engine):
    """Both score 15; player 1 has two complete rows, player 0 one."""
    two_rows = "BYRK./WBYR./...../...../....."
    state = last_round(engine, walls=[ROW1_MISSING_WHITE, two_rows],
                       lines=["W////", "W/KK///"], scores=[8, 0])
    assert state.walls[1][:2] == ["BYRKW", "WBYRK"]
    assert state.scores == [8 + 5 + 2, (5 + 7 - 1) + 4]
    assert state.winners == [1]


def test_more_complete_rows_do_not_beat_a_higher_score(engine):
    two_rows = "BYRK./WBYR./...../...../....."
    state = last_round(engine, walls=[ROW1_MISSING_WHITE, two_rows],
                       lines=["W////", "W/KK///"], scores=[9, 0])
    assert state.scores == [16, 15]
    assert state.winners == [0]


def test_tie_on_score_and_rows_is_a_shared_win(engine):
    state = last_round(engine, players=3,
                       walls=[ROW1_MISSING_WHITE, None, ROW1_MISSING_WHITE],
                       lines=["W////", None, "W////"], scores=[4, 0, 4])
    assert state.scores == [11, 0, 11]
    assert state.winners == [0, 2]
    assert state.returns() == [0.0, -1.0, 0.0]  # a shared win: 0 to each winner, -1 to the others


# -- stuck games -------------------------------------------------------------------------------

# Classic wall with columns 1-3 complete and no complete row; every row holds blue except row 5.
STUCK_WALL = "BYRK./WBYR./KWBY./RKWB./YRK.."


def stuck_position(engine, lines, lid="", move="1W5"):
    """Four players on STUCK_WALL; player 3 takes the last tile, a white, with ``move``."""
    return last_round(engine, move=move, players=4, walls=[STUCK_WALL] * 4, lines=lines,
                      lid=lid, scores=[5, 0, 3, 8], turn=3, start=0)


def test_stuck_game_ends_when_no_tile_in_bag_or_lid_can_reach_a_pattern_line(engine):
    """rules 1, stuck games [decided]: only blue is left in bag and lid; every wall row but row
    5 already has blue, and every line 5 holds white.  The game ends, with end bonuses (three
    complete columns: +21), though no row is complete."""
    state = stuck_position(engine, lines=["/K/RR/YYY/WW", "/K/RR/Y/WW", "/K///WW", "/K///W"],
                           lid="BB")
    assert state.bag == "BB" and state.lid == "BB"
    assert state.is_over
    assert state.record()["rounds"][0]["scores"] == [5, 0, 3, 8]
    assert state.scores == [26, 21, 24, 29]
    assert state.winners == [3]


def test_stuck_game_ends_when_nothing_is_left_to_draw(engine):
    """rules 1, stuck games: bag and lid are empty after the tiling (blue sits on a line)."""
    state = stuck_position(engine, lines=["/K/RR/YYY/BBBB", "/K/RR/Y/WWW", "/K///WWW", "/K///W"])
    assert state.bag == "" and state.lid == ""
    assert state.is_over
    assert state.scores == [26, 21, 24, 29]


def test_game_goes_on_while_a_tile_in_bag_or_lid_can_reach_a_pattern_line(engine):
    """As the stuck game, but player 3's line 5 stays empty: blue can still go there.  (The
    white not on a line is in the bag.)"""
    state = stuck_position(engine, lines=["/K/RR/YYY/WW", "/K/RR/Y/WW", "/K///WW", "/K///"],
                           lid="BB", move="1WF")
    assert not state.is_over
    assert state.round == 2
    assert sorted(state.factories[0] + state.factories[1]) == sorted("BBBBWW")


def test_grey_stuck_game_counts_rows_whose_empty_cells_cannot_take_the_colour(engine):
    """rules 1, stuck games, grey wall: player 3's line 5 is empty and row 5 has no blue, but
    every empty cell of row 5 is in a column that already holds blue."""
    wall = "BYRK./KBYR./RKBY./YRKB./....W"
    state = last_round(engine, move="1W4", players=4, variant="grey", walls=[wall] * 4,
                       lines=["/W/WW/W/YYYY", "/W/WW/W/RRRR", "/W/WW/W/KKKK", "/W/WW//"],
                       lid="BB", scores=[1, 2, 3, 4], turn=3, start=0)
    assert state.pattern_lines[3] == ["", "W", "WW", "W", ""]
    assert state.bag == "BB" and state.lid == "BB"
    assert state.is_over
    assert state.scores == [1, 2, 3, 4]
    assert state.winners == [3]


# -- the round cap -----------------------------------------------------------------------------

def test_a_game_still_going_after_round_100_ends_there(engine):
    """docs/decisions.md: the end of round 100 ends the game as a stuck game does (end-game scoring), though
    no row is complete and a tile could still reach a wall."""
    state = last_round(engine, round=100, walls=[COLUMN1_BUT_ONE] * 2, scores=[5, 4])
    assert state.round == 100 and state.is_over
    assert state.scores == [5, 3]  # player 1's floored white costs 1; column 1 is one tile short: no bonus
    assert state.winners == [0]
    state = last_round(engine, round=99, walls=[COLUMN1_BUT_ONE] * 2, scores=[5, 4])
    assert state.round == 100 and not state.is_over


def test_state_text_past_the_round_cap_is_refused(engine):
    text = make_state(engine, round=100, factories=["W"], turn=1).to_text()
    with pytest.raises(engine.StateFormatError, match="round"):
        engine.GameState.from_text(text.replace(" round=100 ", " round=101 "))


def test_a_forced_cycle_ends_at_the_round_cap(engine):
    """A 4-player grey game found by random playouts: each round the starter's only move floors the round's only
    tiles (four whites) and nobody takes from the centre, so the same round repeats for ever; player 0's line 3 could
    still take white, so the game is not stuck. The playout ends at round 100, in both engines alike."""
    text = ("azul-state/1 variant=grey players=4 chance=sampled seed=2 rng=de0497cf65c3ef0b round=1 phase=offer turn=2"
            " start=2 marker=1 moves=8 factories=YRKK,-,-,-,-,YRRW,-,YYKW,YYYW center=BYRRKK bag=15,7,14,12,16"
            " lid=0,0,0,0,0 prefill=20,20,20,20,20/0,0,0,0,0 p0=0:K/-/-/-/YY:...../...../...../...../.....:KK"
            " p1=0:-/-/-/R/BB:...../...../...../...../.....:M p2=0:-/-/-/BB/-:...../...../...../...../.....:YY"
            " p3=0:-/-/-/Y/-:...../...../...../...../.....:W")
    state = engine.from_text(text)
    state.reseed(splitmix_output(283, 2 * 270 + 1))
    play_by_hand(engine, state, splitmix_output(283, 2 * 270 + 2))
    assert state.is_over and state.round == 100
    assert state.factories[0] == ""  # the whites were floored in round 100 too
    again = engine.from_text(text)
    assert engine.playouts_from(again, 271, seed=283, threads=1)[270].tolist() == state.scores
