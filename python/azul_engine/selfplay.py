"""Self-play data sets: one row per decision of games between bots, in Parquet shards or ``.npz`` files.

Game ``i`` of a run is made from seed ``seed + i`` and seated like a tournament (``tournament.seatings``): game
``i`` plays seating ``i % len(seatings)`` of the bot list, so with one bot it holds every seat, and with as
many bots as seats they rotate over the seats game by game.  The bot in seat ``s`` gets
``bots.bot_seed(seed + i, s)``, as in ``bots.play``: a game here is the same game that ``record`` writes for
that seed and seating.  Games are played by a ``distributed`` executor (local processes or Ray) and written in
game order, so the shards are byte for byte the same for any number of workers, locally or on Ray.

Each row is one decision (the schema, ``COLUMNS``, is documented in docs/selfplay.md): the position's
observation tensor and legal-action mask from the view of the player to move, the action the bot took, the
search's visit counts when the bot has them (a bot exposing ``last_visits``, like ``bots.MCTSBot``), and the
game's outcome (final scores, per-seat returns: +1 a sole winner, 0 a shared win, -1 the others, as the
OpenSpiel adapter's ``returns``).

Shards: ``DIR/part-NNNNN.parquet`` (or ``.npz``), ``shard_games`` consecutive games each, written whole (to a
temporary name, then renamed): an interrupted run leaves only complete shards.
"""

import json
import os
import time
import zipfile

from . import bots, tournament
from ._backends import engine_named
from .table import Table

__all__ = ["FORMAT", "VERSION", "COLUMNS", "Summary", "play_game", "run", "read_npz", "game_seats"]

FORMAT, VERSION = "azul-selfplay", 1
FORMATS = ("parquet", "npz")
SHARD_GAMES = 1000  # games per shard by default
MAX_GAMES = 100_000_000

# name: (what it holds, numpy dtype); the per-row shape is in docs/selfplay.md
COLUMNS = ("game", "seed", "ply", "round", "player", "bot", "observation", "legal_mask", "action", "visits",
           "final_scores", "returns", "return")


def game_seats(specs, players, index):
    """The bot spec of each seat in game ``index`` of a run between ``specs``."""
    seatings = tournament.seatings(len(specs), players)
    return [specs[k] for k in seatings[index % len(seatings)]]


def play_game(backend, players, variant, seed, seats, game):
    """Play one game and return its rows as columns: a dict of numpy arrays (``COLUMNS``; ``visits`` as an
    int32 array with a row of zeros where the bot made no search, and ``has_visits`` saying which rows have
    them).  A top-level function, so that workers can run it.

    The game is played on a ``table.Table``: each bot sees a copy of the state and may answer an action id or
    notation, and a bot that fails (cannot be made, raises, answers what is not a legal move) forfeits, as in
    ``bots.play_match``: the game gives no rows, and the result is ``{"forfeit": "game G, seat S (SPEC): REASON"}``
    instead."""
    import numpy as np
    engine = engine_named(backend)
    num_actions = engine.SP_NUM_ACTIONS if variant == "summer-pavilion" else engine.NUM_ACTIONS
    with Table(engine, players, variant, seats, seed, undo=False) as table:
        return _play_rows(table, np, num_actions, seats, game)


def _play_rows(table, np, num_actions, seats, game):
    state = table.state
    observations, masks, actions, movers, rounds, visits, searched = [], [], [], [], [], [], []
    while table.bot_to_move():
        player = state.current_player
        observations.append(state.observation_tensor())
        masks.append(state.legal_action_mask())
        movers.append(player)
        rounds.append(state.round)
        played = table.bot_move()
        if played is None:
            break
        counts = getattr(table.bots[player], "last_visits", None)
        row = np.zeros(num_actions, dtype=np.int32)
        if counts:
            for a, n in counts.items():
                row[a] = n
        visits.append(row)
        searched.append(bool(counts))
        actions.append(played.action)
    if table.forfeit is not None:
        f = table.forfeit
        return {"forfeit": "game %d, seat %d (%s): %s" % (game, f.seat, seats[f.seat], f.reason)}
    n = len(actions)
    seed, scores, returns = table.seed, table.scores, table.returns()
    movers = np.array(movers, dtype=np.int8)
    return {
        "game": np.full(n, game, dtype=np.int64),
        "seed": np.full(n, seed, dtype=np.uint64),
        "ply": np.arange(n, dtype=np.int16),
        "round": np.array(rounds, dtype=np.int8),
        "player": movers,
        "bot": np.array([seats[p] for p in movers], dtype=str),
        "observation": np.array(observations, dtype=np.float32).reshape(n, -1),
        "legal_mask": np.array(masks, dtype=np.bool_).reshape(n, num_actions),
        "action": np.array(actions, dtype=np.int16),
        "visits": np.array(visits, dtype=np.int32).reshape(n, num_actions),
        "has_visits": np.array(searched, dtype=np.bool_),
        "final_scores": np.tile(np.array(scores, dtype=np.int16), (n, 1)),
        "returns": np.tile(np.array(returns, dtype=np.float32), (n, 1)),
        "return": np.array([returns[p] for p in movers], dtype=np.float32),
    }


def _concat(games):
    import numpy as np
    out = {}
    for key in games[0]:
        out[key] = np.concatenate([g[key] for g in games])
    return out


def _arrow():
    try:
        import pyarrow
        import pyarrow.parquet  # noqa: F401
    except ImportError:
        raise ImportError("--format parquet needs pyarrow: pip install 'azul-engine[data]' (or use --format npz)"
                          ) from None
    return pyarrow


def arrow_schema(players, observation_size, num_actions, meta=None):
    """The Arrow schema of a shard (docs/selfplay.md), with ``meta`` (a dict) as its JSON metadata."""
    pa = _arrow()
    fields = [
        pa.field("game", pa.int64(), nullable=False),
        pa.field("seed", pa.uint64(), nullable=False),
        pa.field("ply", pa.int16(), nullable=False),
        pa.field("round", pa.int8(), nullable=False),
        pa.field("player", pa.int8(), nullable=False),
        pa.field("bot", pa.string(), nullable=False),
        pa.field("observation", pa.list_(pa.float32(), observation_size), nullable=False),
        pa.field("legal_mask", pa.list_(pa.bool_(), num_actions), nullable=False),
        pa.field("action", pa.int16(), nullable=False),
        pa.field("visits", pa.list_(pa.int32(), num_actions), nullable=True),
        pa.field("final_scores", pa.list_(pa.int16(), players), nullable=False),
        pa.field("returns", pa.list_(pa.float32(), players), nullable=False),
        pa.field("return", pa.float32(), nullable=False),
    ]
    metadata = {FORMAT.encode(): json.dumps(meta, sort_keys=True).encode()} if meta else None
    return pa.schema(fields, metadata=metadata)


def _table(columns, schema):
    pa = _arrow()
    arrays = []
    for field in schema:
        values = columns[field.name]
        if pa.types.is_fixed_size_list(field.type):
            flat = pa.array(values.reshape(-1), type=field.type.value_type)
            array = pa.FixedSizeListArray.from_arrays(flat, field.type.list_size)
            if field.name == "visits":  # null where the bot made no search
                array = pa.FixedSizeListArray.from_arrays(flat, field.type.list_size,
                                                          mask=pa.array(~columns["has_visits"]))
            arrays.append(array)
        else:
            arrays.append(pa.array(values, type=field.type))
    return pa.Table.from_arrays(arrays, schema=schema)


def _write_npz(path, columns, meta):
    """An .npz numpy.load reads, written with fixed zip timestamps so that equal data gives equal bytes."""
    import numpy as np
    items = dict(columns)
    items["meta"] = np.array(json.dumps(meta, sort_keys=True))
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as z:
        for name in list(COLUMNS) + ["has_visits", "meta"]:
            info = zipfile.ZipInfo(name + ".npy", date_time=(1980, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            with z.open(info, "w", force_zip64=True) as f:
                np.lib.format.write_array(f, np.asarray(items[name], order="C"), allow_pickle=False)


def read_npz(path):
    """An .npz shard as a dict of numpy arrays, ``meta`` decoded from its JSON."""
    import numpy as np
    with np.load(path, allow_pickle=False) as data:
        out = {name: data[name] for name in data.files}
    out["meta"] = json.loads(out["meta"].item())
    return out


class Summary:
    """A finished run: ``games``, ``rows`` (decisions), ``shards`` (the run's shard files), ``workers``,
    ``where`` and wall-clock ``seconds``; ``played`` and ``resumed``: games played by this call and shards kept
    from an earlier one (``resume``); ``forfeits``: for each game left out because a bot failed, "game G, seat S
    (SPEC): REASON"."""

    def __init__(self, games, rows, shards, workers, where, seconds, forfeits=(), played=None, resumed=0):
        self.games, self.rows, self.shards = games, rows, shards
        self.workers, self.where, self.seconds = workers, where, seconds
        self.forfeits = list(forfeits)
        self.played = games if played is None else played  # games played by this run (fewer if resumed)
        self.resumed = resumed  # shards kept from an earlier run


def _check(specs, games, players, variant, seed, fmt, shard_games):
    if isinstance(specs, str):
        specs = bots.split_bot_specs(specs)  # a spec may hold commas of its own: mcts:400:c=1.0,policy=light
    specs = [s.strip() for s in specs]
    if not specs or not all(specs):
        raise ValueError("give the bots as a comma-separated list of specs, e.g. mcts:400 or random,greedy")
    if isinstance(players, bool) or players not in (2, 3, 4):
        raise ValueError("players must be 2, 3 or 4, not %r" % (players,))
    if variant not in ("classic", "grey", "summer-pavilion"):
        raise ValueError("variant must be 'classic', 'grey' or 'summer-pavilion', not %r" % (variant,))
    for spec in dict.fromkeys(specs):
        bots.resolve_bot_spec(spec).check(variant, players)
    if isinstance(games, bool) or not isinstance(games, int) or not 1 <= games <= MAX_GAMES:
        raise ValueError("games must be a whole number from 1 to %d, not %r" % (MAX_GAMES, games))
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise ValueError("seed must be a whole number 0 or more, not %r" % (seed,))
    if seed + games > 1 << 64:
        raise ValueError("game seeds %d-%d pass 2**64-1" % (seed, seed + games - 1))
    if fmt not in FORMATS:
        raise ValueError("format must be 'parquet' or 'npz', not %r" % (fmt,))
    if isinstance(shard_games, bool) or not isinstance(shard_games, int) or shard_games < 1:
        raise ValueError("shard_games must be a positive whole number, not %r" % (shard_games,))
    return specs


MANIFEST = "_manifest.json"  # "_": skipped by pyarrow's, pandas' and Ray Data's directory readers


def shard_name(number, fmt):
    """The file of shard ``number``: games ``number * shard_games`` to ``(number + 1) * shard_games - 1``."""
    return "part-%05d.%s" % (number, fmt)


def _empty(players, size, num_actions):
    import numpy as np
    return {"game": np.zeros(0, np.int64), "seed": np.zeros(0, np.uint64), "ply": np.zeros(0, np.int16),
            "round": np.zeros(0, np.int8), "player": np.zeros(0, np.int8), "bot": np.zeros(0, dtype=str),
            "observation": np.zeros((0, size), np.float32), "legal_mask": np.zeros((0, num_actions), np.bool_),
            "action": np.zeros(0, np.int16), "visits": np.zeros((0, num_actions), np.int32),
            "has_visits": np.zeros(0, np.bool_), "final_scores": np.zeros((0, players), np.int16),
            "returns": np.zeros((0, players), np.float32), "return": np.zeros(0, np.float32)}


def _write_shard(directory, number, first, kept, left_out, meta, fmt):
    """Write shard ``number`` (games from ``first``): ``kept``, the columns of its games that were played out
    (possibly none), ``left_out`` the forfeits. Written to a temporary name and renamed, so that a shard file is
    always whole. Returns its entry of the manifest."""
    path = os.path.join(directory, shard_name(number, fmt))
    part = tmp = path + ".tmp"
    columns = _concat(kept) if kept else _empty(meta["players"], meta["observation_size"], meta["num_actions"])
    shard_meta = dict(meta, shard=number, first_game=first, shard_games=len(kept))
    if left_out:
        shard_meta["left_out"] = list(left_out)  # only then: a run without forfeits writes version 1's bytes
    try:
        if fmt == "parquet":
            import pyarrow.parquet as pq
            schema = arrow_schema(meta["players"], meta["observation_size"], meta["num_actions"], shard_meta)
            pq.write_table(_table(columns, schema), tmp, compression="zstd")
        else:
            _write_npz(tmp, columns, shard_meta)
        os.replace(tmp, path)
        part = None
    finally:
        if part is not None and os.path.exists(part):
            os.remove(part)  # an interrupted shard is not left behind
    return {"file": os.path.basename(path), "first_game": first, "games": len(kept),
            "rows": int(len(columns["action"])), "left_out": list(left_out)}


def play_shard(backend, players, variant, seed, specs, number, first, count, directory, fmt, meta):
    """One Ray task: play games ``first`` to ``first + count - 1`` and write them as shard ``number`` in
    ``directory`` (a path the task's node reaches). Returns the shard's manifest entry."""
    kept, left_out = [], []
    for game in range(first, first + count):
        columns = play_game(backend, players, variant, seed + game, game_seats(specs, players, game), game)
        if "forfeit" in columns:
            left_out.append(columns["forfeit"])
        else:
            kept.append(columns)
    return _write_shard(directory, number, first, kept, left_out, meta, fmt)


def _read_entry(directory, name, fmt):
    """The manifest entry of a shard already written (for --resume): from the shard's own metadata."""
    path = os.path.join(directory, name)
    if fmt == "parquet":
        import pyarrow.parquet as pq
        info = pq.read_metadata(path)
        meta, rows = json.loads(info.metadata[FORMAT.encode()]), info.num_rows
    else:
        data = read_npz(path)
        meta, rows = data["meta"], len(data["action"])
    return {"file": name, "first_game": meta["first_game"], "games": meta["shard_games"], "rows": int(rows),
            "left_out": meta.get("left_out", [])}


def _write_manifest(directory, run, entries, complete):
    entries = sorted(entries, key=lambda e: e["first_game"])
    manifest = dict(run, complete=complete, shards=entries, rows=sum(e["rows"] for e in entries),
                    left_out=[f for e in entries for f in e["left_out"]])
    path = os.path.join(directory, MANIFEST)
    with open(path + ".tmp", "w", encoding="utf-8") as f:
        json.dump(manifest, f, indent=1, sort_keys=True)
        f.write("\n")
    os.replace(path + ".tmp", path)


def _taken(directory):
    """What in ``directory`` a run that does not resume would replace or mix with: its first shard, or a
    ``_manifest.json`` that is not one of a run of this command that wrote no shard (the user's own file, or a
    run's with shards); None when there is nothing."""
    try:
        names = os.listdir(directory)
    except (FileNotFoundError, NotADirectoryError):
        return None
    shards = sorted(name for name in names if name.startswith("part-"))
    if shards:
        return "shards (%s)" % shards[0]
    if MANIFEST in names:
        try:
            with open(os.path.join(directory, MANIFEST), encoding="utf-8") as f:
                earlier = json.load(f)
        except (OSError, ValueError):
            earlier = None
        if not (isinstance(earlier, dict) and earlier.get("format") == FORMAT and earlier.get("shards") == []):
            return "a %s of its own" % MANIFEST
    return None


def _resume(directory, run, fmt, shards):
    """The shards of an earlier run of the same arguments in ``directory``: {number: manifest entry}."""
    names = sorted(n for n in os.listdir(directory) if n.startswith("part-") and not n.endswith(".tmp"))
    path = os.path.join(directory, MANIFEST)
    if not os.path.exists(path):
        if names:
            raise ValueError("%s holds shards but no %s: not a run that can be resumed" % (directory, MANIFEST))
        return {}
    try:
        with open(path, encoding="utf-8") as f:
            earlier = json.load(f)
    except (OSError, ValueError) as e:
        raise ValueError("%s: cannot read %s: %s" % (directory, MANIFEST, e)) from None
    differ = sorted(k for k in run if earlier.get(k) != run[k])
    if differ:
        raise ValueError("%s holds a run with other arguments (%s): resume it with the same ones, or give a new "
                         "directory" % (directory, ", ".join("%s %s" % (k, json.dumps(earlier.get(k)))
                                                             for k in differ)))
    found = {}
    for number in range(shards):
        name = shard_name(number, fmt)
        if name in names:
            found[number] = _read_entry(directory, name, fmt)
    return found


def run(specs, games, directory, players=2, variant="classic", seed=0, fmt="parquet", executor=None,
        backend=None, shard_games=SHARD_GAMES, progress=None, resume=False):
    """Play ``games`` games between ``specs`` (a list or a comma-separated string) and write their decisions
    to ``directory`` (made if missing; it must not hold shards already) in shards of ``shard_games`` games:
    shard ``k`` holds games ``k * shard_games`` to ``(k + 1) * shard_games - 1`` (those played out), and
    ``_manifest.json`` lists the run's arguments and its shards.

    ``fmt``: "parquet" (needs pyarrow) or "npz".  ``executor``: a ``distributed.Executor`` (default: local
    worker processes, one per core; the caller closes one it gives).  Locally the games are played one a job and
    this process writes the shards; on Ray each task plays a whole shard and writes it itself (``directory``
    must then be a path every node reaches), and only the manifest is written here.  ``resume``: ``directory``
    may hold an interrupted run of the same arguments; its finished shards are kept and only the others played.
    ``progress``: called with the number of games finished (those of kept shards included).  Returns a Summary.
    ValueError for bad arguments, ImportError for Parquet without pyarrow, OSError for a directory that cannot be
    written.
    """
    from . import distributed

    specs = _check(specs, games, players, variant, seed, fmt, shard_games)
    engine = engine_named(backend)
    backend = engine.NAME
    if fmt == "parquet":
        _arrow()
    os.makedirs(directory, exist_ok=True)
    num_actions = engine.SP_NUM_ACTIONS if variant == "summer-pavilion" else engine.NUM_ACTIONS
    size = engine.observation_shape(players, variant)[0]
    meta = {"format": FORMAT, "version": VERSION, "variant": variant, "players": players, "bots": specs,
            "seed": seed, "games": games, "observation_size": size, "num_actions": num_actions}
    run_keys = dict(meta, file_format=fmt, shard_games=shard_games)  # what a resumed run must repeat
    shards = -(-games // shard_games)
    if resume:
        done = _resume(directory, run_keys, fmt, shards)
    else:
        taken = _taken(directory)
        if taken:
            raise ValueError("%s already holds %s: give a new or empty directory, or resume the run"
                             % (directory, taken))
        done = {}
    todo = [k for k in range(shards) if k not in done]
    own = executor is None
    if own:
        executor = distributed.LocalExecutor(min(distributed.default_workers(), games))
    entries = list(done.values())
    _write_manifest(directory, run_keys, entries, complete=not todo)
    played = 0
    start = time.perf_counter()

    def span(k):
        return k * shard_games, min(shard_games, games - k * shard_games)

    kept_games = sum(span(k)[1] for k in done)

    try:
        if getattr(executor, "remote", False):  # tasks write their own shards: rows never pass through here
            jobs = ((backend, players, variant, seed, specs, k, *span(k), os.path.abspath(directory), fmt, meta)
                    for k in todo)
            for entry in executor.map(play_shard, jobs, chunksize=1, count=len(todo)):
                entries.append(entry)
                played += len(entry["left_out"]) + entry["games"]
                if progress:
                    progress(kept_games + played)
        else:
            jobs = ((backend, players, variant, seed + g, game_seats(specs, players, g), g)
                    for k in todo for g in range(span(k)[0], sum(span(k))))
            count = sum(span(k)[1] for k in todo)
            kept, left_out, shard = [], [], iter(todo)
            number = next(shard, None)
            for columns in executor.map(play_game, jobs, count=count):
                if "forfeit" in columns:  # a bot failed: the game is left out
                    left_out.append(columns["forfeit"])
                else:
                    kept.append(columns)
                played += 1
                if len(kept) + len(left_out) == span(number)[1]:
                    entries.append(_write_shard(directory, number, span(number)[0], kept, left_out, meta, fmt))
                    kept, left_out, number = [], [], next(shard, None)
                if progress:
                    progress(kept_games + played)
    finally:
        if own:
            executor.close()
        _write_manifest(directory, run_keys, entries, complete=len(entries) == shards)
    entries.sort(key=lambda e: e["first_game"])
    return Summary(games, sum(e["rows"] for e in entries), [os.path.join(directory, e["file"]) for e in entries],
                   min(executor.workers, games), executor.where, time.perf_counter() - start,
                   [f for e in entries for f in e["left_out"]], played=played, resumed=len(done))


# -- command line: python -m azul_engine selfplay ----------------------------------------------------------------

def register(commands):
    """The ``selfplay`` command."""
    from . import _cli, distributed

    positive = _cli.positive(int)
    cmd = _cli.add_command(
        commands, "selfplay", lambda args: _command(args, _cli.Progress),
        help="self-play training data: one row per decision, as Parquet or .npz shards",
        description="Play games between bots and write every decision (observation tensor, legal-action mask, "
        "action, MCTS visit counts, the game's final scores and returns) to DIR as shards part-NNNNN.parquet "
        "(or .npz), schema in docs/selfplay.md. Game i is made from seed SEED + i and seated as in a "
        "tournament; the same arguments give the same bytes for any number of workers, locally or on Ray.")
    cmd.add_argument("--bots", required=True, metavar="SPECS",
                     help="comma-separated bot specs (one bot plays every seat; several rotate over the seats), "
                     "e.g. mcts:400 or random,greedy")
    cmd.add_argument("--games", type=positive, default=100, help="games to play (default: 100)")
    _cli.add_game_arguments(cmd)
    cmd.add_argument("--seed", type=_cli.seed, default=0, help="seed of the first game, 0..2**64-1 (default: 0)")
    cmd.add_argument("--format", choices=FORMATS, default="parquet",
                     help="parquet (needs pyarrow: azul-engine[data]) or npz (numpy only); default parquet")
    cmd.add_argument("-o", "--output", required=True, metavar="DIR", help="directory of the shards (made if missing)")
    cmd.add_argument("--shard-games", type=positive, default=SHARD_GAMES,
                     help="games per shard (default: %d)" % SHARD_GAMES)
    cmd.add_argument("--resume", action="store_true",
                     help="go on with a run that was stopped: DIR's finished shards are kept (the arguments must be "
                     "the ones of that run, as its _manifest.json holds them) and only the others played")
    cmd.add_argument("--workers", type=positive, help="worker processes (default: every core)")
    distributed.add_ray_argument(cmd)
    _cli.add_backend(cmd)
    return cmd


def _command(args, progress_bar):
    import sys

    from . import _cli, distributed

    def usage(message):
        print(f"azul-engine selfplay: {message}", file=sys.stderr)
        return 2

    try:
        specs = _check(args.bots, args.games, args.players, args.variant, args.seed, args.format,
                       args.shard_games)
        if args.format == "parquet":
            _arrow()
        _cli.engine(args)
        if not args.ray:
            distributed.check_workers(args.workers)
        taken = None if args.resume else _taken(args.output)
        if taken:
            return usage(f"{args.output} already holds {taken}: give a new or empty directory, or --resume the run")
        os.makedirs(args.output, exist_ok=True)
    except (ValueError, ImportError) as e:
        return usage(str(e))
    except OSError as e:
        return usage(f"cannot write {args.output}: {e.strerror}")
    try:
        with distributed.from_args(args) as where:
            result = run(specs, args.games, args.output, args.players, args.variant, args.seed, args.format,
                         executor=where, backend=args.backend, shard_games=args.shard_games,
                         progress=progress_bar(args.games, "games"), resume=args.resume)
    except distributed.WorkerDied as e:  # the games before it are in the shards written
        print(f"azul-engine selfplay: {e} (game seeds from {args.seed})", file=sys.stderr)
        return 1
    except (ValueError, ImportError, ConnectionError) as e:
        return usage(str(e))
    except OSError as e:
        return usage(f"cannot write {args.output}: {e.strerror or e}")
    for forfeit in result.forfeits:
        print(f"azul-engine selfplay: left out {forfeit}", file=sys.stderr)
    sys.stdout.write("%s: %d rows in %d shard%s%s; %s%s\n" % (
        args.output, result.rows, len(result.shards), "" if len(result.shards) == 1 else "s",
        " (%d kept from the run resumed)" % result.resumed if result.resumed else "",
        distributed.summary(result.played, result.seconds, result.workers, result.where),
        "; %d left out: a bot forfeited" % len(result.forfeits) if result.forfeits else ""))
    return 1 if result.forfeits else 0
