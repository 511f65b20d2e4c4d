"""The PettingZoo AEC environment (azul_engine.pettingzoo), on both engines.

PettingZoo is an optional extra: without it these tests are skipped, except in CI (env CI set), where the extra is
installed and a missing package must fail.
"""

import copy
import doctest
import importlib
import os
import pickle
import sys

import numpy as np
import pytest

from helpers import make_state

if os.environ.get("CI", "").strip().lower() not in ("", "0", "false"):
    import pettingzoo  # noqa: F401 (in CI a missing extra is a failure, not a skip)
else:
    pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test, seed_test  # noqa: E402

from azul_engine import IllegalMoveError  # noqa: E402
from azul_engine import pettingzoo as azul_pz  # noqa: E402

CONFIGS = [(players, variant) for variant in ("classic", "grey", "summer-pavilion") for players in (2, 3, 4)]
BACKEND = {"azul_engine._pyengine": "python", "azul_engine._cppengine": "cpp"}


def backend(engine):
    return BACKEND[engine.__name__]


def expected_rewards(winners, players):
    """The module docstring's rule, written out: a sole winner +1; several winners 0 each; everyone else -1."""
    win = 1.0 if len(winners) == 1 else 0.0
    return {"player_%d" % p: win if p in winners else -1.0 for p in range(players)}


# api_test says these of every environment with dict observations that is not one of PettingZoo's own games.
@pytest.mark.filterwarnings("ignore:Observation is not a NumPy array:UserWarning")
@pytest.mark.filterwarnings("ignore:Observation space for each agent probably should be:UserWarning")
@pytest.mark.parametrize("players,variant", CONFIGS)
def test_api_test_passes(engine, players, variant):
    # num_cycles is far more than a game lasts, so api_test plays one to the end and steps every agent out.
    api_test(azul_pz.env(players, variant, backend=backend(engine)), num_cycles=1000)


@pytest.mark.parametrize("players,variant", CONFIGS)
def test_seed_test_passes(engine, players, variant):
    seed_test(lambda: azul_pz.env(players, variant, backend=backend(engine)), num_cycles=1000)


@pytest.mark.parametrize("players,variant", CONFIGS)
def test_random_game_follows_the_engine(engine, players, variant):
    """Masked random moves reach the end; at every step the agent to move is the engine's current player, each
    agent observes the engine's tensor for its own seat, and only the agent to move has a non-zero mask. The final
    rewards follow state.winners."""
    env = azul_pz.env(players, variant, backend=backend(engine))
    env.reset(seed=100 + players)
    game = env.unwrapped.game
    assert type(game) is (engine.PavilionState if variant == "summer-pavilion" else engine.GameState)
    rng = np.random.default_rng(players)
    movers = []
    while not game.is_over:
        agent = env.agent_selection
        assert agent == "player_%d" % game.current_player
        movers.append(agent)
        for seat, other in enumerate(env.possible_agents):
            obs = env.observe(other)
            assert env.observation_space(other).contains(obs)
            assert obs["observation"].dtype == np.float32
            assert np.array_equal(obs["observation"], game.observation_tensor(seat))
            if other == agent:
                assert np.array_equal(obs["action_mask"], game.legal_action_mask().astype(np.int8))
            else:
                assert not obs["action_mask"].any()
        obs, reward, termination, truncation, info = env.last()
        assert (reward, termination, truncation, info) == (0, False, False, {})
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        assert len(movers) < 2000, "the game does not end"
    if variant == "grey":  # choosing columns for several complete lines: the same agent moves again
        assert any(a == b for a, b in zip(movers, movers[1:]))

    assert all(env.terminations.values()) and not any(env.truncations.values())
    expected = expected_rewards(game.winners, players)
    seen = {}
    for agent in env.agent_iter():
        obs, reward, termination, truncation, info = env.last()
        assert termination and not truncation and not obs["action_mask"].any()
        seen[agent] = reward
        env.step(None)
    assert seen == expected and env.agents == []


def test_a_seeded_reset_plays_the_engine_game_of_that_seed(engine):
    env = azul_pz.raw_env(3, "grey", backend=backend(engine))
    env.reset(seed=123)
    assert env.game == engine.new_game(3, "grey", seed=123)
    assert env.agent_selection == "player_%d" % env.game.current_player


def test_unseeded_resets_continue_the_seeded_sequence(engine):
    games = []
    for _ in range(2):
        env = azul_pz.raw_env(2, "classic", backend=backend(engine))
        env.reset(seed=5)
        env.reset()
        first = env.game.to_text()
        env.reset()
        games.append((first, env.game.to_text()))
    assert games[0] == games[1] and games[0][0] != games[0][1]
    fresh = [azul_pz.raw_env(backend=backend(engine)) for _ in range(2)]
    for env in fresh:
        env.reset()  # no seed at all: one from the OS
    assert fresh[0].game.seed != fresh[1].game.seed


def test_observation_space_holds_extreme_positions(engine):
    """Scores of 345 (no wall can score more) and rounds past 10 stay inside the declared space."""
    env = azul_pz.raw_env(2, "classic", backend=backend(engine))
    env.reset(seed=1)
    env.game = make_state(engine, scores=[345, 0], round=40, floors=["BBBBBBB", "M"], factories=["KKKK"],
                          center="RRRRRRRRRRRRRRRRRRRR")
    for agent in env.possible_agents:
        obs = env.observe(agent)
        assert env.observation_space(agent).contains(obs), obs["observation"]
    assert obs["observation"][154 + 153] == np.float32(3.45) and obs["observation"][2 * 154 + 61] == 4


def test_raw_env_refuses_an_illegal_move_and_changes_nothing(engine):
    env = azul_pz.raw_env(2, "classic", backend=backend(engine))
    env.reset(seed=9)
    before, agent = env.game.to_text(), env.agent_selection
    illegal = int(np.flatnonzero(env.observe(agent)["action_mask"] == 0)[0])
    with pytest.raises(IllegalMoveError):
        env.step(illegal)
    assert env.game.to_text() == before and env.agent_selection == agent
    assert not any(env.terminations.values())
    with pytest.raises(TypeError):
        env.step(None)  # only a terminated agent passes None


@pytest.mark.filterwarnings("ignore:.*illegal move:UserWarning")
def test_wrapped_env_ends_the_game_on_an_illegal_move(engine):
    env = azul_pz.env(2, "classic", backend=backend(engine))
    env.reset(seed=9)
    offender = env.agent_selection
    obs, *_ = env.last()
    env.step(int(np.flatnonzero(obs["action_mask"] == 0)[0]))
    rewards = {}
    for agent in env.agent_iter():
        _, reward, termination, truncation, _ = env.last()
        assert termination
        rewards[agent] = reward
        env.step(None)
    assert rewards == {a: (-1 if a == offender else 0) for a in env.possible_agents}


def test_render_modes(engine, capsys):
    env = azul_pz.raw_env(2, "grey", backend=backend(engine), render_mode="ansi")
    env.reset(seed=3)
    assert env.render() == str(env.game)
    assert capsys.readouterr().out == ""

    env = azul_pz.raw_env(2, "grey", backend=backend(engine), render_mode="human")
    env.reset(seed=3)
    assert capsys.readouterr().out == str(env.game) + "\n"  # printed by reset()
    env.step(env.game.legal_actions()[0])
    assert capsys.readouterr().out == str(env.game) + "\n"  # and by every step()
    assert env.render() is None and capsys.readouterr().out == str(env.game) + "\n"


def test_copies_and_pickles_play_on_independently(engine):
    env = azul_pz.raw_env(2, "grey", backend=backend(engine))
    env.reset(seed=4)
    twins = [copy.deepcopy(env), pickle.loads(pickle.dumps(env))]
    for e in [env] + twins:
        e.step(e.game.legal_actions()[-1])
        e.reset()  # the next game's seed comes from the copied np_random
    for twin in twins:
        assert twin.game == env.game and twin.game is not env.game
        assert np.array_equal(twin.observe("player_1")["observation"], env.observe("player_1")["observation"])


def test_spaces(engine):
    env = azul_pz.raw_env(4, "grey", backend=backend(engine))
    assert env.possible_agents == ["player_0", "player_1", "player_2", "player_3"]
    for agent in env.possible_agents:
        assert env.observation_space(agent)["observation"].shape == engine.observation_shape(4, "grey")
        assert env.observation_space(agent)["action_mask"].dtype == np.int8
        assert env.action_space(agent).n == engine.NUM_ACTIONS == 314


@pytest.mark.parametrize("kwargs", [{"players": 5}, {"variant": "blue"}, {"backend": "java"},
                                    {"render_mode": "rgb_array"}])
def test_bad_arguments(kwargs):
    with pytest.raises(ValueError):
        azul_pz.raw_env(**kwargs)


def test_module_docstring_example():
    result = doctest.testmod(azul_pz, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0


def test_missing_pettingzoo_names_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "pettingzoo", None)  # "import pettingzoo" now raises ImportError
    monkeypatch.delitem(sys.modules, "azul_engine.pettingzoo")
    with pytest.raises(ImportError, match=r"pip install 'azul-engine\[pettingzoo\]'"):
        importlib.import_module("azul_engine.pettingzoo")


@pytest.mark.parametrize("players,variant", [(2, "classic"), (3, "grey"), (4, "summer-pavilion")])
def test_state_is_the_whole_game_in_state_space(engine, players, variant):
    """state() is observation_tensor(0) of the game: the same for every agent to move, in state_space, and it
    follows the game."""
    e = azul_pz.raw_env(players, variant, backend=backend(engine))
    with pytest.raises(RuntimeError, match="call reset"):
        e.state()
    e.reset(seed=3)
    space = e.state_space
    assert space.shape == e.observation_space("player_0")["observation"].shape
    assert np.array_equal(space.high, e.observation_space("player_0")["observation"].high)
    rng = np.random.default_rng(1)
    seen = set()
    for _ in range(40):
        s = e.state()
        assert s.dtype == np.float32 and space.contains(s)
        assert np.array_equal(s, e.game.observation_tensor(0))
        agent = e.agent_selection
        assert np.array_equal(e.observe("player_0")["observation"], s)  # seat 0's own view
        seen.add(s.tobytes())
        mask = e.observe(agent)["action_mask"]
        e.step(int(rng.choice(np.flatnonzero(mask))))
    assert len(seen) > 30  # it changes with the game


# -- flat observations (flat_observation=True): a Box, the mask in infos, for SuperSuit's wrappers -------------

def flat_env(engine, players=2, variant="classic"):
    return azul_pz.env(players, variant, backend=backend(engine), flat_observation=True)


def masked_moves(env, steps=None):
    """Masked random moves from infos' masks, to the end (or ``steps`` steps); returns the observations seen."""
    rng = np.random.default_rng(0)
    seen = []
    for n, agent in enumerate(env.agent_iter()):
        obs, reward, termination, truncation, info = env.last()
        seen.append(obs)
        if termination or truncation:
            action = None
        else:
            action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        env.step(action)
        if steps is not None and n >= steps:
            break
    return seen


@pytest.mark.filterwarnings("ignore:Observation is not a NumPy array:UserWarning")
@pytest.mark.parametrize("players,variant", CONFIGS)
def test_flat_observations_pass_the_api_and_seed_tests(engine, players, variant):
    api_test(flat_env(engine, players, variant), num_cycles=1000)
    seed_test(lambda: flat_env(engine, players, variant), num_cycles=1000)


def test_flat_observations_are_the_tensor_with_the_mask_in_infos(engine):
    env = flat_env(engine, 3, "summer-pavilion")
    env.reset(seed=4)
    raw = env.unwrapped
    for _ in range(40):
        agent = env.agent_selection
        seat = raw.possible_agents.index(agent)
        np.testing.assert_array_equal(env.observe(agent), raw.game.observation_tensor(seat))
        assert env.observation_space(agent).contains(env.observe(agent))
        for other in raw.agents:
            mask = env.infos[other]["action_mask"]
            if other == agent:
                assert np.flatnonzero(mask).tolist() == raw.game.legal_actions()
            else:
                assert not mask.any()
        env.step(int(np.flatnonzero(env.infos[agent]["action_mask"])[0]))


def test_flat_observations_end_the_game_on_an_illegal_move(engine):
    """TerminateIllegalWrapper reads the mask from infos: a masked-out move ends the game, -1 for its agent."""
    env = flat_env(engine)
    env.reset(seed=1)
    agent = env.agent_selection
    env.step(int(np.flatnonzero(env.infos[agent]["action_mask"] == 0)[0]))
    assert all(env.terminations.values()) and env.rewards[agent] == -1


SUPERSUIT = ["flatten_v0", "dtype_v0", "normalize_obs_v0", "frame_stack_v1", "pad_observations_v0",
             "agent_indicator_v0"]


@pytest.mark.parametrize("wrapper", SUPERSUIT)
def test_supersuits_observation_wrappers_run_on_flat_observations(engine, wrapper):
    ss = pytest.importorskip("supersuit")
    wrap = getattr(ss, wrapper)
    args = {"dtype_v0": (np.float16,), "frame_stack_v1": (3,), "agent_indicator_v0": (False,)}.get(wrapper, ())
    env = wrap(flat_env(engine, 2, "classic"), *args)
    env.reset(seed=2)
    seen = masked_moves(env)
    space = env.observation_space(env.possible_agents[0])
    assert len(seen) > 20
    if wrapper == "agent_indicator_v0":
        # SuperSuit marks the agent with the space's largest bound (10, the round cap) but declares the marker's
        # bound as the smallest (1): its own mismatch, so the marker is checked instead of the space.
        assert all(o.shape == (384 + 2,) and sorted(o[-2:]) == [0, 10] for o in seen)
        return
    assert all(space.contains(np.asarray(o, dtype=space.dtype)) for o in seen)
    if wrapper == "normalize_obs_v0":
        assert all(0 <= o.min() and o.max() <= 1 for o in seen)
    if wrapper == "frame_stack_v1":
        assert seen[-1].shape == (384 * 3,)


@pytest.mark.parametrize("players,variant", [(2, "classic"), (4, "summer-pavilion")])
def test_bombardment_test_passes_on_flat_observations(engine, players, variant):
    """PettingZoo's bombardment_test: unmasked random actions (a flat observation has no mask, so most are
    illegal and end the game through TerminateIllegalWrapper) for 200 cycles, each observation checked against
    its space. PettingZoo 1.27's test takes the next observation from ``env.step()``, which returns None in the
    AEC API (its own example environment fails the same way), so the environment is given a ``step`` that
    returns the observation ``last()`` then shows, as the test expects."""
    from pettingzoo.test import bombardment_test
    from pettingzoo.utils.wrappers import BaseWrapper

    class StepShowsTheObservation(BaseWrapper):
        def step(self, action):
            super().step(action)
            return self.observe(self.agent_selection) if self.agents else self.observation_space(
                self.possible_agents[0]).low

    bombardment_test(StepShowsTheObservation(flat_env(engine, players, variant)), cycles=200)


def test_round_cap_is_inside_the_observation_space(engine):
    """Every bound is finite (SuperSuit's normalize_obs_v0 needs it): the round goes to the cap, 100 (10.0)."""
    env = azul_pz.raw_env(2, "classic", backend=backend(engine), flat_observation=True)
    env.reset(seed=1)
    space = env.observation_space("player_0")
    assert np.isfinite(space.high).all() and space.high[2 * 154 + 61] == 10
    env.game = make_state(engine, round=100, factories=["BBBB"])
    obs = env.observe("player_0")
    assert space.contains(obs) and obs[2 * 154 + 61] == 10
