"""Summer Pavilion playouts: the C++ engine's compact playout kernel (native/src/pavilion/kernel.cpp)
plays exactly the games of its full-State path (sp::PlayRandom, kept as the private
``_sp_reference_playouts``): the same scores and the same number of plies, for new games and from states
met along seeded games in every phase (acquire, play, bonus, over, and the chance nodes of explicit-chance
games), and on any number of threads.  A few states are also checked against the pure-Python engine.

Like test_lockstep.py this loads the C++ engine itself; without it it skips locally and fails in CI.
"""

import pytest

from helpers import Picker
from test_lockstep import load_both

SP = "summer-pavilion"


def _states(engine, players, seed, chance, likely):
    """Clones of the states of one seeded game: every fifth, every bonus-phase and every chance node
    (explicit chance), and the final one."""
    game = engine.new_game(players, SP, seed=seed, chance=chance)
    pick = Picker(seed)
    out, step = [], 0
    while True:
        if step % 5 == 0 or game.phase == "bonus" or game.is_chance_node or game.is_over:
            out.append(game.clone())
        if game.is_over:
            return out
        if likely and not game.is_chance_node:
            game.apply(pick.likely_move(game.legal_moves()))
        else:
            game.apply(pick.choice(game.legal_actions()))
        step += 1


def _both(cpp, state, n, seed):
    scores, plies = cpp.playouts_from(state, n, seed=seed, threads=1, with_plies=True)
    ref_scores, ref_plies = cpp._sp_reference_playouts(state, n, seed)
    return scores.tolist(), plies, ref_scores.tolist(), ref_plies


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_playouts_match_the_full_state_path(players):
    _, cpp = load_both()
    for seed in (0, 1, 12345, 2**64 - 1):
        scores, plies = cpp.random_playouts(400, players, SP, seed=seed, threads=1, with_plies=True)
        ref_scores, ref_plies = cpp._sp_reference_playouts(players, 400, seed)
        assert scores.tolist() == ref_scores.tolist()
        assert plies == ref_plies
        assert len({tuple(row) for row in scores.tolist()}) > 3  # different games (random SP scores are low)
    for threads in (2, 3):
        assert (cpp.random_playouts(101, players, SP, seed=9, threads=threads)
                == cpp.random_playouts(101, players, SP, seed=9, threads=1)).all()


@pytest.mark.parametrize("players", [2, 3, 4])
def test_playouts_from_match_the_full_state_path_in_every_phase(players):
    _, cpp = load_both()
    phases = set()
    checked = 0
    for game in range(8):
        seed = 7919 * game + players
        chance = "explicit" if game % 2 else "sampled"
        for state in _states(cpp, players, seed, chance, likely=game % 4 >= 2):
            before = state.to_text(history=True)
            scores, plies, ref_scores, ref_plies = _both(cpp, state, 12, seed=checked)
            assert scores == ref_scores, (state.phase, before)
            assert plies == ref_plies, (state.phase, before)
            assert state.to_text(history=True) == before  # the state itself is not played
            phases.add(state.phase)
            checked += 1
    # every phase a playout can start from was met
    assert phases >= {"first-player", "fill", "acquire", "play", "bonus", "over"}
    assert checked > 100


def test_playouts_from_agree_across_thread_counts():
    _, cpp = load_both()
    for state in _states(cpp, 3, 5, "explicit", likely=True)[::6]:
        one = cpp.playouts_from(state, 37, seed=4, threads=1)
        for threads in (2, 4):
            assert (cpp.playouts_from(state, 37, seed=4, threads=threads) == one).all()


def test_playouts_from_agree_with_the_pure_engine():
    py, cpp = load_both()
    for players in (2, 4):
        cpp_states = _states(cpp, players, 31 + players, "sampled", likely=True)
        py_states = _states(py, players, 31 + players, "sampled", likely=True)
        for a, b in list(zip(cpp_states, py_states))[::4]:
            assert a.to_text(history=True) == b.to_text(history=True)
            assert (cpp.playouts_from(a, 3, seed=2) == py.playouts_from(b, 3, seed=2)).all()
