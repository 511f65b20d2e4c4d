"""Make a training run's best network the one that ships (python/azul_engine/data/networks/).

    python benchmarks/ship_network.py RUN_DIR [--games 200] [--workers 2] [--force]

reads RUN_DIR (an `azul-engine train` run: settings.json, state.json, best.npz), stores the network in float16 (the
engines compute in float32 either way; the file is half the size), measures that very file alone (`policy_only`,
no search) against `greedy` with `tournament` on shared seat-rotated deals, and writes it as
`python/azul_engine/data/networks/VARIANT-PLAYERS.npz` with the command that trained it, its seed, wall time,
machine and the measured win rate with its 95% interval in the file's meta (`load_network(path).meta`).  An
existing shipped file is replaced only with --force.  docs/network.md, "The networks that ship", lists them.
"""

import argparse
import dataclasses
import json
import os
import sys
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "python"))

from azul_engine import load_backend, network, tournament  # noqa: E402
from azul_engine.train import Settings  # noqa: E402


def command_of(directory: str, settings: Settings) -> str:
    """The `azul-engine train` command line that makes a run with these settings."""
    default = Settings()
    flags = {"variant": "--variant", "players": "--players", "minutes": "--minutes", "seed": "--seed",
             "games": "--games", "simulations": "--simulations", "bootstrap_games": "--bootstrap-games",
             "bootstrap_iterations": "--bootstrap-iterations", "arena_games": "--arena-games",
             "eval_games": "--eval-games"}
    parts = ["azul-engine", "train", "-o", os.path.basename(os.path.abspath(directory))]
    for field in dataclasses.fields(Settings):
        value, base = getattr(settings, field.name), getattr(default, field.name)
        if value == base:
            continue
        text = ",".join(map(str, value)) if field.name == "hidden" else ("%g" % value if isinstance(value, float)
                                                                          else str(value))
        if field.name == "hidden":
            parts += ["--hidden", text]
        elif field.name in flags:
            parts += [flags[field.name], text]
        else:
            parts += ["--set", "%s=%s" % (field.name, text)]
    return " ".join(parts)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("run", help="the training run's directory")
    parser.add_argument("--games", type=int, default=200, help="games against greedy (default 200)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=20261207, help="the deals' seed (default 20261207)")
    parser.add_argument("--force", action="store_true", help="replace a network that already ships")
    args = parser.parse_args(argv)

    with open(os.path.join(args.run, "settings.json"), encoding="utf-8") as f:
        settings = Settings.from_dict(json.load(f))
    with open(os.path.join(args.run, "state.json"), encoding="utf-8") as f:
        state = json.load(f)
    best = os.path.join(args.run, "best.npz")
    name = network.SHIPPED.get((settings.variant, settings.players))
    if name is None:
        parser.error("no network ships for %s with %d players (network.SHIPPED)" % (settings.variant,
                                                                                    settings.players))
    out = os.path.join(HERE, "..", "python", "azul_engine", "data", "networks", name)
    if os.path.exists(out) and not args.force:
        parser.error("%s already ships: give --force to replace it" % out)

    with np.load(best) as f:
        trained = json.loads(str(f["meta"]))
        layers = sorted({k.rsplit(".", 1)[0] for k in f.files if k.startswith("trunk.")},
                        key=lambda k: int(k.split(".")[1]))
        trunk = [(f[k + ".weight"], f[k + ".bias"]) for k in layers]
        policy = (f["policy.weight"], f["policy.bias"])
        value = (f["value.weight"], f["value.bias"])
    meta = {"trained_by": "azul-engine train", "command": command_of(args.run, settings),
            "seed": settings.seed, "settings": settings.as_dict(), "minutes": round(state["seconds"] / 60, 1),
            "iteration": trained.get("iteration"), "best_iteration": state.get("best"),
            "games": trained.get("games"), "positions": trained.get("positions"),
            "machine": trained.get("machine"), "dtype": "float16"}
    with tempfile.TemporaryDirectory() as folder:
        half = os.path.join(folder, name)
        network.save_network(half, settings.variant, settings.players, trunk, policy, value, meta=meta,
                             dtype="float16")
        spec = "net:%s:policy_only=1" % half
        plan = tournament.plan([spec, "greedy"], settings.players, settings.variant, games=args.games,
                               seed=args.seed)
        result = tournament.run(plan, workers=args.workers)
        row = next(s for s in result.standings if s.bot == spec)
        low, high = row.win_interval
        meta["strength"] = {"versus": "greedy", "bot": "net:policy_only=1", "games": row.games,
                            "win_rate": round(row.wins / row.games, 4), "interval95": [round(low, 4), round(high, 4)],
                            "deals_seed": args.seed, "measured_by": "tournament, shared seat-rotated deals"}
        network.save_network(out, settings.variant, settings.players, trunk, policy, value, meta=meta,
                             dtype="float16", force=args.force)
    engine = load_backend("cpp")
    print("%s: %d bytes; alone against greedy %.1f%% (%.1f-%.1f%%) of %d games" % (
        os.path.relpath(out), os.path.getsize(out), 100 * row.wins / row.games, 100 * low, 100 * high, row.games))
    print("meta:", json.dumps(engine.load_network(out).meta, sort_keys=True)[:400])
    return 0


if __name__ == "__main__":
    sys.exit(main())
