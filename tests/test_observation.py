"""Observation tensors and legal-action masks (the layout is documented in GameState.observation_tensor)."""

import numpy as np
import pytest

import azul_engine
from helpers import Picker, make_state

PURE = azul_engine.load_backend("python")
SEAT, SHARED = 154, 76


@pytest.mark.parametrize("players", [2, 3, 4])
def test_shape_and_dtype(engine, players):
    state = engine.new_game(players, "grey", seed=1)
    assert engine.observation_shape(players, "grey") == (SEAT * players + SHARED,)
    tensor = state.observation_tensor()
    assert tensor.shape == (SEAT * players + SHARED,) and tensor.dtype == np.float32


def test_values_follow_the_documented_layout(engine):
    state = make_state(engine, factories=["BBYR", "W"], center="KK", lines=["/Y/RR//", "B////"],
                       walls=["B..../...../...../...../.....", "...../W..../...../...../....."],
                       floors=["MK", "YY"], scores=[7, 3], turn=1, start=0)
    t = state.observation_tensor(1)  # seen by player 1: player 1's block first
    me, other, shared = t[:SEAT], t[SEAT:2 * SEAT], t[2 * SEAT:]
    assert me[25 * 0 + 5 * 1 + 0] == 0 and me[25 * 4 + 5 * 1 + 0] == 1  # white at row 2, column 1
    assert me[125 + 5 * 0 + 0] == 1.0  # line 1 holds one blue: full
    assert me[150] == np.float32(2 / 7) and me[151] == 0 and me[152] == 0 and me[153] == np.float32(0.03)
    assert other[25 * 0 + 0] == 1  # player 0's blue at row 1, column 1
    assert other[125 + 5 * 1 + 1] == np.float32(0.5)  # line 2: one yellow of two
    assert other[125 + 5 * 2 + 2] == np.float32(2 / 3)  # line 3: two red of three
    assert other[151] == 1 and other[152] == 1  # the marker is on player 0's floor
    assert shared[0:5].tolist() == [0.5, 0.25, 0.25, 0, 0]  # factory 1: BBYR
    assert shared[5 + 4] == 0.25  # factory 2: W
    assert shared[45 + 3] == np.float32(0.1)  # centre: KK
    assert shared[50] == 0  # the marker has been taken
    assert shared[62 + 2] == 1 and shared[62:67].sum() == 1  # phase: offer
    assert shared[72 + 1] == 1  # player 0 started: one seat after the observer


def test_perspective_puts_the_observer_first(engine):
    state = engine.new_game(3, seed=4)
    pick = Picker(4)
    for _ in range(30):
        state.apply(pick.choice(state.legal_actions()))
    t0, t1 = state.observation_tensor(0), state.observation_tensor(1)
    assert (t0[SEAT:2 * SEAT] == t1[:SEAT]).all() and (t0[:SEAT] == t1[2 * SEAT:3 * SEAT]).all()
    mover = state.current_player
    assert (state.observation_tensor() == state.observation_tensor(mover)).all()


def test_legal_action_mask_matches_the_legal_actions(engine):
    state = engine.new_game(4, "grey", seed=8)
    pick = Picker(8)
    while not state.is_over:
        mask = state.legal_action_mask()
        assert mask.dtype == np.bool_ and mask.shape == (engine.NUM_ACTIONS,)
        assert np.flatnonzero(mask).tolist() == state.legal_actions()
        state.apply(pick.choice(state.legal_actions()))
    assert not state.legal_action_mask().any()


def test_observations_agree_with_the_pure_engine(engine):
    for players, variant in [(2, "classic"), (3, "grey"), (4, "classic")]:
        a, b = PURE.new_game(players, variant, seed=3), engine.new_game(players, variant, seed=3)
        pick = Picker(3)
        while not a.is_over:
            for player in [None, *range(players)]:
                assert (a.observation_tensor(player) == b.observation_tensor(player)).all()
            move = pick.choice(a.legal_actions())
            a.apply(move)
            b.apply(move)


@pytest.mark.parametrize("variant", ["grey", "summer-pavilion"])
def test_batched_observations_are_each_games_tensor(engine, variant):
    vec = engine.VectorGame(4, 3, variant, seed=6)
    rows = np.arange(4)
    for _ in range(60):
        batch = vec.observation_tensors()
        assert batch.shape == (4,) + engine.observation_shape(3, variant) and batch.dtype == np.float32
        for i in range(4):
            assert (batch[i] == vec.state(i).observation_tensor()).all()
        if vec.done.all():
            break
        vec.step(vec.legal_actions[rows, np.zeros(4, dtype=np.int64)])


def test_bad_observers_are_refused(engine):
    state = engine.new_game(2, seed=1)
    with pytest.raises(ValueError, match="player 2 does not exist with 2 players"):
        state.observation_tensor(2)
    with pytest.raises(TypeError, match="player must be an int"):
        state.observation_tensor("0")
