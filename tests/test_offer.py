"""Setup and the factory offer: rules.md section 1 (classic wall)."""

import pytest

from helpers import make_state


# -- setup -------------------------------------------------------------------------------------

@pytest.mark.parametrize("players, factories", [(2, 5), (3, 7), (4, 9)])
def test_new_game_setup(engine, players, factories):
    """5 / 7 / 9 factories of 4 tiles; scores 0; empty boards; the marker in the centre."""
    state = engine.new_game(players, "classic", 1)
    assert state.players == players
    assert state.variant == "classic"
    assert state.chance_mode == "sampled"
    assert state.seed == 1
    assert state.round == 1
    assert state.phase == "offer"
    assert [len(f) for f in state.factories] == [4] * factories
    assert len(state.bag) == 100 - 4 * factories
    assert state.center == "" and state.lid == ""
    assert state.scores == [0] * players
    assert state.walls == [["....."] * 5] * players
    assert state.pattern_lines == [[""] * 5] * players
    assert state.floors == [""] * players
    assert state.first_player_marker == -1
    assert state.current_player == state.starting_player


@pytest.mark.parametrize("arguments, error", [
    (dict(players=1), ValueError), (dict(players=5), ValueError), (dict(players="2"), TypeError),
    (dict(variant="pavilion"), ValueError), (dict(chance="random"), ValueError),
    (dict(seed="7"), TypeError), (dict(seed=1.0), TypeError),
])
def test_new_game_checks_its_arguments(engine, arguments, error):
    arguments = dict(dict(players=2, variant="classic", seed=1, chance="sampled"), **arguments)
    with pytest.raises(error):
        engine.new_game(**arguments)


# -- taking tiles ------------------------------------------------------------------------------

def test_taking_from_a_factory_takes_every_tile_of_the_colour(engine):
    state = make_state(engine, factories=["BBYR", "KKKW"])
    state.apply("1B3")
    assert state.pattern_lines[0] == ["", "", "BB", "", ""]
    assert state.floors[0] == ""


def test_rest_of_the_factory_goes_to_the_centre(engine):
    state = make_state(engine, factories=["BBYR", "KKKW"])
    state.apply("1B3")
    assert state.factories[0] == ""
    assert state.center == "YR"
    assert state.factories[1] == "KKKW"


def test_factory_rest_joins_the_tiles_already_in_the_centre(engine):
    state = make_state(engine, factories=["BBYR"], center="RW")
    state.apply("1B3")
    assert state.center == "YRRW"


def test_taking_from_the_centre_leaves_the_other_colours(engine):
    state = make_state(engine, factories=["KKKK"], center="BBYRR")
    state.apply("CR2")
    assert state.pattern_lines[0][1] == "RR"
    assert state.center == "BBY"
    assert state.factories[0] == "KKKK"


def test_play_passes_clockwise(engine):
    state = make_state(engine, players=3, factories=["BBBB", "YYYY", "RRRR", "KKKK"], turn=1)
    assert state.current_player == 1
    state.apply("1B1")
    assert state.current_player == 2
    state.apply("2Y1")
    assert state.current_player == 0
    state.apply("3R1")
    assert state.current_player == 1


def test_legal_moves_come_source_by_source_colour_by_colour_lines_then_floor(engine):
    """legal_actions() is ascending: draft id = (source * 5 + colour) * 6 + destination."""
    state = make_state(engine, factories=["BY", "R"], center="K")
    expected = [(source * 5 + colour) * 6 + dest
                for source, colour in ((0, 0), (0, 1), (1, 2), (9, 3)) for dest in range(6)]
    assert state.legal_actions() == expected
    assert state.legal_moves()[:7] == ["1B1", "1B2", "1B3", "1B4", "1B5", "1BF", "1Y1"]
    assert state.legal_moves()[-6:] == ["CK1", "CK2", "CK3", "CK4", "CK5", "CKF"]


# -- the first-player marker -------------------------------------------------------------------

def test_first_taker_from_the_centre_takes_the_marker_to_the_floor(engine):
    state = make_state(engine, factories=["KKKK"], center="BY")
    assert state.first_player_marker == -1
    state.apply("CB2")
    assert state.first_player_marker == 0
    assert state.floors[0] == "M"
    assert state.pattern_lines[0][1] == "B"


def test_only_the_first_taker_from_the_centre_gets_the_marker(engine):
    state = make_state(engine, factories=["KKKK"], center="BY")
    state.apply("CB2")
    state.apply("CY2")
    assert state.first_player_marker == 0
    assert state.floors == ["M", ""]


def test_marker_takes_the_leftmost_free_floor_space_before_the_tiles_land(engine):
    """Six tiles on the floor: the marker fills space 7, so all three blues go to the lid."""
    state = make_state(engine, factories=["YYYY"], center="BBB", floors=["RRRRRR", ""])
    state.apply("CBF")
    assert state.floors[0] == "MRRRRRR"
    assert state.lid == "BBB"


def test_marker_holder_starts_the_next_round(engine):
    state = make_state(engine, factories=["BBBB"], center="Y", turn=0, start=0)
    state.apply("1B1")
    state.apply("CY1")  # player 1 is the first to take from the centre
    assert state.round == 2
    assert state.phase == "offer"
    assert state.starting_player == 1
    assert state.current_player == 1
    assert state.first_player_marker == -1  # back in the centre for the new round


def test_marker_on_a_full_floor_is_kept_aside_without_penalty(engine):
    """rules 1 [decided]: taken onto a floor of 7 items, the marker is kept aside; no extra
    penalty, and its holder still starts the next round."""
    state = make_state(engine, factories=["Y"], center="B", floors=["KKKKKKK", ""],
                       scores=[20, 5], turn=0, start=1)
    state.apply("CB1")
    assert state.first_player_marker == 0
    assert state.floors[0] == "KKKKKKK"
    state.apply("1Y1")
    assert state.round == 2
    assert state.scores == [20 + 1 - 14, 5 + 1]
    assert state.starting_player == 0


def test_round_where_nobody_takes_from_the_centre_keeps_the_starting_player(engine):
    """rules 1 [decided]: the centre is never used, so the marker stays there."""
    state = make_state(engine, factories=["BBBB", "YYYY", "RRRR", "KKKK", "WWWW"],
                       turn=1, start=1)
    for move in ("1B1", "2Y1", "3R2", "4K2", "5W3"):
        state.apply(move)
    assert state.round == 2
    assert state.starting_player == 1
    assert state.current_player == 1


def test_round_ends_when_no_tile_is_on_offer_though_the_marker_is_in_the_centre(engine):
    state = make_state(engine, factories=["BBBB"])
    state.apply("1B5")
    assert state.round == 2
    assert state.record()["rounds"][0]["moves"] == ["1B5"]


# -- pattern lines -----------------------------------------------------------------------------

def test_pattern_line_holds_only_one_colour(engine):
    state = make_state(engine, factories=["BBYR"], lines=["//R//", "////"])
    blue = [m for m in state.legal_moves() if m.startswith("1B")]
    assert blue == ["1B1", "1B2", "1B4", "1B5", "1BF"]
    assert "1R3" in state.legal_moves()


def test_pattern_line_refuses_a_colour_its_wall_row_already_has(engine):
    state = make_state(engine, factories=["BBYR"], walls=["...../.B.../...../...../.....", None])
    blue = [m for m in state.legal_moves() if m.startswith("1B")]
    assert blue == ["1B1", "1B3", "1B4", "1B5", "1BF"]


def test_full_pattern_line_takes_no_more_tiles(engine):
    state = make_state(engine, factories=["BBYR"], lines=["/BB///", "////"])
    blue = [m for m in state.legal_moves() if m.startswith("1B")]
    assert blue == ["1B1", "1B3", "1B4", "1B5", "1BF"]


def test_tiles_that_do_not_fit_the_line_fall_to_the_floor(engine):
    state = make_state(engine, factories=["BBBB", "W"])
    state.apply("1B1")
    assert state.pattern_lines[0][0] == "B"
    assert state.floors[0] == "BBB"


def test_chosen_line_is_filled_as_far_as_possible(engine):
    """rules 1 [decided]: no part of the take may go to the floor by choice."""
    state = make_state(engine, factories=["YRRR"], lines=["//R//", "////"])
    state.apply("1R3")
    assert state.pattern_lines[0][2] == "RRR"
    assert state.floors[0] == "R"
    assert state.center == "Y"


def test_taking_to_the_floor_puts_every_tile_on_the_floor(engine):
    state = make_state(engine, factories=["YRRR"])
    state.apply("1RF")
    assert state.floors[0] == "RRR"
    assert state.pattern_lines[0] == ["", "", "", "", ""]


def test_floor_is_always_legal(engine):
    """Blue is on every wall row, so the floor is the only place for blue."""
    diagonal = "B..../.B.../..B../...B./....B"
    state = make_state(engine, factories=["BBBB", "YYYY"], walls=[diagonal, None])
    assert [m for m in state.legal_moves() if m.startswith("1")] == ["1BF"]
    assert [m for m in state.legal_moves() if m.startswith("2")] == [
        "2Y1", "2Y2", "2Y3", "2Y4", "2Y5", "2YF"]


def test_floor_overflow_goes_to_the_lid(engine):
    """Five tiles on the floor and four more arrive: two fill spaces 6 and 7, two go to the lid."""
    state = make_state(engine, factories=["BBBB", "W"], floors=["KKKKK", ""])
    state.apply("1BF")
    assert state.floors[0] == "BBKKKKK"
    assert state.lid == "BB"


def test_tiles_falling_on_a_full_floor_go_to_the_lid_not_the_bag(engine):
    state = make_state(engine, factories=["BBBB", "W"], floors=["KKKKKKK", ""])
    bag = state.bag
    state.apply("1B1")
    assert state.pattern_lines[0][0] == "B"
    assert state.floors[0] == "KKKKKKK"
    assert state.lid == "BBB"
    assert state.bag == bag
