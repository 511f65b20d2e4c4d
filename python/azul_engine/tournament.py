"""Tournaments between bots: seat-rotated games on shared deals, played in worker processes.

Seatings.  With as many bots as seats, each deal is played once in every rotation of the bot list over the
seats (bots ``a, b, c`` at 3 players: ``a b c``, ``b c a``, ``c a b``).  With more bots than seats, every
group of ``players`` bots (taken in list order) plays every rotation of itself: each bot meets every other
equally often.  With fewer bots than seats, the list is repeated to fill the seats (``a b a b`` at 4 players)
and rotated (``a b a b``, ``b a b a``: a rotation that gives the same seating again is played once); a bot
then holds several seats of a game, each counted as a game of its own, and when the seats are not a
multiple of the bots, the bots listed first hold one seat more.  Either way each bot plays
each seat equally often (seats held in proportion), on the same deals.

Deals.  Deal ``i`` is the game made from seed ``seed + i``; every seating of a deal plays it, so the bots
face the same factories and bags (until their different moves change the draws' order of use).  The bot in
seat ``s`` of a game from deal seed ``d`` gets ``bots.bot_seed(d, s)``, as in ``bots.play``, so a tournament
gives the same games, records and table for any number of workers.

Scoring.  A bot's wins count 1 for an outright win and ``1/k`` for a win shared by ``k`` seats, so the wins
of all bots add up to the games played.  Win rates carry a 95% Wilson interval, average scores a 95% normal
interval (mean +- 1.96 standard errors; the table cuts it at the game's lowest score, 0, or 1 in Summer
Pavilion).  The games of one deal are not independent, so read the intervals as a guide, not a test.

Ratings.  ``ratings(result)`` rates the bots by Bradley-Terry maximum likelihood, with intervals that count deals
(``azul_engine.ratings``); at two players every pair of bots also has its pentanomial counts.  ``run(plan,
sprt=...)`` with two bots at two players plays deal after deal until fishtest's generalized SPRT on the
pentanomial counts of the first bot against the second decides (or the plan's games run out), then stops the
workers: the result has the games of the deals played, whole.

>>> result = run(plan(["random", "greedy"], players=2, games=4, seed=0), workers=1)
>>> [(s.bot, s.games) for s in result.standings]
[('random', 4), ('greedy', 4)]
>>> sum(s.wins for s in result.standings)
4.0
"""

from __future__ import annotations

import itertools
import math
import time
from typing import Callable, Iterable, List, Optional, Sequence, Tuple, Union

from . import bots, distributed, ratings as _ratings, records
from ._backends import engine_named

__all__ = ["Plan", "PlannedGame", "Standing", "Result", "SPRTState", "seatings", "plan", "play_game", "run", "table",
           "ratings"]

_Z95 = 1.959963984540054
MAX_GAMES = 1_000_000  # a plan lists its games: a limit far above any real tournament keeps it in memory
WORKERS_PER_CORE = distributed.WORKERS_PER_CORE  # worker processes at most per core: more only costs memory


def seatings(count: int, players: int) -> List[Tuple[int, ...]]:
    """The seatings of ``count`` bots at ``players`` seats, as tuples of bot indices by seat (see above).

    >>> seatings(2, 2)
    [(0, 1), (1, 0)]
    >>> seatings(3, 2)
    [(0, 1), (1, 0), (0, 2), (2, 0), (1, 2), (2, 1)]
    >>> seatings(2, 4)
    [(0, 1, 0, 1), (1, 0, 1, 0)]
    """
    if count < 1:
        raise ValueError("a tournament needs at least one bot")
    if count <= players:
        groups = [tuple(i % count for i in range(players))]
    else:
        groups = list(itertools.combinations(range(count), players))
    rotations = (group[r:] + group[:r] for group in groups for r in range(players))
    return list(dict.fromkeys(rotations))  # a repeated list repeats its rotations: each is played once


class PlannedGame:
    """One game of a plan: its index, deal seed and the bot spec of each seat."""

    __slots__ = ("index", "seed", "seats")

    def __init__(self, index: int, seed: int, seats: Iterable[str]) -> None:
        self.index, self.seed, self.seats = index, seed, tuple(seats)

    def __repr__(self) -> str:
        return "PlannedGame(%d, seed=%d, seats=%r)" % (self.index, self.seed, self.seats)


class Plan:
    """What a tournament plays: ``bots`` (specs, in the given order), ``players``, ``variant``, ``seed``,
    ``deals``, ``seatings`` (tuples of bot indices) and ``games`` (the PlannedGame list, deal by deal)."""

    def __init__(self, specs: Sequence[str], players: int, variant: str, seed: int, deals: int,
                 seats: List[Tuple[int, ...]]) -> None:
        self.bots, self.players, self.variant, self.seed = list(specs), players, variant, seed
        self.deals, self.seatings = deals, seats
        self.games = [PlannedGame(d * len(seats) + j, seed + d, [specs[i] for i in seating])
                      for d in range(deals) for j, seating in enumerate(seats)]

    def describe(self, deals: Optional[int] = None) -> str:
        """One line: players, variant, games, deals and seatings, seeds (``deals``: of the first ``deals`` deals
        only, for a run that stopped early, as an SPRT does)."""
        played = self.deals if deals is None else deals
        last = self.seed + played - 1
        return ("%d players, %s, %d games (%d deal%s x %d seatings), seeds %s" % (
            self.players, self.variant, played * len(self.seatings), played, "" if played == 1 else "s",
            len(self.seatings), self.seed if last <= self.seed else "%d-%d" % (self.seed, last)))


def plan(bot_specs: Union[str, Sequence[str]], players: int = 2, variant: str = "classic",
         games: Optional[int] = None, seed: int = 0, deals: Optional[int] = None, check: bool = False) -> Plan:
    """The games of a tournament between ``bot_specs`` (a list, or one comma-separated string: see
    ``bots.split_bot_specs``; any spec of ``bots.resolve_bot_spec``).

    Give ``games``, rounded up to whole deals (every seating of a deal is played), or ``deals``.  Raises
    ValueError for a bad spec, a bot listed twice, a bad player count, no games or more than ``MAX_GAMES``.
    ``check``: also make each bot once (an external engine: start it and greet it), so that a bot that cannot
    be made is a ValueError now, not a forfeit in every game.
    """
    if isinstance(bot_specs, str):
        bot_specs = bots.split_bot_specs(bot_specs)
    specs: List[str] = [s.strip() if isinstance(s, str) else s for s in bot_specs]
    if not specs or not all(specs):
        raise ValueError("give the bots as a comma-separated list of specs, e.g. random,greedy,mcts:2000")
    for spec in specs:
        bots.resolve_bot_spec(spec)
    for spec in specs:
        if specs.count(spec) > 1:
            raise ValueError("bot %r is listed twice (with fewer bots than seats, the list fills the seats)"
                             % spec)
    if isinstance(players, bool) or players not in (2, 3, 4):
        raise ValueError("players must be 2, 3 or 4, not %r" % (players,))
    if variant not in ("classic", "grey", "summer-pavilion"):
        raise ValueError("variant must be 'classic', 'grey' or 'summer-pavilion', not %r" % (variant,))
    if check:
        for spec in specs:
            bots.resolve_bot_spec(spec).check(variant, players)
    seats = seatings(len(specs), players)
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise ValueError("seed must be a whole number 0 or more, not %r" % (seed,))
    if (games is None) == (deals is None):
        raise ValueError("give either games or deals")
    if deals is None:
        if isinstance(games, bool) or not isinstance(games, int) or not 1 <= games <= MAX_GAMES:
            raise ValueError("games must be a whole number from 1 to %d, not %r" % (MAX_GAMES, games))
        deals = -(-games // len(seats))
    elif isinstance(deals, bool) or not isinstance(deals, int) or deals < 1:
        raise ValueError("deals must be positive, not %r" % (deals,))
    if deals * len(seats) > MAX_GAMES:
        raise ValueError("%d deals x %d seatings is %d games: a tournament plays at most %d"
                         % (deals, len(seats), deals * len(seats), MAX_GAMES))
    if seed + deals > 1 << 64:
        raise ValueError("deal seeds %d-%d pass 2**64-1" % (seed, seed + deals - 1))
    return Plan(specs, players, variant, seed, deals, seats)


def play_game(backend: str, players: int, variant: str, seed: int, seats: Sequence[str],
              time_limit: Optional[float] = None, event: Optional[str] = None,
              date: Optional[str] = None) -> Tuple[str, List[int], List[int], Optional[Tuple[int, str]]]:
    """Play one game (``bots.play_match``) on the engine named ``backend``: ``(record_json, scores, winners,
    forfeit)``, ``forfeit`` None or ``(seat, reason)``.  A top-level function, so that worker processes can run
    it."""
    table = bots.play_match(engine_named(backend), players, variant, seed, list(seats), time_limit=time_limit,
                            event=event, date=date)
    forfeit = None if table.forfeit is None else (table.forfeit.seat, table.forfeit.reason)
    return table.record_json(), table.scores, table.winners, forfeit


class Standing:
    """One bot's results: ``games`` (seats played), ``wins`` (shared wins as fractions), ``scores``."""

    def __init__(self, bot: str) -> None:
        self.bot, self.games, self.wins = bot, 0, 0.0
        self.scores: List[int] = []
        self.forfeits = 0  # games this bot lost by forfeit

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else float("nan")

    @property
    def win_interval(self) -> Tuple[float, float]:
        """The 95% Wilson interval of the win rate."""
        n, p, z = self.games, self.win_rate, _Z95
        if not n:
            return float("nan"), float("nan")
        centre = (p + z * z / (2 * n)) / (1 + z * z / n)
        half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
        return max(0.0, centre - half), min(1.0, centre + half)

    @property
    def mean_score(self) -> float:
        return sum(self.scores) / len(self.scores) if self.scores else float("nan")

    @property
    def score_interval(self) -> Tuple[float, float]:
        """The 95% normal interval of the average score (mean +- 1.96 standard errors)."""
        n, mean = len(self.scores), self.mean_score
        if n < 2:
            return mean, mean
        sd = math.sqrt(sum((s - mean) ** 2 for s in self.scores) / (n - 1))
        half = _Z95 * sd / math.sqrt(n)
        return mean - half, mean + half


class SPRTState:
    """An SPRT as it goes: ``test`` (a ``ratings.SPRT``), ``counts`` (the first bot's pentanomial counts so far),
    ``llr``, ``games`` played and ``decision`` (``"H1"``, ``"H0"`` or None)."""

    def __init__(self, test: _ratings.SPRT) -> None:
        self.test, self.counts, self.llr, self.games = test, [0] * 5, 0.0, 0
        self.decision: Optional[str] = None

    def line(self) -> str:
        """``LLR: 1.23 (-2.94, 2.94) [0.00, 10.00] nElo, 40 games``, and the decision once there is one."""
        return _ratings.sprt_line(self.test, self.llr, self.games, self.decision)


class Result:
    """A finished tournament: its ``plan``, ``standings`` (one per bot, in the plan's order), ``backend``,
    ``workers``, wall-clock ``seconds``, ``where`` the games ran (``"local"``, ``"ray HOST:PORT"``) and
    ``forfeits``: ``(game, seat, reason)`` for each game lost by forfeit (``game`` a ``PlannedGame`` of the plan).
    ``outcomes``: ``(scores, winners)`` of each game played, in the plan's order (``played`` of them: fewer than
    the plan's games when an SPRT stopped the run); ``sprt``: the SPRTState, or None."""

    def __init__(self, plan: Plan, standings: List[Standing], backend: str, workers: int, seconds: float,
                 where: str = "local", forfeits: Iterable[Tuple[PlannedGame, int, str]] = (),
                 outcomes: Optional[List[Tuple[Tuple[int, ...], Tuple[int, ...]]]] = None,
                 sprt: Optional[SPRTState] = None) -> None:
        self.plan, self.standings = plan, standings
        self.backend, self.workers, self.seconds = backend, workers, seconds
        self.where = where
        self.forfeits = list(forfeits)
        self.outcomes = outcomes if outcomes is not None else []
        self.sprt = sprt

    @property
    def played(self) -> int:
        """Games played."""
        return len(self.outcomes)

    def games(self) -> List[_ratings.GameResult]:
        """The games played, as the ratings take them (the deal of each: variant, players and deal seed)."""
        return [_ratings.GameResult(game.seats, scores, winners, (self.plan.variant, self.plan.players, game.seed))
                for game, (scores, winners) in zip(self.plan.games, self.outcomes)]


def run(plan: Plan, workers: Optional[int] = None, backend: Optional[str] = None, output: Optional[str] = None,
        progress: Optional[Callable[[int], object]] = None, executor: Optional[distributed.Executor] = None,
        time_limit: Optional[float] = None, event: Optional[str] = None, date: Optional[str] = None,
        output_mode: str = "new", sprt: Optional[_ratings.SPRT] = None,
        on_deal: Optional[Callable[[SPRTState], object]] = None) -> Result:
    """Play every game of ``plan`` (a Plan) and return the Result.

    ``workers``: processes, at most ``WORKERS_PER_CORE`` per core (default: every core; 1 plays in this
    process); ValueError for more.  ``executor``: where to play instead (a ``distributed.Executor``, e.g. a
    ``RayExecutor``; ``workers`` is then ignored; the caller closes it); every executor gives the same games in
    the same order.  ``backend``: ``"cpp"`` or
    ``"python"`` (default: the active engine).  ``output``: a path; every game is written to it as a record
    line, in the plan's order, saying who played (``bots``, and ``event`` and ``date`` when given); one that
    exists is an ``outputs.OutputExists`` unless ``output_mode`` is ``"replace"`` or ``"append"``.
    ``progress``: called with the number of games finished after each game.  ``time_limit``: seconds a bot may
    take for a move (None: no limit).  A bot that crashes, answers an illegal move or runs out of time loses
    that game by forfeit (``bots.play_match``; in the record, and in ``Result.forfeits``); the others go on.

    ``sprt``: a ``ratings.SPRT`` (the plan must have two bots at two players): after each deal the LLR of the
    first bot's pentanomial counts is computed (``on_deal`` is called with the SPRTState), and once it passes a
    bound no more games are taken: the executor's tasks still running are stopped (a local pool is terminated, Ray
    tasks cancelled; a Ray instance the executor started ends them when it closes) and the result, its records
    included, holds the deals played.  Each task is then one deal, so that little is played past the decision.
    """
    if sprt is not None and (len(plan.bots) != 2 or plan.players != 2):
        raise ValueError("an SPRT needs two bots at two players (given %d bots, %d players)"
                         % (len(plan.bots), plan.players))
    backend = engine_named(backend).NAME  # an ImportError here, not in every worker
    own = executor is None
    if executor is None:
        distributed.check_workers(workers)
        executor = distributed.LocalExecutor(max(1, min(workers or distributed.default_workers(),
                                                        len(plan.games))))
    jobs = ((backend, plan.players, plan.variant, g.seed, g.seats, time_limit, event, date) for g in plan.games)
    forfeits = []
    standings = {spec: Standing(spec) for spec in plan.bots}
    outcomes: List[Tuple[Tuple[int, ...], Tuple[int, ...]]] = []
    state = SPRTState(sprt) if sprt is not None else None
    per_deal = len(plan.seatings)
    out = None
    start = time.perf_counter()
    try:
        out = records.LineWriter(output, output_mode) if output else None  # whole lines, even if interrupted
        # in order, so the records are too; under an SPRT one deal a task
        results = executor.map(play_game, jobs, count=len(plan.games), chunksize=per_deal if sprt else None)
        points = 0.0  # the first bot's points in the deal being played (SPRT)
        for done, (game, (record, scores, winners, forfeit)) in enumerate(zip(plan.games, results), 1):
            if out:
                out.write_line(record)
            outcomes.append((tuple(scores), tuple(winners)))
            if forfeit is not None:
                forfeits.append((game, forfeit[0], forfeit[1]))
                standings[game.seats[forfeit[0]]].forfeits += 1
            for seat, spec in enumerate(game.seats):
                standing = standings[spec]
                standing.games += 1
                standing.scores.append(scores[seat])
                if seat in winners:
                    standing.wins += 1.0 / len(winners)
                    if spec == plan.bots[0]:
                        points += 1.0 / len(winners)
            if progress:
                progress(done)
            if state is not None and done % per_deal == 0:
                state.counts[int(round(2 * points))] += 1
                points = 0.0
                state.games = done
                state.llr = state.test.llr(state.counts)
                state.decision = state.test.decision(state.llr)
                if on_deal:
                    on_deal(state)
                if state.decision:
                    break
        close = getattr(results, "close", None)
        if close is not None:
            close()  # stops what is still running: the local pool, or the Ray tasks (see above)
    except BaseException:
        if out:
            out.close(cut=True)
        raise
    finally:
        if own:
            executor.close()  # every game is in by now, or something went wrong (Ctrl-C included)
        if out:
            out.close()
    return Result(plan, [standings[spec] for spec in plan.bots], backend, min(executor.workers, len(plan.games)),
                  time.perf_counter() - start, executor.where, forfeits, outcomes, state)


def table(result: Result) -> str:
    """The result as text: a heading line, then one row per bot: games, wins, win rate and average score,
    each rate and average with its 95% interval, and a forfeits column when any game was lost by forfeit."""
    from .textui import table as text_table
    forfeits = any(s.forfeits for s in result.standings)
    rows = []
    lowest = 1 if result.plan.variant == "summer-pavilion" else 0  # no score is below it
    for s in result.standings:
        lo, hi = s.win_interval
        slo, shi = s.score_interval
        slo, shi = max(slo, lowest), max(shi, lowest)
        rows.append((s.bot, "%d" % s.games, "%.1f" % s.wins, "%.1f%%" % (100 * s.win_rate),
                     "%.1f-%.1f%%" % (100 * lo, 100 * hi), "%.1f" % s.mean_score, "%.1f-%.1f" % (slo, shi))
                    + (("%d" % s.forfeits,) if forfeits else ()))
    where = getattr(result, "where", "local")
    played = getattr(result, "outcomes", None)
    games = len(played) if played is not None else len(result.plan.games)
    heading = "%s; backend %s, %d worker%s%s, %.1f s, %.1f games/s" % (
        result.plan.describe(games // len(result.plan.seatings)), result.backend, result.workers,
        "" if result.workers == 1 else "s", "" if where == "local" else " (%s)" % where, result.seconds,
        games / result.seconds if result.seconds > 0 else float("inf"))
    # text left, numbers right
    headers = ("bot", "games", "wins", "win rate", "95% CI", "avg score", "95% CI") + (("forfeits",) if forfeits
                                                                                      else ())
    text: str = text_table(headers, rows, justify="lrrrlrl" + ("r" if forfeits else ""))
    return heading + "\n" + text


def ratings(result: Result, anchor: Optional[str] = None, anchor_elo: float = 0.0,
            prior: Optional[float] = None) -> Tuple[_ratings.Ratings, List[_ratings.PairStats]]:
    """The Bradley-Terry ratings of a tournament's bots (``ratings.rate``: ``anchor`` default the first bot) and,
    at two players, the trinomial and pentanomial statistics of each pair of bots (``ratings.all_pair_stats``: of
    two bots, from the first one's view, as an SPRT tests it; of more, the stronger first).  ValueError for fewer
    than two bots, or no games."""
    games = result.games()
    rated = _ratings.rate(games, anchor, anchor_elo, prior, bots=result.plan.bots)
    order = result.plan.bots if len(result.plan.bots) == 2 else rated.bots
    pairs = _ratings.all_pair_stats(games, order) if result.plan.players == 2 else []
    return rated, pairs
