"""The search's speed in one run (docs/search.md section 8; the figures of docs/bots.md "Search from Python"):

    python benchmarks/search_speed.py [--base BASE_PYTHON] [--pairs N] [--iterations N]

From ``bench.search_positions`` (8 mid-game positions per variant, 2 players) at the default settings (1000
iterations, 4 light rollouts), one thread, each figure the median over ``--pairs`` rounds, the measurements of a
round taken one after another in fresh processes:

- ``bound``: ``playouts_from`` games/s from the same positions with the light policy, divided by the rollouts:
  the iterations/s a search whose tree cost nothing would make;
- ``search``: the C++ ``search``'s iterations/s, and its ratio to the bound (the goal: at least 0.75);
- ``MCTSBot@base``: with ``--base``, an interpreter with an older azul_engine installed (for example main dfad659
  in a second venv), its ``MCTSBot(iterations=1000)`` searches from the same positions, and the ratio;
- ``threads``: iterations of ``search(seconds=0.2)`` with 2 threads over 1 thread (the goal: at least 1.8x);
- ``budget``: the worst overrun of ``search(seconds=0.02)`` over its budget, in ms, beside one iteration's time
  (the goal: at most 5 ms plus one iteration).

Take the figures on a quiet machine: nothing else running.
"""

import argparse
import inspect
import json
import statistics
import subprocess
import sys

VARIANTS = ("classic", "grey", "summer-pavilion")

WORKER = r"""
import json, sys, time
import azul_engine
E = azul_engine.load_backend("cpp")
kind, variant, iterations = sys.argv[1], sys.argv[2], int(sys.argv[3])
POSITIONS_SOURCE
positions = search_positions(E, variant)

def rate(run, seconds=1.0):
    run()  # warm-up
    done, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        done += run()
    return done / (time.perf_counter() - start)

def bound():
    for g in positions:
        E.playouts_from(g, 500, seed=1, threads=1, policy="light")
    return 500 * len(positions) / 4

def search():
    return sum(E.search(g, iterations=iterations, seed=i).iterations for i, g in enumerate(positions))

def mctsbot():
    from azul_engine import bots
    for i, g in enumerate(positions):
        bots.MCTSBot(seed=i, iterations=iterations).search(g)
    return iterations * len(positions)

def threads():
    one = sum(E.search(g, seconds=0.2, threads=1).iterations for g in positions)
    two = sum(E.search(g, seconds=0.2, threads=2).iterations for g in positions)
    return two / one

def budget():
    worst, per = 0.0, []
    for i, g in enumerate(positions * 3):
        start = time.perf_counter()
        r = E.search(g, seconds=0.02, seed=i)
        elapsed = time.perf_counter() - start
        worst = max(worst, elapsed - 0.02)
        per.append(elapsed / r.iterations)
    return {"overrun_ms": worst * 1000, "iteration_ms": max(per) * 1000}

out = {"bound": bound, "search": search, "mctsbot": mctsbot}.get(kind)
print(json.dumps(rate(out) if out else {"threads": threads, "budget": budget}[kind]()))
"""


def measure(python, kind, variant, iterations, source):
    code = WORKER.replace("POSITIONS_SOURCE", source)
    out = subprocess.run([python, "-c", code, kind, variant, str(iterations)], capture_output=True, text=True)
    if out.returncode:
        raise SystemExit("%s %s %s failed:\n%s" % (python, kind, variant, out.stderr))
    return json.loads(out.stdout)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base", help="an interpreter with an older azul_engine (its MCTSBot is measured)")
    parser.add_argument("--new", default=sys.executable, help="the interpreter of this install (default: this one)")
    parser.add_argument("--pairs", type=int, default=3, help="rounds of measurements (default: 3)")
    parser.add_argument("--iterations", type=int, default=1000, help="a search's budget (default: 1000)")
    args = parser.parse_args(argv)
    from azul_engine import bench

    source = (inspect.getsource(bench.search_positions).replace("from .bots", "from azul_engine.bots")
              .replace("count=SEARCH_POSITIONS", "count=%d" % bench.SEARCH_POSITIONS))
    rows = []
    for variant in VARIANTS:
        got = {"bound": [], "search": [], "mctsbot": [], "threads": []}
        for _ in range(args.pairs):
            got["bound"].append(measure(args.new, "bound", variant, args.iterations, source))
            got["search"].append(measure(args.new, "search", variant, args.iterations, source))
            if args.base:
                got["mctsbot"].append(measure(args.base, "mctsbot", variant, args.iterations, source))
            got["threads"].append(measure(args.new, "threads", variant, args.iterations, source))
        budget = measure(args.new, "budget", variant, args.iterations, source)
        m = {k: statistics.median(v) for k, v in got.items() if v}
        rows.append((variant, m, budget))
        line = "2p %-16s bound %8.0f it/s   search %8.0f it/s  %.2fx the bound" % (
            variant, m["bound"], m["search"], m["search"] / m["bound"])
        if "mctsbot" in m:
            line += "   MCTSBot@base %7.0f it/s (%.1fx; it made %.2f of the bound)" % (
                m["mctsbot"], m["search"] / m["mctsbot"], m["mctsbot"] / m["bound"])
        line += "   threads=2: %.2fx   budget: worst overrun %.2f ms (one iteration: %.3f ms)" % (
            m["threads"], budget["overrun_ms"], budget["iteration_ms"])
        print(line, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
