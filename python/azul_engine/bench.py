"""Random-playout benchmark behind ``python -m azul_engine bench``.

Every figure comes from the public engine API only (``new_game``, ``legal_actions``, ``apply``, ``clone``), so the
same code measures both engines. A playout picks ``legal[rng.randrange(len(legal))]`` with ``rng =
random.Random(seed)`` and the game's own ``seed``: a game depends only on its seed and the rules. That makes the
checksum a signature of the rules (as Stockfish's ``bench`` node count is): it must be equal for every backend, and
if it changes, the rules changed.
"""

import random
import statistics
import time

from . import load_backend

# (players, variant) pairs measured, in output order.
CONFIGS = ((2, "classic"), (2, "grey"), (4, "classic"), (4, "grey"))
CHECKSUM_GAMES = 20  # seeds 0..19 per configuration: a few seconds at most even for the pure-Python engine
CLONE_PLIES = 20  # clones are timed on the state this many random plies into the seed-0 game
CLONE_BATCH = 1000  # clones between clock reads
MAX_PLIES = 10_000  # far above any real game: a rules bug fails the bench instead of hanging it

_FNV_OFFSET, _FNV_PRIME, _MASK64 = 0xCBF29CE484222325, 0x100000001B3, (1 << 64) - 1


def random_playout(engine, players, variant, seed):
    """Play one complete game with uniformly random legal moves; return ``(final scores by seat, plies)``."""
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


def checksum(engine, players, variant, games=CHECKSUM_GAMES):
    """Hash of the playouts with seeds ``0 .. games-1``: FNV-1a over each game's ply count then its final scores by
    seat, as 16 hex digits. Equal for every backend; a change means a rules change."""
    h = _FNV_OFFSET
    for seed in range(games):
        scores, plies = random_playout(engine, players, variant, seed)
        for value in (plies, *scores):
            h = ((h ^ (value & _MASK64)) * _FNV_PRIME) & _MASK64
    return f"{h:016x}"


def time_playouts(engine, players, variant, seconds=None, games=None):
    """One timed run of playouts with seeds 0, 1, 2, ...: exactly ``games`` games if given, else until ``seconds``
    have passed (the game in progress is finished). Returns ``(games, plies, elapsed seconds)``."""
    played = plies = 0
    start = time.perf_counter()
    while True:
        plies += random_playout(engine, players, variant, played)[1]
        played += 1
        elapsed = time.perf_counter() - start
        if played == games or (games is None and elapsed >= seconds):
            return played, plies, elapsed


def clone_state(engine, players, variant):
    """The mid-game state that clones are timed on: ``CLONE_PLIES`` random plies into the seed-0 game."""
    state = engine.new_game(players=players, variant=variant, seed=0)
    rng = random.Random(0)
    for _ in range(CLONE_PLIES):
        if state.is_over:
            break
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
    return state


def time_clones(state, seconds):
    """Clones per second of ``state.clone()`` over at least ``seconds``."""
    clones = 0
    start = time.perf_counter()
    while True:
        for _ in range(CLONE_BATCH):
            state.clone()
        clones += CLONE_BATCH
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return clones / elapsed


def bench_config(engine, players, variant, repeats=5, seconds=0.2, games=None):
    """Measure one engine on one configuration: one warm-up run, then the median of ``repeats`` timed runs.

    Returns a dict of plain values (also the ``--json`` line): rates per second and the checksum.
    """
    result = {"players": players, "variant": variant, "checksum": checksum(engine, players, variant)}
    time_playouts(engine, players, variant, seconds, games)  # warm-up, discarded
    runs = [time_playouts(engine, players, variant, seconds, games) for _ in range(repeats)]
    state = clone_state(engine, players, variant)
    result["games_per_s"] = round(statistics.median(g / t for g, _, t in runs), 1)
    result["plies_per_s"] = round(statistics.median(p / t for _, p, t in runs), 1)
    result["clones_per_s"] = round(statistics.median(time_clones(state, seconds) for _ in range(repeats)), 1)
    result["games_per_run"] = round(statistics.median(g for g, _, _ in runs))
    return result


def run(backends, configs=CONFIGS, repeats=5, seconds=0.2, games=None):
    """Yield one result dict per backend and configuration, backend-major, as each is measured."""
    for name in backends:
        engine = load_backend(name)
        for players, variant in configs:
            yield {"backend": name, **bench_config(engine, players, variant, repeats, seconds, games)}


def checksum_mismatches(results):
    """Messages for every configuration whose checksum differs between backends (each one an engine bug)."""
    by_config = {}
    for r in results:
        by_config.setdefault((r["players"], r["variant"]), {})[r["backend"]] = r["checksum"]
    return [
        f"checksum mismatch for {players}p {variant}: "
        + ", ".join(f"{name} {value}" for name, value in sums.items())
        for (players, variant), sums in by_config.items()
        if len(set(sums.values())) > 1
    ]


TABLE_HEADER = (
    f"{'backend':<8} {'players':>7}  {'variant':<8} {'games/s':>10} {'plies/s':>11} {'clones/s':>11}  checksum"
)


def table_row(r):
    return (
        f"{r['backend']:<8} {r['players']:>7}  {r['variant']:<8} {r['games_per_s']:>10.1f} "
        f"{r['plies_per_s']:>11.1f} {r['clones_per_s']:>11.0f}  {r['checksum']}"
    )
