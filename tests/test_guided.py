"""The guided search (docs/search.md sections 10-15) and the built-in network (docs/network.md) in both engines:
the two engines in lockstep (a Python evaluator, each engine's own network) for every variant, player count, batch
size and thread count; search_many against separate searches; the evaluator's contract (the value's perspective,
shapes, NaN, an evaluator that raises); first-play urgency, noise, budgets and the node limit; the network's
outputs and its weights file; the net bot.  Ctrl-C: test_interrupt.py."""

import json
import math
import os
import pickle
import random

import numpy as np
import pytest

from azul_engine import bots, network
from helpers import network_parts, tiny_network

GAMES = [("classic", 2), ("classic", 3), ("classic", 4), ("grey", 2), ("grey", 3), ("summer-pavilion", 2),
         ("summer-pavilion", 3), ("summer-pavilion", 4)]


def fields(result):
    return {name: getattr(result, name) for name in result.__dataclass_fields__ if name != "seconds"}


def positions(engine, variant, players, count, seed=0, depth=60):
    """Decision positions of random games (a random number of random moves from a new game)."""
    rng = random.Random(seed)
    out = []
    game = 0
    while len(out) < count:
        state = engine.new_game(players, variant, seed=seed * 1000 + game)
        game += 1
        for _ in range(rng.randrange(depth)):
            if state.is_over:
                break
            state.apply(rng.choice(state.legal_actions()))
        if not state.is_over and not state.is_chance_node:
            out.append(state)
    return out


class LinearEvaluator:
    """A deterministic Python evaluator, row by row: logits and values from fixed random projections of the
    observation (values through tanh), as numpy float32."""

    def __init__(self, size, actions, players, seed=0, value_shape="players"):
        rng = np.random.default_rng(seed)
        self.wl = rng.normal(0, 0.3, (size, actions)).astype(np.float32)
        self.wv = rng.normal(0, 0.3, (size, players)).astype(np.float32)
        self.value_shape = value_shape
        self.calls = []

    def __call__(self, observations, masks):
        assert observations.dtype == np.float32 and masks.dtype == np.bool_
        assert observations.flags.c_contiguous and masks.shape[0] == observations.shape[0]
        self.calls.append(len(observations))
        # Row by row, so that a row's output never depends on the batch it came in.
        logits = np.stack([row @ self.wl for row in observations]).astype(np.float32)
        values = np.tanh(np.stack([row @ self.wv for row in observations])).astype(np.float32)
        if self.value_shape == "flat":
            values = values[:, 0].copy()
        return logits, values


def evaluator_for(engine, variant, players, seed=0, **kw):
    info = engine.game_info(variant, players)
    return LinearEvaluator(info.observation_shape[0], info.num_actions, players, seed, **kw)


# -- the two engines in lockstep ---------------------------------------------------------------------------------

SETTINGS = [dict(iterations=60, batch=1), dict(iterations=90, batch=8, threads=2),
            dict(iterations=75, batch=4, threads=3, noise_alpha=0.3, noise_fraction=0.4),
            dict(iterations=80, batch=16, max_nodes=40, fpu=-0.5, c_puct=2.5, margin=0.0)]


@pytest.mark.slow
@pytest.mark.parametrize("variant,players", GAMES, ids=["%s-%d" % g for g in GAMES])
def test_both_engines_give_the_same_result_with_a_python_evaluator(engines, variant, players):
    """Field for field, for every batch size and thread count, with noise, a small node limit and a negative
    first-play urgency; the C++ engine calls the same evaluator on the same batches."""
    py, cpp = engines
    for i, state in enumerate(positions(py, variant, players, 4, seed=players)):
        text = state.to_text()
        for j, kw in enumerate(SETTINGS):
            if (i + j) % 2:
                continue
            a_eval, b_eval = evaluator_for(py, variant, players, i), evaluator_for(py, variant, players, i)
            a = py.search(py.from_text(text), evaluator=a_eval, seed=7 * i + j, **kw)
            b = cpp.search(cpp.from_text(text), evaluator=b_eval, seed=7 * i + j, **kw)
            assert fields(a) == fields(b), (variant, players, i, kw)
            assert a_eval.calls == b_eval.calls  # the same batches, in the same order
            assert sum(a.visits) == a.iterations == kw["iterations"]
            assert max(a_eval.calls) <= kw["batch"] * kw.get("threads", 1)


@pytest.mark.slow
@pytest.mark.parametrize("variant,players", GAMES, ids=["%s-%d" % g for g in GAMES])
def test_both_engines_give_the_same_result_with_their_own_network(engines, variant, players):
    """Each engine's built-in network (the C++ one evaluated in C++, on threads) gives the pure engine's result
    field for field: the two networks compute the same bits."""
    py, cpp = engines
    parts = network_parts(variant, players, hidden=(24, 12), seed=players)
    nets = py.Network.from_arrays(variant, players, *parts), cpp.Network.from_arrays(variant, players, *parts)
    for i, state in enumerate(positions(py, variant, players, 3, seed=10 + players)):
        text = state.to_text()
        kw = dict(iterations=70 + 10 * i, batch=(1, 8, 5)[i], threads=(1, 2, 4)[i], seed=i)
        a = py.search(py.from_text(text), evaluator=nets[0], **kw)
        b = cpp.search(cpp.from_text(text), evaluator=nets[1], **kw)
        c = cpp.search(cpp.from_text(text), evaluator=nets[0], **kw)  # the pure network, called from C++
        assert fields(a) == fields(b) == fields(c), (variant, players, i)


@pytest.mark.slow
def test_the_networks_compute_the_same_bits(engines):
    """Over thousands of positions of every variant and player count, the two engines' networks give the same
    float32 logits and values (docs/network.md: well within the 1e-5 asked of them)."""
    py, cpp = engines
    for variant, players in GAMES:
        parts = network_parts(variant, players, hidden=(64, 32), seed=5)
        a, b = py.Network.from_arrays(variant, players, *parts), cpp.Network.from_arrays(variant, players, *parts)
        obs = np.stack([s.observation_tensor() for s in positions(cpp, variant, players, 400, seed=players)])
        (la, va), (lb, vb) = a(obs), b(obs)
        assert la.dtype == lb.dtype == va.dtype == vb.dtype == np.float32
        assert np.array_equal(la, lb) and np.array_equal(va, vb), variant
        assert np.abs(va).max() <= 1.0
        # A row's outputs do not depend on the batch it is in.
        one = b(obs[3:4])
        assert np.array_equal(one[0][0], lb[3]) and np.array_equal(one[1][0], vb[3])
        # And they are the dense layers of the file: a float64 forward pass agrees to float32's precision.
        h = obs.astype(np.float64)
        for w, bias in parts[0]:
            h = np.maximum(h @ w.T.astype(np.float64) + bias, 0)
        assert np.allclose(la, h @ parts[1][0].T.astype(np.float64) + parts[1][1], atol=1e-4)
        assert np.allclose(va, np.tanh(h @ parts[2][0].T.astype(np.float64) + parts[2][1]), atol=1e-5)


def test_a_network_reads_unaligned_arrays(engine):
    """Observations and weights whose data start one byte past an aligned address (read through float* in C++:
    undefined behaviour, issue 38) are read as copies: the same outputs and the same network as aligned ones."""
    def unaligned(array):
        raw = np.zeros(array.nbytes + 1, np.uint8)
        out = raw[1:].view(array.dtype).reshape(array.shape)
        out[...] = array
        assert not out.flags.aligned
        return out

    parts = network_parts("classic", 2, hidden=(16,), seed=3)
    net = engine.Network.from_arrays("classic", 2, *parts)
    odd = engine.Network.from_arrays("classic", 2, [tuple(unaligned(a) for a in layer) for layer in parts[0]],
                                     *[tuple(unaligned(a) for a in layer) for layer in parts[1:]])
    obs = np.stack([s.observation_tensor() for s in positions(engine, "classic", 2, 20, seed=1)])
    (logits, values), (odd_logits, odd_values) = net(obs), odd(unaligned(obs))
    assert np.array_equal(logits, odd_logits) and np.array_equal(values, odd_values)


# -- many searches at once ---------------------------------------------------------------------------------------

@pytest.mark.slow
@pytest.mark.parametrize("variant,players", [("classic", 2), ("summer-pavilion", 3)])
def test_search_many_equals_separate_searches(engine, variant, players):
    states = positions(engine, variant, players, 5, seed=3)
    evaluate = evaluator_for(engine, variant, players)
    many = engine.search_many(states, evaluator=evaluate, iterations=40, seed=100, batch=2)
    assert max(evaluate.calls) == 2 * len(states)  # the searches' leaves share a call
    for i, state in enumerate(states):
        alone = engine.search(state, evaluator=evaluate, iterations=40, seed=100 + i, batch=2)
        assert fields(many[i]) == fields(alone)
    net = tiny_network(engine, variant, players, seed=1)
    seeds = [5, 9, 2, 2, 7]
    many = engine.search_many(states, evaluator=net, iterations=30, seed=seeds, threads=2)
    for i, state in enumerate(states):
        assert fields(many[i]) == fields(engine.search(state, evaluator=net, iterations=30, seed=seeds[i], batch=1))


def test_search_many_in_both_engines(engines):
    py, cpp = engines
    texts = [s.to_text() for s in positions(py, "grey", 2, 6, seed=8)]
    evaluate = evaluator_for(py, "grey", 2)
    a = py.search_many([py.from_text(t) for t in texts], evaluator=evaluate, iterations=50, seed=3)
    b = cpp.search_many([cpp.from_text(t) for t in texts], evaluator=evaluate, iterations=50, seed=3)
    assert [fields(x) for x in a] == [fields(x) for x in b]


# -- the evaluator's contract ------------------------------------------------------------------------------------

@pytest.mark.parametrize("players", [2, 3, 4])
def test_values_are_by_seat_from_the_observer(engine, players):
    """Section 11: column k of the values is the seat k places after the player to move at the leaf.  An
    evaluator that gives each seat a value by its place: the root's value is place 0's, and a move after which the
    next player is to move is valued, for the root's player, at the place that is the root's player from there."""
    by_place = [0.5, -0.25, 0.125, -0.0625][:players]
    info = engine.game_info("classic", players)

    def evaluate(observations, masks):
        return (np.zeros((len(observations), info.num_actions), np.float32),
                np.tile(np.array(by_place, np.float32), (len(observations), 1)))

    state = engine.new_game(players, seed=4)
    result = engine.search(state, evaluator=evaluate, iterations=1, batch=1)
    assert result.root_value == by_place[0]
    assert result.values == (by_place[players - 1],)  # the root's player is the last place after the next one
    if players == 2:  # a value of shape [N] is the player to move's; the other's is its negation
        flat = engine.search(state, evaluator=lambda o, m: (evaluate(o, m)[0], np.full(len(o), 0.5, np.float32)),
                             iterations=1, batch=1)
        assert flat.root_value == 0.5 and flat.values == (-0.5,)


def test_priors_are_a_softmax_over_the_legal_actions(engine):
    """Section 11: the logits of illegal actions do not count (here -inf, which is allowed there)."""
    state = engine.new_game(2, seed=9)
    legal = state.legal_actions()
    row = np.random.default_rng(2).normal(size=engine.NUM_ACTIONS).astype(np.float32)

    def evaluate(observations, masks):
        return np.where(masks, row, -np.inf).astype(np.float32), np.zeros((len(observations), 2), np.float32)

    result = engine.search(state, evaluator=evaluate, iterations=len(legal) * 3, fpu=-5.0)
    e = np.exp(row[legal].astype(np.float64) - row[legal].max())
    expected = dict(zip(legal, (e / e.sum()).astype(np.float32).tolist()))
    assert dict(zip(result.actions, result.priors)) == {a: expected[a] for a in result.actions}
    assert set(result.actions) == set(legal)  # fpu=-5: every move is tried before any is tried again


BAD_OUTPUTS = [
    (lambda o, m: None, TypeError, "search: the evaluator must return a pair (logits, values), not NoneType"),
    (lambda o, m: (1, 2, 3), TypeError, "search: the evaluator must return a pair (logits, values), not 3 items"),
    (lambda o, m: (np.zeros((len(o), 5), np.float32), np.zeros((len(o), 2), np.float32)), ValueError,
     "search: the evaluator's logits have shape (1, 5), expected (1, 314)"),
    (lambda o, m: (np.zeros((len(o), 314), np.float32), np.zeros((len(o), 3), np.float32)), ValueError,
     "search: the evaluator's values have shape (1, 3), expected (1, 2) or (1,)"),
    (lambda o, m: (np.full((len(o), 314), np.nan, np.float32), np.zeros((len(o), 2), np.float32)), ValueError,
     "search: the evaluator's logits are not finite at a legal action (row 0, action 12: nan)"),
    (lambda o, m: (np.zeros((len(o), 314), np.float32), np.full((len(o), 2), np.inf, np.float32)), ValueError,
     "search: the evaluator's values are not finite (row 0: [inf, inf])"),
    (lambda o, m: (np.zeros((len(o), 314), "U3"), np.zeros((len(o), 2), np.float32)), TypeError,
     "search: the evaluator's logits must be float32, not <U3"),
]


@pytest.mark.parametrize("evaluate,error,message", BAD_OUTPUTS, ids=[str(i) for i in range(len(BAD_OUTPUTS))])
def test_a_bad_evaluation_is_refused_with_the_same_words(engine, evaluate, error, message):
    state = engine.new_game(2, seed=1)
    before = state.to_text()
    with pytest.raises(error) as caught:
        engine.search(state, evaluator=evaluate, iterations=20)
    assert str(caught.value) == message
    assert state.to_text() == before


def test_three_players_need_a_value_a_seat(engine):
    state = engine.new_game(3, seed=1)
    with pytest.raises(ValueError) as caught:
        engine.search(state, evaluator=lambda o, m: (np.zeros((len(o), 314), np.float32),
                                                     np.zeros(len(o), np.float32)), iterations=5)
    assert str(caught.value) == "search: the evaluator's values have shape (1,), expected (1, 3)"


def test_an_evaluator_that_raises_stops_the_search_with_its_error(engine):
    class Boom(RuntimeError):
        pass

    calls = []

    def evaluate(observations, masks):
        calls.append(len(observations))
        if len(calls) == 3:
            raise Boom("the network is on fire")
        return np.zeros((len(observations), 314), np.float32), np.zeros((len(observations), 2), np.float32)

    state = engine.new_game(2, seed=3)
    with pytest.raises(Boom, match="on fire"):
        engine.search(state, evaluator=evaluate, iterations=1000, threads=2)
    assert len(calls) == 3
    # The engine goes on: the same search with a good evaluator works.
    assert engine.search(state, evaluator=tiny_network(engine), iterations=20).iterations == 20


GUIDED_BAD = [
    (dict(batch=0), ValueError, "search: batch must be 1 or more, got 0"),
    (dict(batch=5000), ValueError, "search: batch is too large: 5000 (at most 4096)"),
    (dict(c_puct=-1), ValueError, "search: c_puct must be 0 or more and finite, not -1.0"),
    (dict(fpu=math.nan), ValueError, "search: fpu must be finite, not nan"),
    (dict(noise_alpha=-0.1), ValueError, "search: noise_alpha must be 0 (no noise) to 1000, not -0.1"),
    (dict(noise_fraction=2), ValueError, "search: noise_fraction must be between 0 and 1, not 2.0"),
    (dict(rollouts=2), ValueError,
     "search: rollouts is an argument of the rollout search, not of the guided search (evaluator=...)"),
    (dict(candidates=0), ValueError,
     "search: candidates is an argument of the rollout search, not of the guided search (evaluator=...)"),
    (dict(policy="uniform"), ValueError,
     "search: policy is an argument of the rollout search, not of the guided search (evaluator=...)"),
]


@pytest.mark.parametrize("kwargs,error,message", GUIDED_BAD, ids=[",".join(k) for k, _, _ in GUIDED_BAD])
def test_bad_guided_arguments_get_the_same_error_in_both_engines(engine, kwargs, error, message):
    with pytest.raises(error) as caught:
        engine.search(engine.new_game(2, seed=1), evaluator=tiny_network(engine), **kwargs)
    assert str(caught.value) == message


def test_a_network_for_another_game_is_refused(engine):
    net = tiny_network(engine, "classic", 2)
    for state, words in ((engine.new_game(2, "grey", seed=1), "grey with 2 players"),
                         (engine.new_game(3, seed=1), "classic with 3 players")):
        with pytest.raises(ValueError) as caught:
            engine.search(state, evaluator=net, iterations=5)
        assert str(caught.value) == "search: the network is for classic with 2 players, not " + words


def test_search_many_refuses_what_it_cannot_search(engine):
    net = tiny_network(engine)
    a, b = engine.new_game(2, seed=1), engine.new_game(2, "grey", seed=1)
    cases = [
        (dict(states=[]), ValueError, "search_many: states is empty"),
        (dict(states="abc"), TypeError, "search_many: states must be a list of states, not str"),
        (dict(states=[a, b]), ValueError, "search_many: every state must be of one variant and player count: "
                                          "state 1 is grey with 2 players, state 0 classic with 2"),
        (dict(states=[a, 3]), TypeError, None),
        (dict(states=[a, a], seed=[1]), ValueError, "search_many: 1 seeds for 2 states"),
        (dict(states=[a], evaluator=None), TypeError, None),
    ]
    for kw, error, message in cases:
        kw = dict(dict(evaluator=net), **kw)
        with pytest.raises(error) as caught:
            engine.search_many(kw.pop("states"), **kw)
        if message:
            assert str(caught.value) == message


# -- the search's behaviour --------------------------------------------------------------------------------------

def test_first_play_urgency(engine):
    """Section 12: an unvisited move is valued at its parent's mean less ``fpu``.  With a large fpu the search keeps
    to the first move it tried; with a negative one it tries every move before any is tried twice."""
    state = engine.new_game(2, seed=5)
    legal = state.legal_actions()
    flat = evaluator_for(engine, "classic", 2, seed=1)
    narrow = engine.search(state, evaluator=flat, iterations=200, fpu=10.0)
    assert len(narrow.actions) == 1 and narrow.visits == (200,)
    wide = engine.search(state, evaluator=flat, iterations=len(legal), fpu=-10.0, batch=1)
    assert sorted(wide.actions) == legal and set(wide.visits) == {1}


def test_the_search_follows_the_values(engine):
    """A value that favours some moves' outcomes draws the visits to them: the evaluator says the player to move is
    losing once the other player's second pattern line is full (a made-up rule), so the search fills it."""
    state = engine.new_game(2, seed=11)
    info = engine.game_info("classic", 2)
    line_2 = info.seat_features + info.observation_offsets["seat0.pattern_lines"][0] + 5  # the mover's, row 2

    def rule(observations):
        return (observations[:, line_2:line_2 + 5] == 1.0).any(axis=1)

    def evaluate(observations, masks):
        values = np.where(rule(observations), -0.9, 0.0).astype(np.float32)
        return np.zeros((len(observations), 314), np.float32), np.stack([values, -values], axis=1)

    takes = []
    for a in state.legal_actions():
        after = state.clone()
        after.apply(a)
        if rule(after.observation_tensor()[None, :])[0]:
            takes.append(a)
    assert 0 < len(takes) < len(state.legal_actions()) / 2
    # Uniform priors: with fpu=0 an untried move counts as its parent's mean, so that every move gets tried.
    result = engine.search(state, evaluator=evaluate, iterations=400, fpu=0.0)
    others = [v for a, v in zip(result.actions, result.values) if a not in takes]
    assert result.action in takes and result.values[0] > 0.3 > max(others)


def test_noise_changes_the_search_not_the_priors(engine):
    state = engine.new_game(2, seed=2)
    evaluate = evaluator_for(engine, "classic", 2, seed=3)
    plain = engine.search(state, evaluator=evaluate, iterations=100, seed=1)
    noisy = [engine.search(state, evaluator=evaluate, iterations=100, seed=s, noise_alpha=0.3, noise_fraction=0.5)
             for s in range(4)]
    assert any(n.visit_counts() != plain.visit_counts() for n in noisy)
    for n in noisy:
        assert dict(zip(n.actions, n.priors)) == {a: p for a, p in zip(plain.actions, plain.priors) if a in n.actions} \
            or set(n.actions) - set(plain.actions)
        assert n.root_value == plain.root_value
    assert engine.search(state, evaluator=evaluate, iterations=100, seed=1, noise_alpha=0.3,
                         noise_fraction=0.0) == plain


@pytest.mark.slow
def test_dirichlet_draws():
    """Section 13's draws (the pure engine's; the lockstep tests hold the C++ engine to them): each draw is a
    probability vector whose mean is uniform."""
    from azul_engine._pure.common import SplitMix64
    from azul_engine._pure.guided import dirichlet

    rng = SplitMix64(1)
    for alpha in (0.03, 0.3, 1.0, 4.0):
        draws = np.array([dirichlet(alpha, 5, rng) for _ in range(3000)])
        assert np.allclose(draws.sum(axis=1), 1.0) and (draws >= 0).all()
        assert np.allclose(draws.mean(axis=0), 0.2, atol=0.02), alpha
        # Var of a Dirichlet(alpha) coordinate: (1/5)(4/5) / (5 alpha + 1).
        assert np.isclose(draws[:, 0].var(), 0.16 / (5 * alpha + 1), rtol=0.15), alpha


def test_budgets_and_the_node_limit(engine):
    state = engine.new_game(3, "summer-pavilion", seed=6)
    net = tiny_network(engine, "summer-pavilion", 3)
    timed = engine.search(state, evaluator=net, seconds=0.2, threads=2)
    assert timed.iterations >= 2 and 0.15 < timed.seconds < 5
    small = engine.search(state, evaluator=net, iterations=300, max_nodes=50)
    assert small.full and small.nodes == 50 and small.iterations == 300 == sum(small.visits)
    assert not engine.search(state, evaluator=net, iterations=30).full


def test_the_state_is_not_changed(engine):
    state = engine.new_game(2, seed=8)
    before = state.to_text()
    engine.search(state, evaluator=tiny_network(engine), iterations=50, threads=2)
    engine.search_many([state, state], evaluator=tiny_network(engine), iterations=50)
    assert state.to_text() == before


# -- the weights file --------------------------------------------------------------------------------------------

def test_save_and_load_in_both_engines(engines, tmp_path):
    py, cpp = engines
    parts = network_parts("summer-pavilion", 2, hidden=(32, 16), seed=4)
    path = tmp_path / "sp.npz"
    network.save_network(path, "summer-pavilion", 2, *parts, meta={"games": 3})
    a, b = py.load_network(path), cpp.load_network(path)
    for net in (a, b):
        assert (net.variant, net.players, net.layers, net.num_actions) == ("summer-pavilion", 2, (271, 32, 16), 1798)
        assert net.meta == {"games": 3} and net.path == str(path)
    obs = np.stack([s.observation_tensor() for s in positions(py, "summer-pavilion", 2, 50)])
    direct = py.Network.from_arrays("summer-pavilion", 2, *parts)(obs)
    for net in (a, b):
        out = net(obs)
        assert np.array_equal(out[0], direct[0]) and np.array_equal(out[1], direct[1])
    # float16 storage: half the file, the same network to float16's precision
    half = tmp_path / "half.npz"
    network.save_network(half, "summer-pavilion", 2, *parts, dtype="float16")
    assert os.path.getsize(half) < 0.7 * os.path.getsize(path)
    assert np.allclose(cpp.load_network(half)(obs)[0], direct[0], atol=0.05)
    # Pickled (Ray, multiprocessing): the same network.
    for net in (a, b):
        again = pickle.loads(pickle.dumps(net))
        assert type(again) is type(net) and np.array_equal(again(obs)[0], direct[0]) and again.meta == net.meta


def test_an_existing_file_is_not_replaced(tmp_path):
    from azul_engine.outputs import OutputExists

    path = tmp_path / "n.npz"
    path.write_bytes(b"mine")
    parts = network_parts()
    with pytest.raises(OutputExists):
        network.save_network(path, "classic", 2, *parts)
    assert path.read_bytes() == b"mine"
    # a part float16 cannot hold (past 65504: an infinity in the file) is refused before the file is touched
    big = ([(w * 1e6, b) for w, b in parts[0]], parts[1], parts[2])
    with pytest.raises(ValueError, match="not finite"):
        network.save_network(path, "classic", 2, *big, dtype="float16", force=True)
    assert path.read_bytes() == b"mine"
    network.save_network(path, "classic", 2, *parts, force=True)
    assert path.read_bytes() != b"mine" and os.listdir(tmp_path) == ["n.npz"]


def _write(path, **entries):
    np.savez(path, **entries)
    return path


def test_a_bad_weights_file_is_a_clear_error_naming_it(engine, tmp_path):
    parts = network_parts()
    good = {"format": np.array("azul-engine-mlp/1"), "variant": np.array("classic"), "players": np.array(2),
            "trunk.0.weight": parts[0][0][0], "trunk.0.bias": parts[0][0][1], "policy.weight": parts[1][0],
            "policy.bias": parts[1][1], "value.weight": parts[2][0], "value.bias": parts[2][1]}
    cases = {
        "missing.npz": (None, FileNotFoundError, "load_network: no such file"),
        "text.npz": ("text", ValueError, "not a weights file (.npz)"),
        "no-format.npz": (dict(good, format=None), ValueError, "not an azul-engine network: no 'format' entry"),
        "other-format.npz": (dict(good, format=np.array("onnx")), ValueError,
                             "format 'onnx', this engine reads 'azul-engine-mlp/1'"),
        "bad-variant.npz": (dict(good, variant=np.array("chess")), ValueError,
                            "variant must be one of classic, grey, summer-pavilion, not 'chess'"),
        "no-policy.npz": (dict(good, **{"policy.bias": None}), ValueError, "policy.bias is missing"),
        "wrong-shape.npz": (dict(good, **{"policy.weight": parts[1][0][:100]}), ValueError,
                            "policy.weight has shape (100, 16), expected (314, 16)"),
        "wrong-input.npz": (dict(good, **{"trunk.0.weight": parts[0][0][0][:, :100]}), ValueError,
                            "trunk.0.weight has shape (16, 100), expected (units, 384)"),
        "nan.npz": (dict(good, **{"value.bias": np.array([np.nan, 0], np.float32)}), ValueError,
                    "value holds a value that is not finite"),
        "ints.npz": (dict(good, **{"value.bias": np.array([1, 2])}), TypeError,
                     "value.bias must hold floats (float16 or float32), not int64"),
    }
    for name, (content, error, words) in cases.items():
        path = tmp_path / name
        if content == "text":
            path.write_text("not a zip")
        elif content is not None:
            np.savez(open(path, "wb"), **{k: v for k, v in content.items() if v is not None})
        with pytest.raises(error) as caught:
            engine.load_network(path)
        assert words in str(caught.value), name
        assert str(path) in str(caught.value), name


@pytest.mark.slow
def test_exported_from_pytorch(engine, tmp_path):
    torch = pytest.importorskip("torch")
    module = network.torch_network("classic", 2, hidden=(32, 32))
    path = tmp_path / "torch.npz"
    network.export(module, path, variant="classic", players=2, meta={"from": "torch"})
    net = engine.load_network(path)
    obs = np.stack([s.observation_tensor() for s in positions(engine, "classic", 2, 64)])
    with torch.no_grad():
        logits, values = module(torch.from_numpy(obs))
    mine = net(obs)
    assert np.allclose(mine[0], logits.numpy(), atol=1e-5) and np.allclose(mine[1], values.numpy(), atol=1e-5)
    # The PyTorch module is an evaluator too.
    result = engine.search(engine.new_game(2, seed=1), evaluator=network.torch_evaluator(module), iterations=30)
    assert result.iterations == 30
    bad = torch.nn.Module()
    bad.trunk = torch.nn.Sequential(torch.nn.Linear(384, 8), torch.nn.Tanh())
    bad.policy, bad.value = torch.nn.Linear(8, 314), torch.nn.Linear(8, 2)
    with pytest.raises(TypeError, match="trunk.0 is followed by Tanh"):
        network.export(bad, tmp_path / "bad.npz", variant="classic", players=2)


# -- the bot -----------------------------------------------------------------------------------------------------

def _saved(tmp_path, variant="classic", players=2):
    path = tmp_path / ("%s-%d.npz" % (variant, players))
    if not path.exists():
        network.save_network(path, variant, players, *network_parts(variant, players, hidden=(32,), seed=3))
    return str(path)


@pytest.mark.slow
def test_the_net_bot_plays_in_both_engines_alike(engines, tmp_path):
    py, cpp = engines
    path = _saved(tmp_path)
    for spec in ("net:%s:iterations=40" % path, "net:%s:policy_only=1" % path,
                 "net:%s:iterations=30,threads=2,batch=4" % path):
        a = bots.play_match(py, 2, "classic", 4, [spec, "greedy"])
        b = bots.play_match(cpp, 2, "classic", 4, [spec, "greedy"])
        assert a.forfeit is None and a.scores == b.scores and a.state.to_text() == b.state.to_text(), spec


def test_the_net_bot_gives_visit_counts_and_hints(engine, tmp_path):
    bot = bots.make_bot("net:%s:iterations=60" % _saved(tmp_path), seed=1)
    state = engine.new_game(2, seed=3)
    action = bot.choose(state)
    assert action in state.legal_actions() and sum(bot.last_visits.values()) == 60
    hints = bots.hint(state, bot, top=2)
    assert len(hints) == 2 and hints[0].visits >= hints[1].visits
    # values on the rollout search's scale, 0..1: the guided search's -1..1 value v as (v + 1) / 2
    again = bots.make_bot("net:%s:iterations=60" % _saved(tmp_path), seed=1).search(state.clone())
    assert [h.value for h in hints] == [(v + 1) / 2 for _, _, _, v in again.top(2)]
    assert all(0 <= h.value <= 1 for h in hints)
    policy = bots.make_bot("net:%s:policy_only=1" % _saved(tmp_path), seed=1)
    shown = policy.hints(state, top=3)
    assert [h.share for h in shown] == sorted((h.share for h in shown), reverse=True)
    assert policy.choose(state) == shown[0].action
    # no search, no value: null in JSON (it was NaN, which is not JSON)
    assert all(h.value is None and h.visits == 0 for h in shown)
    assert json.loads(json.dumps([h.as_dict() for h in shown], allow_nan=False))[0]["value"] is None


def test_bad_net_specs_are_clear_errors(tmp_path):
    path = _saved(tmp_path)
    cases = [
        ("net:%s" % (tmp_path / "none.npz"), "none.npz: no such weights file"),
        ("net:%s:iterations=0" % path, "iterations must be a positive integer, not 0"),
        ("net:%s:policy_only=perhaps" % path, "policy_only must be true or false, not 'perhaps'"),
        ("net:path=", "path is empty: give a weights file"),
        ("net:", "path is empty: give a weights file"),
    ]
    for spec, words in cases:
        with pytest.raises(bots.BotSpecError) as caught:
            bots.resolve_bot_spec(spec).check()
        assert words in str(caught.value), spec
    broken = tmp_path / "broken.npz"
    broken.write_text("garbage")
    with pytest.raises(bots.BotSpecError, match="broken.npz: not a weights file") as caught:
        bots.resolve_bot_spec("net:%s" % broken)
    assert "pickle" not in str(caught.value)  # numpy's advice to load it unsafely is not passed on
    with pytest.raises(bots.BotSpecError, match="is for classic with 2 players, not grey with 2 players"):
        bots.resolve_bot_spec("net:%s" % path).check("grey", 2)
    from azul_engine import tournament
    with pytest.raises(ValueError, match="not summer-pavilion with 2 players"):
        tournament.plan(["net:%s" % path, "greedy"], 2, "summer-pavilion", games=2, seed=1, check=True)


SHIPPED = sorted(network.SHIPPED)


@pytest.mark.parametrize("variant,players", SHIPPED, ids=["%s-%d" % g for g in SHIPPED])
def test_a_network_ships_small_with_how_it_was_made(engines, variant, players):
    path = network.shipped_path(variant, players)
    assert path is not None, "python/azul_engine/data/networks/%s is missing" % network.SHIPPED[(variant, players)]
    assert network.shipped()[(variant, players)] == path
    assert os.path.getsize(path) < 2_000_000
    for engine in engines:
        net = engine.load_network(path)
        assert (net.variant, net.players) == (variant, players)
        meta = net.meta
        assert meta["command"].startswith("azul-engine train ")
        assert ("--variant %s" % variant in meta["command"]) == (variant != "classic")
        assert isinstance(meta["seed"], int) and meta["minutes"] > 0 and meta["machine"]
        strength = meta["strength"]
        assert strength["versus"] == "greedy" and strength["games"] >= 200
        low, high = strength["interval95"]
        assert low <= strength["win_rate"] <= high


@pytest.mark.parametrize("variant,players", SHIPPED, ids=["%s-%d" % g for g in SHIPPED])
def test_the_shipped_networks_pick_the_same_moves_in_both_engines(engines, variant, players):
    """A game played by the shipped network alone in each engine (the same moves and scores), and the guided
    search with it from a position of that game (the same result)."""
    path = network.shipped_path(variant, players)
    games = []
    for engine in engines:
        bot = bots.make_bot("net:policy_only=1", seed=3)
        state = engine.new_game(players, variant, seed=11)
        moves = []
        while not state.is_over:
            move = bot.choose(state)
            moves.append(move)
            state.apply(move)
        games.append((moves, state.scores))
    assert games[0] == games[1]
    results = []
    for engine in engines:
        state = engine.new_game(players, variant, seed=11)
        for move in games[0][0][:7]:
            state.apply(move)
        results.append(fields(engine.search(state, evaluator=engine.load_network(path), iterations=64, seed=5)))
    assert results[0] == results[1]
