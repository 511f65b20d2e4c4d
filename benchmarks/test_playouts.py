"""The figures of ``python -m azul_engine bench`` under pytest-benchmark, once per engine:

    python -m pytest benchmarks                      # all
    python -m pytest benchmarks -k cpp --benchmark-json out.json

Each benchmark checks what it measured, so a broken engine fails instead of looking fast.
"""

import os

import numpy as np
import pytest

from azul_engine import bench, load_backend

IDS = [f"{p}p-{v}" for p, v in bench.CONFIGS]


def games_for(engine, cpp, python):
    return cpp if engine.__name__.endswith("_cppengine") else python


@pytest.mark.parametrize("players,variant", bench.CONFIGS, ids=IDS)
def test_in_engine_random_games(benchmark, engine, players, variant):
    n = games_for(engine, 2000, 20)
    scores = benchmark(engine.random_playouts, n, players, variant, seed=1, threads=1)
    assert scores.shape == (n, players)
    assert bench.checksum(engine, players, variant) == bench.SIGNATURES[(players, variant)]


@pytest.mark.parametrize("players,variant", bench.CONFIGS, ids=IDS)
def test_in_engine_light_policy_games(benchmark, engine, players, variant):
    n = games_for(engine, 2000, 10)
    scores = benchmark(engine.random_playouts, n, players, variant, seed=1, threads=1, policy="light")
    assert scores.shape == (n, players)
    assert bench.checksum(engine, players, variant, policy="light") == bench.LIGHT_SIGNATURES[(players, variant)]


def test_in_engine_random_games_every_core(benchmark, engine):
    n = games_for(engine, 4000, 20)
    scores = benchmark(engine.random_playouts, n, 2, "classic", seed=1, threads=os.cpu_count())
    assert (scores == engine.random_playouts(n, 2, "classic", seed=1, threads=1)).all()


@pytest.mark.parametrize("players,variant", bench.CONFIGS, ids=IDS)
def test_python_driven_random_games(benchmark, engine, players, variant):
    """Ten games, one legal_actions() and one apply() call per ply."""
    scores = benchmark(lambda: [bench.random_playout(engine, players, variant, seed)[0] for seed in range(10)])
    assert len(scores) == 10 and all(len(s) == players and min(s) >= 0 for s in scores)
    if engine.__name__.endswith("_cppengine"):  # the same games as the pure engine plays
        pure = load_backend("python")
        assert scores[:3] == [bench.random_playout(pure, players, variant, seed)[0] for seed in range(3)]


@pytest.mark.parametrize("variant", ["classic", "summer-pavilion"])
def test_batched_steps(benchmark, engine, variant):
    """Ten steps of a VectorGame, actions chosen by numpy from each game's legal list."""
    games = bench.BATCH_GAMES["cpp" if engine.__name__.endswith("_cppengine") else "python"]
    vec = engine.VectorGame(games, 2, variant, seed=0)
    rng = np.random.default_rng(0)
    rows = np.arange(games)

    def ten_steps():
        for _ in range(10):
            if vec.done.any():
                vec.reset(np.flatnonzero(vec.done))
            vec.step(vec.legal_actions[rows, (rng.random(games) * vec.num_legal).astype(np.int64)])

    benchmark(ten_steps)
    assert vec.scores.min() >= 0


def test_clone(benchmark, engine):
    state = bench.clone_state(engine, 2, "classic")
    copy = benchmark(state.clone)
    assert copy == state
