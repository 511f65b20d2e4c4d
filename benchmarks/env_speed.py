"""The Gymnasium vector environment's speed in one run (docs/rl.md "Speed"; the figures of docs/adapters.md "For RL"):

    python benchmarks/env_speed.py [--base BASE_PYTHON] [--rounds N] [--games N] [--variant V]

Each figure is steps/s (games x steps a second) stepping ``--games`` 2-player games with random legal actions
(the same draw of an action from each game's legal list in every row). A measurement runs in a fresh process:
after a warm-up, 40 blocks of 20,000 game-steps each (a few milliseconds) are timed and the fastest block is the
figure (a burst of load from elsewhere slows some blocks, never speeds one up); the round's measurements run one
after another and a figure is the median over ``--rounds`` rounds:

- ``VectorGame.step@base``: with ``--base``, an interpreter with an older azul_engine installed (for example
  main dfad659 in a second venv): its ``VectorGame.step`` alone, no observation (the bound the issue sets the
  environment against: at least 0.6 of it);
- ``VectorGame.step``: this engine's step alone;
- ``step + observation_tensors()``: the step and a new observation array, what a user assembled before;
- ``AzulVectorEnv``: ``env.step(actions)`` with observations, masks, rewards and infos, the default
  (``copy=True``: new arrays each step) and ``copy=False`` (the environment's own buffers);
- ``threads``: the environment on 4096 games with ``threads=1`` and ``threads=2`` in one process, their blocks
  taking turns (so that both meet the same machine), and the ratio of the two (the goal: at least 1.6x); twice:
  the whole loop (the action draw, about 35 microseconds of numpy alone, 55-60 in the loop, on one thread at 4096 games, and ``env.step``), and
  ``env.step`` alone (the draw off the clock: what ``threads`` changes, and what a training loop whose
  actions come from a network pays for the environment).

Take the figures on a quiet machine: nothing else running.
"""

import argparse
import json
import statistics
import subprocess
import sys

WORKER = r"""
import json, sys, time
import numpy as np
import azul_engine
E = azul_engine.load_backend("cpp")
kind, n, variant = sys.argv[1], int(sys.argv[2]), sys.argv[3]
rng = np.random.default_rng(0)

def pick(v):
    k = (rng.random(v.n) * np.maximum(v.num_legal, 1)).astype(np.int64)
    return v.legal_actions[np.arange(v.n), k]

threads = [1]
if kind in ("step", "step+obs"):
    v = E.VectorGame(n, 2, variant, 1, auto_reset=True)
    if kind == "step":
        def one():
            v.step(pick(v))
    else:
        def one():
            v.step(pick(v))
            v.observation_tensors()
else:
    from azul_engine.envs import AzulVectorEnv
    env = AzulVectorEnv(n, 2, variant, copy=kind != "env-nocopy")
    env.reset(seed=1)
    v = env.game
    def one():
        env.threads = threads[0]
        actions = pick(v)
        start = time.perf_counter()
        env.step(actions)
        return time.perf_counter() - start

counts = (1, 2) if kind == "threads" else (1,)
for t in counts * 2:  # warm-up: caches, and the threads started
    threads[0] = t
    for _ in range(10):
        one()
steps = max(2, 20000 // n)  # 20,000 game-steps a block: a few milliseconds
best = dict.fromkeys(counts, float("inf"))
alone = dict.fromkeys(counts, float("inf"))  # env.step alone: the action draw off the clock
for block in range(40):
    for t in (counts if block % 2 else counts[::-1]):
        threads[0] = t
        one()  # the first step after a change of threads wakes the pool's workers
        start, inside = time.perf_counter(), 0.0
        for _ in range(steps):
            inside += one() or 0.0
        best[t] = min(best[t], (time.perf_counter() - start) / steps)
        alone[t] = min(alone[t], inside / steps)
print(json.dumps([n / best[t] for t in counts] + ([n / alone[t] for t in counts] if kind == "threads" else [])))
"""


def measure(python, kind, games, variant):
    out = subprocess.run([python, "-c", WORKER, kind, str(games), variant], check=True,
                         capture_output=True, text=True).stdout
    return json.loads(out)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base", help="python of a second venv with an older azul_engine (e.g. main dfad659)")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--games", type=int, default=1024)
    parser.add_argument("--variant", default="classic")
    parser.add_argument("--json", action="store_true", help="one JSON line with every figure")
    args = parser.parse_args(argv)
    rows = {k: [] for k in ("base", "step", "step+obs", "env", "env-nocopy", "t1", "t2", "t1-step", "t2-step")}
    for _ in range(args.rounds):
        if args.base:
            rows["base"].extend(measure(args.base, "step", args.games, args.variant))
        for kind in ("step", "step+obs", "env", "env-nocopy"):
            rows[kind].extend(measure(sys.executable, kind, args.games, args.variant))
        one, two, one_alone, two_alone = measure(sys.executable, "threads", 4096, args.variant)
        rows["t1"].append(one)
        rows["t2"].append(two)
        rows["t1-step"].append(one_alone)
        rows["t2-step"].append(two_alone)
    med = {k: statistics.median(v) for k, v in rows.items() if v}
    ratio = lambda a, b: statistics.median(x / y for x, y in zip(rows[a], rows[b]))  # noqa: E731
    figures = dict(med)
    if args.base:
        figures.update({k + "/base": ratio(k, "base") for k in ("step", "step+obs", "env", "env-nocopy")})
    figures["threads"] = ratio("t2", "t1")
    figures["threads-step"] = ratio("t2-step", "t1-step")
    if args.json:
        print(json.dumps(figures))
        return
    print("%d 2-player %s games, random legal actions, medians of %d rounds (steps/s)" % (
        args.games, args.variant, args.rounds))
    names = [("base", "VectorGame.step@base"), ("step", "VectorGame.step"),
             ("step+obs", "step + observation_tensors()"), ("env", "AzulVectorEnv.step (copy=True)"),
             ("env-nocopy", "AzulVectorEnv.step (copy=False)")]
    for key, name in names:
        if key in med:
            extra = "   %.2fx of VectorGame.step@base" % figures[key + "/base"] if args.base and key != "base" else ""
            print("  %-34s %12s%s" % (name, "{:,.0f}".format(med[key]), extra))
    print("  threads: 4096 games, threads=1 %s, threads=2 %s steps/s (%.2fx)" % (
        "{:,.0f}".format(med["t1"]), "{:,.0f}".format(med["t2"]), figures["threads"]))
    print("           env.step alone: threads=1 %s, threads=2 %s steps/s (%.2fx)" % (
        "{:,.0f}".format(med["t1-step"]), "{:,.0f}".format(med["t2-step"]), figures["threads-step"]))


if __name__ == "__main__":
    main()
