"""Same-run speed comparison of two installs of azul_engine, row by row (the figures of issue 11's closing note).

    python benchmarks/compare.py BASE_PYTHON NEW_PYTHON [--seconds S] [--pairs N] [--rows NAME,...]

BASE_PYTHON and NEW_PYTHON are interpreters with azul_engine installed (for example a venv built from an older
commit and this checkout's .venv). For each row, the two are run alternately, N pairs of runs of about S seconds
each, each run in a fresh process; the row prints both medians and the median of the pairwise ratios new/base.
On a shared, noisy machine only such same-run ratios mean anything. (from-4p-grey starts from seeds 10-17: from seed
2's state, one continuation cycles for ever on an install without the round cap, docs/decisions.md.)
"""

import argparse
import statistics
import subprocess
import sys

# name: (backend, code that defines run() -> units done in one call, unit)
ROWS = {
    "engine-2p-classic": ("cpp", "run = lambda: E.random_playouts(5000, 2, 'classic', seed=next(S), threads=1).shape[0]", "games/s"),
    "engine-4p-classic": ("cpp", "run = lambda: E.random_playouts(2000, 4, 'classic', seed=next(S), threads=1).shape[0]", "games/s"),
    "engine-2p-grey": ("cpp", "run = lambda: E.random_playouts(5000, 2, 'grey', seed=next(S), threads=1).shape[0]", "games/s"),
    "engine-4p-grey": ("cpp", "run = lambda: E.random_playouts(2000, 4, 'grey', seed=next(S), threads=1).shape[0]", "games/s"),
    "engine-2p-pavilion": ("cpp", "run = lambda: E.random_playouts(5000, 2, 'summer-pavilion', seed=next(S), threads=1).shape[0]", "games/s"),
    "engine-4p-pavilion": ("cpp", "run = lambda: E.random_playouts(2000, 4, 'summer-pavilion', seed=next(S), threads=1).shape[0]", "games/s"),
    "light-2p-classic": ("cpp", "run = lambda: E.random_playouts(5000, 2, 'classic', seed=next(S), threads=1, policy='light').shape[0]", "games/s"),
    "light-4p-classic": ("cpp", "run = lambda: E.random_playouts(2000, 4, 'classic', seed=next(S), threads=1, policy='light').shape[0]", "games/s"),
    "light-2p-grey": ("cpp", "run = lambda: E.random_playouts(5000, 2, 'grey', seed=next(S), threads=1, policy='light').shape[0]", "games/s"),
    "light-4p-grey": ("cpp", "run = lambda: E.random_playouts(2000, 4, 'grey', seed=next(S), threads=1, policy='light').shape[0]", "games/s"),
    "light-2p-pavilion": ("cpp", "run = lambda: E.random_playouts(5000, 2, 'summer-pavilion', seed=next(S), threads=1, policy='light').shape[0]", "games/s"),
    "light-4p-pavilion": ("cpp", "run = lambda: E.random_playouts(2000, 4, 'summer-pavilion', seed=next(S), threads=1, policy='light').shape[0]", "games/s"),
    "from-2p-classic-light": ("cpp", "G = mid(2, 'classic')\nrun = lambda: sum(E.playouts_from(g, 500, seed=next(S), threads=1, policy='light').shape[0] for g in G)", "games/s"),
    "from-2p-pavilion-light": ("cpp", "G = mid(2, 'summer-pavilion')\nrun = lambda: sum(E.playouts_from(g, 500, seed=next(S), threads=1, policy='light').shape[0] for g in G)", "games/s"),
    "from-2p-classic": ("cpp", "G = mid(2, 'classic')\nrun = lambda: sum(E.playouts_from(g, 500, seed=next(S), threads=1).shape[0] for g in G)", "games/s"),
    "from-4p-grey": ("cpp", "G = mid(4, 'grey', first=10)\nrun = lambda: sum(E.playouts_from(g, 300, seed=next(S), threads=1).shape[0] for g in G)", "games/s"),
    "from-2p-grey": ("cpp", "G = mid(2, 'grey')\nrun = lambda: sum(E.playouts_from(g, 500, seed=next(S), threads=1).shape[0] for g in G)", "games/s"),
    "from-2p-pavilion": ("cpp", "G = mid(2, 'summer-pavilion')\nrun = lambda: sum(E.playouts_from(g, 500, seed=next(S), threads=1).shape[0] for g in G)", "games/s"),
    "threads-2p-classic": ("cpp", "run = lambda: E.random_playouts(20000, 2, 'classic', seed=next(S), threads=0).shape[0]", "games/s"),
    "pyloop-2p-classic-cpp": ("cpp", "run = lambda: loop(2, 'classic')", "plies/s"),
    "pyloop-2p-pavilion-cpp": ("cpp", "run = lambda: loop(2, 'summer-pavilion')", "plies/s"),
    "vector-2p-classic": ("cpp", "V = E.VectorGame(1024, 2, 'classic', seed=0)\nrun = lambda: vstep(V, 50)", "plies/s"),
    "vector-2p-pavilion": ("cpp", "V = E.VectorGame(1024, 2, 'summer-pavilion', seed=0)\nrun = lambda: vstep(V, 50)", "plies/s"),
    "playouts-2p-classic-python": ("python", "run = lambda: E.random_playouts(60, 2, 'classic', seed=next(S)).shape[0]", "games/s"),
    "playouts-2p-pavilion-python": ("python", "run = lambda: E.random_playouts(30, 2, 'summer-pavilion', seed=next(S)).shape[0]", "games/s"),
    "pyloop-2p-classic-python": ("python", "run = lambda: loop(2, 'classic')", "plies/s"),
    "pyloop-4p-classic-python": ("python", "run = lambda: loop(4, 'classic')", "plies/s"),
    "pyloop-2p-pavilion-python": ("python", "run = lambda: loop(2, 'summer-pavilion')", "plies/s"),
}

WORKER = r"""
import itertools, random, sys, time
import numpy as np
import azul_engine
E = azul_engine.load_backend(sys.argv[1])
S = itertools.count(1)

def mid(players, variant, games=8, first=0):
    # states some way into seeded random games: mid-round of round 1, 2 and 3
    out = []
    for seed in range(first, first + games):
        g = E.new_game(players, variant=variant, seed=seed)
        rng = random.Random(seed)
        for _ in range(rng.randrange(5, 40)):
            if g.is_over:
                break
            legal = g.legal_actions()
            g.apply(legal[rng.randrange(len(legal))])
        if not g.is_over:
            out.append(g)
    return out

def loop(players, variant):
    g = E.new_game(players, variant=variant, seed=next(S))
    rng = random.Random(1)
    plies = 0
    while not g.is_over:
        legal = g.legal_actions()
        g.apply(legal[rng.randrange(len(legal))])
        plies += 1
    return plies

def vstep(v, steps):
    rng = np.random.default_rng(0)
    plies = 0
    for _ in range(steps):
        pick = (rng.random(v.n) * v.num_legal).astype(np.int64)
        actions = v.legal_actions[np.arange(v.n), pick]
        done = v.step(actions)[3]
        plies += v.n
        if done.any():
            v.reset(np.flatnonzero(done))
    return plies

exec(sys.argv[2])
seconds = float(sys.argv[3])
run()  # warm-up
units, start = 0, time.perf_counter()
while time.perf_counter() - start < seconds:
    units += run()
print(units / (time.perf_counter() - start))
"""


def measure(python, backend, code, seconds):
    out = subprocess.run([python, "-c", WORKER, backend, code, str(seconds)], capture_output=True, text=True)
    if out.returncode:
        raise RuntimeError(f"{python}: {out.stderr.strip().splitlines()[-1] if out.stderr.strip() else out.returncode}")
    return float(out.stdout.split()[-1])


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("base")
    parser.add_argument("new")
    parser.add_argument("--seconds", type=float, default=1.5)
    parser.add_argument("--pairs", type=int, default=3)
    parser.add_argument("--rows", default=",".join(ROWS), help="comma-separated row names: " + ", ".join(ROWS))
    args = parser.parse_args(argv)
    for name in args.rows.split(","):
        backend, code, unit = ROWS[name]
        pairs = [(measure(args.base, backend, code, args.seconds), measure(args.new, backend, code, args.seconds))
                 for _ in range(args.pairs)]
        base = statistics.median(b for b, _ in pairs)
        new = statistics.median(n for _, n in pairs)
        ratio = statistics.median(n / b for b, n in pairs)
        print(f"{name:28} base {base:>13,.0f}  new {new:>13,.0f} {unit:8} ratio {ratio:5.2f}", flush=True)


if __name__ == "__main__":
    sys.exit(main())
