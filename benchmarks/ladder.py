"""Measure the rated ladder of reference bots (azul_engine.ladder, docs/tournaments.md "The ladder") and write it
as a ladder file, the one ``azul-engine rate`` reads.

Every rung plays the next ``--reach`` rungs above it on the same ``--deals`` deals, each deal in both seatings,
per variant at two players; the rungs are rated together (Bradley-Terry, anchor greedy = 0).  The bots play by
iteration budgets, never seconds, so the games (and the ratings) are the same on a loaded machine as on a quiet
one; only the time changes.  ``--records DIR`` keeps the games (``DIR/ladder-VARIANT.jsonl``), from which
``azul-engine ratings DIR/ladder-classic.jsonl --anchor greedy`` gives the same figures.

    python benchmarks/ladder.py --deals 200 -o python/azul_engine/data/ladder.json --force   # the full run
    python benchmarks/ladder.py --deals 200 --variant grey -o python/azul_engine/data/ladder.json --update
    python benchmarks/ladder.py --deals 2 --rungs random,greedy,mcts:20 -o /tmp/ladder.json  # a quick try

The full run (8 rungs, reach 2, 200 deals: 13 pairs, 5,200 games a variant, 800 of them with mcts:10000 at about
4-8 s a game on this project's machine; with the two network rungs of classic and Summer Pavilion, 17 pairs and
6,800 games, and in Summer Pavilion, where ``net`` is the top rung, 1,200 with mcts:10000) takes one to two hours of
one core per variant, more with the networks: give it --workers, or --ray on a cluster.  The games do not depend
on the machine's load, so a busy machine only makes it slower.  ``--update`` measures the ``--variant``s given and
keeps the file's others (each variant's entry then says how it was made); the file is read again just before it
is written, so that two such runs of different variants, one after the other or side by side, both land.
"""

import argparse
import json
import os
import shlex
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "python"))  # this checkout's package, when not installed

from azul_engine import distributed, ladder, outputs  # noqa: E402


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variant", action="append", choices=ladder.VARIANTS,
                        help="a variant to measure (repeatable; default: all three)")
    parser.add_argument("--rungs", help="the reference bots, weakest first (default: %s, and the networks that "
                        "ship for the variant: ladder.rungs_for)" % ",".join(ladder.RUNGS))
    parser.add_argument("--deals", type=int, default=200, help="deals per pair of rungs (default: 200)")
    parser.add_argument("--reach", type=int, default=2, help="rungs above each rung that it plays (default: 2)")
    parser.add_argument("--seed", type=int, default=0, help="the first deal's seed (default: 0)")
    parser.add_argument("--workers", type=int, help="worker processes (default: every core)")
    distributed.add_ray_argument(parser)
    parser.add_argument("--backend", choices=["cpp", "python"], help="the engine (default: the active one)")
    parser.add_argument("--records", metavar="DIR", help="keep the games here, one .jsonl file per variant")
    parser.add_argument("--provisional", metavar="NOTE",
                        help="mark the ladder provisional, with a note saying why (few games, a busy machine)")
    parser.add_argument("-o", "--output", required=True, help="the ladder file to write (one that exists: --force or --update)")
    parser.add_argument("--force", action="store_true", help="replace the output file")
    parser.add_argument("--update", action="store_true",
                        help="replace only the variants measured now (--variant) in the output file (a ladder "
                        "file), keeping its others: a ladder measured variant by variant")
    args = parser.parse_args(argv)
    variants = args.variant or list(ladder.VARIANTS)
    old = None
    if args.update:  # read and checked before any game is played, and again before it is written
        try:
            old = ladder.read_for_update(args.output, variants)
        except (OSError, ValueError) as e:
            parser.error(str(e))
    outputs.check(args.output, "replace" if args.force or old is not None else "new", append=False)
    if args.records:
        os.makedirs(args.records, exist_ok=True)
    command = shlex.join(["benchmarks/ladder.py"] + [a for a in (argv if argv is not None else sys.argv[1:])
                                                      if a != "--force"])
    start = time.perf_counter()
    with distributed.from_args(args) as where:
        data = ladder.measure(variants, args.rungs.split(",") if args.rungs is not None else None,
                              args.deals, args.seed,
                              args.reach, executor=where, backend=args.backend, records=args.records,
                              progress=lambda line: print(line, flush=True), provisional=bool(args.provisional),
                              command=command)
    if args.provisional:
        data["made"]["note"] = args.provisional
    data["made"]["seconds"] = round(time.perf_counter() - start)
    measured = dict(data["variants"])
    if args.update:
        # the file as it is now (another run may have updated it meanwhile), else the one read at the start
        try:
            old = ladder.read_for_update(args.output, variants) or old
        except (OSError, ValueError) as e:
            print("ladder.py: %s: updating the file read at the start" % e, file=sys.stderr)
        if old is not None:
            data = ladder.merge(old, data)
    outputs.write_text(args.output, json.dumps(data, indent=1) + "\n",
                       "replace" if args.force or old is not None else "new")
    for variant, entry in measured.items():
        print("%s: %s" % (variant, ", ".join("%s %+.0f +/- %.0f" % (r["bot"], r["elo"], r["error"])
                                             for r in entry["rungs"])))
    print("%s: %d s" % (args.output, data["made"]["seconds"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
