"""The exact search of a round's end (docs/search.md section 16): what one solve costs by the moves left in the
round, and what ``exact=N`` costs the search in iterations a second (the C++ engine, or ``--backend python``).

    python benchmarks/exact_speed.py --games 10            # classic, 2 players: the table of section 16.1
    python benchmarks/exact_speed.py --variant grey --players 3 --exact 4
    python benchmarks/exact_speed.py --games 1 --seconds 0.01                   # a check, seconds

Positions: every decision of ``--games`` games of the greedy bot (seeds 1, 2, ...).  For each count of moves left
(the gate's measure, section 16.1): ``solve_round``'s positions searched and time (median, 90th percentile, most);
then, from the positions with at most ``--exact`` moves left and from all positions, the search's iterations a
second with ``seconds=--seconds``, ``exact=0`` and ``exact=--exact`` taken in turn from the same positions.
"""

import argparse
import collections
import math
import os
import statistics
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))

import azul_engine  # noqa: E402
from azul_engine import bots  # noqa: E402


def moves_left(state):
    """Section 16.1's measure, from the public API."""
    n = sum(len(set(f)) for f in state.factories) + len(set(state.center))
    if state.variant == "summer-pavilion":
        n += sum(len(h) for h, passed in zip(state.hands, state.passed) if not passed)
    elif state.variant == "grey":
        n += sum(len(line) == r + 1 for lines in state.pattern_lines for r, line in enumerate(lines))
    return n


def positions(engine, variant, players, games):
    out = []
    for seed in range(1, games + 1):
        state = engine.new_game(players, variant, seed=seed)
        greedy = [bots.GreedyBot(seed=seed * 10 + p) for p in range(players)]
        while not state.is_over:
            out.append(state.clone())
            state.apply(greedy[state.current_player].choose(state))
    return out


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variant", default="classic")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--exact", type=int, default=8)
    parser.add_argument("--seconds", type=float, default=0.05)
    parser.add_argument("--cap", type=int, default=200_000, help="solve_round's max_nodes")
    parser.add_argument("--backend", default="cpp", choices=("cpp", "python"))
    args = parser.parse_args(argv)
    engine = azul_engine.load_backend(args.backend)
    found = positions(engine, args.variant, args.players, args.games)
    by_left = collections.defaultdict(list)
    for state in found:
        left = moves_left(state)
        if left <= max(args.exact + 4, 8):
            try:
                s = engine.solve_round(state, max_nodes=args.cap)
                by_left[left].append((s.nodes, s.seconds))
            except ValueError:
                by_left[left].append((None, None))
    print("%s, %d players, %s engine: %d positions" % (args.variant, args.players, args.backend, len(found)))
    print("moves left  positions  nodes: median   90%%     most   (over %d)  ms: median   most" % args.cap)
    for left in sorted(by_left):
        rows = by_left[left]
        ok = sorted(r for r in rows if r[0] is not None)
        if not ok:
            print("%10d %10d   all over the cap" % (left, len(rows)))
            continue
        nodes = [r[0] for r in ok]
        ms = sorted(1000 * r[1] for r in ok)
        print("%10d %10d %14d %7d %8d %10d %12.2f %6.1f" % (
            left, len(rows), statistics.median(nodes), nodes[math.ceil(0.9 * len(nodes)) - 1], nodes[-1],
            len(rows) - len(ok), statistics.median(ms), ms[-1]))
    for name, group in (("within the gate", [s for s in found if moves_left(s) <= args.exact]),
                        ("every position", found[::max(1, len(found) // 200)])):
        rates = {0: [], args.exact: []}
        for state in group:
            for exact in rates:
                r = engine.search(state, seconds=args.seconds, exact=exact, seed=1)
                rates[exact].append(r.iterations / r.seconds)
        print("iterations a second, %s (%d positions): exact=0 %.0f, exact=%d %.0f (ratio %.2f)" % (
            name, len(group), statistics.mean(rates[0]), args.exact, statistics.mean(rates[args.exact]),
            statistics.mean(rates[args.exact]) / statistics.mean(rates[0])))


if __name__ == "__main__":
    main()
