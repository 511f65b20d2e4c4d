"""The Gymnasium environments (azul_engine.envs): the single-agent AzulEnv against bots and the self-play vector
environment over VectorGame, on both engines: Gymnasium's own checker, the same episodes in both engines, the
conventions of docs/rl.md (masks, rewards, autoreset, seeding, illegal moves)."""

import os
import sys

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium")
from gymnasium.utils.env_checker import check_env  # noqa: E402

import azul_engine  # noqa: E402
from azul_engine import envs  # noqa: E402
from azul_engine.bots import BotSpecError  # noqa: E402

VARIANTS = ["classic", "grey", "summer-pavilion"]
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def backend_of(engine):
    return "cpp" if engine.__name__.endswith("_cppengine") else "python"


def first_legal(info):
    return int(np.flatnonzero(info["action_mask"])[0])


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_gymnasiums_checker_passes(engine, variant, players):
    # The checker steps actions sampled from the whole space (no mask): illegal="lose" takes them.
    env = envs.AzulEnv(players=players, variant=variant, opponents="random", illegal="lose",
                       backend=backend_of(engine))
    check_env(env, skip_render_check=True)
    env.close()


def test_registered_and_made_by_gymnasium(engine):
    env = gymnasium.make("azul_engine/Azul-v0", players=3, variant="grey", opponents="greedy", seat=1,
                         backend=backend_of(engine), render_mode="ansi")
    obs, info = env.reset(seed=5)
    assert env.unwrapped.learner == 1 and env.unwrapped.game.current_player == 1
    assert obs.shape == env.observation_space.shape and env.observation_space.contains(obs)
    assert info["action_mask"].dtype == np.int8 and info["action_mask"].sum() == len(env.unwrapped.game.legal_actions())
    assert env.render() == str(env.unwrapped.game)
    env.close()


def play(env, seed, choose=first_legal):
    """One episode: the list of (observation, reward, terminated, mask) after reset and each step."""
    obs, info = env.reset(seed=seed)
    out = [(obs, 0.0, False, info["action_mask"])]
    done = False
    while not done:
        obs, reward, done, truncated, info = env.step(choose(info))
        assert not truncated
        out.append((obs, reward, done, info["action_mask"]))
    return out


@pytest.mark.parametrize("variant", VARIANTS)
def test_both_engines_play_the_same_episodes(variant):
    a = envs.AzulEnv(2, variant, opponents="greedy", seat=None, reward="score", backend="python")
    b = envs.AzulEnv(2, variant, opponents="greedy", seat=None, reward="score", backend="cpp")
    for seed in (1, 2):
        ea, eb = play(a, seed), play(b, seed)
        assert a.learner == b.learner and len(ea) == len(eb)
        for (oa, ra, da, ma), (ob, rb, db, mb) in zip(ea, eb):
            np.testing.assert_array_equal(oa, ob)
            np.testing.assert_array_equal(ma, mb)
            assert (ra, da) == (rb, db)


def test_the_opponents_are_the_bots_of_a_tournament_game(engine):
    """The learner in seat 1 against greedy in seat 0 plays the game of a greedy bot made as ``play_match``
    makes it (the seat's bot seed), whatever it plays itself."""
    from azul_engine import bots

    env = envs.AzulEnv(2, "classic", opponents="greedy", seat=1, backend=backend_of(engine))
    play(env, 11)
    game = engine.new_game(2, "classic", seed=11)
    greedy = bots.GreedyBot()
    greedy.reset(0, bots.bot_seed(11, 0))
    while not game.is_over:
        game.apply(greedy.choose(game.clone()) if game.current_player == 0 else game.legal_actions()[0])
    assert game.to_text() == env.game.to_text()


def test_rewards_win_and_score(engine):
    env = envs.AzulEnv(2, "classic", opponents="random", backend=backend_of(engine))
    episode = play(env, 3)
    winners, scores = env.game.winners, env.game.scores
    expected = 1.0 if winners == [0] else 0.0 if winners == [0, 1] else -1.0  # seat 0's return
    assert [r for _, r, _, _ in episode[:-1]] == [0.0] * (len(episode) - 1) and episode[-1][1] == expected
    env = envs.AzulEnv(2, "classic", opponents="random", reward="score", backend=backend_of(engine))
    episode = play(env, 3)
    assert sum(r for _, r, _, _ in episode) == env.game.scores[0] - env.game.scores[1]
    assert env.game.scores == scores  # the same game: the reward does not change the play


def test_illegal_moves_raise_or_lose(engine):
    env = envs.AzulEnv(2, "classic", opponents="random", backend=backend_of(engine))
    obs, info = env.reset(seed=1)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    before = env.game.to_text()
    with pytest.raises(azul_engine.IllegalMoveError):
        env.step(illegal)
    assert env.game.to_text() == before
    env = envs.AzulEnv(2, "classic", opponents="random", illegal="lose", backend=backend_of(engine))
    env.reset(seed=1)
    obs, reward, terminated, truncated, info = env.step(illegal)
    assert (reward, terminated, info["illegal_action"]) == (-1.0, True, True) and not info["action_mask"].any()
    with pytest.raises(RuntimeError, match="after the episode ended: call reset"):
        env.step(0)
    assert not env.action_masks().any()


def test_self_play_shows_the_player_to_move(engine):
    env = gymnasium.make("azul_engine/AzulSelfPlay-v0", players=3, variant="summer-pavilion",
                         backend=backend_of(engine))
    obs, info = env.reset(seed=2)
    for _ in range(30):
        game = env.unwrapped.game
        np.testing.assert_array_equal(obs, game.observation_tensor(game.current_player))
        assert info["player"] == game.current_player
        obs, reward, terminated, truncated, info = env.step(first_legal(info))
        assert not terminated


def test_a_drawn_seat_and_unseeded_resets_are_reproducible(engine):
    env = envs.AzulEnv(4, "classic", opponents="random", seat=None, backend=backend_of(engine))

    def episodes():
        env.reset(seed=7)
        out = [(env.learner, env.game.to_text())]
        for _ in range(6):
            env.reset()
            out.append((env.learner, env.game.to_text()))
        return out

    first = episodes()
    assert episodes() == first
    assert len({seat for seat, _ in first}) > 1 and len({text for _, text in first}) == len(first)


def test_opponents_by_spec_external_included(engine):
    bot = "cmd:%s %s" % (sys.executable, os.path.join(ROOT, "examples", "random_bot.py"))
    env = envs.AzulEnv(3, "classic", opponents=[bot, "greedy"], seat=0, backend=backend_of(engine))
    episode = play(env, 4)
    assert episode[-1][2] and env.game.is_over
    env.close()
    with pytest.raises(ValueError, match="3 players need 2 opponent specs"):
        envs.AzulEnv(3, opponents=["greedy"])
    with pytest.raises(BotSpecError):
        envs.AzulEnv(2, opponents="no-such-bot")
    for kwargs, message in ((dict(seat=2), "seat must be 0-1"), (dict(reward="points"), "reward must be one of"),
                            (dict(illegal="skip"), "illegal must be one of"), (dict(variant="x"), "variant")):
        with pytest.raises(ValueError, match=message):
            envs.AzulEnv(2, **kwargs)


@pytest.mark.slow
def test_an_env_dropped_without_close_stops_its_external_opponents(engine):
    """An AzulEnv with cmd: opponents that is dropped without close() stops their keepers (and so their bots) when
    it is collected: they ran until the process ended (5 environments left 10 processes, issue 38)."""
    import gc

    bot = "cmd:%s %s" % (sys.executable, os.path.join(ROOT, "examples", "random_bot.py"))
    env = gymnasium.make("azul_engine/Azul-v0", players=3, opponents=[bot, bot], backend=backend_of(engine))
    env.reset(seed=2)
    keepers = [b._process for b in env.unwrapped.table.bots.values()]
    assert len(keepers) == 2 and all(k.poll() is None for k in keepers)
    del env
    gc.collect()
    for keeper in keepers:
        keeper.wait(timeout=10)  # TimeoutExpired if it is still running


def test_seeds_and_actions_are_checked_as_the_vector_env_and_the_engines_check_them(engine):
    """reset() takes a numpy integer as the vector environment does (Gymnasium's own seeding raised
    gymnasium.error.Error), and step() refuses a bool as the engines do (step(True) played action 1)."""
    env = envs.AzulEnv(2, opponents=None, backend=backend_of(engine))  # self-play: the game as reset made it
    obs, info = env.reset(seed=np.int64(3))
    again, _ = envs.AzulEnv(2, opponents=None, backend=backend_of(engine)).reset(seed=3)
    assert np.array_equal(obs, again) and env.game == engine.new_game(2, seed=3)
    for seed, error, message in ((True, TypeError, "seed must be an int or None, not bool"),
                                 (1.0, TypeError, "seed must be an int or None, not float"),
                                 (-1, ValueError, "seed must be in 0..2**64-1, got -1"),
                                 (np.uint64(2**64 - 1), None, None)):
        if error is None:
            env.reset(seed=seed)
            assert env.game == engine.new_game(2, seed=2**64 - 1)
        else:
            with pytest.raises(error) as raised:
                env.reset(seed=seed)
            assert str(raised.value) == message
    with pytest.raises(TypeError) as raised:
        engine.new_game(2, seed=1).apply(True)
    assert "not bool" in str(raised.value)
    before = env.game.clone()
    for action in (True, np.True_):
        with pytest.raises(TypeError) as raised:
            env.step(action)
        assert str(raised.value) == "an action is an int (an action id), not %s" % type(action).__name__
    assert env.game == before
    env.step(np.int64(first_legal(env._info())))
    assert env.game != before
    env.close()


def test_the_default_env_fails_the_checker_as_the_documentation_says(engine):
    """docs/adapters.md said check_env passes "in every variant"; it does with illegal="lose" (above), and the
    default (illegal="raise") raises IllegalMoveError, as the page now says where it makes the claim."""
    with open(os.path.join(ROOT, "docs", "adapters.md"), encoding="utf-8") as f:
        text = " ".join(f.read().split())
    bullet = text[text.index("- `azul_engine/Azul-v0`"):text.index("- `azul_engine/AzulSelfPlay-v0`")]
    assert bullet.count("check_env") == 1
    claim = bullet[bullet.index("check_env") - 60:]
    assert 'With `illegal="lose"` it passes' in claim and 'the default, `illegal="raise"`, it does not' in claim
    assert "raises `IllegalMoveError`" in claim
    env = envs.AzulEnv(backend=backend_of(engine))
    with pytest.raises(azul_engine.IllegalMoveError):
        check_env(env, skip_render_check=True)
    env.close()


def test_an_opponent_that_fails_is_named(engine):
    env = envs.AzulEnv(2, "classic", opponents="cmd:%s -c 'import sys; sys.exit(3)'" % sys.executable,
                       backend=backend_of(engine), seat=1)
    with pytest.raises(envs.OpponentError, match="opponent in seat 0"):
        env.reset(seed=1)
    env.close()


# -- the vector environment ------------------------------------------------------------------------------------

def random_actions(vec_env, rng):
    v = vec_env.game
    pick = (rng.random(v.n) * np.maximum(v.num_legal, 1)).astype(np.int64)
    return np.maximum(v.legal_actions[np.arange(v.n), pick], 0)


@pytest.mark.slow
@pytest.mark.parametrize("variant", VARIANTS)
def test_the_vector_env_is_its_games(engine, variant):
    """Next-step autoreset, checked against single games: the observation of each game's player to move, the
    mover's return when a game ends, then (with the next step's action ignored) the vector's next game."""
    n, players = 4, 2
    env = gymnasium.make_vec("azul_engine/AzulSelfPlay-v0", num_envs=n, vectorization_mode="vector_entry_point",
                             players=players, variant=variant, backend=backend_of(engine))
    obs, infos = env.reset(seed=9)
    assert obs.shape == (n,) + env.single_observation_space.shape and env.observation_space.contains(obs)
    rng = np.random.default_rng(1)
    ended = restarted = 0
    waiting = np.zeros(n, bool)
    for _ in range(300 if variant != "summer-pavilion" else 400):
        games = [env.unwrapped.game.state(i) for i in range(n)]
        actions = random_actions(env.unwrapped, rng)
        obs, reward, terminated, truncated, infos = env.step(actions)
        assert not truncated.any()
        for i in range(n):
            if waiting[i]:  # ended in the last step: a new game now, the action ignored
                assert not terminated[i] and reward[i] == 0 and infos["mover"][i] == -1
                restarted += 1
                continue
            game = games[i]
            mover = game.current_player
            game.apply(int(actions[i]))
            assert infos["mover"][i] == mover and terminated[i] == game.is_over
            if game.is_over:
                ended += 1
                win = 1.0 if len(game.winners) == 1 else 0.0  # +1 a sole winner, 0 a shared win, -1 the others
                expected = [win if p in game.winners else -1.0 for p in range(players)]
                assert reward[i] == expected[mover] and list(infos["rewards"][i]) == expected
                np.testing.assert_array_equal(obs[i], game.observation_tensor(0))
                assert not infos["action_mask"][i].any() and infos["player"][i] == -1
            else:
                assert reward[i] == 0 and not infos["rewards"][i].any() and infos["player"][i] == game.current_player
                np.testing.assert_array_equal(obs[i], game.observation_tensor(game.current_player))
                assert (np.flatnonzero(infos["action_mask"][i]) == game.legal_actions()).all()
        waiting = terminated.copy()
    assert ended >= 2 and restarted >= 1
    env.close()


def stream(backend, mode, threads, steps=250, n=6):
    env = envs.AzulVectorEnv(n, 2, "classic", backend=backend, autoreset_mode=mode, threads=threads)
    out = [env.reset(seed=3)]
    rng = np.random.default_rng(2)
    for _ in range(steps):
        out.append(env.step(random_actions(env, rng)))
    return out


def assert_same(a, b):
    if isinstance(a, dict):
        assert sorted(a) == sorted(b)
        for key in a:
            assert_same(a[key], b[key])
    elif isinstance(a, (tuple, list)):
        assert len(a) == len(b)
        for x, y in zip(a, b):
            assert_same(x, y)
    else:
        np.testing.assert_array_equal(a, b)


@pytest.mark.slow
@pytest.mark.parametrize("mode", ["next_step", "same_step"])
def test_the_vector_env_is_the_same_in_both_engines_and_for_every_thread_count(engines, mode):
    assert_same(stream("python", mode, 1), stream("cpp", mode, 1))
    # 70 games: the C++ engine runs 2 threads from 33 games on (one a block of 32).
    assert_same(stream("cpp", mode, 1, n=70), stream("cpp", mode, 2, n=70))


def test_same_step_autoreset_reports_the_final_observation(engine):
    env = envs.AzulVectorEnv(3, 2, "grey", backend=backend_of(engine), autoreset_mode="same_step")
    assert env.metadata["autoreset_mode"] == gymnasium.vector.AutoresetMode.SAME_STEP
    env.reset(seed=1)
    rng = np.random.default_rng(5)
    seen = 0
    for _ in range(400):
        games = [env.game.state(i) for i in range(3)]
        actions = random_actions(env, rng)
        obs, reward, terminated, truncated, infos = env.step(actions)
        for i in np.flatnonzero(terminated):
            games[i].apply(int(actions[i]))
            assert games[i].is_over and infos["_final_obs"][i]
            np.testing.assert_array_equal(infos["final_obs"][i], games[i].observation_tensor(0))
            fresh = env.game.state(i)
            assert not fresh.is_over and fresh.round == 1
            np.testing.assert_array_equal(obs[i], fresh.observation_tensor(fresh.current_player))
            seen += 1
        # The masks the step copied, the new games' rows included (copied again after their reset).
        np.testing.assert_array_equal(infos["action_mask"], env.game.legal_mask)
        assert not np.shares_memory(infos["action_mask"], env.game.legal_mask)
    assert seen >= 2


def test_copies_unless_asked_not_to(engine):
    env = envs.AzulVectorEnv(2, backend=backend_of(engine))
    obs, _ = env.reset(seed=1)
    first = obs.copy()
    env.step(random_actions(env, np.random.default_rng(0)))
    np.testing.assert_array_equal(obs, first)  # a copy: the step did not write into it
    env = envs.AzulVectorEnv(2, backend=backend_of(engine), copy=False)
    obs, _ = env.reset(seed=1)
    again, _, _, _, _ = env.step(random_actions(env, np.random.default_rng(0)))
    assert again is obs


def test_vector_env_arguments(engine):
    for kwargs, error in ((dict(threads=-1), ValueError), (dict(autoreset_mode="disabled"), ValueError),
                          (dict(num_envs=0), ValueError), (dict(players=5), ValueError)):
        with pytest.raises(error):
            envs.AzulVectorEnv(**dict(dict(num_envs=2, backend=backend_of(engine)), **kwargs))
    env = envs.AzulVectorEnv(2, backend=backend_of(engine))
    with pytest.raises(TypeError, match="seed must be an int"):
        env.reset(seed=[1, 2])
