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

from . import BACKEND, bots, load_backend, tournament

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


def _returns(players, winners):
    win = 1.0 if len(winners) == 1 else 0.0
    return [win if p in winners else -1.0 for p in range(players)]


def play_game(backend, players, variant, seed, seats, game):
    """Play one game and return its rows as columns: a dict of numpy arrays (``COLUMNS``; ``visits`` as an
    int32 array with a row of zeros where the bot made no search, and ``has_visits`` saying which rows have
    them).  A top-level function, so that workers can run it.

    Each bot sees a copy of the state and may answer an action id or notation.  A bot that fails (cannot start,
    raises, answers what is not a legal move) forfeits, as in ``bots.play_match``: the game gives no rows, and
    the result is ``{"forfeit": "game G, seat S (SPEC): REASON"}`` instead."""
    import numpy as np
    engine = load_backend(backend)
    num_actions = engine.SP_NUM_ACTIONS if variant == "summer-pavilion" else engine.NUM_ACTIONS
    players_bots = []
    try:
        for seat, spec in enumerate(seats):
            try:
                players_bots.append(bots.make_bot(spec, bots.bot_seed(seed, seat), seat))
            except bots.BotFailure as e:
                return {"forfeit": "game %d, seat %d (%s): %s" % (game, seat, spec, e.reason)}
            except Exception as e:  # as play_match words it
                return {"forfeit": "game %d, seat %d (%s): could not be made: %s: %s"
                        % (game, seat, spec, type(e).__name__, e)}
        return _play_rows(engine, np, num_actions, players, variant, seed, seats, game, players_bots)
    finally:
        bots.close_bots(players_bots)


def _play_rows(engine, np, num_actions, players, variant, seed, seats, game, players_bots):
    state = engine.new_game(players=players, variant=variant, seed=seed)
    observations, masks, actions, movers, rounds, visits, searched = [], [], [], [], [], [], []
    while not state.is_over:
        player = state.current_player
        observations.append(state.observation_tensor())
        masks.append(state.legal_action_mask())
        movers.append(player)
        rounds.append(state.round)
        bot = players_bots[player]
        answer, reason = bots.ask(bot, state)
        if reason is None:
            action, _, reason = bots.play_answer(state, answer)
        if reason is not None:
            return {"forfeit": "game %d, seat %d (%s): %s" % (game, player, seats[player], reason)}
        counts = getattr(bot, "last_visits", None)
        row = np.zeros(num_actions, dtype=np.int32)
        if counts:
            for a, n in counts.items():
                row[a] = n
        visits.append(row)
        searched.append(bool(counts))
        actions.append(action)
    n = len(actions)
    scores, winners = list(state.scores), list(state.winners)
    returns = _returns(players, winners)
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
    """A finished run: ``games``, ``rows`` (decisions), ``shards`` (paths written), ``workers``, ``where``
    and wall-clock ``seconds``; ``forfeits``: for each game left out because a bot failed, "game G, seat S
    (SPEC): REASON"."""

    def __init__(self, games, rows, shards, workers, where, seconds, forfeits=()):
        self.games, self.rows, self.shards = games, rows, shards
        self.workers, self.where, self.seconds = workers, where, seconds
        self.forfeits = list(forfeits)


def _check(specs, games, players, variant, seed, fmt, shard_games):
    if isinstance(specs, str):
        specs = bots.split_bot_specs(specs)  # a spec may hold commas of its own: mcts:400:c=1.0,policy=light
    specs = [s.strip() for s in specs]
    if not specs or not all(specs):
        raise ValueError("give the bots as a comma-separated list of specs, e.g. mcts:400 or random,greedy")
    for spec in dict.fromkeys(specs):
        bots.resolve_bot_spec(spec).check()
    if isinstance(players, bool) or players not in (2, 3, 4):
        raise ValueError("players must be 2, 3 or 4, not %r" % (players,))
    if variant not in ("classic", "grey", "summer-pavilion"):
        raise ValueError("variant must be 'classic', 'grey' or 'summer-pavilion', not %r" % (variant,))
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


def run(specs, games, directory, players=2, variant="classic", seed=0, fmt="parquet", executor=None,
        backend=None, shard_games=SHARD_GAMES, progress=None):
    """Play ``games`` games between ``specs`` (a list or a comma-separated string) and write their decisions
    to ``directory`` (made if missing; it must not hold shards already) in shards of ``shard_games`` games.

    ``fmt``: "parquet" (needs pyarrow) or "npz".  ``executor``: a ``distributed.Executor`` (default: local
    worker processes, one per core; the caller closes one it gives).  ``progress``: called with the number of
    games finished after each game.  Returns a Summary.  ValueError for bad arguments, ImportError for Parquet
    without pyarrow, OSError for a directory that cannot be written.
    """
    from . import distributed

    specs = _check(specs, games, players, variant, seed, fmt, shard_games)
    backend = backend or BACKEND
    engine = load_backend(backend)
    if fmt == "parquet":
        _arrow()
    os.makedirs(directory, exist_ok=True)
    taken = sorted(name for name in os.listdir(directory) if name.startswith("part-"))
    if taken:
        raise ValueError("%s already holds shards (%s): give a new or empty directory" % (directory, taken[0]))
    num_actions = engine.SP_NUM_ACTIONS if variant == "summer-pavilion" else engine.NUM_ACTIONS
    size = engine.observation_shape(players, variant)[0]
    meta = {"format": FORMAT, "version": VERSION, "variant": variant, "players": players, "bots": specs,
            "seed": seed, "games": games, "observation_size": size, "num_actions": num_actions}
    schema = arrow_schema(players, size, num_actions, meta) if fmt == "parquet" else None
    jobs = [(backend, players, variant, seed + i, game_seats(specs, players, i), i) for i in range(games)]
    own = executor is None
    if own:
        executor = distributed.LocalExecutor(min(distributed.default_workers(), games))
    shards, buffer, rows, forfeits = [], [], 0, []
    start = time.perf_counter()

    def flush():
        number = len(shards)
        path = os.path.join(directory, "part-%05d.%s" % (number, fmt))
        part = tmp = path + ".tmp"
        columns = _concat(buffer)
        shard_meta = dict(meta, shard=number, first_game=int(columns["game"][0]),
                          shard_games=len(buffer))
        try:
            if fmt == "parquet":
                import pyarrow.parquet as pq
                table = _table(columns, schema.with_metadata(
                    {FORMAT.encode(): json.dumps(shard_meta, sort_keys=True).encode()}))
                pq.write_table(table, tmp, compression="zstd")
            else:
                _write_npz(tmp, columns, shard_meta)
            os.replace(tmp, path)
            part = None
        finally:
            if part is not None and os.path.exists(part):
                os.remove(part)  # an interrupted shard is not left behind
        shards.append(path)
        buffer.clear()

    try:
        for done, columns in enumerate(executor.map(play_game, jobs), 1):
            if "forfeit" in columns:  # a bot failed: the game is left out
                forfeits.append(columns["forfeit"])
            else:
                buffer.append(columns)
                rows += len(columns["action"])
            if buffer and (len(buffer) == shard_games or done == games):
                flush()
            if progress:
                progress(done)
    finally:
        if own:
            executor.close()
    return Summary(games, rows, shards, min(executor.workers, games), executor.where,
                   time.perf_counter() - start, forfeits)


# -- command line: python -m azul_engine selfplay ----------------------------------------------------------------

def add_command(commands, progress_bar, engine_help):
    """Register ``selfplay`` on the command line's subparsers; ``progress_bar(total, what)`` makes the
    command's progress callback."""
    import argparse

    from . import distributed

    def positive(text):
        value = int(text)
        if value <= 0:
            raise argparse.ArgumentTypeError(f"must be positive: {text}")
        return value

    def seed(text):
        value = int(text)
        if not 0 <= value < 1 << 64:
            raise argparse.ArgumentTypeError(f"must be a whole number from 0 to 2**64-1, not {text}")
        return value

    positive.__name__ = seed.__name__ = "int"
    cmd = commands.add_parser(
        "selfplay", help="self-play training data: one row per decision, as Parquet or .npz shards",
        description="Play games between bots and write every decision (observation tensor, legal-action mask, "
        "action, MCTS visit counts, the game's final scores and returns) to DIR as shards part-NNNNN.parquet "
        "(or .npz), schema in docs/selfplay.md. Game i is made from seed SEED + i and seated as in a "
        "tournament; the same arguments give the same bytes for any number of workers, locally or on Ray.")
    cmd.add_argument("--bots", required=True, metavar="SPECS",
                     help="comma-separated bot specs (one bot plays every seat; several rotate over the seats), "
                     "e.g. mcts:400 or random,greedy")
    cmd.add_argument("--games", type=positive, default=100, help="games to play (default: 100)")
    cmd.add_argument("--players", type=int, choices=[2, 3, 4], default=2)
    cmd.add_argument("--variant", choices=["classic", "grey", "summer-pavilion"], default="classic")
    cmd.add_argument("--seed", type=seed, default=0, help="seed of the first game, 0..2**64-1 (default: 0)")
    cmd.add_argument("--format", choices=FORMATS, default="parquet",
                     help="parquet (needs pyarrow: azul-engine[data]) or npz (numpy only); default parquet")
    cmd.add_argument("-o", "--output", required=True, metavar="DIR", help="directory of the shards (made if missing)")
    cmd.add_argument("--shard-games", type=positive, default=SHARD_GAMES,
                     help="games per shard (default: %d)" % SHARD_GAMES)
    cmd.add_argument("--workers", type=positive, help="worker processes (default: every core)")
    distributed.add_ray_argument(cmd)
    cmd.add_argument("--backend", choices=["cpp", "python"], help=engine_help)
    cmd.set_defaults(handler=lambda args: _command(args, progress_bar))


def _command(args, progress_bar):
    import sys

    from . import distributed

    def usage(message):
        print(f"azul-engine selfplay: {message}", file=sys.stderr)
        return 2

    try:
        specs = _check(args.bots, args.games, args.players, args.variant, args.seed, args.format,
                       args.shard_games)
        if args.format == "parquet":
            _arrow()
        load_backend(args.backend or BACKEND)
        if not args.ray:
            distributed.check_workers(args.workers)
        if os.path.isdir(args.output) and any(n.startswith("part-") for n in os.listdir(args.output)):
            return usage(f"{args.output} already holds shards: give a new or empty directory")
        os.makedirs(args.output, exist_ok=True)
    except (ValueError, ImportError) as e:
        return usage(str(e))
    except OSError as e:
        return usage(f"cannot write {args.output}: {e.strerror}")
    try:
        with distributed.from_args(args) as where:
            result = run(specs, args.games, args.output, args.players, args.variant, args.seed, args.format,
                         executor=where, backend=args.backend, shard_games=args.shard_games,
                         progress=progress_bar(args.games, "games"))
    except distributed.WorkerDied as e:  # the games before it are in the shards written
        print(f"azul-engine selfplay: {e} (game seeds from {args.seed})", file=sys.stderr)
        return 1
    except (ValueError, ImportError, ConnectionError) as e:
        return usage(str(e))
    except OSError as e:
        return usage(f"cannot write {args.output}: {e.strerror or e}")
    for forfeit in result.forfeits:
        print(f"azul-engine selfplay: left out {forfeit}", file=sys.stderr)
    sys.stdout.write("%s: %d rows in %d shard%s; %s%s\n" % (
        args.output, result.rows, len(result.shards), "" if len(result.shards) == 1 else "s",
        distributed.summary(result.games, result.seconds, result.workers, result.where),
        "; %d left out: a bot forfeited" % len(result.forfeits) if result.forfeits else ""))
    return 1 if result.forfeits else 0
