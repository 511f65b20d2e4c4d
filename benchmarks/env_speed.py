"""The Gymnasium vector environment's speed in one run (docs/rl.md "Speed"; the figures of docs/adapters.md "For RL"):

    python benchmarks/env_speed.py [--base BASE_PYTHON] [--rounds N] [--games N] [--variant V]

Each figure is steps/s (games x steps a second) stepping ``--games`` 2-player games with random legal actions
(the same draw of an action from each game's legal list in every row), the median over ``--rounds`` rounds,
the measurements of a round taken one after another in fresh processes:

- ``VectorGame.step@base``: with ``--base``, an interpreter with an older azul_engine installed (for example
  main dfad659 in a second venv): its ``VectorGame.step`` alone, no observation (the bound the issue sets the
  environment against: at least 0.6 of it);
- ``VectorGame.step``: this engine's step alone;
- ``step + observation_tensors()``: the step and a new observation array, what a user assembled before;
- ``AzulVectorEnv``: ``env.step(actions)`` with observations, masks, rewards and infos, the default
  (``copy=True``: new arrays each step) and ``copy=False`` (the environment's own buffers);
- ``threads``: the environment on 4096 games with ``threads=2`` over ``threads=1`` (the goal: at least 1.6x).

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
kind, n, variant, threads = sys.argv[1], int(sys.argv[2]), sys.argv[3], int(sys.argv[4])
rng = np.random.default_rng(0)

def pick(v):
    k = (rng.random(v.n) * np.maximum(v.num_legal, 1)).astype(np.int64)
    return v.legal_actions[np.arange(v.n), k]

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
    env = AzulVectorEnv(n, 2, variant, threads=threads, copy=kind == "env")
    env.reset(seed=1)
    v = env.game
    def one():
        env.step(pick(v))

for _ in range(30):
    one()
done, start = 0, time.perf_counter()
while time.perf_counter() - start < 1.0:
    one()
    done += 1
print(json.dumps(done * n / (time.perf_counter() - start)))
"""


def measure(python, kind, games, variant, threads=1):
    out = subprocess.run([python, "-c", WORKER, kind, str(games), variant, str(threads)], check=True,
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
    rows = {k: [] for k in ("base", "step", "step+obs", "env", "env-nocopy", "t1", "t2")}
    for _ in range(args.rounds):
        if args.base:
            rows["base"].append(measure(args.base, "step", args.games, args.variant))
        rows["step"].append(measure(sys.executable, "step", args.games, args.variant))
        rows["step+obs"].append(measure(sys.executable, "step+obs", args.games, args.variant))
        rows["env"].append(measure(sys.executable, "env", args.games, args.variant))
        rows["env-nocopy"].append(measure(sys.executable, "env-nocopy", args.games, args.variant))
        rows["t1"].append(measure(sys.executable, "env", 4096, args.variant, 1))
        rows["t2"].append(measure(sys.executable, "env", 4096, args.variant, 2))
    med = {k: statistics.median(v) for k, v in rows.items() if v}
    ratio = lambda a, b: statistics.median(x / y for x, y in zip(rows[a], rows[b]))  # noqa: E731
    figures = dict(med)
    if args.base:
        figures.update({k + "/base": ratio(k, "base") for k in ("step", "step+obs", "env", "env-nocopy")})
    figures["threads"] = ratio("t2", "t1")
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


if __name__ == "__main__":
    main()
