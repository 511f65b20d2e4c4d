"""The end of a round searched exactly (docs/search.md section 16.6): ``mcts`` with ``exact=N`` against the same
bot without it, on shared seat-rotated deals, variant by variant.  For each side: its win rate with the 95% interval,
the penalty points it took a game (the floor's in classic and grey; in Summer Pavilion the start token's and the
tiles discarded when passing) with their 95% interval, and its search's iterations a second.

    python benchmarks/round_penalties.py                      # 400 games a variant, mcts:seconds=0.2, exact=8
    python benchmarks/round_penalties.py --games 4 --iterations 200 --variants classic      # a check, seconds

The games are a tournament's (``tournament.plan``: deal ``i`` is the game of seed ``--seed + i``, played once in
each seating, each bot's seed ``bots.bot_seed(deal, seat)``), played here so that each move's search result is
seen: the iterations a second are a side's iterations over its searches' seconds, in the same games (a position
with one legal move is answered without search and counts in neither); ``searches`` is a side's searched moves a
game.  A penalty is the rules' (``penalty`` of a ``floor`` event of the score sheet, ``tiles`` of a
``start-token``, ``discarded`` of a ``pass``), before the score's floor (0, or 1 in Summer Pavilion) clamps it.
``-o DIR`` writes each variant's games as records, ``DIR/VARIANT.jsonl``; ``--json`` prints the figures as one
JSON object.

Wall time: every searched move of the timed bots takes ``--seconds``; a 2-player game has some 50 searched moves
in classic, 75 in grey and 130 in Summer Pavilion (both sides), so 400 games of ``seconds=0.2`` take about 70, 100
and 170 minutes on one worker, and half as long on two (``--workers 2`` on two quiet cores: the timed bots must not
share a core).
"""

import argparse
import collections
import json
import math
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))

import azul_engine  # noqa: E402
from azul_engine import bots, distributed, tournament  # noqa: E402

Z95 = 1.959963984540054
VARIANTS = ("classic", "grey", "summer-pavilion")


def penalty_points(events):
    """``{player: penalty points}`` of a game's score sheet (a list of rounds, each a list of events)."""
    out = collections.Counter()
    for round_events in events:
        for e in round_events:
            kind = e.get("event")
            if kind == "floor":
                out[e["player"]] += e["penalty"]
            elif kind == "start-token":
                out[e["player"]] += e["tiles"]
            elif kind == "pass":
                out[e["player"]] += e["discarded"]
    return out


def play_one(backend, players, variant, seed, seats, want_record):
    """One game (a worker's job) of deal ``seed``, seat ``i`` played by ``seats[i]``: ``{"scores", "winners",
    "penalties", "iterations", "seconds", "searches", "record"}``, all but the last by seat (``record``: the game's
    record line with who played, or None)."""
    engine = azul_engine.load_backend(backend)
    made = [bots.resolve_bot_spec(spec).make(seat, bots.bot_seed(seed, seat)) for seat, spec in enumerate(seats)]
    iterations, seconds, searches = [0] * players, [0.0] * players, [0] * players
    state = engine.new_game(players=players, variant=variant, seed=seed)
    while not state.is_over:
        seat = state.current_player
        bot = made[seat]
        state.apply(bot.choose(state.clone()))
        result = getattr(bot, "last_result", None)
        if result is not None:
            iterations[seat] += result.iterations
            seconds[seat] += result.seconds
            searches[seat] += 1
    lost = penalty_points(state.score_sheet())
    record = None
    if want_record:
        record = json.loads(state.record_json())
        record["bots"] = [{"spec": spec} for spec in seats]
        record = json.dumps(record, separators=(", ", ": "))
    return {"scores": list(state.scores), "winners": list(state.winners),
            "penalties": [lost[p] for p in range(players)], "iterations": iterations, "seconds": seconds,
            "searches": searches, "record": record}


def wilson(wins, n):
    """The 95% Wilson interval of a rate of ``wins`` (shared wins as fractions) in ``n`` games."""
    if not n:
        return float("nan"), float("nan")
    p, z = wins / n, Z95
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def mean_interval(xs):
    """The mean of ``xs`` and its 95% normal interval (mean +- 1.96 standard errors)."""
    n = len(xs)
    mean = sum(xs) / n
    if n < 2:
        return mean, mean, mean
    half = Z95 * math.sqrt(sum((x - mean) ** 2 for x in xs) / (n - 1)) / math.sqrt(n)
    return mean, mean - half, mean + half


def measure(specs, variant, args, executor, out_dir):
    """Play the plan of ``specs`` in ``variant``; a dict of each side's figures."""
    plan = tournament.plan(list(specs), args.players, variant, games=args.games, seed=args.seed)
    jobs = [(args.backend, args.players, variant, g.seed, g.seats, out_dir is not None) for g in plan.games]
    side = {spec: {"games": 0, "wins": 0.0, "penalties": [], "scores": [], "iterations": 0, "seconds": 0.0,
                   "searches": 0} for spec in specs}
    start = time.perf_counter()
    records = []
    for done, (game, r) in enumerate(zip(plan.games, executor.map(play_one, jobs, count=len(jobs))), 1):
        for seat, spec in enumerate(game.seats):
            s = side[spec]
            s["games"] += 1
            if seat in r["winners"]:
                s["wins"] += 1.0 / len(r["winners"])
            s["penalties"].append(r["penalties"][seat])
            s["scores"].append(r["scores"][seat])
            s["iterations"] += r["iterations"][seat]
            s["seconds"] += r["seconds"][seat]
            s["searches"] += r["searches"][seat]
        if r["record"] is not None:
            records.append(r["record"])
        if args.progress:
            print("\r%s: %d/%d games" % (variant, done, len(jobs)), end="", file=sys.stderr, flush=True)
    if args.progress:
        print(file=sys.stderr)
    if out_dir is not None:
        with open(os.path.join(out_dir, variant + ".jsonl"), "w") as f:
            f.writelines(line + "\n" for line in records)
    rows = []
    for spec in specs:
        s = side[spec]
        lo, hi = wilson(s["wins"], s["games"])
        pen, pen_lo, pen_hi = mean_interval(s["penalties"])
        rows.append({"bot": spec, "games": s["games"], "wins": s["wins"], "win_rate": s["wins"] / s["games"],
                     "win_interval": [lo, hi], "penalties": pen, "penalty_interval": [pen_lo, pen_hi],
                     "score": sum(s["scores"]) / len(s["scores"]), "searches": s["searches"],
                     "iterations_per_second": s["iterations"] / s["seconds"] if s["seconds"] > 0 else float("nan")})
    return {"variant": variant, "players": args.players, "plan": plan.describe(), "backend": args.backend,
            "seconds": time.perf_counter() - start, "rows": rows}


def show(found):
    print("%s; %.0f s" % (found["plan"], found["seconds"]))
    print("%-34s %6s %9s %14s %10s %14s %9s %9s %11s" % (
        "bot", "games", "win rate", "95% CI", "penalties", "95% CI", "avg score", "searches", "iter/s"))
    for r in found["rows"]:
        print("%-34s %6d %8.1f%% %14s %10.2f %14s %9.1f %9.1f %11.0f" % (
            r["bot"], r["games"], 100 * r["win_rate"], "%.1f-%.1f%%" % tuple(100 * x for x in r["win_interval"]),
            r["penalties"], "%.2f-%.2f" % tuple(r["penalty_interval"]), r["score"], r["searches"] / r["games"],
            r["iterations_per_second"]))
    print()


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variants", default=",".join(VARIANTS), help="comma-separated (default: %(default)s)")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=400, help="a variant's games, rounded up to whole deals")
    parser.add_argument("--seed", type=int, default=1000, help="the first deal's seed")
    budget = parser.add_mutually_exclusive_group()
    budget.add_argument("--seconds", type=float, default=0.2, help="each search's time (default: %(default)s)")
    budget.add_argument("--iterations", type=int, help="each search's iterations instead of a time")
    parser.add_argument("--exact", type=int, default=8, help="the exact side's exact=N (default: %(default)s)")
    parser.add_argument("--bot", default="", help="more of both bots' spec, e.g. threads=1,rollouts=4")
    parser.add_argument("--workers", type=int, default=1, help="processes (default 1; no more than the idle cores)")
    parser.add_argument("--backend", default="cpp", choices=("cpp", "python"))
    parser.add_argument("-o", "--output", metavar="DIR", help="write the games as records, DIR/VARIANT.jsonl")
    parser.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    parser.add_argument("--progress", action="store_true", help="count the games on stderr")
    args = parser.parse_args(argv)
    if args.exact < 1:
        parser.error("--exact must be 1 or more")
    distributed.check_workers(args.workers)
    base = "mcts:" + ("iterations=%d" % args.iterations if args.iterations else "seconds=%g" % args.seconds)
    if args.bot:
        base += ":" + args.bot.replace(",", ":")
    specs = (base + ":exact=%d" % args.exact, base)
    for spec in specs:
        bots.resolve_bot_spec(spec).check(players=args.players)  # a bad spec fails here, not in a worker
    if args.output:
        os.makedirs(args.output, exist_ok=True)
    everything = []
    with distributed.LocalExecutor(args.workers) as executor:
        for variant in args.variants.split(","):
            found = measure(specs, variant.strip(), args, executor, args.output)
            everything.append(found)
            if not args.json:
                show(found)
    if args.json:
        print(json.dumps({"bots": list(specs), "results": everything}, indent=1))


if __name__ == "__main__":
    main()
