"""The OpenSpiel game's declared bounds (max_game_length, max_chance_nodes_in_history, max_move_number) against
the longest games we can construct, on both engines: every observed count within the bound, and the bound close
to what is reached (openspiel.game_bounds explains the derivation)."""

import os
import random

import pytest

if os.environ.get("CI", "").strip().lower() not in ("", "0", "false"):
    import pyspiel
else:
    pyspiel = pytest.importorskip("pyspiel")

from azul_engine import openspiel  # noqa: E402

openspiel.register()

BACKEND_NAMES = {"azul_engine._pyengine": "python", "azul_engine._cppengine": "cpp"}
WALL_COLOURS = "BYRKW"  # classic chance outcomes 305-309
SP_COLOURS = "PGOYBR"  # Summer Pavilion chance outcomes 1788-1793
SP_TILE_BASE, SP_SEAT_BASE = 1788, 1794


def load(engine, **params):
    return pyspiel.load_game("azul", {"backend": BACKEND_NAMES[engine.__name__], **params})


def floor_move(state, rng):
    """Classic and grey: a whole factory to the floor (so nothing goes to the centre or a wall), else any draft
    to the floor, else anything."""
    es = state.engine_state
    legal = state.legal_actions()
    floor = [a for a in legal if es.action_to_string(a).endswith("F")]
    whole = [a for a in floor if not es.action_to_string(a).startswith("C")]
    pool = whole or floor or legal
    return pool[rng.randrange(len(pool))]


def monochrome_draw(state):
    """Classic and grey chance: fill each factory with four tiles of one colour (the bag's counts stay multiples of
    four, so it always can)."""
    outcomes = state.chance_outcomes()
    filling = next((f for f in state.engine_state.factories if 0 < len(f) < 4), "")
    if filling:
        same = 305 + WALL_COLOURS.index(filling[0])
        if any(a == same for a, _ in outcomes):
            return same
    return max(outcomes, key=lambda ap: ap[1])[0]


def random_draw(state, rng):
    actions, probs = zip(*state.chance_outcomes())
    return rng.choices(actions, probs)[0]


def longest_sp_move(state):
    """Summer Pavilion: in phase 1 the pick taking fewest tiles (the centre first); in phase 2 the placement that
    keeps the most tiles in hand (the cheapest); pass only when nothing else is legal."""
    es = state.engine_state
    me = es.current_player
    best = None
    for a in state.legal_actions():
        text = es.action_to_string(a)
        after = es.clone()
        after.apply(a)
        if text.startswith("-"):
            key = (2, 0, 0)
        elif es.phase == "acquire":
            key = (0, len(after.hands[me]) - len(es.hands[me]), not text.startswith("C"))
        else:
            key = (1, -len(after.hands[me]), 0)
        if best is None or key < best[0]:
            best = (key, a)
    return best[1]


def varied_draw(state):
    """Summer Pavilion chance: factories of four different colours and no wild tile, so that each pick takes a
    single tile."""
    es = state.engine_state
    outcomes = state.chance_outcomes()
    filling = next((f for f in es.factories if len(f) < 4), "")
    fresh = [(p, a) for a, p in outcomes
             if SP_TILE_BASE <= a < SP_SEAT_BASE and SP_COLOURS[a - SP_TILE_BASE] not in filling + es.wild]
    if fresh:
        return max(fresh)[1]
    return max(outcomes, key=lambda ap: ap[1])[0]


def play(game, player_move, draw):
    state = game.new_initial_state()
    moves = chance = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(draw(state))
            chance += 1
        else:
            state.apply_action(player_move(state))
            moves += 1
    return state, moves, chance


def check_declared(game, moves, chance):
    assert moves <= game.max_game_length()
    assert chance <= game.max_chance_nodes_in_history()
    assert moves + chance <= game.max_move_number() == game.max_game_length() + game.max_chance_nodes_in_history()


@pytest.mark.slow
@pytest.mark.parametrize("variant", ["classic", "grey"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_floor_only_play_with_single_colour_factories_stays_within_the_bounds(engine, players, variant):
    game = load(engine, players=players, variant=variant)
    rng = random.Random(players)
    state, moves, chance = play(game, lambda s: floor_move(s, rng), monochrome_draw)
    factories = 2 * players + 1
    # Nothing ever reaches a wall: the game goes on to the round cap, every round F moves and 4F draws.
    assert state.engine_state.is_over and state.engine_state.round == openspiel.MAX_ROUNDS
    assert moves == factories * openspiel.MAX_ROUNDS
    check_declared(game, moves, chance)
    assert chance == 1 + 4 * factories * openspiel.MAX_ROUNDS == game.max_chance_nodes_in_history()  # exactly


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 4])
def test_the_issues_floor_only_game_with_random_draws(engine, players):
    # Issue 10's case: every move to the floor, chance as the bag gives; 4521 (2 players) and 5581 (4 players)
    # chance nodes were more than the 2000 once declared.
    game = load(engine, players=players)
    rng = random.Random(0)
    state, moves, chance = play(game, lambda s: floor_move(s, rng), lambda s: random_draw(s, rng))
    assert state.engine_state.is_over and state.engine_state.round == openspiel.MAX_ROUNDS  # the round cap
    assert chance > 2000  # more than the 2000 once declared
    check_declared(game, moves, chance)


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_longest_summer_pavilion_games_stay_within_the_bounds(engine, players):
    game = load(engine, players=players, variant="summer-pavilion")
    declared = (game.max_game_length(), game.max_chance_nodes_in_history())
    assert declared == openspiel.game_bounds(players, "summer-pavilion")
    assert declared[0] < openspiel.DEFAULT_MAX_GAME_LENGTH  # the game's own end, not the cut-off
    longest = [0, 0]
    for draw in (varied_draw, random_draw):
        rng = random.Random(players)
        state, moves, chance = play(game, longest_sp_move,
                                    draw if draw is varied_draw else (lambda s: random_draw(s, rng)))
        assert state.engine_state.is_over
        check_declared(game, moves, chance)
        longest = [max(longest[0], moves), max(longest[1], chance)]
    # Not absurdly loose: the longest game found reaches over half of each bound.
    assert 2 * longest[0] > declared[0] and 2 * longest[1] > declared[1], (longest, declared)


def test_bounds_follow_the_cut_off(engine):
    game = load(engine, players=3, max_game_length=8)
    assert game.max_game_length() == 8
    assert game.max_chance_nodes_in_history() == 1 + 4 * 7 + 4 * 7
    rng = random.Random(1)
    _, moves, chance = play(game, lambda s: floor_move(s, rng), monochrome_draw)
    # Round 1 is 7 moves and 28 draws; the 8th move is round 2's first, after its 28 draws: the bound, exactly.
    assert moves == 8 and chance == 1 + 28 + 28 == game.max_chance_nodes_in_history()
    check_declared(game, moves, chance)
    short = load(engine, players=2, variant="summer-pavilion", max_game_length=50)
    assert short.max_game_length() == 50
    _, moves, chance = play(short, longest_sp_move, varied_draw)
    assert moves == 50
    check_declared(short, moves, chance)
    with pytest.raises(ValueError, match="max_game_length must be a positive int"):
        load(engine, max_game_length=0)


def test_the_round_cap_is_the_engines(engine):
    assert openspiel.MAX_ROUNDS == engine.MAX_ROUNDS
