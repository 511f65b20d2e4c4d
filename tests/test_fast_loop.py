"""The Python-driven loop's calls (is_over, legal_actions, apply): an action id as an exact int, as another
int-like and as notation all play the same game, on both engines (the C++ engine serves exact ints on a
fast path and everything else through its general one)."""

import numpy as np
import pytest

from helpers import Picker


@pytest.mark.parametrize("variant", ["classic", "grey", "summer-pavilion"])
def test_exact_ints_and_other_moves_play_the_same_game(engine, variant):
    games = [engine.new_game(3, variant, seed=11) for _ in range(3)]
    pick = Picker(11)
    plies = 0
    while not games[0].is_over:
        legal = games[0].legal_actions()
        assert all(type(a) is int for a in legal)
        assert all(g.legal_actions() == legal for g in games[1:])
        action = pick.choice(legal)
        games[0].apply(action)
        games[1].apply(np.int64(action))
        games[2].apply(games[2].action_to_string(action))
        plies += 1
    assert all(g.is_over for g in games) and plies > 50
    assert games[0].record_json() == games[1].record_json() == games[2].record_json()


def test_a_legal_list_is_the_callers_own(engine):
    state = engine.new_game(2, seed=3)
    legal = state.legal_actions()
    legal.append(-7)
    legal[0] = 10**6
    assert state.legal_actions() == sorted(state.legal_actions()) and -7 not in state.legal_actions()


def test_refused_moves_change_nothing(engine):
    for variant in ("classic", "summer-pavilion"):
        state = engine.new_game(2, variant, seed=4)
        before = state.to_text(history=True)
        illegal = next(a for a in range(2000) if a not in state.legal_actions())
        with pytest.raises(engine.IllegalMoveError):
            state.apply(illegal)
        with pytest.raises(engine.IllegalMoveError, match="out of range"):
            state.apply(10**6)
        with pytest.raises(TypeError):
            state.apply(True)
        with pytest.raises(TypeError):
            state.apply()
        with pytest.raises(AttributeError):
            state.is_over = True
        assert state.to_text(history=True) == before and state.is_over is False
