"""The benchmark behind ``python -m azul_engine bench``.

For each backend it measures, as the median of repeated timed runs after a warm-up:

- ``engine``: whole games of uniformly random legal moves played inside the engine by one call,
  ``random_playouts(n, threads=1)``: games/s and plies/s, for 2 and 4 players, classic, grey and Summer Pavilion;
- ``engine-light``: the same with the light rollout policy, ``random_playouts(n, threads=1, policy="light")``;
- ``python-loop``: the same kind of games driven from Python, one ``legal_actions()``, a choice and one
  ``apply()`` per ply: plies/s;
- ``batched``: a ``VectorGame`` stepped from Python with actions chosen by numpy from its legal lists: plies/s;
- ``batched-env``: the same ``VectorGame`` (``auto_reset="next_step"``) stepped as the Gymnasium vector
  environment steps it (``azul_engine.envs``, docs/rl.md), each step also writing every game's observation and
  reward into buffers: plies/s, and its share of the ``batched`` row;
- ``clone``: ``state.clone()`` of a mid-game state: clones/s;
- ``threads``: ``random_playouts`` on 1 thread and on every core: games/s and the speed-up;
- ``search``: ``search`` at its default settings (4 light rollouts an iteration) from ``SEARCH_POSITIONS``
  mid-game positions of each variant (``search_positions``), one thread: iterations/s, beside the bound its
  rollouts set, ``playouts_from`` games/s from the same positions with the same policy divided by the rollouts
  (docs/search.md section 8);
- ``guided``: the guided search with the built-in network (``bench_network``: the network that ships for the
  variant, else one of its shape with random weights) from the same positions, batches of ``GUIDED_BATCH``
  leaves, one thread: iterations/s, beside the bound the network sets, its forward passes alone on batches of as
  many observation rows of the same kind of positions (docs/network.md, "Speed").

Every figure uses only the public engine API, so the same code measures both engines.  The ``engine`` rows carry a
checksum of the final scores of ``CHECKSUM_GAMES`` seeded random games: a signature of the rules (as Stockfish's
``bench`` node count is). It is the same for every backend, and if it changes, the rules changed.  The
``engine-light`` rows carry the light policy's own checksum (``LIGHT_SIGNATURES``): the rules and that policy.
"""

import os
import random
import statistics
import time

from ._backends import load_backend

# (players, variant) pairs measured, in output order.
CONFIGS = ((2, "classic"), (2, "grey"), (4, "classic"), (4, "grey"), (2, "summer-pavilion"), (4, "summer-pavilion"))
CHECKSUM_GAMES = 200  # random_playouts(200, seed=0) per configuration
CLONE_PLIES = 20  # clones are timed on the state this many random plies into the seed-0 game
MAX_PLIES = 10_000  # far above any real game: a rules bug fails the bench instead of hanging it
BATCH_GAMES = {"cpp": 1024, "python": 32}
SEARCH_POSITIONS = 8
SEARCH_ITERATIONS = {"cpp": 1000, "python": 25}  # a search's budget in the search rows (the default: 1000)
SEARCH_ROLLOUTS = 4
GUIDED_ITERATIONS = {"cpp": 1000, "python": 25}  # a guided search's budget in the guided rows
GUIDED_BATCH = 8  # the guided search's default batch
BENCH_HIDDEN = (256, 256)  # the trunk of bench_network when no network ships for a variant
# The rules' signature: checksum() of every configuration. A bench whose engine prints another value is reported
# (and the benchmarks in benchmarks/ fail): the rules changed, or the engine is broken.
SIGNATURES = {
    (2, "classic"): "a0e2b5e43cede47c",
    (2, "grey"): "6dbb607e387c3884",
    (4, "classic"): "655e85b164d9c845",
    (4, "grey"): "983c711f4aa7f081",
    (2, "summer-pavilion"): "9e6f9d45f61de55a",
    (4, "summer-pavilion"): "40cdf1fe3d4f0185",
}

# checksum(..., policy="light") of every configuration: the rules and the light rollout policy.
LIGHT_SIGNATURES = {
    (2, "classic"): "1238b54cd01ba7aa",
    (2, "grey"): "c1e1f9ea2361a11c",
    (4, "classic"): "e5e31c2d16e8cd7d",
    (4, "grey"): "545625e9a1bce2fe",
    (2, "summer-pavilion"): "5b2ffebc6b15c6d6",
    (4, "summer-pavilion"): "1512b13bcf0f3ae8",
}

_FNV_OFFSET, _FNV_PRIME, _MASK64 = 0xCBF29CE484222325, 0x100000001B3, (1 << 64) - 1


def checksum(engine, players, variant, games=CHECKSUM_GAMES, policy="uniform"):
    """FNV-1a over the final scores, game by game and seat by seat, of ``random_playouts(games, players, variant,
    seed=0, policy=policy)``, as 16 hex digits."""
    h = _FNV_OFFSET
    for value in engine.random_playouts(games, players, variant, seed=0, policy=policy).ravel().tolist():
        h = ((h ^ (value & _MASK64)) * _FNV_PRIME) & _MASK64
    return f"{h:016x}"


def random_playout(engine, players, variant, seed):
    """One game driven from Python with uniformly random legal moves; returns ``(final scores, plies)``."""
    state = engine.new_game(players=players, variant=variant, seed=seed)
    rng = random.Random(seed)
    plies = 0
    while not state.is_over:
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
        plies += 1
        if plies > MAX_PLIES:
            raise RuntimeError(f"{players}p {variant} seed {seed}: no end after {MAX_PLIES} plies")
    return list(state.scores), plies


def clone_state(engine, players, variant):
    """The mid-game state that clones are timed on: ``CLONE_PLIES`` random plies into the seed-0 game."""
    state = engine.new_game(players=players, variant=variant, seed=0)
    rng = random.Random(0)
    for _ in range(CLONE_PLIES):
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
    return state


def search_positions(engine, variant, players=2, count=SEARCH_POSITIONS):
    """The mid-game positions the search rows start from: game i (seed 100 + i) played by the greedy bot (seed i)
    to move 3 + i % 4 of round 2 + i % 2.  (Written on the API of every release since the search bot's first, so
    that benchmarks/search_speed.py can start older installs from the same positions.)"""
    from .bots import GreedyBot

    out = []
    for i in range(count):
        state = engine.new_game(players, variant=variant, seed=100 + i)
        greedy = GreedyBot(i)
        while not state.is_over and (state.round < 2 + i % 2 or state.moves_this_round < 3 + i % 4):
            state.apply(greedy.choose(state))
        out.append(state)
    return out


def search_speed(engine, variant, seconds, repeats, iterations):
    """``(search iterations/s, the rollouts' bound in iterations/s)`` from ``search_positions``, one thread."""
    positions = search_positions(engine, variant)
    seeds = iter(range(1 << 30))

    def bound(n):
        for state in positions:
            engine.playouts_from(state, n, seed=next(seeds), threads=1, policy="light")
        return n * len(positions) / SEARCH_ROLLOUTS

    def searches(n):
        done = 0
        for _ in range(n):
            for state in positions:
                done += engine.search(state, iterations=iterations, seed=next(seeds)).iterations
        return done

    return _timed(searches, seconds, repeats)[0], _timed(bound, seconds, repeats)[0]


def bench_network(engine, variant, players=2):
    """The network of the guided rows: the one that ships for ``variant`` and ``players``, else one of
    ``BENCH_HIDDEN`` units with random weights (numpy's generator, seed 0): the same arithmetic, whatever the
    weights."""
    import numpy as np

    from .network import shipped_path

    path = shipped_path(variant, players)
    if path:
        return engine.load_network(path)
    info = engine.game_info(variant, players)
    rng = np.random.default_rng(0)
    sizes = (info.observation_shape[0],) + BENCH_HIDDEN

    def dense(n_in, n_out):
        return (rng.normal(0, 1 / np.sqrt(n_in), (n_out, n_in)).astype(np.float32), np.zeros(n_out, np.float32))

    trunk = [dense(a, b) for a, b in zip(sizes, sizes[1:])]
    return engine.Network.from_arrays(variant, players, trunk, dense(sizes[-1], info.num_actions),
                                      dense(sizes[-1], players))


def leaf_observations(engine, positions, count, seed=0):
    """``count`` observation rows of positions like a search's leaves: each search position after 1 to 4 random
    moves (a new deal past a round's end included), as float32 ``[count, D]``."""
    import numpy as np

    rng = random.Random(seed)
    rows = []
    while len(rows) < count:
        state = positions[len(rows) % len(positions)].clone()
        for _ in range(rng.randrange(1, 5)):
            if state.is_over:
                break
            if state.is_chance_node:
                outcomes = state.chance_outcomes()
                state.apply(outcomes[rng.randrange(len(outcomes))][0])
            else:
                legal = state.legal_actions()
                state.apply(legal[rng.randrange(len(legal))])
        if not state.is_over and not state.is_chance_node:
            rows.append(state.observation_tensor())
    return np.stack(rows)


def guided_speed(engine, variant, seconds, repeats, iterations, batch=GUIDED_BATCH):
    """``(guided search iterations/s, the network's bound in rows/s)`` from ``search_positions``, one thread: the
    bound is the network's forward passes alone on batches of ``batch`` leaf-like rows (docs/network.md,
    "Speed")."""
    positions = search_positions(engine, variant)
    net = bench_network(engine, variant)
    observations = leaf_observations(engine, positions, batch * 16)
    batches = [observations[i:i + batch] for i in range(0, len(observations), batch)]
    seeds = iter(range(1 << 30))

    def bound(n):
        for rows in batches:
            net._forward_seconds(rows, n)
        return n * len(observations)

    def searches(n):
        done = 0
        for _ in range(n):
            for state in positions:
                done += engine.search(state, evaluator=net, iterations=iterations, batch=batch,
                                      seed=next(seeds)).iterations
        return done

    return _timed(searches, seconds, repeats)[0], _timed(bound, seconds, repeats)[0]


def _timed(run, seconds, repeats):
    """Median rate of ``run(size) -> units done`` over ``repeats`` runs of about ``seconds`` each, after a warm-up
    that also picks ``size``; returns ``(median units/s, median size)``."""
    size, elapsed = 1, 0.0
    while elapsed < seconds / 4:  # warm-up, and grow the run until it is long enough to time
        start = time.perf_counter()
        run(size)
        elapsed = time.perf_counter() - start
        if elapsed < seconds / 4:
            size *= 4
    size = max(1, int(size * seconds / max(elapsed, 1e-9)))
    run(size)  # one more full-length warm-up run: the first ones ran before the clock speed settled
    rates = []
    for _ in range(repeats):
        start = time.perf_counter()
        units = run(size)
        rates.append(units / (time.perf_counter() - start))
    return statistics.median(rates), size


def engine_playouts(engine, players, variant, seconds, repeats, threads=1, policy="uniform"):
    """In-engine random games: (games/s, plies/s) medians."""
    plies_per_game = []

    def run(n):
        _, plies = engine.random_playouts(n, players, variant, seed=len(plies_per_game), threads=threads,
                                          with_plies=True, policy=policy)
        plies_per_game.append(plies / n)
        return n

    games_per_s, _ = _timed(run, seconds, repeats)
    return games_per_s, games_per_s * statistics.median(plies_per_game)


def python_loop(engine, players, variant, seconds, repeats):
    """Plies/s of games driven from Python one ply at a time."""
    seeds = iter(range(1 << 30))

    def run(n):
        plies = 0
        while plies < n:
            plies += random_playout(engine, players, variant, next(seeds))[1]
        return plies

    return _timed(run, seconds, repeats)[0]


def batched(engine, players, variant, games, seconds, repeats):
    """Plies/s through ``VectorGame.step``, actions drawn by numpy from each game's legal list; finished games
    are restarted."""
    import numpy as np

    vec = engine.VectorGame(games, players, variant, seed=0)
    rng = np.random.default_rng(0)
    rows = np.arange(games)

    def run(steps):
        plies = 0
        for _ in range(steps):
            done = vec.done
            if done.any():
                vec.reset(np.flatnonzero(done))
            pick = (rng.random(games) * vec.num_legal).astype(np.int64)
            vec.step(vec.legal_actions[rows, pick])
            plies += games
        return plies

    return _timed(run, seconds, repeats)[0]


def batched_env(engine, players, variant, games, seconds, repeats):
    """Plies/s through ``VectorGame.step(actions, observations=..., rewards=...)`` with the next-step autoreset:
    the engine's part of a Gymnasium vector environment's step (observations, masks and rewards each step)."""
    import numpy as np

    vec = engine.VectorGame(games, players, variant, seed=0, auto_reset="next_step")
    observations = vec.observation_tensors()
    rewards = np.zeros(games, dtype=np.float32)
    rng = np.random.default_rng(0)
    rows = np.arange(games)

    def run(steps):
        for _ in range(steps):
            pick = (rng.random(games) * np.maximum(vec.num_legal, 1)).astype(np.int64)
            vec.step(vec.legal_actions[rows, pick], observations=observations, rewards=rewards)
        return steps * games

    return _timed(run, seconds, repeats)[0]


def clones(engine, seconds, repeats):
    state = clone_state(engine, 2, "classic")

    def run(n):
        for _ in range(n):
            state.clone()
        return n

    return _timed(run, seconds, repeats)[0]


def run(backends, configs=CONFIGS, repeats=5, seconds=0.2, threads=None, progress=None):
    """Yield one result dict per measurement (the ``--json`` lines), backend by backend; ``threads`` for the
    scaling row (default: every core). ``progress(text)``, when given, is called as each section of rows begins
    (``bench`` writes it on standard error): the pure engine's search rows take several seconds each."""
    threads = threads or os.cpu_count() or 1
    started = time.perf_counter()

    def section(name, what, rows):
        if progress is not None:
            progress("bench: %s: %s (%d row%s), %.0f s so far" % (name, what, rows, "s" if rows != 1 else "",
                                                                  time.perf_counter() - started))

    for name in backends:
        engine = load_backend(name)
        section(name, "in-engine random games", len(configs))
        engine_playouts(engine, 2, "classic", seconds, 2)  # discarded: lets the clock speed settle
        for players, variant in configs:
            games_per_s, plies_per_s = engine_playouts(engine, players, variant, seconds, repeats)
            yield {"backend": name, "measure": "engine", "players": players, "variant": variant, "threads": 1,
                   "games_per_s": round(games_per_s, 1), "plies_per_s": round(plies_per_s, 1),
                   "checksum": checksum(engine, players, variant)}
        section(name, "in-engine games, light policy", len(configs))
        for players, variant in configs:
            games_per_s, plies_per_s = engine_playouts(engine, players, variant, seconds, repeats, policy="light")
            yield {"backend": name, "measure": "engine-light", "players": players, "variant": variant,
                   "threads": 1, "games_per_s": round(games_per_s, 1), "plies_per_s": round(plies_per_s, 1),
                   "checksum": checksum(engine, players, variant, policy="light")}
        section(name, "Python loop", len(configs))
        for players, variant in configs:
            yield {"backend": name, "measure": "python-loop", "players": players, "variant": variant,
                   "plies_per_s": round(python_loop(engine, players, variant, seconds, repeats), 1)}
        games = BATCH_GAMES[name]
        section(name, "VectorGame, the env step, clone() and threads", 6)
        for variant in ("classic", "summer-pavilion"):
            plain = batched(engine, 2, variant, games, seconds, repeats)
            yield {"backend": name, "measure": "batched", "players": 2, "variant": variant, "games": games,
                   "plies_per_s": round(plain, 1)}
        for variant in ("classic", "summer-pavilion"):
            env = batched_env(engine, 2, variant, games, seconds, repeats)
            yield {"backend": name, "measure": "batched-env", "players": 2, "variant": variant, "games": games,
                   "plies_per_s": round(env, 1)}
        yield {"backend": name, "measure": "clone", "players": 2, "variant": "classic",
               "clones_per_s": round(clones(engine, seconds, repeats), 1)}
        one = engine_playouts(engine, 2, "classic", seconds, repeats, threads=1)[0]
        every = engine_playouts(engine, 2, "classic", seconds, repeats, threads=threads)[0]
        yield {"backend": name, "measure": "threads", "players": 2, "variant": "classic", "threads": threads,
               "games_per_s_1_thread": round(one, 1), "games_per_s": round(every, 1),
               "speedup": round(every / one, 2)}
        section(name, "search, %d iterations" % SEARCH_ITERATIONS[name], 3)
        for variant in ("classic", "grey", "summer-pavilion"):
            found, bound = search_speed(engine, variant, seconds, repeats, SEARCH_ITERATIONS[name])
            yield {"backend": name, "measure": "search", "players": 2, "variant": variant,
                   "iterations": SEARCH_ITERATIONS[name], "iterations_per_s": round(found, 1),
                   "bound_iterations_per_s": round(bound, 1), "ratio": round(found / bound, 3)}
        section(name, "guided search", 2)
        for variant in ("classic", "summer-pavilion"):
            found, bound = guided_speed(engine, variant, seconds, repeats, GUIDED_ITERATIONS[name])
            yield {"backend": name, "measure": "guided", "players": 2, "variant": variant,
                   "iterations": GUIDED_ITERATIONS[name], "batch": GUIDED_BATCH, "iterations_per_s": round(found, 1),
                   "bound_iterations_per_s": round(bound, 1), "ratio": round(found / bound, 3)}


def checksum_mismatches(results):
    """Messages for every configuration whose checksum differs between backends or from ``SIGNATURES`` (each one
    an engine bug, or a rules change that must update the signature); the light rows against ``LIGHT_SIGNATURES``."""
    by_config = {}
    for r in results:
        if "checksum" in r:
            light = r["measure"] == "engine-light"
            by_config.setdefault((r["players"], r["variant"], light), {})[r["backend"]] = r["checksum"]
    out = []
    for (players, variant, light), sums in by_config.items():
        signature = (LIGHT_SIGNATURES if light else SIGNATURES).get((players, variant))
        if set(sums.values()) != {signature}:
            out.append(f"{'light-policy ' if light else ''}checksum mismatch for {players}p {variant}: "
                       + ", ".join(f"{name} {value}" for name, value in sums.items()) + f" (signature {signature})")
    return out


# what was measured, the configuration, games/s, its unit, plies/s (or clones/s), its unit, the checksum
_COLUMNS = (37, 19, 12, 9, 13, 9, 0)


def table_row(r):
    """One line of the readable table for result ``r`` (columns laid out by rich, see ``textui.row``)."""
    from .textui import row
    what = f"{r['players']}p {r['variant']}"
    m = r["measure"]
    if m == "engine":
        cells = ["  in-engine random games, 1 thread", what, f"{r['games_per_s']:,.0f}", " games/s",
                 f"{r['plies_per_s']:,.0f}", " plies/s", f"  checksum {r['checksum']}"]
    elif m == "engine-light":
        cells = ["  in-engine games, light policy", what, f"{r['games_per_s']:,.0f}", " games/s",
                 f"{r['plies_per_s']:,.0f}", " plies/s", f"  checksum {r['checksum']}"]
    elif m == "python-loop":
        cells = ["  Python loop, apply() per ply", what, "", "", f"{r['plies_per_s']:,.0f}", " plies/s", ""]
    elif m == "batched":
        cells = [f"  VectorGame.step, {r['games']:>4} games", what, "", "", f"{r['plies_per_s']:,.0f}", " plies/s",
                 ""]
    elif m == "batched-env":
        cells = [f"  env step (+obs, rewards) {r['games']:>4}", what, "", "", f"{r['plies_per_s']:,.0f}",
                 " plies/s", "  (the Gymnasium vector env's engine pass)"]
    elif m == "clone":
        cells = ["  clone()", what, "", "", f"{r['clones_per_s']:,.0f}", " clones/s", ""]
    elif m == "search":
        cells = [f"  search, {r['iterations']} iterations", what, f"{r['iterations_per_s']:,.0f}", " it/s",
                 f"{r['bound_iterations_per_s']:,.0f}", " bound", f"  {r['ratio']:.2f}x the rollouts' bound"]
    elif m == "guided":
        cells = [f"  guided search, network, batch {r['batch']}", what, f"{r['iterations_per_s']:,.0f}", " it/s",
                 f"{r['bound_iterations_per_s']:,.0f}", " bound", f"  {r['ratio']:.2f}x the network's bound"]
    else:
        return (f"  threads: 1 -> {r['games_per_s_1_thread']:,.0f} games/s, all cores -> {r['games_per_s']:,.0f} "
                f"games/s ({r['speedup']:.2f}x)")
    return row(cells, _COLUMNS, justify="llrlrll", gap=0)
