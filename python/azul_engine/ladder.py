"""The rated ladder: reference bots with ratings measured here, per variant at two players, and ``azul-engine
rate``, which places a new bot on it (docs/tournaments.md, "The ladder").

The rungs are bots whose play depends on nothing but their seeds (and a network's weights): ``random``,
``greedy``, ``mcts`` at fixed iteration budgets (never seconds, so that a loaded machine plays the same games)
and, where a network ships for the variant, that network alone and in its search (``net:policy_only=1``, ``net``:
800 iterations a move; the ladder records which network, by its sha256).  ``measure`` plays each rung
against the next ``reach`` rungs above it on the same deals (each deal in both seatings) and rates them all
together (``ratings.rate``, anchored at ``greedy`` = 0); ``benchmarks/ladder.py`` runs it and writes the ladder
file.  The package carries one, ``data/ladder.json``, whose ``made`` field says how it was made.

``place`` rates a new bot against the ladder's fixed ratings: in rounds, it plays ``batch`` deals (two
seat-swapped games each) against the rung just below its current estimate and the rung just above (the two
lowest or highest at the ends; the two middle rungs first), fits its rating by maximum likelihood against the
rungs' ratings, and stops when the 95% interval is at most ``precision`` Elo either side (deals as the unit, as
in ``ratings``, but never narrower than with games as independent: a few deals that happen to agree cannot stop
it early), or when ``max_games`` are played, or when it won (lost) every game against the top (bottom)
rung: then it is beyond the ladder, and its rating a bound.  The interval that stops it is the measurement's;
the one reported beside it also carries the rungs' own uncertainty (``error_total``).
"""

from __future__ import annotations

import datetime
import importlib.resources
import json
import math
import os
import sys
from typing import Any, Callable, Dict, Hashable, List, Optional, Sequence, Tuple

from . import distributed, outputs, ratings, tournament
from ._backends import engine_named
from ._version import __version__

__all__ = ["FORMAT", "VERSION", "RUNGS", "NETWORK_RUNGS", "ANCHOR", "Rung", "Ladder", "default_path", "rungs_for",
           "load", "merge", "measure", "Placement", "place", "register"]

FORMAT, VERSION = "azul-ladder", 1
RUNGS = ("random", "greedy", "mcts:30", "mcts:100", "mcts:300", "mcts:1000", "mcts:3000", "mcts:10000")  # weakest first
# The networks that ship (azul_engine.network.SHIPPED) are rungs of their variant's ladder: each bot placed just
# above the rung named here, where ``rate`` put it on the provisional ladder (docs/tournaments.md, 2026-12-07).
# The order only says which rungs a rung plays (the next ``reach`` above it); the ratings are fitted together.
NETWORK_RUNGS: Dict[str, Tuple[Tuple[str, str], ...]] = {
    "classic": (("net:policy_only=1", "greedy"), ("net", "mcts:1000")),
    "summer-pavilion": (("net:policy_only=1", "mcts:300"), ("net", "mcts:10000")),
}
ANCHOR = "greedy"  # at 0: a deterministic bot that plays every variant
VARIANTS = ("classic", "grey", "summer-pavilion")
PRECISION = 40.0  # Elo either side of the rating, 95%, at which rate stops
MAX_GAMES = 1000
BATCH = 10  # deals against each of the two rungs per round


class Rung:
    """One bot of the ladder: ``bot`` (its spec), ``elo``, ``error`` (half its 95% interval) and ``games``."""

    __slots__ = ("bot", "elo", "error", "games")

    def __init__(self, bot: str, elo: float, error: float, games: int) -> None:
        self.bot, self.elo, self.error, self.games = bot, elo, error, games

    def __repr__(self) -> str:
        return "Rung(%r, %.1f +- %.1f)" % (self.bot, self.elo, self.error)


class Ladder:
    """The ladder of one variant: ``rungs`` (weakest first), ``anchor``, ``anchor_elo``, ``variant``, ``made`` (how
    this variant was measured), ``provisional``, ``path`` (the file) and ``network`` (``{"file", "sha256"}`` of the
    network its ``net`` rungs played, or None)."""

    def __init__(self, variant: str, rungs: List[Rung], anchor: str, anchor_elo: float, made: Dict[str, Any],
                 provisional: bool, path: str, network: Optional[Dict[str, str]] = None) -> None:
        self.variant, self.rungs, self.anchor, self.anchor_elo = variant, rungs, anchor, anchor_elo
        self.made, self.provisional, self.path, self.network = made, provisional, path, network

    def describe(self) -> str:
        made = self.made
        how = ", ".join("%s %s" % (k, made[k]) for k in ("deals", "reach", "seed", "date") if k in made)
        return "%s ladder (%s%s; anchor %s = %g): %s" % (
            self.variant, "provisional, " if self.provisional else "", how, self.anchor, self.anchor_elo,
            ", ".join("%s %s" % (r.bot, ratings.format_elo(r.elo)) for r in self.rungs))


def rungs_for(variant: str) -> List[str]:
    """The rungs of ``variant``'s ladder, weakest first: ``RUNGS``, and the networks that ship for it at two
    players (``NETWORK_RUNGS``) in their places."""
    from .network import shipped_path

    out = list(RUNGS)
    if shipped_path(variant, 2) is not None:
        for bot, below in NETWORK_RUNGS.get(variant, ()):
            out.insert(out.index(below) + 1, bot)
    return out


def shipped_network(variant: str) -> Optional[Dict[str, str]]:
    """``{"file", "sha256"}`` of the 2-player network that ships for ``variant`` (what a ``net`` rung without a
    path plays), or None."""
    import hashlib

    from .network import shipped_path

    path = shipped_path(variant, 2)
    if path is None:
        return None
    with open(path, "rb") as f:
        return {"file": os.path.basename(path), "sha256": hashlib.sha256(f.read()).hexdigest()}


def _has_path(spec: str) -> bool:
    """Whether a ``net`` spec names its own weights file (``net:PATH...``, ``net:path=...``)."""
    from .bot_specs import parse_bot_spec

    try:
        return parse_bot_spec(spec)[1].get("path") is not None
    except ValueError:
        return False


def default_path() -> str:
    """The ladder file the package carries."""
    return str(importlib.resources.files("azul_engine") / "data" / "ladder.json")


def _bad(path: str, why: str) -> ValueError:
    return ValueError("%s is not a ladder file: %s" % (path, why))


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def load(variant: str, path: Optional[str] = None) -> Ladder:
    """The ladder of ``variant`` in the file ``path`` (default: the package's).  ValueError says what is wrong
    with the file, or that it has no ladder for that variant; OSError when it cannot be read."""
    path = path or default_path()
    return _ladder(_read(path), variant, path)


def _read(path: str) -> Dict[str, Any]:
    """A ladder file's content, its format, version and variants checked (ValueError naming the file)."""
    with open(path, encoding="utf-8") as f:
        try:
            data = json.load(f)
        except ValueError as e:
            raise _bad(path, "not JSON (%s)" % e) from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise _bad(path, "its format is not %r" % FORMAT)
    if data.get("version") != VERSION:
        raise _bad(path, "version %r, not %d" % (data.get("version"), VERSION))
    if not isinstance(data.get("variants"), dict):
        raise _bad(path, "no variants")
    return data


def _ladder(data: Dict[str, Any], variant: str, path: str) -> Ladder:
    """The Ladder of ``variant`` in a ladder file's content ``data`` (read by ``_read`` from ``path``)."""
    variants = data["variants"]
    if variant not in variants:
        raise ValueError("%s has no ladder for %s (it has: %s)" % (path, variant, ", ".join(sorted(variants))
                                                                  or "none"))
    entry = variants[variant]
    rungs = entry.get("rungs") if isinstance(entry, dict) else None
    if not isinstance(rungs, list) or len(rungs) < 2:
        raise _bad(path, "%s: fewer than two rungs" % variant)
    out = []
    for k, rung in enumerate(rungs):
        if (not isinstance(rung, dict) or not isinstance(rung.get("bot"), str) or not _number(rung.get("elo"))
                or not _number(rung.get("error")) or rung["error"] < 0):
            raise _bad(path, "%s: rung %d is not {bot, elo, error, games}" % (variant, k + 1))
        out.append(Rung(rung["bot"], float(rung["elo"]), float(rung["error"]), int(rung.get("games") or 0)))
    if len({r.bot for r in out}) != len(out):
        raise _bad(path, "%s: a bot is on it twice" % variant)
    out.sort(key=lambda r: r.elo)
    # A variant measured on its own (benchmarks/ladder.py --update) carries its own made and provisional.
    made: Dict[str, Any] = entry.get("made") if isinstance(entry.get("made"), dict) else \
        data["made"] if isinstance(data.get("made"), dict) else {}
    provisional = entry["provisional"] if isinstance(entry.get("provisional"), bool) else data.get("provisional")
    anchor = entry.get("anchor", ANCHOR)
    anchor_elo = entry.get("anchor_elo", 0.0)
    network = entry.get("network")
    if network is not None and not (isinstance(network, dict) and isinstance(network.get("file"), str)
                                    and isinstance(network.get("sha256"), str)):
        raise _bad(path, "%s: its network is not {file, sha256}" % variant)
    return Ladder(variant, out, str(anchor), float(anchor_elo) if _number(anchor_elo) else 0.0, made,
                  bool(provisional), path, network)


def read_for_update(path: str, measured: Sequence[str]) -> Optional[Dict[str, Any]]:
    """The content of the ladder file ``path`` that a run measuring ``measured`` will update (``merge``), or None
    when there is none (no file, or an empty one).  The variants it keeps are checked as ``load`` reads them;
    ValueError (naming the file) for a file that is no ladder file, OSError for one that cannot be read."""
    if not os.path.exists(path) or (os.path.isfile(path) and os.path.getsize(path) == 0):
        return None
    data = _read(path)
    for variant in data["variants"]:
        if variant not in measured:  # kept: it must read as rate reads it
            if variant not in VARIANTS:
                raise _bad(path, "an unknown variant, %r" % (variant,))
            _ladder(data, variant, path)
    return data


def merge(old: Dict[str, Any], new: Dict[str, Any]) -> Dict[str, Any]:
    """A ladder file's content with ``new``'s variants and ``old``'s others (a ladder measured variant by
    variant).  Each variant keeps the ``made`` and ``provisional`` of the run that measured it (in its entry);
    the file's own are the newest run's, and the file is provisional if any variant is."""
    variants: Dict[str, Any] = {}
    for data in (old, new):
        made = data.get("made") if isinstance(data.get("made"), dict) else {}
        for variant, entry in data["variants"].items():
            if not isinstance(entry, dict):
                continue
            entry = dict(entry)
            entry.setdefault("made", made)
            entry.setdefault("provisional", bool(data.get("provisional")))
            variants[variant] = entry
    ordered = {v: variants[v] for v in VARIANTS if v in variants}
    ordered.update((v, e) for v, e in variants.items() if v not in ordered)
    return {"format": FORMAT, "version": VERSION, "provisional": any(e["provisional"] for e in ordered.values()),
            "made": new["made"], "variants": ordered}


# -- measuring the ladder ----------------------------------------------------------------------------------------

def measure(variants: Sequence[str] = VARIANTS, rungs: Optional[Sequence[str]] = None, deals: int = 100, seed: int = 0,
            reach: int = 2, executor: Optional[distributed.Executor] = None, backend: Optional[str] = None,
            records: Optional[str] = None, progress: Optional[Callable[[str], object]] = None,
            provisional: bool = False, command: Optional[str] = None) -> Dict[str, Any]:
    """Measure the ladder of each of ``variants``: every rung (default: ``rungs_for(variant)``, weakest first)
    against the next ``reach`` rungs above it, ``deals`` deals each (deal seeds ``seed`` to ``seed + deals - 1``,
    the same for every pair), rated together with ``ANCHOR`` at 0 (it must be one of the rungs).  ``records``: a
    directory where the games go, one file per variant (``ladder-VARIANT.jsonl``, replaced), so that
    ``azul-engine ratings`` can recompute the figures.  Returns the ladder file's content (``json.dump`` it)."""
    given = list(rungs) if rungs is not None else None
    if given is not None and ANCHOR not in given:
        raise ValueError("the rungs must include the anchor, %s" % ANCHOR)
    if isinstance(reach, bool) or not isinstance(reach, int) or reach < 1:
        raise ValueError("reach must be 1 or more, not %r" % (reach,))
    for variant in variants:
        if variant not in VARIANTS:
            raise ValueError("variant must be one of %s, not %r" % (", ".join(VARIANTS), variant))
    out: Dict[str, Any] = {}
    for variant in variants:
        rungs = given if given is not None else rungs_for(variant)
        games: List[ratings.GameResult] = []
        path = os.path.join(records, "ladder-%s.jsonl" % variant) if records else None
        first = True
        for i, low in enumerate(rungs):
            for high in rungs[i + 1:i + 1 + reach]:
                plan = tournament.plan([low, high], players=2, variant=variant, deals=deals, seed=seed, check=True)
                result = tournament.run(plan, backend=backend, executor=executor, output=path,
                                        output_mode="replace" if first else "append", workers=1 if executor is
                                        None else None)
                first = False
                games.extend(result.games())
                if progress:
                    progress("%s: %s vs %s: %d games, %s scored %.1f%%" % (
                        variant, low, high, result.played, high,
                        100 * sum(s.wins for s in result.standings if s.bot == high) / result.played))
        rated = ratings.rate(games, anchor=ANCHOR, bots=rungs)
        out[variant] = {"players": 2, "anchor": ANCHOR, "anchor_elo": 0, "games": rated.games,
                        "rungs": [{"bot": r.bot, "elo": round(r.elo, 1), "error": round(r.error, 1),
                                   "games": r.games} for r in sorted(rated.ratings, key=lambda r: r.elo)],
                        "notes": rated.notes}
        network = shipped_network(variant)
        if network and any(b == "net" or b.startswith("net:") and not _has_path(b) for b in rungs):
            out[variant]["network"] = network  # which network the net rungs played
    made = {"command": command or "benchmarks/ladder.py --deals %d --reach %d --seed %d" % (deals, reach, seed),
            "deals": deals, "reach": reach, "seed": seed, "backend": engine_named(backend).NAME, "version": __version__,
            "date": datetime.date.today().isoformat()}
    return {"format": FORMAT, "version": VERSION, "provisional": provisional, "made": made, "variants": out}


# -- placing a bot -------------------------------------------------------------------------------------------

class Placement:
    """Where ``place`` put a bot: ``bot``, ``elo``, ``error`` (the measurement's 95% half-interval),
    ``error_total`` (with the rungs' own errors), ``games``, ``rounds`` (``(opponents, games so far, elo,
    error)`` after each round), ``beyond`` (``"above"``, ``"below"`` or None), ``below`` and ``above`` (the
    rungs around it, or None), ``stopped`` (why it stopped), ``ladder``, ``notes``."""

    def __init__(self, bot: str, ladder: Ladder) -> None:
        self.bot, self.ladder = bot, ladder
        self.elo = self.error = self.error_total = math.nan
        self.games = 0
        self.rounds: List[Tuple[List[str], int, float, float]] = []
        self.beyond: Optional[str] = None
        self.below: Optional[Rung] = None
        self.above: Optional[Rung] = None
        self.stopped = ""
        self.notes: List[str] = []

    def line(self) -> str:
        if self.beyond == "above" and self.below is not None:
            where = "; above the top rung, %s: its rating is a lower bound" % self.below.bot
        elif self.beyond == "below" and self.above is not None:
            where = "; below the bottom rung, %s: its rating is an upper bound" % self.above.bot
        else:
            around = [r for r in (self.below, self.above) if r is not None]
            where = "; between %s" % " and ".join("%s (%s)" % (r.bot, ratings.format_elo(r.elo)) for r in around)
        return "%s: %s +/- %s Elo (+/- %s with the ladder's own error), %d games%s" % (
            self.bot, ratings.format_elo(self.elo), ratings.format_elo(self.error, False),
            ratings.format_elo(self.error_total, False), self.games, where)


def _fit_one(results: List[Tuple[Rung, float, float, Hashable]], prior: float) -> Tuple[float, float, float]:
    """One bot's rating against fixed rungs: ``(elo, error, error_total)`` from ``results`` (the rung, the bot's
    score, its weight, the deal), with ``prior`` virtual draws against each rung played."""
    played: Dict[str, Rung] = {rung.bot: rung for rung, _, _, _ in results}
    terms = [(rung.elo, score, w) for rung, score, w, _ in results]
    terms += [(rung.elo, 0.5, prior) for rung in played.values() if prior]

    def slope(x: float) -> float:
        return sum(w * (s - ratings.expected_score(x - r)) for r, s, w in terms)

    low, high = min(r for r, _, _ in terms) - 4000, max(r for r, _, _ in terms) + 4000
    for _ in range(200):
        mid = (low + high) / 2
        if slope(mid) > 0:
            low = mid
        else:
            high = mid
    x = (low + high) / 2
    scale = ratings.ELO_PER_NAT
    info = {bot: 0.0 for bot in played}
    for rung, _, w, _ in results:
        p = ratings.expected_score(x - rung.elo)
        info[rung.bot] += w * p * (1 - p)
    if prior:
        for rung in played.values():
            p = ratings.expected_score(x - rung.elo)
            info[rung.bot] += prior * p * (1 - p)
    total = sum(info.values())
    clusters: Dict[Hashable, float] = {}
    for rung, score, w, deal in results:
        clusters[deal] = clusters.get(deal, 0.0) + w * (score - ratings.expected_score(x - rung.elo))
    # deals as the unit (the sandwich), but never below the games-as-independent variance: a few deals that
    # happen to agree would make the first narrow, and this one decides when to stop
    var_own = max(sum(g * g for g in clusters.values()) / total ** 2, 1.0 / total) * scale ** 2
    var_rungs = sum((info[bot] / total) ** 2 * (played[bot].error / ratings.Z95) ** 2 for bot in played)
    return x, ratings.Z95 * math.sqrt(var_own), ratings.Z95 * math.sqrt(var_own + var_rungs)


def _opponents(rungs: List[Rung], estimate: Optional[float]) -> List[Rung]:
    """The two rungs to play next: around ``estimate`` (the two middle ones when there is none yet)."""
    if len(rungs) <= 2:
        return list(rungs)
    if estimate is None:
        k = (len(rungs) - 1) // 2
        return rungs[k:k + 2]
    above = next((k for k, r in enumerate(rungs) if r.elo > estimate), len(rungs))
    k = min(max(above - 1, 0), len(rungs) - 2)
    return rungs[k:k + 2]


def place(bot: str, ladder: Ladder, precision: float = PRECISION, max_games: int = MAX_GAMES, batch: int = BATCH,
          seed: int = 0, executor: Optional[distributed.Executor] = None, backend: Optional[str] = None,
          output: Optional[str] = None, output_mode: str = "new", time_limit: Optional[float] = None,
          on_round: Optional[Callable[[Placement], object]] = None) -> Placement:
    """Rate ``bot`` (a spec) on ``ladder`` (see the module's text).  Round ``k`` plays the deals ``seed + k *
    batch`` on, the same against both of its rungs.  ``output``: every game as a record (``output_mode`` for the
    first round; the others add to it).  ``on_round`` is called with the Placement after each round.
    ValueError for a bad argument or a bot that cannot be made."""
    if not (isinstance(precision, (int, float)) and math.isfinite(precision) and precision > 0):
        raise ValueError("precision must be a positive number of Elo, not %r" % (precision,))
    for name, value in (("max_games", max_games), ("batch", batch)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise ValueError("%s must be a positive whole number, not %r" % (name, value))
    rungs = [r for r in ladder.rungs if r.bot != bot]
    result = Placement(bot, ladder)
    if len(rungs) < len(ladder.rungs):
        result.notes.append("%s is a rung of the ladder: it plays the other rungs" % bot)
    if len(rungs) < 2:
        raise ValueError("the ladder needs two rungs besides the bot rated")
    first = 2 * batch * len(_opponents(rungs, None))
    if first > max_games:  # the first round is always played: it would pass max_games
        raise ValueError("max_games %d is less than one round's games: %d (2 seatings x batch %d deals x %d rungs)"
                         % (max_games, first, batch, first // (2 * batch)))
    tournament.plan([bot, rungs[0].bot], players=2, variant=ladder.variant, deals=1, seed=seed, check=True)
    results: List[Tuple[Rung, float, float, Hashable]] = []
    estimate: Optional[float] = None
    mode = output_mode
    k = 0
    while True:
        opponents = _opponents(rungs, estimate)
        deal_seed = seed + k * batch
        for rung in opponents:
            plan = tournament.plan([bot, rung.bot], players=2, variant=ladder.variant, deals=batch, seed=deal_seed)
            played = tournament.run(plan, backend=backend, executor=executor, output=output, output_mode=mode,
                                    time_limit=time_limit, workers=1 if executor is None else None)
            mode = "append"
            for game in played.games():
                seat = game.seats.index(bot)
                score = 0.0 if seat not in game.winners else 1.0 / len(game.winners)
                results.append((rung, score, 1.0, game.deal))
        result.games = len(results)
        points = sum(s for _, s, _, _ in results)
        perfect = points in (0, len(results))
        estimate, result.error, result.error_total = _fit_one(results, ratings.AUTO_PRIOR if perfect else 0.0)
        result.elo = estimate
        result.rounds.append(([r.bot for r in opponents], result.games, result.elo, result.error))
        top, bottom = rungs[-1], rungs[0]
        against: Dict[str, List[float]] = {}
        for rung, score, _, _ in results:
            total = against.setdefault(rung.bot, [0.0, 0])
            total[0] += score
            total[1] += 1
        beyond = None
        if top.bot in against and against[top.bot][0] == against[top.bot][1] and estimate > top.elo:
            beyond = "above"
        elif bottom.bot in against and against[bottom.bot][0] == 0 and estimate < bottom.elo:
            beyond = "below"
        result.beyond = beyond
        result.below = next((r for r in reversed(rungs) if r.elo <= estimate), None)
        result.above = next((r for r in rungs if r.elo > estimate), None)
        if on_round:
            on_round(result)
        k += 1
        if beyond:
            result.stopped = "it won every game against the top rung" if beyond == "above" else \
                "it lost every game against the bottom rung"
            break
        if len(result.rounds) >= 2 and result.error <= precision:
            result.stopped = "the interval is within +/- %g Elo" % precision
            break
        if result.games + 2 * batch * len(_opponents(rungs, estimate)) > max_games:
            result.stopped = "the next round would pass %d games" % max_games
            break
        if seed + (k + 1) * batch > 1 << 64:
            result.stopped = "no deal seeds left"
            break
    if perfect:
        result.notes.append("it won or lost every game: one virtual draw against each rung played was added "
                            "(ratings' prior)")
    return result


# -- the command ---------------------------------------------------------------------------------------------

def register(commands):
    """The ``rate`` command."""
    from . import _cli

    cmd = _cli.add_command(
        commands, "rate", _command, help="place a bot on the rated ladder of reference bots",
        description="Play BOTSPEC against the ladder's reference bots (random, greedy, mcts at fixed iteration "
        "budgets and the networks that ship, rated here per variant at two players) nearest to its rating, in rounds of paired deals, until "
        "its 95 percent interval is narrow enough; print its Elo on the ladder's scale (anchor greedy = 0).")
    cmd.add_argument("bot", metavar="BOTSPEC", help="the bot to rate: any bot spec (mcts:500, "
                     "package.module:Class, cmd:COMMAND ARGS, ...)")
    cmd.add_argument("--variant", choices=list(_cli.VARIANTS), default="classic")
    cmd.add_argument("--ladder", metavar="FILE", help="the ladder file (default: the package's, "
                     "azul_engine/data/ladder.json)")
    cmd.add_argument("--precision", type=_cli.positive(float), default=PRECISION, metavar="ELO",
                     help="stop when the 95%% interval is at most ELO either side (default: %(default)g)")
    cmd.add_argument("--max-games", type=_cli.positive(int), default=MAX_GAMES,
                     help="the most games to play (default: %(default)d)")
    cmd.add_argument("--batch", type=_cli.positive(int), default=BATCH, metavar="DEALS",
                     help="deals against each of the two nearest rungs per round (default: %(default)d)")
    cmd.add_argument("--seed", type=_cli.seed, default=0, help="seed of the first deal (default: 0)")
    cmd.add_argument("-o", "--output", help="write every game to this .jsonl file as a record (one that exists: "
                     "--force or --append)")
    outputs.add_arguments(cmd)
    cmd.add_argument("--time-limit", type=_cli.positive(float), metavar="SECONDS",
                     help="seconds a bot may take for a move (default: no limit)")
    cmd.add_argument("--workers", type=_cli.positive(int), help="worker processes (default: every core)")
    distributed.add_ray_argument(cmd)
    _cli.add_backend(cmd)
    return cmd


def _command(args):
    from . import _cli

    try:
        ladder = load(args.variant, args.ladder)
    except OSError as e:
        return _cli.usage_error(args, "cannot read %s: %s" % (args.ladder or default_path(), e.strerror or e))
    except ValueError as e:
        return _cli.usage_error(args, str(e))
    _cli.out("rate %s on the %s" % (args.bot, ladder.describe()))
    if ladder.provisional:
        _cli.out("note: this ladder is provisional (%s): read its ratings as rough" % (
            ladder.made.get("note") or "measured with few games"))
    if ladder.network and shipped_network(args.variant) != ladder.network:
        _cli.out("note: the ladder's net rungs played the network %s (sha256 %s...), not the one installed now: "
                 "their ratings are those of that network" % (ladder.network["file"], ladder.network["sha256"][:12]))

    def on_round(p):
        last = p.rounds[-1]
        _cli.out("round %d: %s: %d games so far, %s +/- %s" % (
            len(p.rounds), " and ".join("%s (%s)" % (b, ratings.format_elo(next(r.elo for r in ladder.rungs
                                                                                if r.bot == b)))
                                        for b in last[0]),
            last[1], ratings.format_elo(last[2]), ratings.format_elo(last[3], False)))
        sys.stdout.flush()

    try:
        mode = outputs.mode_of(args)
        if args.output is not None:
            outputs.check(args.output, mode)
        if not args.ray:
            distributed.check_workers(args.workers)
        with distributed.from_args(args) as where:
            placed = place(args.bot, ladder, args.precision, args.max_games, args.batch, args.seed, where,
                           args.backend, args.output, mode, args.time_limit, on_round)
    except OSError as e:
        if args.output is not None and e.filename == args.output:
            return _cli.usage_error(args, "cannot write %s: %s" % (args.output, e.strerror))
        return _cli.usage_error(args, str(e))
    except distributed.WorkerDied as e:
        print("azul-engine rate: %s" % e, file=sys.stderr)
        return 1
    except (ValueError, ImportError, ConnectionError) as e:
        return _cli.usage_error(args, str(e))
    _cli.out(placed.line())
    _cli.out("stopped: %s" % placed.stopped)
    for note in placed.notes:
        _cli.out("note: " + note)
    return 0
