"""Summer Pavilion: the two engines in lockstep over 200 seeded games per player count.

Like test_lockstep.py, this loads both engines itself; without the C++ engine it skips locally and fails
in CI.  Moves: half the games uniformly random, half "likely" (placements preferred, as a player would);
one game in four with explicit chance.  At every step both engines must show the same state text, legal
moves, scores and errors for a few illegal moves; at the end the same record, score sheet and history.  The whole
run is marked slow; the fast loop plays the first four games of each player count.
"""

import pytest

from helpers import Picker
from test_lockstep import load_both, outcome

GAMES_PER_PLAYER_COUNT = 200
SP = "summer-pavilion"


def _illegal(a, b, pick):
    legal = set(a.legal_actions())
    for _ in range(2):
        action = pick.below(1810) - 6
        if action in legal:
            continue
        if pick.below(2) and 0 <= action < 1798:
            move = a.action_to_string(action)
        else:
            move = action
        before = a.to_text(history=True)
        got_a, got_b = outcome(a, move), outcome(b, move)
        assert got_a is not None and got_a == got_b, move
        assert a.to_text(history=True) == before == b.to_text(history=True)


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4])
def test_pavilion_engines_agree_in_lockstep(players):
    lockstep(players, range(GAMES_PER_PLAYER_COUNT))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_first_games_agree_in_lockstep(players):
    lockstep(players, range(4))  # sampled and explicit chance, random and likely moves


def lockstep(players, games):
    py, cpp = load_both()
    for game in games:
        seed = 104729 * game + players
        chance = "explicit" if game % 4 == 3 else "sampled"
        a = py.new_game(players, SP, seed, chance)
        b = cpp.new_game(players, SP, seed, chance)
        pick = Picker(seed)
        step = 0
        while True:
            where = "%dp %s seed %d step %d" % (players, chance, seed, step)
            actions = a.legal_actions()
            assert actions == b.legal_actions(), where
            assert a.to_text() == b.to_text(), where
            if step % 7 == 0:
                assert a.legal_moves() == b.legal_moves(), where
                assert str(a) == str(b), where
                for seat in range(players):
                    assert (a.observation_tensor(seat) == b.observation_tensor(seat)).all(), where
                _illegal(a, b, pick)
            if a.is_over:
                break
            if a.is_chance_node:
                assert a.chance_outcomes() == b.chance_outcomes(), where
            move = pick.lockstep_move(a, actions, likely=game % 2)
            a.apply(move)
            b.apply(move)
            step += 1
        assert b.is_over and a.winners == b.winners and a.scores == b.scores and a.returns() == b.returns()
        assert a.record_json() == b.record_json(), where
        assert a.to_text(history=True) == b.to_text(history=True), where
        if game % 10 == 0:
            assert a.score_sheet() == b.score_sheet(), where


def test_pavilion_random_playouts_agree():
    py, cpp = load_both()
    for players in (2, 3, 4):
        a, pa = py.random_playouts(40, players, SP, seed=players, with_plies=True)
        b, pb = cpp.random_playouts(40, players, SP, seed=players, threads=2, with_plies=True)
        assert pa == pb and (a == b).all()
    state = py.new_game(3, SP, seed=9)
    state.apply(state.legal_actions()[0])
    other = cpp.from_text(state.to_text())
    a = py.playouts_from(state, 30, seed=4)
    b = cpp.playouts_from(other, 30, seed=4, threads=3)
    assert (a == b).all()
