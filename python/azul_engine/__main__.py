"""Command line: ``python -m azul_engine {info,bench}``, also installed as ``azul-engine``.

This module only parses arguments and prints; the benchmark itself lives in ``azul_engine.bench``.
"""

import argparse
import json
import sys

import azul_engine
from azul_engine import bench


def _positive(kind):
    def parse(text):
        value = kind(text)
        if value <= 0:
            raise argparse.ArgumentTypeError(f"must be positive: {text}")
        return value

    parse.__name__ = kind.__name__  # argparse names the type in its error messages
    return parse


def _info(args):
    print(f"azul-engine {azul_engine.__version__}")
    print(f"backend: {azul_engine.BACKEND}")
    print(f"available: {', '.join(azul_engine.available_backends())}")
    for name in ("cpp", "python"):
        try:
            azul_engine.load_backend(name)
        except ImportError as exc:
            print(f"unavailable: {name} ({exc.__cause__ or exc})")
    return 0


def _bench(args):
    backends = args.backend or azul_engine.available_backends()
    for name in backends:
        try:
            azul_engine.load_backend(name)
        except ImportError as exc:
            print(f"azul-engine bench: {exc}", file=sys.stderr)
            return 2
    if not args.json:
        per_run = f"{args.games} games" if args.games else f"{args.seconds:g} s"
        print(
            f"azul-engine {azul_engine.__version__}: random playouts, median of {args.repeats} run(s) of {per_run} "
            f"after a warm-up; checksum of seeds 0-{bench.CHECKSUM_GAMES - 1}"
        )
        print(bench.TABLE_HEADER)
    results = []
    for result in bench.run(backends, repeats=args.repeats, seconds=args.seconds, games=args.games):
        results.append(result)
        print(json.dumps(result) if args.json else bench.table_row(result), flush=True)
    mismatches = bench.checksum_mismatches(results)
    for message in mismatches:
        print(f"azul-engine bench: {message}", file=sys.stderr)
    return 1 if mismatches else 0


def main(argv=None):
    """Run the command line with ``argv`` (default: ``sys.argv[1:]``); return the exit code."""
    parser = argparse.ArgumentParser(prog="azul-engine", description="Azul rules engine.")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    info = commands.add_parser("info", help="version and backends")
    info.set_defaults(handler=_info)

    perf = commands.add_parser(
        "bench",
        help="random-playout speed of each backend, with a rules checksum",
        description="Play complete games with uniformly random legal moves on each backend, for 2 and 4 players, "
        "classic and grey walls. Prints games/s, plies/s and clones/s (medians), and a checksum of the final "
        "scores of fixed seeded games, which is the same for every backend unless the rules differ. "
        "Exit code 1 if backends disagree on a checksum.",
    )
    perf.add_argument("--backend", action="append", choices=["cpp", "python"],
                      help="backend to measure (repeatable; default: every available one)")
    perf.add_argument("--repeats", type=_positive(int), default=5, help="timed runs per figure (default: 5)")
    perf.add_argument("--seconds", type=_positive(float), default=0.2,
                      help="time budget of each timed run; with --games, of the clone runs only (default: 0.2)")
    perf.add_argument("--games", type=_positive(int),
                      help="play exactly this many games per run instead of a time budget")
    perf.add_argument("--json", action="store_true", help="one JSON object per backend and configuration per line")
    perf.set_defaults(handler=_bench)

    args = parser.parse_args(argv)
    return args.handler(args)


if __name__ == "__main__":
    sys.exit(main())
