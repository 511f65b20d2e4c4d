"""Self-play throughput locally and on a local Ray instance, and Ray's per-task overhead (docs/tournaments.md, "Beyond one
machine").  Run with the installed package (azul-engine[ray]):
.venv/bin/python benchmarks/ray_selfplay.py [--games 20] [--bots mcts:400] [--workers 2]

Prints, for `selfplay --bots BOTS` over GAMES games (Parquet shards into a temporary directory): games/s with one
local process, with WORKERS local processes, and on a local Ray instance with WORKERS CPUs (Ray's start-up not
counted; its workers' first imports are).  Then the per-task overhead: empty tasks pushed through the executor
one at a time (the driver's cost per task, which bounds the tasks/s a cluster can be fed), against the time of
one game, and the scaling that follows for N machines like this one.
"""

import argparse
import logging
import os
import tempfile
import time

from azul_engine import BACKEND, distributed, selfplay


def rate(executor, bots, games, fmt):
    with tempfile.TemporaryDirectory() as out:
        start = time.perf_counter()
        summary = selfplay.run(bots, games, out, executor=executor, fmt=fmt, seed=1000)
        seconds = time.perf_counter() - start
    return games / seconds, summary.rows / games, seconds


def overhead(executor, tasks):
    list(executor.map(abs, [(i,) for i in range(50)], chunksize=1))  # warm: workers started, function known
    start = time.perf_counter()
    list(executor.map(abs, [(i,) for i in range(tasks)], chunksize=1))
    return (time.perf_counter() - start) / tasks


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--bots", default="mcts:400")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--tasks", type=int, default=2000)
    parser.add_argument("--format", default="parquet")
    args = parser.parse_args()
    print("selfplay --bots %s, %d games, %d cores, backend %s" % (args.bots, args.games, os.cpu_count(), BACKEND))
    with distributed.LocalExecutor(1) as ex:
        one, rows, seconds = rate(ex, args.bots, args.games, args.format)
    print("local, 1 process:     %6.2f games/s (%.1f rows a game, %.2f s a game)" % (one, rows, 1 / one))
    with distributed.LocalExecutor(args.workers) as ex:
        local, _, _ = rate(ex, args.bots, args.games, args.format)
        local_task = overhead(ex, args.tasks)
    print("local, %d processes:   %6.2f games/s" % (args.workers, local))
    import ray

    start = time.perf_counter()
    ray.init(num_cpus=args.workers, include_dashboard=False, logging_level=logging.ERROR)
    started = time.perf_counter() - start
    with distributed.RayExecutor() as ex:
        on_ray, _, _ = rate(ex, args.bots, args.games, args.format)
        ray_task = overhead(ex, args.tasks)
    ray.shutdown()
    print("ray, %d workers:       %6.2f games/s (Ray started in %.1f s, not counted)" % (args.workers, on_ray,
                                                                                     started))
    game = 1 / one
    print("per-task overhead (empty tasks, one a task, %d in flight a worker): local pool %.2f ms, ray %.2f ms"
          % (distributed.IN_FLIGHT_PER_WORKER, 1e3 * local_task, 1e3 * ray_task))
    print("one game: %.0f ms, so the overhead is %.2f%% of a task of one game" % (1e3 * game,
                                                                                 100 * ray_task / game))
    feed = 1 / ray_task  # tasks/s one driver can submit and collect
    print("expected on N such machines: N x %.2f games/s (the Ray rate of this one), until the driver's %.0f "
          "tasks/s (one game a task; x%d with games batched %d to a task)"
          % (on_ray, feed, distributed.MAX_CHUNK, distributed.MAX_CHUNK))
    for machines in (1, 10, 100, 1000, 10000):
        expected = min(machines * on_ray, feed)
        print("  %5d machine%s (%5d workers): ~%.0f games/s%s" % (
            machines, " " if machines == 1 else "s", machines * args.workers, expected,
            " (driver-bound at one game a task)" if expected == feed else ""))


if __name__ == "__main__":
    main()
