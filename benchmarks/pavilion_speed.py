"""Summer Pavilion playout speed, two installs interleaved in one run (issue 11).

    python benchmarks/pavilion_speed.py BASELINE_PYTHON NEW_PYTHON [PAIRS]

Each pair runs the baseline's interpreter, then the new one, in fresh processes; each measures games/s of
``random_playouts(20000, p, "summer-pavilion", threads=1)`` (2 and 4 players) and of ``playouts_from`` from
mid-game states (a state after k uniformly random moves), as process CPU time (the machine is shared: wall
time drifts), median of 3.  Prints the medians over the pairs and their ratio, new / baseline.
"""

import json
import statistics
import subprocess
import sys

CHILD = r'''
import json, random, time
from azul_engine import _cppengine as E
N = 20000
def rate(f):
    times = []
    for _ in range(3):
        t = time.process_time(); f(); times.append(time.process_time() - t)
    return N / sorted(times)[1]
out = {}
for p in (2, 4):
    out["random_playouts %dp" % p] = rate(lambda: E.random_playouts(N, p, "summer-pavilion", seed=3, threads=1))
for p in (2, 4):
    for k in ((10, 30, 60) if p == 2 else (20, 60, 100)):
        seed = 5
        while True:
            g = E.new_game(p, "summer-pavilion", seed=seed)
            r = random.Random(k * 1000 + seed)
            for _ in range(k):
                if g.is_over:
                    break
                g.apply(r.choice(g.legal_actions()))
            if not g.is_over:
                break
            seed += 1
        out["playouts_from %dp k=%d" % (p, k)] = rate(lambda: E.playouts_from(g, N, seed=9, threads=1))
print(json.dumps(out))
'''


def main():
    base, new = sys.argv[1], sys.argv[2]
    pairs = int(sys.argv[3]) if len(sys.argv) > 3 else 3
    runs = {"base": [], "new": []}
    for _ in range(pairs):
        for name, python in (("base", base), ("new", new)):
            runs[name].append(json.loads(subprocess.check_output([python, "-c", CHILD], cwd="/")))
    for key in runs["base"][0]:
        b = statistics.median(r[key] for r in runs["base"])
        n = statistics.median(r[key] for r in runs["new"])
        pair_ratios = " ".join("%.2f" % (y[key] / x[key]) for x, y in zip(runs["base"], runs["new"]))
        print("%-24s base %10.0f/s  new %10.0f/s  ratio %5.2f  (pairs %s)" % (key, b, n, n / b, pair_ratios))


if __name__ == "__main__":
    main()
