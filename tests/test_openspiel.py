"""The OpenSpiel adapter (azul_engine.openspiel) on both engines: OpenSpiel's own checks, returns, chance nodes,
observations, serialization and a game by OpenSpiel's MCTS bot."""

import importlib
import os
import pickle
import sys

import numpy as np
import pytest

# In CI the adapter's extra is installed, so a missing pyspiel is a failure there, never a skip.
if os.environ.get("CI", "").strip().lower() not in ("", "0", "false"):
    import pyspiel
else:
    pyspiel = pytest.importorskip("pyspiel")

from open_spiel.python.algorithms import mcts  # noqa: E402
from open_spiel.python.observation import make_observation  # noqa: E402

import azul_engine  # noqa: E402
from azul_engine import openspiel  # noqa: E402

openspiel.register()

BACKEND_NAMES = {"azul_engine._pyengine": "python", "azul_engine._cppengine": "cpp"}


def load(engine, **params):
    return pyspiel.load_game("azul", {"backend": BACKEND_NAMES[engine.__name__], **params})


def sample_chance(state, rng):
    actions, probs = zip(*state.chance_outcomes())
    return int(rng.choice(actions, p=probs))


def expected_returns(players, winners):
    """The documented returns, written out case by case."""
    if players == 2:
        if len(winners) == 2:
            return [0.0, 0.0]
        return [1.0 if p in winners else -1.0 for p in range(2)]
    if len(winners) == 1:
        return [1.0 if p in winners else -1.0 for p in range(players)]
    return [0.0 if p in winners else -1.0 for p in range(players)]


@pytest.mark.parametrize("players,variant", [(2, "classic"), (3, "grey"), (4, "classic"), (3, "summer-pavilion")])
def test_game_type_and_info(engine, players, variant):
    game = load(engine, players=players, variant=variant)
    assert game.engine is engine
    assert game.num_players() == players
    ids = 1798 if variant == "summer-pavilion" else 314
    assert game.num_distinct_actions() == ids == (engine.SP_NUM_ACTIONS if ids == 1798 else engine.NUM_ACTIONS)
    assert game.max_chance_outcomes() == ids  # chance outcomes keep the engine's ids
    assert (game.min_utility(), game.max_utility()) == (-1.0, 1.0)
    # Classic and grey: the cut-off; Summer Pavilion: its own end comes first (openspiel.game_bounds).
    assert game.max_game_length() == (openspiel.DEFAULT_MAX_GAME_LENGTH if ids == 314 else 391)
    assert (game.max_game_length(), game.max_chance_nodes_in_history()) == openspiel.game_bounds(players, variant)
    game_type = game.get_type()
    assert game_type.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert game_type.information == pyspiel.GameType.Information.PERFECT_INFORMATION
    utility = pyspiel.GameType.Utility
    assert game_type.utility == (utility.ZERO_SUM if players == 2 else utility.GENERAL_SUM)
    assert game.observation_tensor_shape() == list(engine.observation_shape(players, variant))
    assert str(game) == (f"azul(backend={BACKEND_NAMES[engine.__name__]},max_game_length=2000,"
                         f"players={players},variant={variant})")


@pytest.mark.parametrize("players,variant", [(2, "classic"), (2, "grey"), (3, "classic"), (4, "grey"),
                                             (2, "summer-pavilion"), (4, "summer-pavilion")])
@pytest.mark.slow
def test_openspiel_random_simulation_checks(engine, players, variant):
    # OpenSpiel's C++ checks: clones, serialization round trips, sorted legal actions, masks, chance outcomes,
    # game length within max_game_length, returns within the utility range and equal to summed rewards.
    sims = 10 if engine.__name__.endswith("_cppengine") else 2
    pyspiel.random_sim_test(load(engine, players=players, variant=variant), num_sims=sims, serialize=True,
                            verbose=False)


@pytest.mark.parametrize("players,variant", [(2, "grey"), (3, "classic"), (4, "grey"), (3, "summer-pavilion")])
def test_a_game_follows_the_engine_step_by_step(engine, players, variant):
    game = load(engine, players=players, variant=variant)
    state = game.new_initial_state()
    twin = engine.new_game(players, variant, seed=0, chance="explicit")
    rng = np.random.RandomState(players)
    chance_nodes = 0
    while not state.is_terminal():
        assert state.legal_actions() == twin.legal_actions()
        if state.is_chance_node():
            chance_nodes += 1
            assert state.current_player() == pyspiel.PlayerId.CHANCE
            outcomes = state.chance_outcomes()
            assert outcomes == twin.chance_outcomes()
            assert sum(p for _, p in outcomes) == pytest.approx(1.0)
            assert all(p > 0 for _, p in outcomes)
            action = sample_chance(state, rng)
        else:
            player = state.current_player()
            assert player == twin.current_player
            assert np.array_equal(np.array(state.legal_actions_mask(), bool), twin.legal_action_mask())
            for other in range(players):
                assert state.legal_actions(other) == ([] if other != player else twin.legal_actions())
                assert np.array_equal(state.observation_tensor(other), twin.observation_tensor(other))
            assert state.observation_string(player) == str(twin)
            assert state.returns() == [0.0] * players
            action = int(rng.choice(state.legal_actions()))
        assert state.action_to_string(action) == twin.action_to_string(action)
        state.apply_action(action)
        twin.apply(action)
        assert state.engine_state == twin
    assert twin.is_over and chance_nodes > 20
    assert state.current_player() == pyspiel.PlayerId.TERMINAL
    assert state.legal_actions() == []
    assert state.returns() == expected_returns(players, twin.winners)
    # The history replays straight into the engine: the ids are the engine's, chance outcomes included.
    replay = engine.new_game(players, variant, seed=0, chance="explicit")
    for action in state.history():
        replay.apply(action)
    assert replay == twin


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4])
def test_returns_sole_and_shared_winners(engine, players):
    # Random play often ends in a tie on score and complete rows (a shared win), so a few seeds see both cases.
    game = load(engine, players=players)
    seen = set()
    for seed in range(40):
        rng = np.random.RandomState(seed)
        state = game.new_initial_state()
        while not state.is_terminal():
            state.apply_action(sample_chance(state, rng) if state.is_chance_node()
                               else int(rng.choice(state.legal_actions())))
        winners = state.engine_state.winners
        returns = state.returns()
        assert winners and returns == expected_returns(players, winners)
        assert state.player_return(winners[0]) == returns[winners[0]]
        if players == 2:
            assert sum(returns) == 0
        seen.add(len(winners) > 1)
        if seen == {False, True}:
            break
    assert seen == {False, True}


def test_a_game_cut_off_at_max_game_length_is_a_draw(engine):
    game = load(engine, players=3, max_game_length=7)
    state = game.new_initial_state()
    rng = np.random.RandomState(0)
    moves = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(sample_chance(state, rng))
        else:
            state.apply_action(state.legal_actions()[-1])
            moves += 1
    assert moves == 7 and not state.engine_state.is_over
    assert state.current_player() == pyspiel.PlayerId.TERMINAL
    assert state.legal_actions() == []
    assert state.returns() == [0.0, 0.0, 0.0]
    # no move nor chance outcome after the cut-off (the engine's own game would take them)
    history, text = state.history(), state.engine_state.to_text()
    for action in state.engine_state.legal_actions():
        with pytest.raises(engine.IllegalMoveError, match="^the game is over: cut off at max_game_length = 7 player"):
            state.apply_action(action)
    assert state.history() == history and state.engine_state.to_text() == text and state.is_terminal()


def test_illegal_actions_raise_and_change_nothing(engine):
    state = load(engine).new_initial_state()
    with pytest.raises(engine.IllegalMoveError, match="chance node"):
        state.apply_action(0)
    assert state.history() == [] and state.is_chance_node()
    state.apply_action(311)  # seat 1 starts
    assert state.current_player() == pyspiel.PlayerId.CHANCE
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, 305) == "~B"
    assert state.action_to_string(0, 302) == "W?3"  # a grey-wall column with no tiling decision pending


def test_serialization_round_trip(engine):
    game = load(engine, players=3, variant="grey")
    state = game.new_initial_state()
    rng = np.random.RandomState(3)
    checked = 0
    while not state.is_terminal():
        if len(state.history()) % 37 == 0 or not state.is_chance_node() and rng.rand() < 0.05:
            text = pyspiel.serialize_game_and_state(game, state)
            game2, state2 = pyspiel.deserialize_game_and_state(text)
            assert str(game2) == str(game) and game2.engine is engine
            assert state2.history() == state.history()
            assert state2.engine_state == state.engine_state
            assert str(state2) == str(state)
            unpickled = pickle.loads(pickle.dumps(state))
            assert unpickled.history() == state.history() and unpickled.engine_state == state.engine_state
            clone = state.clone()
            assert clone.engine_state == state.engine_state and clone.engine_state is not state.engine_state
            checked += 1
        state.apply_action(sample_chance(state, rng) if state.is_chance_node()
                           else int(rng.choice(state.legal_actions())))
    assert checked > 5
    assert str(pickle.loads(pickle.dumps(game))) == str(game)
    game2, state2 = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))
    assert state2.is_terminal() and state2.returns() == state.returns()


@pytest.mark.parametrize("variant", ["classic", "summer-pavilion"])
def test_undo_action_takes_back_moves_and_chance_outcomes(engine, variant):
    game = load(engine, variant=variant, max_game_length=30)
    state = game.new_initial_state()
    rng = np.random.RandomState(5)
    undone = 0
    while not state.is_terminal():
        before = state.clone()
        player = state.current_player()
        action = sample_chance(state, rng) if state.is_chance_node() else int(rng.choice(state.legal_actions()))
        state.apply_action(action)
        if rng.rand() < 0.3:
            state.undo_action(player, action)
            assert state.engine_state == before.engine_state
            assert state.current_player() == before.current_player()
            assert state.legal_actions() == before.legal_actions()
            assert state.is_terminal() == before.is_terminal()
            state.apply_action(action)
            undone += 1
    assert undone > 10
    # the cut-off counts player moves: undoing the last one un-ends the game
    state.undo_action(-1, -1)
    assert not state.is_terminal() and state.returns() == [0.0, 0.0]


def test_observers(engine):
    game = load(engine, players=3)
    state = game.new_initial_state()
    rng = np.random.RandomState(5)
    for _ in range(30):
        state.apply_action(sample_chance(state, rng) if state.is_chance_node()
                           else int(rng.choice(state.legal_actions())))
    observation = make_observation(game)
    for player in range(3):
        observation.set_from(state, player)
        assert observation.tensor.dtype == np.float32
        assert np.array_equal(observation.tensor, state.engine_state.observation_tensor(player))
        assert np.array_equal(observation.dict["observation"], observation.tensor)
        assert observation.string_from(state, player) == str(state.engine_state) == str(state)
    # Perfect information: the information state is the history, as in OpenSpiel's other such games.
    info_state = make_observation(game, pyspiel.IIGObservationType(perfect_recall=True))
    assert info_state.string_from(state, 1) == state.history_str() == state.information_state_string(1)


@pytest.mark.slow
def test_mcts_bot_plays_a_whole_game(engine):
    game = load(engine, players=2)
    rng = np.random.RandomState(0)
    bot = mcts.MCTSBot(game, uct_c=2.0, max_simulations=3,
                       evaluator=mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng), random_state=rng)
    state = game.new_initial_state()
    decisions = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(sample_chance(state, rng))
        else:
            action = bot.step(state)
            assert action in state.legal_actions()
            state.apply_action(action)
            decisions += 1
    final = state.engine_state
    assert final.is_over and decisions > 20
    assert state.returns() == expected_returns(2, final.winners)
    assert sum(state.returns()) == 0


def test_register_chooses_the_default_backend():
    other = "python" if azul_engine.BACKEND == "cpp" else "cpp"
    if other not in azul_engine.available_backends():
        other = "python"
    try:
        openspiel.register(backend=other)
        assert pyspiel.load_game("azul").engine is azul_engine.load_backend(other)
        assert "backend=" + other in str(pyspiel.load_game("azul"))
    finally:
        openspiel.register()
    assert pyspiel.load_game("azul").engine is azul_engine.load_backend(azul_engine.BACKEND)
    with pytest.raises(ValueError, match="unknown azul-engine backend 'rust'"):
        openspiel.register(backend="rust")
    with pytest.raises(ValueError, match="players must be 2, 3 or 4, got 5"):
        pyspiel.load_game("azul", {"players": 5})
    with pytest.raises(ValueError, match="unknown variant 'blue'"):
        pyspiel.load_game("azul", {"variant": "blue"})


def test_missing_openspiel_names_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "pyspiel", None)  # makes `import pyspiel` raise ImportError
    monkeypatch.delitem(sys.modules, "azul_engine.openspiel")
    with pytest.raises(ImportError, match=r"pip install 'azul-engine\[openspiel\]'"):
        importlib.import_module("azul_engine.openspiel")


def test_module_docstring_example():
    import doctest

    result = doctest.testmod(openspiel, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.attempted > 0 and result.failed == 0


@pytest.mark.parametrize("players,variant", [(2, "classic"), (3, "grey"), (2, "summer-pavilion")])
def test_information_state_tensor_is_the_observation(engine, players, variant):
    """Perfect information: the information state tensor equals the observation tensor, for every player, all
    along a game; its shape is the observation's; the information state string stays the history."""
    game = load(engine, players=players, variant=variant)
    assert game.get_type().provides_information_state_tensor
    assert game.information_state_tensor_shape() == game.observation_tensor_shape()
    assert game.information_state_tensor_size() == game.observation_tensor_size()
    state = game.new_initial_state()
    rng = np.random.RandomState(players)
    checked = 0
    while not state.is_terminal() and checked < 60:
        if not state.is_chance_node():
            for p in range(players):
                info = np.array(state.information_state_tensor(p), np.float32)
                assert np.array_equal(info, np.array(state.observation_tensor(p), np.float32))
                assert np.array_equal(info, state.engine_state.observation_tensor(p))
            assert state.information_state_string(0) == state.history_str()
            checked += 1
        state.apply_action(sample_chance(state, rng) if state.is_chance_node()
                           else int(rng.choice(state.legal_actions())))
    assert checked == 60
