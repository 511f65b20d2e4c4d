"""Azul: Summer Pavilion (rules section 3), every rule against both engines.

Positions are written as state text (helpers.pavilion_text); the ornament table below is copied from
rules.md by hand, independently of the engines' own tables.
"""

import json

import pytest

from helpers import SP_COLOURS, SP_STARS, Picker, assert_refused, draw_tile, pavilion_state, pavilion_text, sp_counts

SP = "summer-pavilion"
STAR_COLOUR = dict(zip("ORBYGP", "ORBYGP"))  # each outer star takes its own colour (same letters)
CLOCKWISE = "ORBYGP"
PILLAR_CENTRE = {"O": (6, 1), "R": (1, 2), "B": (2, 3), "Y": (3, 4), "G": (4, 5), "P": (5, 6)}


def ornament_table():
    """(name, spaces as (star, number) pairs, bonus tiles), from rules.md section 3."""
    out = []
    for s in CLOCKWISE:
        out.append(("window " + s, [(s, 5), (s, 6)], 3))
    for i, a in enumerate(CLOCKWISE):
        b = CLOCKWISE[(i + 1) % 6]
        out.append(("statue %s-%s" % (a, b), [(a, 1), (a, 2), (b, 3), (b, 4)], 2))
    for s in CLOCKWISE:
        c1, c2 = PILLAR_CENTRE[s]
        out.append(("pillar " + s, [(s, 2), (s, 3), ("C", c1), ("C", c2)], 1))
    return out


ORNAMENTS = ornament_table()


def board_with(spaces, centre_colours="PGOYBR"):
    """A board dict covering ``spaces``; centre spaces get distinct colours from ``centre_colours``."""
    board = {}
    free = list(centre_colours)
    for star, n in spaces:
        row = list(board.get(star, "......"))
        row[n - 1] = free.pop(0) if star == "C" else star
        board[star] = "".join(row)
    return board


def place_move(star, n, colour, wilds=0):
    return "%s%d%s%d" % (star, n, colour, wilds)


# -- board model ---------------------------------------------------------------------------------------------

def test_new_game_setup(engine):
    for players, factories in ((2, 5), (3, 7), (4, 9)):
        g = engine.new_game(players, SP, seed=3)
        assert g.variant == SP and g.round == 1 and g.wild == "P"
        assert g.scores == [5] * players
        assert len(g.factories) == factories and all(len(f) == 4 for f in g.factories)
        assert len(g.supply) == 10
        assert len(g.bag) == 132 - 10 - 4 * factories
        assert g.boards == [["......"] * 7] * players
        assert g.phase == "acquire" and g.current_player == g.starting_player


def test_draw_order_first_player_then_supply_then_factories(engine):
    """rules 3/5: the generator draws the first player, then the 10 supply tiles, then the factories."""
    g = engine.new_game(3, SP, seed=11, chance="explicit")
    e = engine.new_game(3, SP, seed=11)
    from azul_engine.bots import SplitMix64

    rng = SplitMix64(11)
    assert e.starting_player == rng.below(3)
    bag, tower = [22] * 6, [0] * 6
    drawn = [SP_COLOURS[draw_tile(rng, bag, tower)] for _ in range(10 + 4 * 7)]
    assert e.supply == "".join(sorted(drawn[:10], key=SP_COLOURS.index))
    assert e.factories == ["".join(sorted(drawn[10 + 4 * i:14 + 4 * i], key=SP_COLOURS.index)) for i in range(7)]
    # explicit mode stops at each of these draws
    g.apply("~%d" % e.starting_player)
    assert g.phase == "fill" and g.is_chance_node
    for ch in drawn:
        g.apply("~" + ch)
    assert g.supply == e.supply and g.factories == e.factories and g.phase == "acquire"


def test_wild_colour_of_each_round(engine):
    for rnd, wild in enumerate("PGOYBR", 1):
        g = pavilion_state(engine, round=rnd, hands=["PGOYBR", ""])
        assert g.wild == wild


def test_ring_adjacency_six_touches_one_and_stars_do_not_touch(engine):
    # R6 and R2 covered: R1 joins them into a run of 3 across the 6-1 edge.
    g = pavilion_state(engine, hands=["R", ""], boards=[{"R": ".R...R", "O": "OOOOOO", "B": "BBBBBB"}, {}])
    g.apply("R1R0")
    assert g.scores[0] == 5 + 3
    # A run wrapping 5, 6, 1, 2: placing 1 with 5, 6 and 2 covered gives 4.
    g = pavilion_state(engine, round=2, hands=["Y", ""], boards=[{"Y": ".Y..YY"}, {}])
    g.apply("Y1Y0")
    assert g.scores[0] == 5 + 4
    # Neighbouring stars never touch: O1 next to a full red star scores 1.
    g = pavilion_state(engine, round=2, hands=["O", ""], boards=[{"R": "RRRRRR", "P": "PPPPPP"}, {}])
    g.apply("O1O0")
    assert g.scores[0] == 5 + 1
    # The last space of a star scores 6.
    g = pavilion_state(engine, round=2, hands=["BBB", ""], boards=[{"B": "BB.BBB"}, {}])
    g.apply("B3B0")
    assert g.scores[0] == 5 + 6


@pytest.mark.parametrize("name,spaces,tiles", ORNAMENTS, ids=[o[0] for o in ORNAMENTS])
def test_every_ornament_pays_once_from_each_of_its_spaces(engine, name, spaces, tiles):
    for star, n in spaces:
        others = [x for x in spaces if x != (star, n)]
        board = board_with(others, centre_colours="GO")
        colour = "Y" if star == "C" else star  # centre: a colour none of the others has
        # Round 4 (wild yellow) would make a yellow centre tile an all-yellow payment; use round 2 (green).
        g = pavilion_state(engine, round=2, hands=[colour * n, ""], boards=[board, {}],
                           supply="PPGGOOYYBR")
        before_hand = len(g.hands[0])
        g.apply(place_move(star, n, colour))
        assert g.phase == "bonus" and g.current_player == 0, (name, star, n)
        assert g.bonus_owed == tiles, (name, star, n)
        for _ in range(tiles):
            g.apply("+" + g.supply[0])
        assert g.phase == "play" and g.current_player == 1, (name, star, n)
        assert len(g.hands[0]) == before_hand - n + tiles
        assert len(g.supply) == 10  # refilled after the turn


def test_a_completed_ornament_never_pays_again(engine):
    # Window O complete; covering the rest of the orange star pays nothing more.
    g = pavilion_state(engine, round=2, hands=["OOOO", "B"], boards=[{"O": "OOO.OO"}, {}])
    g.apply("O4O0")
    assert g.phase == "play" and g.current_player == 1 and g.bonus_owed == 0


def test_statue_and_pillar_at_once_give_three_tiles(engine):
    # O2 completes statue O-R (O1 O2 R3 R4) and pillar O (O2 O3 C6 C1).
    board = board_with([("O", 1), ("R", 3), ("R", 4), ("O", 3), ("C", 6), ("C", 1)], centre_colours="PG")
    g = pavilion_state(engine, round=2, hands=["OO", ""], boards=[board, {}])
    g.apply("O2O0")
    assert g.bonus_owed == 3
    # Three decisions, one tile each, of the player's choice (the wild colour allowed).
    supply = g.supply
    g.apply("+G")
    assert g.bonus_owed == 2 and g.phase == "bonus"
    g.apply("+P")
    g.apply("+P")
    assert g.current_player == 1
    assert sp_counts(g.hands[0]) == [2, 1, 0, 0, 0, 0]
    assert "G" in supply


def test_bonus_tile_must_be_in_the_supply(engine):
    g = pavilion_state(engine, round=2, hands=["OOOOOO", ""], boards=[{"O": "OOO.O."}, {}], supply="PPPPPPPPPP")
    g.apply("O6O0")
    assert g.bonus_owed == 3
    assert g.legal_moves() == ["+P"]
    assert_refused(engine, g, "+R", "the supply has no red")
    assert_refused(engine, g, "-", "takes 3 more bonus tiles")


# -- phase 1: acquire -----------------------------------------------------------------------------------------

def acquire_state(engine, factories, center="", marker="C", round=1, scores=None, hands=None, players=2):
    nf = 2 * players + 1
    facs = list(factories) + [""] * (nf - len(factories))
    return pavilion_state(engine, players=players, phase="acquire", round=round, factories=facs, center=center,
                          marker=marker, moves=0, scores=scores, hands=hands)


def test_take_one_colour_plus_the_mandatory_wild_tile(engine):
    g = acquire_state(engine, ["PPRR", "GGGO"])  # round 1: purple is wild
    assert g.legal_moves() == ["1R", "2G", "2O"]
    g.apply("1R")
    assert g.hands[0] == "PRR"  # both reds and exactly one wild
    assert g.center == "P"  # the other wild goes to the centre
    assert g.factories[0] == ""


def test_the_wild_colour_cannot_be_chosen_while_others_are_there(engine):
    g = acquire_state(engine, ["PPRR", "GGGO"])
    msg = assert_refused(engine, g, "1P", "wild colour")
    assert "purple" in msg


def test_a_wild_only_source_gives_exactly_one_wild(engine):
    g = acquire_state(engine, ["PPPP", "GGGO"])
    assert "1P" in g.legal_moves()
    g.apply("1P")
    assert g.hands[0] == "P" and g.center == "PPP"
    # From the centre holding only wild tiles: one tile, the rest stay; the start token comes with it.
    g.apply("CP")
    assert g.hands[1] == "P" and g.center == "PP" and g.first_player_marker == 1
    assert g.scores == [5, 4]


def test_first_taker_from_the_centre_loses_a_point_per_tile_including_the_wild(engine):
    g = acquire_state(engine, ["GGGO"], center="PRRR", scores=[9, 9])
    g.apply("CR")
    assert g.hands[0] == "PRRR" and g.first_player_marker == 0
    assert g.scores == [9 - 4, 9]
    g.apply("1G")  # factory 1: rest to the centre
    g.apply("CO")  # the second taker from the centre loses nothing
    assert g.scores == [5, 9]


def test_start_token_penalty_stops_at_one(engine):
    g = acquire_state(engine, ["GGGO"], center="PRRRR", scores=[3, 5])
    g.apply("CR")
    assert g.scores == [1, 5]
    g = acquire_state(engine, ["GGGO"], center="PR", scores=[1, 5])
    g.apply("CR")
    assert g.scores == [1, 5]


def test_phase_two_starts_with_the_token_holder_and_they_start_the_next_round(engine):
    g = acquire_state(engine, ["GGGO"], center="R")
    assert g.current_player == 0
    g.apply("1O")  # player 0; the rest to the centre
    g.apply("CR")  # player 1 takes the token
    g.apply("CG")
    assert g.phase == "play" and g.current_player == 1 and g.first_player_marker == 1
    g.apply("-G" if "G" in g.hands[1] else "-R")
    g.apply("-" + g.hands[0])
    assert g.round == 2 and g.starting_player == 1 and g.current_player == 1
    assert g.first_player_marker == -1 and g.wild == "G"


def test_nobody_takes_from_the_centre_same_starting_player(engine):
    g = acquire_state(engine, ["RRRR", "GGGG"])
    g.apply("1R")
    g.apply("2G")
    assert g.phase == "play" and g.current_player == 0 and g.first_player_marker == -1
    g.apply("-RRRR")
    g.apply("-GGGG")
    assert g.round == 2 and g.starting_player == 0


# -- phase 2: play --------------------------------------------------------------------------------------------

def test_wild_payment_limits(engine):
    # Round 1, purple wild. Red space 4 costs 4: with 1 red and 5 purple only 3 wilds fit.
    g = pavilion_state(engine, hands=["PPPPPR", ""])
    moves = g.legal_moves()
    assert [m for m in moves if m.startswith("R4")] == ["R4R3"]
    assert [m for m in moves if m.startswith("R1")] == ["R1R0"]
    assert_refused(engine, g, "R4R4", "at most 3 of them wild")
    assert_refused(engine, g, "R4R2", "needs 2 red; player 0 has 1")
    assert_refused(engine, g, "R2R0", "needs 2 red; player 0 has 1")
    # Not enough wild tiles.
    g = pavilion_state(engine, hands=["PRR", ""])
    assert [m for m in g.legal_moves() if m.startswith("R4")] == []
    assert_refused(engine, g, "R4R2", "player 0 has 1 wild tile (purple), not 2")
    # With more reds, every split from all-red to one real tile.
    g = pavilion_state(engine, hands=["PPPRRRR", ""])
    assert [m for m in g.legal_moves() if m.startswith("R4")] == ["R4R0", "R4R1", "R4R2", "R4R3"]
    g.apply("R4R3")
    assert g.hands[0] == "RRR" and g.boards[0][1] == "...R.."
    assert sp_counts(g.tower) == [3, 0, 0, 0, 0, 0]  # the wilds paid go to the tower


def test_the_wild_colour_is_paid_in_full_on_its_own_star_and_in_the_centre(engine):
    g = pavilion_state(engine, hands=["PPPR", ""])
    moves = g.legal_moves()
    assert [m for m in moves if m[0] == "P"] == ["P1P0", "P2P0", "P3P0"]
    assert [m for m in moves if m[0] == "C" and m[2] == "P"] == ["C1P0", "C2P0", "C3P0"]
    assert_refused(engine, g, "P4P0", "costs 4 purple; player 0 has 3")
    assert_refused(engine, g, "P3P1", "wild colour")
    g.apply("C3P0")
    assert g.hands[0] == "R" and g.boards[0][6] == "..P..."
    assert sp_counts(g.tower) == [2, 0, 0, 0, 0, 0]


def test_outer_stars_take_only_their_colour(engine):
    g = pavilion_state(engine, hands=["RRRBBB", ""])
    assert_refused(engine, g, "B1R0", "the blue star takes only blue tiles")
    assert not [m for m in g.legal_moves() if m[0] in "OYGP"]


def test_centre_star_colours_all_differ(engine):
    g = pavilion_state(engine, round=2, hands=["RRRBBB", ""], boards=[{"C": "R....."}, {}])
    moves = g.legal_moves()
    assert not [m for m in moves if m[0] == "C" and m[2] == "R"]
    assert "C2B0" in moves
    assert_refused(engine, g, "C2R0", "the centre star already holds red")


def test_a_covered_space_cannot_be_covered_again(engine):
    g = pavilion_state(engine, round=2, hands=["RRR", ""], boards=[{"R": "R....."}, {}])
    assert_refused(engine, g, "R1R0", "red star space 1 is already covered")


def test_passing_keeps_up_to_four_and_costs_a_point_per_other_tile(engine):
    g = pavilion_state(engine, hands=["GGOOYBBR", "R"], scores=[10, 5])
    passes = [m for m in g.legal_moves() if m[0] == "-"]
    assert "-GGOO" in passes and "-" in passes and all(len(m) <= 5 for m in passes)
    assert_refused(engine, g, "-GGGO", "cannot keep 3 green: they have 2")
    with pytest.raises(engine.IllegalMoveError, match="at most 4 tiles"):
        g.apply("-GGOOY")
    g.apply("-GBBR")
    assert g.hands[0] == "GBBR" and g.scores == [10 - 4, 5] and g.passed == [True, False]
    assert sp_counts(g.tower) == [0, 1, 2, 1, 0, 0]
    # A passed player is skipped: player 1 moves until they pass too.
    assert g.current_player == 1
    g.apply("R1R0")
    assert g.current_player == 1


def test_passing_penalty_stops_at_one(engine):
    g = pavilion_state(engine, hands=["GGOOYYBBRR", ""], scores=[3, 5])
    g.apply("-")
    assert g.scores == [1, 5]


def test_pass_is_forced_when_nothing_can_be_placed(engine):
    g = pavilion_state(engine, hands=["RRR", ""], boards=[{"R": "RRRRRR", "C": "R....."}, {}])
    assert g.legal_moves() == ["-", "-R", "-RR", "-RRR"]


def test_supply_running_short_gives_what_there_is(engine):
    g = pavilion_state(engine, round=2, hands=["OOOOOO", ""], supply="B",
                       boards=[board_with([("O", 5)]), {}])
    g.apply("O6O0")  # window O: 3 tiles owed, one in the supply
    assert g.bonus_owed == 3 and g.legal_moves() == ["+B"]
    g.apply("+B")
    assert g.phase == "play" and g.current_player == 1 and g.bonus_owed == 0
    assert "B" in g.hands[0]
    # With an empty supply nothing is owed and nothing asked.
    g = pavilion_state(engine, round=2, hands=["OOOOOO", ""], supply="", boards=[board_with([("O", 5)]), {}])
    # (the bag is full, so the refill after the turn fills the supply again)
    g.apply("O6O0")
    assert g.phase == "play" and g.current_player == 1 and len(g.supply) == 10


def test_refill_pours_the_tower_and_stops_when_bag_and_tower_are_empty(engine):
    # Everything not on a board or in a hand is in the supply (3 tiles), tower or bag: empty bag and tower.
    hands = ["P" * 22 + "G" * 22 + "O" * 22 + "Y" * 22, "B" * 22 + "R" * 19]
    g = pavilion_state(engine, round=2, hands=hands, supply="RRR", boards=[{}, {}])
    assert g.bag == "" and g.tower == ""
    g.apply("O1O0")
    assert g.bag == "" and g.tower == "" and g.supply == "RRR"  # nothing to draw
    g.apply("B2B0")  # one blue to the tower; the refill pours it into the bag and draws it
    assert g.supply == "BRRR" and g.bag == "" and g.tower == ""


def test_explicit_refill_is_a_chance_node_dealt_in_one_move(engine):
    g = pavilion_state(engine, round=2, chance="explicit", hands=["OOOOOO", ""], boards=[{"O": "....O."}, {}],
                       supply="PPGGOOYYBR")
    g.apply("O6O0")  # window O: 3 bonus tiles
    g.apply("+P")
    g.apply("+P")
    g.apply("+G")
    assert g.phase == "fill" and g.is_chance_node and g.current_player == -1
    outcomes = g.chance_outcomes()
    bag = sp_counts(g.bag)
    assert [a for a, _ in outcomes] == [engine.SP_DRAW_ACTION_BASE + c for c in range(6) if bag[c]]
    assert abs(sum(pr for _, pr in outcomes) - 1) < 1e-12
    assert_refused(engine, g, "~BR", "3 are drawn")
    assert_refused(engine, g, "R1R0", "chance node")
    g.apply("~BRR")
    assert g.supply == "GOOYYBBRRR" and g.phase == "play" and g.current_player == 1
    # Tile by tile: the same refill as three draws.
    h = pavilion_state(engine, round=2, chance="explicit", hands=["OOOOOO", ""], boards=[{"O": "....O."}, {}],
                       supply="PPGGOOYYBR")
    for move in ("O6O0", "+P", "+P", "+G", "~B", "~R"):
        h.apply(move)
    assert h.is_chance_node
    assert_refused(engine, h, "~RR", "already drawn")
    h.apply("~R")
    assert h.to_text() == g.to_text()


def test_explicit_replay_of_a_record_gives_the_same_record(engine):
    from azul_engine import records

    for seed in range(21, 60):  # the first game with a refill of several tiles
        g = engine.new_game(2, SP, seed=seed)
        pick = Picker(seed)
        while not g.is_over:
            moves = g.legal_moves()
            places = [m for m in moves if len(m) == 4 and m[0] != "-"]  # always place when possible
            g.apply(pick.choice(places) if places else pick.likely_move(moves))
        rec = g.record()
        if any(len(m) > 2 and m[0] == "~" for r in rec["rounds"] for m in r["moves"]):
            break
    else:
        pytest.fail("no game with a refill of several tiles")
    again = records.replay(rec, engine).record()
    assert again["seed"] is None
    again["seed"] = rec["seed"]
    assert again == rec


# -- the end -------------------------------------------------------------------------------------------------

STAR_BONUS = {"C": 12, "R": 14, "B": 15, "Y": 16, "O": 17, "G": 18, "P": 20}


def end_state(engine, board, hand="", score=50, players=2):
    """Round 6, player 0 about to pass as the last player: the game ends after this pass."""
    boards = [board] + [{} for _ in range(players - 1)]
    return pavilion_state(engine, players=players, round=6, hands=[hand] + [""] * (players - 1),
                          boards=boards, scores=[score] + [7] * (players - 1), passed=[0] + [1] * (players - 1))


@pytest.mark.parametrize("star", list(STAR_BONUS))
def test_complete_star_bonus(engine, star):
    full = "PGOYBR" if star == "C" else star * 6
    g = end_state(engine, {star: full})
    g.apply("-")
    assert g.is_over and g.scores == [50 + STAR_BONUS[star], 7] and g.winners == [0]
    assert g.returns() == [1.0, -1.0]


@pytest.mark.parametrize("number,points", [(1, 4), (2, 8), (3, 12), (4, 16)])
def test_number_bonus(engine, number, points):
    board = {}
    for s in SP_STARS:
        row = ["."] * 6
        row[number - 1] = "R" if s == "C" else s
        board[s] = "".join(row)
    g = end_state(engine, board)
    g.apply("-")
    assert g.scores[0] == 50 + points
    # six of the seven spaces: no bonus
    board["C"] = "......"
    g = end_state(engine, board)
    g.apply("-")
    assert g.scores[0] == 50


def test_all_end_bonuses_add_up_then_kept_tiles_cost_a_point_each(engine):
    board = {s: s * 6 for s in "ORBYGP"}
    board["C"] = "PGOYBR"
    g = end_state(engine, board, hand="GGGRR", score=40)
    g.apply("-GGRR")  # one discarded at passing: -1, then 4 kept at the end: -4
    bonus = sum(STAR_BONUS.values()) + 4 + 8 + 12 + 16
    assert g.is_over
    assert g.scores[0] == 40 - 1 + bonus - 4


def test_kept_tile_penalty_stops_at_one(engine):
    g = end_state(engine, {}, hand="GGRR", score=3)
    g.apply("-GGRR")
    assert g.scores[0] == 1


def test_ties_are_shared(engine):
    g = end_state(engine, {}, score=7)
    g.apply("-")
    assert g.scores == [7, 7] and g.winners == [0, 1]
    assert g.returns() == [0.0, 0.0]  # shared


def test_the_game_ends_after_round_six_without_a_last_refill(engine):
    g = engine.new_game(2, SP, seed=8)
    pick = Picker(8)
    rounds = set()
    while not g.is_over:
        rounds.add(g.round)
        g.apply(pick.likely_move(g.legal_moves()))
    assert rounds == {1, 2, 3, 4, 5, 6}
    rec = g.record()
    assert len(rec["rounds"]) == 6
    last = rec["rounds"][-1]["moves"][-1]
    assert last.startswith("-")  # the game's last turn is a pass, not followed by a refill


# -- action ids, notation, text ------------------------------------------------------------------------------

def test_action_ids_and_notation_round_trip(engine):
    g = engine.new_game(2, SP, seed=1)
    assert engine.SP_NUM_ACTIONS == 1798
    for action in range(engine.SP_NUM_ACTIONS):
        text = g.action_to_string(action)
        assert g.string_to_action(text) == action
    assert g.action_to_string(0) == "1P"
    assert g.action_to_string(59) == "CR"
    assert g.action_to_string(engine.SP_PLACE_ACTION_BASE) == "O1P0"
    assert g.action_to_string(engine.SP_PLACE_ACTION_BASE + ((1 * 6 + 2) * 6 + 5) * 6 + 1) == "R3R1"
    assert g.action_to_string(engine.SP_BONUS_ACTION_BASE + 1) == "+G"
    assert g.action_to_string(engine.SP_PASS_ACTION_BASE) == "-"
    assert g.action_to_string(engine.SP_PASS_ACTION_BASE + 209) == "-RRRR"
    assert list(engine.SP_KEEP_SETS[:8]) == ["", "P", "G", "O", "Y", "B", "R", "PP"]
    assert len(engine.SP_KEEP_SETS) == 210
    assert g.action_to_string(engine.SP_DRAW_ACTION_BASE + 4) == "~B"
    assert g.action_to_string(engine.SP_FIRST_PLAYER_ACTION_BASE + 3) == "~3"


@pytest.mark.parametrize("text,message", [
    ("3X", "unknown colour"), ("0R", "unknown source"), ("Z3R1", "unknown star"), ("R7R1", "unknown space"),
    ("R3R6", "0-5"), ("+", "bonus tile"), ("+RR", "bonus tile"), ("-RGP", "colour order"), ("-PPPPP", "at most 4"),
    ("~", "chance outcome"), ("--", "keeping nothing is written -"), ("~-", "chance outcome"), ("~RB", "colour order"), ("3R4", "Summer Pavilion moves"), ("", "Summer Pavilion moves"),
])
def test_bad_notation_is_named(engine, text, message):
    g = engine.new_game(2, SP, seed=1)
    assert_refused(engine, g, text, message)


def test_moves_of_the_wrong_phase_are_refused_with_the_rule(engine):
    g = engine.new_game(2, SP, seed=1)
    assert_refused(engine, g, "R1R0", "phase 1 (acquire)")
    assert_refused(engine, g, "-", "phase 1 (acquire)")
    assert_refused(engine, g, "~R", "not a chance node")
    assert_refused(engine, g, 5000, "out of range")
    assert_refused(engine, g, "9R", "factory 9 does not exist with 2 players")
    p = pavilion_state(engine, hands=["RR", ""])
    assert_refused(engine, p, "1R", "phase 2 (play)")
    assert_refused(engine, p, "+R", "no bonus tile is owed")


def test_legal_actions_ascending_and_playable_through_a_game(engine):
    g = engine.new_game(3, SP, seed=4)
    pick = Picker(4)
    while not g.is_over:
        legal = g.legal_actions()
        assert legal == sorted(set(legal)) and legal
        assert g.legal_moves() == [g.action_to_string(a) for a in legal]
        mask = g.legal_action_mask()
        assert mask.shape == (engine.SP_NUM_ACTIONS,) and list(mask.nonzero()[0]) == legal
        g.apply(pick.likely_move(g.legal_moves()))
    assert g.legal_actions() == []


def test_text_round_trip_and_copies_at_every_step(engine):
    import copy
    import pickle

    g = engine.new_game(2, SP, seed=12, chance="explicit")
    pick = Picker(12)
    while not g.is_over:
        text = g.to_text(history=True)
        h = engine.from_text(text)
        assert h == g and h.to_text(history=True) == text
        assert engine.GameState.from_text(g.to_text()) == g
        assert pickle.loads(pickle.dumps(g)) == g and copy.deepcopy(g) == g
        c = g.clone()
        g.apply(pick.likely_move(g.legal_moves()))
        assert c != g
    assert engine.from_text(g.to_text(history=True)).record() == g.record()


@pytest.mark.parametrize("change,message", [
    (("players=2", "players=5"), "field players"),
    (("round=2", "round=7"), "field round"),
    (("phase=play", "phase=dance"), "unknown phase"),
    (("owed=0", "owed=2"), "field owed"),
    (("supply=PPGORR", "supply=PPGORRRRRRRR"), "more than 10"),
    (("p0=5:", "p0=0:"), "1 or more"),
    (("/R...../", "/B...../"), "the red star cannot hold blue"),
    (("turn=0", "turn=-1"), "field turn"),
    (("fill=-", "fill=refill"), "field fill"),
])
def test_bad_state_text_names_the_field(engine, change, message):
    text = pavilion_text(round=2, hands=["RR", ""], supply="GOPPRR", boards=[{"R": "R....."}, {}])
    engine.from_text(text)  # the unchanged text is fine
    old, new = change
    assert old in text, old
    with pytest.raises(engine.StateFormatError, match=message):
        engine.from_text(text.replace(old, new, 1))


def test_state_text_tile_totals_are_checked(engine):
    text = pavilion_text(hands=["RR", ""])
    with pytest.raises(engine.StateFormatError, match="tile count: 23 red"):
        engine.from_text(text.replace("p0=5:RR:", "p0=5:RRR:"))


# -- invariants over random games ----------------------------------------------------------------------------

def test_tiles_are_conserved_and_ornaments_pay_exactly_once_over_games(engine):
    for seed in range(12):
        players = 2 + seed % 3
        g = engine.new_game(players, SP, seed=seed)
        pick = Picker(seed)
        while not g.is_over:
            g.apply(pick.likely_move(g.legal_moves()))
            placed = "".join("".join(b).replace(".", "") for b in g.boards)
            everything = g.bag + g.tower + g.supply + g.center + "".join(g.factories) + "".join(g.hands) + placed
            assert sp_counts(everything) == [22] * 6
            assert min(g.scores) >= 1
        sheet = g.score_sheet()
        for p in range(players):
            owed = sum(e["bonus_tiles"] for r in sheet for e in r if e["event"] == "place" and e["player"] == p)
            board = g.boards[p]
            covered = {(SP_STARS[s], k + 1) for s in range(7) for k in range(6) if board[s][k] != "."}
            expected = sum(tiles for _, spaces, tiles in ORNAMENTS if all(x in covered for x in spaces))
            assert owed == expected, (seed, p)
            points = sum(e["points"] for r in sheet for e in r if e["event"] == "place" and e["player"] == p)
            assert points >= sum(1 for _ in covered)  # every tile scores at least its own 1


def test_record_replays_and_audits_clean(engine):
    from azul_engine import records

    for seed in (2, 3):
        g = engine.new_game(3, SP, seed=seed)
        pick = Picker(seed)
        while not g.is_over:
            g.apply(pick.likely_move(g.legal_moves()))
        rec = json.loads(g.record_json())
        assert rec["supply"] and len(rec["rounds"]) == 6 and rec["seed"] == seed
        assert records.audit(rec, engine) == []
        assert records.replay(rec, engine) == engine.from_text(g.to_text()) or \
            records.replay(rec, engine).scores == g.scores
        assert "Final scores" in records.explain(rec, engine)


def test_factories_fill_with_what_bag_and_tower_hold(engine):
    """Bag and tower nearly empty at a round's end: the factories take what there is, in order."""
    board = {s: s * 5 + "." for s in "ORBYGP"}  # 5 of each colour a player: 120 tiles on 4 boards
    g = pavilion_state(engine, players=4, hands=["", "", "", ""], boards=[board] * 4, supply="PPGGOOYYBB",
                       passed=[0, 1, 1, 1], turn=0, start=0)
    assert g.bag == "RR" and g.tower == ""
    g.apply("-")
    assert g.round == 2 and g.phase == "acquire"
    assert g.factories == ["RR"] + [""] * 8 and g.bag == "" and g.supply == "PPGGOOYYBB"
    g.apply("1R")
    assert g.phase == "play" and g.hands[0] == "RR"


def test_observation_tensor_layout(engine):
    """The documented layout (PavilionState.observation_tensor): the observer's seat first."""
    g = pavilion_state(engine, players=3, round=2, turn=1, start=2, marker="1", hands=["", "GGR", ""],
                       boards=[{}, {"R": "R.....", "C": "..Y..."}, {}], scores=[5, 30, 9], passed=[1, 0, 0],
                       supply="PGOYBRPGOY")
    assert engine.observation_shape(3, SP) == (87 * 3 + 97,)
    o = g.observation_tensor(1)
    assert o.shape == (87 * 3 + 97,)
    me, nxt, prev = o[0:87], o[87:174], o[174:261]
    assert me[6] == 1 and me[36 + 2] == 1 and me.sum() > 0  # R1 (space 6), C3 (space 38) covered
    assert me[42 + 6 * 2 + 3] == 1  # centre space 3 holds yellow
    assert me[78 + 1] == pytest.approx(2 / 22) and me[78 + 5] == pytest.approx(1 / 22)
    assert me[84] == pytest.approx(0.30) and me[85] == 0 and me[86] == 1
    assert nxt[84] == pytest.approx(0.09) and prev[85] == 1  # seat 2, then seat 0 (passed)
    shared = o[261:]
    assert shared[61] == pytest.approx(0.2)  # two purples in the supply
    assert shared[79] == pytest.approx(2 / 6) and shared[80 + 1] == 1  # round 2, wild green
    assert shared[86 + 3] == 1  # phase play
    assert shared[93 + 1] == 1  # seat 2 started: one seat after the observer
    assert (g.observation_tensor() == o).all()  # the player to move


def test_nothing_to_deal_skips_phase_one(engine):
    """Bag and tower both empty at a round's start: no tile to acquire, phase 2 starts at once with the
    starting player (docs/decisions.md)."""
    board = {s: s * 5 + "." for s in "ORBYGP"}
    g = pavilion_state(engine, players=4, hands=["", "RR", "", ""], boards=[board] * 4, supply="PPGGOOYYBB",
                       passed=[0, 1, 1, 1], turn=0, start=0)
    assert g.bag == "" and g.tower == ""
    g.apply("-")
    assert g.round == 2 and g.phase == "play" and g.current_player == 0
    assert g.factories == [""] * 9 and g.center == ""
    assert g.legal_moves() == ["-"]
    g.apply("-")
    assert g.current_player == 1 and "C1R0" in g.legal_moves()
    text = g.to_text()
    assert engine.from_text(text) == g
    scores = engine.playouts_from(g, 20, seed=3)
    assert scores.shape == (20, 4) and scores.min() >= 1
