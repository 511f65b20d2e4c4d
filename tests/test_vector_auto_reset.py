"""VectorGame(..., auto_reset=True) on both engines: a game that ends restarts at once with the vector's next
seed, done says which ended in the step, final_scores / final_returns hold the finished game's result."""

import pickle

import numpy as np
import pytest

import azul_engine

MASK64 = (1 << 64) - 1


def splitmix_output(seed, k):
    z = (seed + k * 0x9E3779B97F4A7C15) & MASK64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return z ^ (z >> 31)


def expected_returns(winners, players):
    return [(1.0 if len(winners) == 1 else 0.0) if p in winners else -1.0 for p in range(players)]


@pytest.mark.parametrize("variant", ["classic", "grey", "summer-pavilion"])
def test_auto_reset_matches_single_games_and_the_seed_sequence(engine, variant):
    n, players, seed = 3, 2, 9
    v = engine.VectorGame(n, players, variant, seed, auto_reset=True)
    assert v.auto_reset is True
    assert v.final_scores.shape == (n, players) and v.final_returns.dtype == np.float32
    assert not v.final_scores.any() and not v.done.any()
    # single games alongside: slot i plays game number started; a finished one is replaced by the next seed
    started = n
    games = [engine.new_game(players, variant, splitmix_output(seed, i + 1)) for i in range(n)]
    rng = np.random.default_rng(1)
    ended = 0
    for _ in range(400 if variant == "summer-pavilion" else 300):
        pick = (rng.random(n) * v.num_legal).astype(np.int64)
        actions = v.legal_actions[np.arange(n), pick]
        legal_mask, current_player, scores, done = v.step(actions)
        for i in range(n):
            games[i].apply(int(actions[i]))
            if games[i].is_over:
                assert done[i]
                assert list(v.final_scores[i]) == games[i].scores
                assert list(v.final_returns[i]) == expected_returns(games[i].winners, players)
                started += 1
                games[i] = engine.new_game(players, variant, splitmix_output(seed, started))
                ended += 1
            else:
                assert not done[i]
            assert v.state(i) == engine.from_text(games[i].to_text())
            assert list(scores[i]) == games[i].scores and current_player[i] == games[i].current_player
            assert sorted(np.flatnonzero(legal_mask[i])) == games[i].legal_actions()
    assert ended >= 2


def test_default_is_unchanged_finished_games_wait_for_reset(engine):
    """Without auto_reset a finished game stays as it ended; its result is in the final arrays too (written in
    the step it ended), and a reset does not clear them."""
    v = engine.VectorGame(2, seed=1)
    assert v.auto_reset is False and not v.final_scores.any() and not v.final_returns.any()
    rng = np.random.default_rng(0)
    while not v.done.all():
        pick = (rng.random(2) * v.num_legal).astype(np.int64)
        v.step(v.legal_actions[np.arange(2), pick])
    assert (v.current_player == -1).all()
    for i in range(2):
        game = v.state(i)
        assert list(v.final_scores[i]) == game.scores == list(v.scores[i])
        assert list(v.final_returns[i]) == expected_returns(game.winners, 2)
    v.step(np.array([-5, 10 ** 6]))  # finished games ignore their actions
    assert v.done.all()
    final = v.final_scores.copy()
    v.reset([0])
    assert (v.final_scores == final).all() and not v.done[0]


def test_auto_reset_checks_every_action_and_pickles(engine):
    v = engine.VectorGame(2, seed=3, auto_reset=True)
    with pytest.raises(azul_engine.IllegalMoveError, match="^game 1: "):
        v.step(np.array([int(v.legal_actions[0, 0]), 299]))
    rng = np.random.default_rng(2)
    while not v.done.any():
        pick = (rng.random(2) * v.num_legal).astype(np.int64)
        v.step(v.legal_actions[np.arange(2), pick])
    # the finished game's slot already holds a new game, which takes an action in the next step
    i = int(np.flatnonzero(v.done)[0])
    assert v.state(i).moves_this_round == 0 and v.state(i).round == 1 and not v.state(i).is_over
    with pytest.raises(azul_engine.IllegalMoveError, match="game %d: " % i):
        v.step(np.array([299, 299]))
    copy = pickle.loads(pickle.dumps(v))
    assert copy.auto_reset is True
    assert all(copy.state(k) == v.state(k) for k in range(2))
    pick = (rng.random(2) * v.num_legal).astype(np.int64)
    actions = v.legal_actions[np.arange(2), pick]
    v.step(actions)
    copy.step(actions)
    assert all(copy.state(k) == v.state(k) for k in range(2))


def test_auto_reset_reports_a_huge_uint64_action_of_a_game_that_just_ended(engine):
    # With auto_reset a game that ended in the last step takes an action in the next one: an action of 2**63 or more
    # there is refused with its real value, as in a game not over.
    v = engine.VectorGame(2, auto_reset=True, seed=1)
    rng = np.random.default_rng(0)
    while not v.done.any():
        v.step(np.array([v.legal_actions[i][rng.integers(v.num_legal[i])] for i in range(2)], dtype=np.int64))
    ended = int(np.argmax(v.done))
    actions = np.zeros(2, dtype=np.uint64)
    actions[1 - ended] = v.legal_actions[1 - ended][0]
    actions[ended] = 2**63 + 5
    with pytest.raises(azul_engine.IllegalMoveError) as error:
        v.step(actions)
    assert str(error.value).endswith("action 9223372036854775813 is out of range 0-313")


@pytest.mark.parametrize("variant", ["classic", "grey", "summer-pavilion"])
def test_next_step_auto_reset_starts_the_next_game_a_step_later(engine, variant):
    """auto_reset="next_step": a game that ends stays over for one step (done, its final position and
    scores), then the next step starts the vector's next game there (its action unchecked and not applied);
    the step's rewards are the mover's return when its move ended the game."""
    n, players, seed = 3, 2, 4
    v = engine.VectorGame(n, players, variant, seed, auto_reset="next_step")
    assert v.auto_reset == "next_step"
    started = n
    games = [engine.new_game(players, variant, splitmix_output(seed, i + 1)) for i in range(n)]
    rewards = np.full(n, 9.0, dtype=np.float32)
    rng = np.random.default_rng(3)
    ended = restarted = 0
    for _ in range(400 if variant == "summer-pavilion" else 300):
        pick = (rng.random(n) * np.maximum(v.num_legal, 1)).astype(np.int64)
        actions = np.where(v.done, -7, v.legal_actions[np.arange(n), pick])  # a waiting game's: not checked
        v.step(actions, rewards=rewards)
        for i in range(n):
            if games[i].is_over:  # it waited: a new game now
                started += 1
                games[i] = engine.new_game(players, variant, splitmix_output(seed, started))
                assert not v.done[i] and rewards[i] == 0
                restarted += 1
            else:
                mover = games[i].current_player
                games[i].apply(int(actions[i]))
                assert v.done[i] == games[i].is_over
                if games[i].is_over:
                    ended += 1
                    assert rewards[i] == expected_returns(games[i].winners, players)[mover]
                    assert list(v.final_scores[i]) == games[i].scores
                else:
                    assert rewards[i] == 0
            assert v.state(i) == engine.from_text(games[i].to_text())
    assert ended >= 2 and restarted >= 1
    copy = pickle.loads(pickle.dumps(v))
    assert copy.auto_reset == "next_step" and [copy.state(i) for i in range(n)] == [v.state(i) for i in range(n)]


@pytest.mark.slow
def test_rewards_of_every_mode_and_thread_count_agree(engines):
    py, cpp = engines
    for mode in (False, True, "next_step"):
        n = 70  # the C++ engine's threaded step runs 2 threads from 33 games on (one a block of 32)
        vs = [py.VectorGame(n, 3, "classic", 2, auto_reset=mode), cpp.VectorGame(n, 3, "classic", 2, auto_reset=mode),
              cpp.VectorGame(n, 3, "classic", 2, auto_reset=mode)]
        outs = [np.zeros(n, np.float32) for _ in vs]
        rng = np.random.default_rng(1)
        total = 0
        for step in range(250):
            pick = (rng.random(n) * np.maximum(vs[0].num_legal, 1)).astype(np.int64)
            actions = np.maximum(vs[0].legal_actions[np.arange(n), pick], 0)
            for v, out, threads in zip(vs, outs, (1, 1, 2)):
                v.step(actions, rewards=out, threads=threads)
            np.testing.assert_array_equal(outs[0], outs[1])
            np.testing.assert_array_equal(outs[1], outs[2])
            total += int(np.abs(outs[0]).sum())
            if mode is False and vs[0].done.any():
                finished = vs[0].done.copy()
                for v in vs:
                    v.reset(finished)
        assert total > 0, mode
