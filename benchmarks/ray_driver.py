"""What the driver of a Ray run costs (docs/tournaments.md, "Beyond one machine": a 1,000-node run on paper).  Run with an
installed package (azul-engine[ray]); ``--base PYTHON`` runs the same measurements with another installation
(an older commit in a second venv) in a process of its own, for a before/after in one run:

    .venv/bin/python benchmarks/ray_driver.py [--base /work/venv-base/bin/python]

Three measurements, each on a new local Ray instance:
- straggler: one task of LONG seconds among TASKS - 1 of SHORT seconds (they sleep: no CPU), on WORKERS workers,
  one job a task.  Collected strictly in order, the slow first task holds back the tasks after the window; as they
  finish, the run takes about max(LONG, the others' total / WORKERS).
- rows: ``selfplay --bots random`` (short games: the most rows a second a driver has to take) over GAMES games
  on WORKERS workers, rows/s end to end; the driver's own CPU seconds show what passes through it.
- jobs: the driver memory the jobs of a million-game ``record`` take, held as a list (before) or made as the
  executor asks for them (after), measured with tracemalloc.
"""

import argparse
import json
import logging
import os
import resource
import subprocess
import sys
import tempfile
import time
import tracemalloc


def sleeper(seconds):
    time.sleep(seconds)
    return seconds


def straggler(ray, distributed, tasks, workers, long, short):
    ray.init(address="local", num_cpus=workers, include_dashboard=False, logging_level=logging.ERROR)
    try:
        with distributed.RayExecutor() as ex:
            list(ex.map(sleeper, [(0.0,)] * (2 * workers), chunksize=1))  # workers started
            jobs = [(long,)] + [(short,)] * (tasks - 1)
            start = time.perf_counter()
            out = list(ex.map(sleeper, jobs, chunksize=1))
            seconds = time.perf_counter() - start
        assert out == [j[0] for j in jobs]
    finally:
        ray.shutdown()
    return seconds


def rows(ray, distributed, selfplay, games, workers, shard_games):
    ray.init(address="local", num_cpus=workers, include_dashboard=False, logging_level=logging.ERROR)
    try:
        with distributed.RayExecutor() as ex, tempfile.TemporaryDirectory() as out:
            selfplay.run("random", 2 * workers, os.path.join(out, "warm"), executor=ex, fmt="npz")
            cpu, start = time.process_time(), time.perf_counter()
            summary = selfplay.run("random", games, os.path.join(out, "run"), executor=ex, fmt="npz", seed=7,
                                   shard_games=shard_games)
            seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
    finally:
        ray.shutdown()
    return summary.rows, seconds, cpu


def jobs_memory(games):
    from azul_engine import distributed

    specs, event, date = ["greedy", "greedy"], None, None
    tracemalloc.start()
    held = [("cpp", 2, "classic", i, specs, None, event, date) for i in range(games)]
    as_list = tracemalloc.get_traced_memory()[0]
    del held
    tracemalloc.stop()
    tracemalloc.start()
    lazy = (("cpp", 2, "classic", i, specs, None, event, date) for i in range(games))
    peak = 0
    try:
        for _ in distributed._chunks(abs, lazy, distributed.MAX_CHUNK):
            peak = max(peak, tracemalloc.get_traced_memory()[0])
    except TypeError:  # an installation whose executors take a list only
        peak = None
    tracemalloc.stop()
    return as_list, peak


def measure(args):
    import ray

    from azul_engine import distributed, selfplay

    result = {"straggler": straggler(ray, distributed, args.tasks, args.workers, args.long, args.short)}
    result["rows"], result["seconds"], result["driver_cpu"] = rows(ray, distributed, selfplay, args.games,
                                                                   args.workers, args.shard_games)
    result["list_bytes"], result["lazy_bytes"] = jobs_memory(1_000_000)
    result["driver_rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return result


def show(name, r, args):
    ideal = max(args.long, args.short * (args.tasks - 1) / args.workers)
    print("%s:" % name)
    print("  straggler (1 task of %.0f s, %d of %.1f s, %d workers): %.1f s (ideal ~%.1f s)" % (
        args.long, args.tasks - 1, args.short, args.workers, r["straggler"], ideal))
    print("  selfplay --bots random, %d games, %d workers: %d rows in %.1f s, %.0f rows/s; driver CPU %.1f s "
          "(%.1f us a row)" % (args.games, args.workers, r["rows"], r["seconds"], r["rows"] / r["seconds"],
                               r["driver_cpu"], 1e6 * r["driver_cpu"] / r["rows"]))
    lazy = "%.2f MB made as asked" % (r["lazy_bytes"] / 1e6) if r["lazy_bytes"] is not None else "no other way"
    print("  jobs of a million-game record on the driver: %.0f MB held as a list, %s" % (r["list_bytes"] / 1e6, lazy))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--base", metavar="PYTHON", help="another installation's python, measured first")
    parser.add_argument("--tasks", type=int, default=60)
    parser.add_argument("--workers", type=int, default=3)
    parser.add_argument("--long", type=float, default=20.0)
    parser.add_argument("--short", type=float, default=0.5)
    parser.add_argument("--games", type=int, default=4000)
    parser.add_argument("--shard-games", type=int, default=250)
    parser.add_argument("--json", action="store_true", help=argparse.SUPPRESS)  # one measurement, as JSON
    args = parser.parse_args()
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    if args.json:
        print(json.dumps(measure(args)))
        return
    argv = [a for a in sys.argv[1:]]
    if args.base:
        i = argv.index("--base")
        del argv[i:i + 2]
        base = subprocess.run([args.base, os.path.abspath(__file__), "--json", *argv], capture_output=True,
                              text=True, check=True)
        show("before (%s)" % args.base, json.loads(base.stdout.strip().splitlines()[-1]), args)
    show("this installation (%s)" % sys.executable, measure(args), args)


if __name__ == "__main__":
    main()
