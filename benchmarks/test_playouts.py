"""Python-driven random playouts and clones, the figures of ``python -m azul_engine bench`` under pytest-benchmark.

    python -m pytest benchmarks                      # all
    python -m pytest benchmarks -k cpp --benchmark-json out.json
"""

import pytest

from azul_engine import bench


@pytest.mark.parametrize("players,variant", bench.CONFIGS, ids=[f"{p}p-{v}" for p, v in bench.CONFIGS])
def test_random_playouts(benchmark, engine, players, variant):
    """Ten seeded random games per round of the benchmark; the result is checked, not just timed."""

    def ten_games():
        return [bench.random_playout(engine, players, variant, seed)[0] for seed in range(10)]

    scores = benchmark(ten_games)
    assert len(scores) == 10 and all(len(s) == players and min(s) >= 0 for s in scores)


def test_clone(benchmark, engine):
    state = bench.clone_state(engine, 2, "classic")
    copy = benchmark(state.clone)
    assert copy == state
