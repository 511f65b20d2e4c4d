"""Ratings of bots from their games: Elo by Bradley-Terry maximum likelihood, paired deals as pentanomial
outcomes, and the generalized SPRT (docs/tournaments.md, "Ratings" and "SPRT").

**Ratings.** ``rate(games)`` fits one Elo rating per bot by maximum likelihood in the Bradley-Terry model, as
Ordo and BayesElo do: bot ``a`` scores ``1 / (1 + 10 ** ((R_b - R_a) / 400))`` against bot ``b`` on average, a
shared win counting half a point to each.  At the maximum every bot's expected score equals its actual score.
The scale is fixed by one bot, the anchor, at a given rating (default: the first bot at 0).  When no finite
maximum exists (a bot, or a group of bots, won every game against the rest or lost every one), each pair of
bots that met gets ``AUTO_PRIOR`` virtual draws, in the spirit of BayesElo's prior, and ``Ratings.notes`` says
so; ``prior=`` sets the virtual draws instead.

**Intervals.** The games of one deal share its factories, and in a tournament they are played in every seating,
so they are not independent.  The 95% intervals count deals, not games: the covariance of the ratings is the
sandwich ``I^-1 M I^-1`` (``I`` the Fisher information of the fit, ``M`` the sum over deals of the outer product
of each deal's score residuals), the model-robust variance clustered by deal.  For two bots on paired deals it
is the pentanomial variance below, carried to Elo through the slope of the logistic curve; a game with no deal
(a record without a seed) is its own cluster.  ``error_games`` is the interval that treats every game as
independent (the inverse information alone, as BayesElo's), for comparison.  The likelihood of superiority of
each bot over the next one down is ``Phi((R_a - R_b) / sd(R_a - R_b))`` from the same covariance.

**Three and four players.** A game of ``k`` seats counts as the ``k (k - 1) / 2`` pairwise results of its seats:
a winner beats every seat that did not win (ties on the score broken as the rules break them: the record's
winners), seats that shared the win draw, and two seats that did not win are ranked by their scores (equal
scores: a draw).  Each pairwise result weighs ``1 / (k - 1)``, so each seat adds up to one game's worth, as a
two-player game does; two seats held by the same bot are left out.  The pairs of one game fall in the same deal,
so the intervals already allow for their correlation.

**Paired deals.** At two players each deal is played twice, the seats swapped; the pair's outcome for bot ``a``
is one of 0, 0.5, 1, 1.5 or 2 points (counts ``LL, LD, LW+DD, WD, WW``): a ``Pentanomial``.  Its Elo and 95%
interval are fastchess's: the mean score per game ``s`` and the variance of a pair's mean score, ``s +- 1.96
sd / sqrt(pairs)`` turned into Elo at both ends, half their difference; ``Trinomial`` does the same with games
as independent trials.  Normalized Elo (nElo) is ``(s - 1/2) / sigma * 800 / ln 10`` with ``sigma`` the
standard deviation of one game's score (``sqrt(2)`` times a pair's, for pentanomial counts).

**SPRT.** ``SPRT(elo0, elo1, alpha, beta, model)`` is fishtest's generalized sequential probability ratio test
on pentanomial counts, as Michel Van den Bergh's notes define it ("A GSPRT for multinomial distributions" /
support_MLE_multinomial.pdf, and "Normalized Elo" / normalized_elo_practical.pdf, section 4.1) and fishtest's
``stats/LLRcalc.py`` computes it: each hypothesis's distribution is the maximum-likelihood distribution on the
five outcomes whose mean score (``model="logistic"``: ``s = 1 / (1 + 10 ** (-elo / 400))``) or whose t-value
(``model="normalized"``, the default of fastchess and fishtest: ``(s - 1/2) / sigma = nelo * sqrt(2) * ln 10 /
800``) is the hypothesis's; the LLR is ``N`` times the mean log ratio of the two distributions' probabilities of
the observed outcomes, with empty cells counted as 0.001 (fishtest's regularization).  H1 is accepted at
``log((1 - beta) / alpha)``, H0 at ``log(beta / (1 - alpha))``.

>>> round(elo_of_score(0.75), 1)
190.8
>>> p = Pentanomial([2, 5, 20, 9, 4])
>>> round(p.score, 4), round(p.elo, 1), round(p.elo_error, 1)
(0.55, 34.9, 52.3)
>>> test = parse_sprt("elo0=0,elo1=10")
>>> round(test.lower, 3), round(test.upper, 3), test.model
(-2.944, 2.944, 'normalized')
>>> round(test.llr([2, 5, 20, 9, 4]), 3)
0.299
"""

from __future__ import annotations

import math
from typing import Any, Callable, Dict, Hashable, Iterable, Iterator, List, Optional, Sequence, Tuple, Union

from . import records

__all__ = ["ELO_PER_NAT", "NELO_PER_T", "Z95", "AUTO_PRIOR", "expected_score", "elo_of_score", "normal_cdf",
           "GameResult", "game_from_record", "read_games", "pairwise", "Rating", "Cell", "Ratings", "rate",
           "Trinomial", "Pentanomial", "PairStats", "pair_stats", "all_pair_stats", "SPRT", "parse_sprt",
           "format_elo", "text_report", "pair_text", "sprt_line"]

ELO_PER_NAT = 400 / math.log(10)  # logistic Elo per natural unit of the logit: 173.7
NELO_PER_T = 800 / math.log(10)  # normalized Elo per unit of t = (score - 1/2) / sigma: 347.4
Z95 = 1.959963984540054  # the normal quantile of 0.975
AUTO_PRIOR = 1.0  # virtual draws per pair that met, when the likelihood has no finite maximum
REGULARIZATION = 1e-3  # an empty cell of the counts counts this much in the SPRT (fishtest's)
MAX_SPRT_ELO = 1000.0


# -- the logistic curve ------------------------------------------------------------------------------------------

def expected_score(diff: float) -> float:
    """The expected score of a bot rated ``diff`` Elo above its opponent: ``1 / (1 + 10 ** (-diff / 400))``."""
    x = diff / ELO_PER_NAT
    if x >= 0:
        return 1.0 / (1.0 + math.exp(-x))
    e = math.exp(x)
    return e / (1.0 + e)


def elo_of_score(score: float) -> float:
    """The Elo difference at which the expected score is ``score`` (``-inf`` at 0, ``inf`` at 1)."""
    if score <= 0:
        return -math.inf
    if score >= 1:
        return math.inf
    return ELO_PER_NAT * math.log(score / (1.0 - score))


def normal_cdf(x: float) -> float:
    """The standard normal distribution function."""
    return 0.5 * math.erfc(-x / math.sqrt(2.0))


# -- games as the ratings see them -------------------------------------------------------------------------------

class GameResult:
    """One finished game: ``seats`` (the bot of each seat: its spec), ``scores`` and ``winners`` (seats), and
    ``deal``, a key that the games played on the same deal share (``(variant, players, seed)``; None when the
    deal is not known: the game is then a deal of its own)."""

    __slots__ = ("seats", "scores", "winners", "deal")

    def __init__(self, seats: Sequence[str], scores: Sequence[int], winners: Iterable[int],
                 deal: Optional[Hashable] = None) -> None:
        self.seats, self.scores, self.winners, self.deal = tuple(seats), tuple(scores), frozenset(winners), deal
        if len(self.seats) != len(self.scores) or not 2 <= len(self.seats) <= 4:
            raise ValueError("a game has 2-4 seats, each with a bot and a score")
        if not self.winners or not all(0 <= w < len(self.seats) for w in self.winners):
            raise ValueError("a game's winners are some of its seats")

    def __repr__(self) -> str:
        return "GameResult(%r, %r, %r, deal=%r)" % (self.seats, self.scores, sorted(self.winners), self.deal)


def game_from_record(record: object) -> GameResult:
    """The result of a record (a dict, as ``records.iter_file`` reads it) that says who played (``bots``, as
    ``tournament -o`` and ``record`` write it) and how the game ended.  ValueError says why a record cannot be
    counted.  The final scores and winners are taken as the record says them (``azul-engine audit`` checks them
    against the rules)."""
    if not isinstance(record, dict):
        raise ValueError("a record is a JSON object, not %s" % type(record).__name__)
    players = record.get("players")
    if isinstance(players, bool) or not isinstance(players, int) or not 2 <= players <= 4:
        raise ValueError("field players: not 2, 3 or 4")
    seats = record.get("bots")
    if seats is None:
        raise ValueError("the record does not say who played (no field bots): write records with tournament -o "
                         "or record --bots")
    if (not isinstance(seats, list) or len(seats) != players
            or not all(isinstance(s, dict) and isinstance(s.get("spec"), str) and s["spec"] for s in seats)):
        raise ValueError("field bots: not a list of %d objects with a spec, one a seat" % players)
    scores, winners = record.get("final_scores"), record.get("winners")
    if scores is None or winners is None:
        raise ValueError("the game is not over (no final scores and winners)")
    if (not isinstance(scores, list) or len(scores) != players
            or not all(isinstance(s, int) and not isinstance(s, bool) for s in scores)):
        raise ValueError("field final_scores: not %d whole numbers" % players)
    if (not isinstance(winners, list) or not winners
            or not all(isinstance(w, int) and not isinstance(w, bool) and 0 <= w < players for w in winners)):
        raise ValueError("field winners: not a list of seats")
    seed = record.get("seed")
    deal = None
    if isinstance(seed, int) and not isinstance(seed, bool):
        deal = (str(record.get("variant")), players, seed)
    return GameResult([s["spec"] for s in seats], scores, winners, deal)


def read_games(paths: Iterable[str], variant: Optional[str] = None, players: Optional[int] = None,
               check: Optional[Callable[[Dict[str, Any], int], Optional[str]]] = None
               ) -> Tuple[List[GameResult], List[str], List[str]]:
    """The games of record files: ``(games, skipped, kinds)``.  Only the games of ``variant`` and ``players``
    when given; ``check(record, line)``: a reason to leave a record out, or None.  ``skipped``: one line per record
    left out (``path: line N: why``); ``kinds``: the variants and player counts of the games
    (``"classic, 2 players"``), so that a caller can refuse a mix.  OSError for a file that cannot be read."""
    games: List[GameResult] = []
    skipped: List[str] = []
    kinds: Dict[str, None] = {}
    for path in paths:
        for number, item in records.iter_file(path):
            if isinstance(item, records.RecordError):
                skipped.append("%s: %s" % (path, item))
                continue
            try:
                game = game_from_record(item)
            except ValueError as e:
                skipped.append("%s: line %d: %s" % (path, number, e))
                continue
            assert isinstance(item, dict)
            kind = item.get("variant"), len(game.seats)
            if (variant is not None and kind[0] != variant) or (players is not None and kind[1] != players):
                continue
            why = check(item, number) if check is not None else None
            if why is not None:
                skipped.append("%s: line %d: %s" % (path, number, why))
                continue
            kinds["%s, %d players" % kind] = None
            games.append(game)
    return games, skipped, list(kinds)


def pairwise(game: GameResult) -> List[Tuple[str, str, float, float]]:
    """The pairwise results of a game: ``(bot_a, bot_b, score_of_a, weight)`` for each pair of seats held by
    different bots (see the module's text: winners beat the others, shared winners draw, the others are ranked by
    score; each pair weighs ``1 / (seats - 1)``).

    >>> pairwise(GameResult(["a", "b", "c"], [40, 40, 12], [1]))
    [('a', 'b', 0.0, 0.5), ('a', 'c', 1.0, 0.5), ('b', 'c', 1.0, 0.5)]
    """
    k = len(game.seats)
    weight = 1.0 / (k - 1)
    rank = [(1, 0) if seat in game.winners else (0, game.scores[seat]) for seat in range(k)]
    out = []
    for i in range(k):
        for j in range(i + 1, k):
            if game.seats[i] == game.seats[j]:
                continue
            score = 1.0 if rank[i] > rank[j] else 0.0 if rank[i] < rank[j] else 0.5
            out.append((game.seats[i], game.seats[j], score, weight))
    return out


# -- Bradley-Terry ---------------------------------------------------------------------------------------------

class Rating:
    """One bot's place: ``bot``, ``elo``, ``error`` (half the 95% interval, deals as the unit; 0 for the anchor),
    ``error_games`` (the same with games as independent), ``games`` (seats played), ``points`` and ``weight``
    (its pairwise points and their total weight: ``points / weight`` is its score), ``los`` (likelihood of
    superiority over the next bot down, None for the last) and ``rank`` (from 1)."""

    __slots__ = ("bot", "elo", "error", "error_games", "games", "points", "weight", "los", "rank")

    def __init__(self, bot: str, elo: float, error: float, error_games: float, games: int, points: float,
                 weight: float) -> None:
        self.bot, self.elo, self.error, self.error_games = bot, elo, error, error_games
        self.games, self.points, self.weight = games, points, weight
        self.los: Optional[float] = None
        self.rank = 0

    @property
    def score(self) -> float:
        """Its share of the pairwise points (0-1)."""
        return self.points / self.weight if self.weight else math.nan

    @property
    def interval(self) -> Tuple[float, float]:
        return self.elo - self.error, self.elo + self.error

    def __repr__(self) -> str:
        return "Rating(%r, %.1f +- %.1f)" % (self.bot, self.elo, self.error)


class Cell:
    """The crosstable's cell of ``bot`` against ``opponent``: ``points`` and ``weight`` (pairwise, as the fit
    counts them) and ``games`` (games in which they met)."""

    __slots__ = ("points", "weight", "games")

    def __init__(self) -> None:
        self.points, self.weight, self.games = 0.0, 0.0, 0

    @property
    def score(self) -> float:
        return self.points / self.weight if self.weight else math.nan


class Ratings:
    """What ``rate`` returns: ``ratings`` (a list of Rating, best first), ``anchor`` and ``anchor_elo``,
    ``prior`` (virtual draws per pair that met: 0 for the plain maximum likelihood), ``games`` (games counted),
    ``deals`` (distinct deals), ``crosstable`` (``{bot: {opponent: Cell}}``), ``covariance`` (``{(a, b): Elo
    squared}``, deals as the unit), ``notes`` (sentences to show with the table) and ``players`` (seats per game:
    a set)."""

    def __init__(self, ratings: List[Rating], anchor: str, anchor_elo: float, prior: float, games: int, deals: int,
                 crosstable: Dict[str, Dict[str, Cell]], covariance: Dict[Tuple[str, str], float],
                 notes: List[str], players: Iterable[int]) -> None:
        self.ratings, self.anchor, self.anchor_elo, self.prior = ratings, anchor, anchor_elo, prior
        self.games, self.deals, self.crosstable, self.covariance = games, deals, crosstable, covariance
        self.notes, self.players = notes, set(players)

    def __getitem__(self, bot: str) -> Rating:
        for r in self.ratings:
            if r.bot == bot:
                return r
        raise KeyError(bot)

    @property
    def bots(self) -> List[str]:
        return [r.bot for r in self.ratings]

    def los(self, a: str, b: str) -> float:
        """The likelihood that ``a`` is stronger than ``b``: ``Phi((R_a - R_b) / sd(R_a - R_b))``."""
        diff = self[a].elo - self[b].elo
        var = self.covariance[a, a] + self.covariance[b, b] - 2 * self.covariance[a, b]
        if var <= 0:
            return 0.5 if diff == 0 else 1.0 if diff > 0 else 0.0
        return normal_cdf(diff / math.sqrt(var))


def _solve(matrix: List[List[float]], vector: List[float]) -> List[float]:
    """``matrix^-1 vector`` by Gaussian elimination with partial pivoting (a small dense system)."""
    n = len(vector)
    a = [row[:] + [vector[i]] for i, row in enumerate(matrix)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(a[r][col]))
        if abs(a[pivot][col]) < 1e-300:
            raise ZeroDivisionError("singular system")
        a[col], a[pivot] = a[pivot], a[col]
        for r in range(col + 1, n):
            f = a[r][col] / a[col][col]
            if f:
                for c in range(col, n + 1):
                    a[r][c] -= f * a[col][c]
    x = [0.0] * n
    for r in range(n - 1, -1, -1):
        x[r] = (a[r][n] - sum(a[r][c] * x[c] for c in range(r + 1, n))) / a[r][r]
    return x


def _inverse(matrix: List[List[float]]) -> List[List[float]]:
    n = len(matrix)
    columns = [_solve(matrix, [1.0 if i == j else 0.0 for i in range(n)]) for j in range(n)]
    return [[columns[j][i] for j in range(n)] for i in range(n)]


def _components(n: int, linked: Dict[int, List[int]]) -> List[List[int]]:
    """The groups of indices reachable from one another through ``linked`` (an undirected graph)."""
    seen, out = set(), []
    for start in range(n):
        if start in seen:
            continue
        group, todo = [], [start]
        seen.add(start)
        while todo:
            i = todo.pop()
            group.append(i)
            for j in linked.get(i, ()):
                if j not in seen:
                    seen.add(j)
                    todo.append(j)
        out.append(sorted(group))
    return out


def _reaches_all(n: int, edges: Dict[int, List[int]]) -> bool:
    """True if every index reaches every other along the directed ``edges`` (strongly connected)."""
    def reach(graph: Dict[int, List[int]]) -> int:
        seen, todo = {0}, [0]
        while todo:
            for j in graph.get(todo.pop(), ()):
                if j not in seen:
                    seen.add(j)
                    todo.append(j)
        return len(seen)

    backward: Dict[int, List[int]] = {}
    for i, js in edges.items():
        for j in js:
            backward.setdefault(j, []).append(i)
    return reach(edges) == n and reach(backward) == n


def _log_likelihood(x: List[float], pairs: List[Tuple[int, int, float, float]]) -> float:
    total = 0.0
    for i, j, wins, games in pairs:
        d = x[i] - x[j]
        # log sigma(d) and log sigma(-d), without overflow
        log_p = -math.log1p(math.exp(-d)) if d >= 0 else d - math.log1p(math.exp(d))
        log_q = log_p - d
        total += wins * log_p + (games - wins) * log_q
    return total


def _sigmoid(d: float) -> float:
    if d >= 0:
        return 1.0 / (1.0 + math.exp(-d))
    e = math.exp(d)
    return e / (1.0 + e)


def _fit(n: int, anchor: int, pairs: List[Tuple[int, int, float, float]]) -> List[float]:
    """The maximum-likelihood logits (natural units) with ``x[anchor] = 0``: Newton's method with step halving
    on the concave log-likelihood of ``pairs`` (``(i, j, points of i, games)``, each unordered pair once)."""
    x = [0.0] * n
    free = [i for i in range(n) if i != anchor]
    where = {i: k for k, i in enumerate(free)}
    current = _log_likelihood(x, pairs)
    for _ in range(200):
        grad = [0.0] * len(free)
        info = [[0.0] * len(free) for _ in free]
        for i, j, wins, games in pairs:
            p = _sigmoid(x[i] - x[j])
            g, h = wins - games * p, games * p * (1 - p)
            for a, sign in ((i, 1.0), (j, -1.0)):
                if a in where:
                    grad[where[a]] += sign * g
                    info[where[a]][where[a]] += h
            if i in where and j in where:
                info[where[i]][where[j]] -= h
                info[where[j]][where[i]] -= h
        if max(map(abs, grad), default=0.0) < 1e-10 * max(1.0, sum(p[3] for p in pairs)):
            break
        step = _solve(info, grad)
        scale = 1.0
        while True:
            trial = x[:]
            for k, i in enumerate(free):
                trial[i] += scale * step[k]
            value = _log_likelihood(trial, pairs)
            if value >= current - 1e-12 * abs(current) or scale < 1e-9:
                break
            scale /= 2
        x, current = trial, value
        if max(abs(s) for s in step) * scale < 1e-12:
            break
    return x


def rate(games: Iterable[GameResult], anchor: Optional[str] = None, anchor_elo: float = 0.0,
         prior: Optional[float] = None, bots: Optional[Sequence[str]] = None) -> Ratings:
    """Bradley-Terry ratings of the bots of ``games`` (see the module's text).

    ``anchor``: the bot whose rating is ``anchor_elo`` (default: the first bot, in the order of ``bots`` or of
    first appearance).  ``prior``: virtual draws per pair of bots that met (None: 0, or ``AUTO_PRIOR`` when the
    likelihood has no finite maximum).  ``bots``: the bots to rate, in order (default: every bot that played);
    a game with another bot is an error.  ValueError for no games, an unknown anchor, a bad prior, or bots that
    never met, directly or through others (their ratings cannot be compared).
    """
    games = list(games)
    if not games:
        raise ValueError("no games to rate")
    order: List[str] = list(bots) if bots is not None else list(dict.fromkeys(b for g in games for b in g.seats))
    index = {b: i for i, b in enumerate(order)}
    if len(index) != len(order):
        raise ValueError("a bot is listed twice")
    if len(order) < 2:
        raise ValueError("ratings need two bots or more, not %d" % len(order))
    if anchor is None:
        anchor = order[0]
    if anchor not in index:
        raise ValueError("the anchor %r did not play (bots: %s)" % (anchor, ", ".join(order)))
    if not math.isfinite(anchor_elo):
        raise ValueError("the anchor's rating must be a finite number, not %r" % anchor_elo)
    if prior is not None and not (math.isfinite(prior) and prior >= 0):
        raise ValueError("the prior must be 0 or more virtual draws, not %r" % prior)
    n = len(order)
    points = [[0.0] * n for _ in range(n)]
    weight = [[0.0] * n for _ in range(n)]
    met = [[0] * n for _ in range(n)]
    seats_played = [0] * n
    clusters: Dict[Hashable, List[Tuple[int, int, float, float]]] = {}
    deal_keys = set()
    for number, game in enumerate(games):
        for bot in game.seats:
            if bot not in index:
                raise ValueError("game %d has bot %r, which is not among the bots rated" % (number + 1, bot))
            seats_played[index[bot]] += 1
        key: Hashable = ("deal", game.deal) if game.deal is not None else ("game", number)
        deal_keys.add(key)
        pairs_of_game = set()
        for a, b, score, w in pairwise(game):
            i, j = index[a], index[b]
            points[i][j] += w * score
            points[j][i] += w * (1 - score)
            weight[i][j] += w
            weight[j][i] += w
            pairs_of_game.add((min(i, j), max(i, j)))
            clusters.setdefault(key, []).append((i, j, score, w))
        for i, j in pairs_of_game:
            met[i][j] += 1
            met[j][i] += 1
    linked = {i: [j for j in range(n) if weight[i][j] > 0] for i in range(n)}
    groups = _components(n, linked)
    if len(groups) > 1:
        raise ValueError("these groups of bots never met, directly or through others, so their ratings cannot be "
                         "compared: %s" % "; ".join(", ".join(order[i] for i in g) for g in groups))
    notes: List[str] = []
    scored = {i: [j for j in range(n) if points[i][j] > 0] for i in range(n)}
    if prior is None:
        prior = 0.0
        if not _reaches_all(n, scored):
            prior = AUTO_PRIOR
            notes.append(_no_maximum(order, points, weight, scored))
    elif prior > 0:
        notes.append("%g virtual draw%s added to each pair of bots that met (the prior)" % (
            prior, "" if prior == 1 else "s"))
    elif not _reaches_all(n, scored):
        raise ValueError("the ratings have no finite maximum: %s; give a prior (virtual draws) or leave it to "
                         "the default" % _no_maximum(order, points, weight, scored).split(": ", 1)[0])
    fit_pairs = [(i, j, points[i][j] + prior / 2, weight[i][j] + prior)
                 for i in range(n) for j in range(i + 1, n) if weight[i][j] > 0]
    anchored = index[anchor]
    x = _fit(n, anchored, fit_pairs)
    free = [i for i in range(n) if i != anchored]
    where = {i: k for k, i in enumerate(free)}
    m = len(free)
    info = [[0.0] * m for _ in range(m)]
    for i, j, _, games_ij in fit_pairs:
        h = games_ij * _sigmoid(x[i] - x[j]) * _sigmoid(x[j] - x[i])
        for u in (i, j):
            if u in where:
                info[where[u]][where[u]] += h
        if i in where and j in where:
            info[where[i]][where[j]] -= h
            info[where[j]][where[i]] -= h
    inv = _inverse(info)
    meat = [[0.0] * m for _ in range(m)]
    for results in clusters.values():
        g = [0.0] * m
        for i, j, score, w in results:
            residual = w * (score - _sigmoid(x[i] - x[j]))
            if i in where:
                g[where[i]] += residual
            if j in where:
                g[where[j]] -= residual
        for u in range(m):
            if g[u]:
                for v in range(m):
                    meat[u][v] += g[u] * g[v]
    half = [[sum(inv[u][k] * meat[k][v] for k in range(m)) for v in range(m)] for u in range(m)]
    sandwich = [[sum(half[u][k] * inv[k][v] for k in range(m)) for v in range(m)] for u in range(m)]
    scale = ELO_PER_NAT ** 2
    covariance: Dict[Tuple[str, str], float] = {}
    for p in range(n):
        for q in range(n):
            c = sandwich[where[p]][where[q]] * scale if p in where and q in where else 0.0
            covariance[order[p], order[q]] = c
    out = []
    for i, bot in enumerate(order):
        var = covariance[bot, bot]
        var_games = inv[where[i]][where[i]] * scale if i in where else 0.0
        out.append(Rating(bot, anchor_elo + x[i] * ELO_PER_NAT, Z95 * math.sqrt(max(var, 0.0)),
                          Z95 * math.sqrt(max(var_games, 0.0)), seats_played[i], sum(points[i]), sum(weight[i])))
    out.sort(key=lambda r: (-r.elo, index[r.bot]))
    crosstable: Dict[str, Dict[str, Cell]] = {}
    for i, bot in enumerate(order):
        row = crosstable.setdefault(bot, {})
        for j, other in enumerate(order):
            if weight[i][j] > 0:
                cell = row.setdefault(other, Cell())
                cell.points, cell.weight, cell.games = points[i][j], weight[i][j], met[i][j]
    result = Ratings(out, anchor, anchor_elo, prior, len(games), len(deal_keys), crosstable, covariance, notes,
                     {len(g.seats) for g in games})
    for k, r in enumerate(out):
        r.rank = k + 1
        if k + 1 < len(out):
            r.los = result.los(r.bot, out[k + 1].bot)
    return result


def _no_maximum(order: List[str], points: List[List[float]], weight: List[List[float]],
                scored: Dict[int, List[int]]) -> str:
    """The sentence that says why the plain maximum likelihood has no finite answer, naming one bot (or group)
    that won, or lost, every game against the others it met."""
    n = len(order)
    for i in range(n):
        opponents = [j for j in range(n) if weight[i][j] > 0]
        if opponents and all(points[j][i] == 0 for j in opponents):
            what = "%s won every game it played" % order[i]
            break
        if opponents and all(points[i][j] == 0 for j in opponents):
            what = "%s lost every game it played" % order[i]
            break
    else:
        what = "a group of bots won every game against the others"
    return ("%s: no finite maximum likelihood, so %g virtual draw%s per pair that met %s added (BayesElo's "
            "prior); read the gap as a bound" % (what, AUTO_PRIOR, "" if AUTO_PRIOR == 1 else "s",
                                                    "was" if AUTO_PRIOR == 1 else "were"))


# -- two bots: trinomial and pentanomial ---------------------------------------------------------------------------

def _interval_elo(score: float, sd: float) -> Tuple[float, float]:
    """fastchess's interval: the score's 95% bounds turned into Elo, half their difference (inf at 0 or 1)."""
    lo, hi = min(1.0, max(0.0, score - Z95 * sd)), min(1.0, max(0.0, score + Z95 * sd))
    return elo_of_score(score), (elo_of_score(hi) - elo_of_score(lo)) / 2


class Trinomial:
    """Games as independent trials, from one bot's view: ``wins``, ``draws`` (shared wins), ``losses``."""

    def __init__(self, wins: int, draws: int, losses: int) -> None:
        self.wins, self.draws, self.losses = wins, draws, losses
        self.games = wins + draws + losses
        n = self.games or 1
        self.score = (wins + 0.5 * draws) / n if self.games else math.nan
        s = self.score
        self.variance = ((wins * (1 - s) ** 2 + draws * (0.5 - s) ** 2 + losses * s ** 2) / n
                         if self.games else math.nan)  # of one game's score
        self.elo, self.elo_error = _interval_elo(s, math.sqrt(self.variance / n)) if self.games else (math.nan,
                                                                                                         math.nan)

    @property
    def los(self) -> float:
        """The likelihood of superiority, ``Phi((s - 1/2) / sd(s))``."""
        return _los(self.score, self.variance / max(self.games, 1))

    @property
    def nelo(self) -> Tuple[float, float]:
        """Normalized Elo and its 95% half-interval."""
        return _nelo(self.score, math.sqrt(self.variance), self.games)


class Pentanomial:
    """Paired deals from one bot's view: ``counts[k]``, the deals where it scored ``k / 2`` points in its two games
    (``k`` 0-4: LL, LD, LW+DD, WD, WW).  ``score`` is the mean per game, ``variance`` that of a pair's mean score
    per game, ``elo`` and ``elo_error`` fastchess's Elo and 95% half-interval."""

    def __init__(self, counts: Sequence[int]) -> None:
        if len(counts) != 5 or any(c < 0 for c in counts):
            raise ValueError("pentanomial counts are 5 numbers, 0 or more")
        self.counts = list(counts)
        self.pairs = sum(counts)
        n = self.pairs or 1
        s = sum(k / 4 * c for k, c in enumerate(counts)) / n
        self.score = s if self.pairs else math.nan
        self.variance = sum(c * (k / 4 - s) ** 2 for k, c in enumerate(counts)) / n if self.pairs else math.nan
        self.elo, self.elo_error = (_interval_elo(s, math.sqrt(self.variance / n)) if self.pairs
                                    else (math.nan, math.nan))

    @property
    def los(self) -> float:
        return _los(self.score, self.variance / max(self.pairs, 1))

    @property
    def nelo(self) -> Tuple[float, float]:
        return _nelo(self.score, math.sqrt(2 * self.variance), 2 * self.pairs)


def _los(score: float, var: float) -> float:
    if math.isnan(score):
        return math.nan
    if var <= 0:
        return 0.5 if score == 0.5 else 1.0 if score > 0.5 else 0.0
    return normal_cdf((score - 0.5) / math.sqrt(var))


def _nelo(score: float, sigma: float, games: int) -> Tuple[float, float]:
    """(score - 1/2) / sigma in normalized Elo, and the half-interval: sigma per game, over ``games`` games."""
    if math.isnan(score) or sigma <= 0:
        if math.isnan(score) or score == 0.5:
            return math.nan, math.nan
        return (math.inf if score > 0.5 else -math.inf), math.nan
    return (score - 0.5) / sigma * NELO_PER_T, Z95 / math.sqrt(games) * NELO_PER_T


class PairStats:
    """Two bots' games against each other at two players, from ``a``'s view: ``trinomial`` (every game) and
    ``pentanomial`` (the deals played in both seatings; None when no deal was), ``unpaired`` (games without
    their seat-swapped twin, counted in the trinomial only)."""

    def __init__(self, a: str, b: str, trinomial: Trinomial, pentanomial: Optional[Pentanomial],
                 unpaired: int) -> None:
        self.a, self.b, self.trinomial, self.pentanomial, self.unpaired = a, b, trinomial, pentanomial, unpaired

    @property
    def best(self) -> Union[Trinomial, Pentanomial]:
        """The pentanomial when there are paired deals, else the trinomial."""
        return self.pentanomial if self.pentanomial is not None and self.pentanomial.pairs else self.trinomial


def _points(game: GameResult, seat: int) -> float:
    if seat not in game.winners:
        return 0.0
    return 1.0 / len(game.winners) if len(game.winners) > 1 else 1.0


def pair_stats(games: Iterable[GameResult], a: str, b: str) -> PairStats:
    """The two-player games between ``a`` and ``b``: every game in the trinomial; the games of one deal played in
    both seatings (``a b`` and ``b a``) paired into pentanomial counts (a deal played twice in one seating pairs
    in the order the games come)."""
    wins = draws = losses = 0
    by_deal: Dict[Hashable, Tuple[List[float], List[float]]] = {}
    unpaired = 0
    for game in games:
        if len(game.seats) != 2 or set(game.seats) != {a, b}:
            continue
        seat = game.seats.index(a)
        mine = _points(game, seat)
        if mine == 1.0:
            wins += 1
        elif mine == 0.0:
            losses += 1
        else:
            draws += 1
        if game.deal is None:
            unpaired += 1
            continue
        first, second = by_deal.setdefault(game.deal, ([], []))
        (first if seat == 0 else second).append(mine)
    counts = [0] * 5
    for first, second in by_deal.values():
        for x, y in zip(first, second):
            counts[int(round(2 * (x + y)))] += 1
        unpaired += abs(len(first) - len(second))
    penta = Pentanomial(counts) if sum(counts) else None
    return PairStats(a, b, Trinomial(wins, draws, losses), penta, unpaired)


def all_pair_stats(games: Sequence[GameResult], bots: Sequence[str]) -> List[PairStats]:
    """``pair_stats`` of every two bots of ``bots`` (in that order) that met at two players."""
    out = []
    for i, a in enumerate(bots):
        for b in bots[i + 1:]:
            stats = pair_stats(games, a, b)
            if stats.trinomial.games:
                out.append(stats)
    return out


# -- the generalized SPRT --------------------------------------------------------------------------------------

def _secular(probs: Sequence[float], shifts: Sequence[float]) -> float:
    """The ``x`` with ``sum(p_i d_i / (1 + x d_i)) = 0`` and every ``1 + x d_i > 0`` (the function decreases in
    ``x`` there), found by bisection.  The ``d_i`` must straddle 0."""
    low, high = -1.0 / max(shifts), -1.0 / min(shifts)
    if not (min(shifts) < 0 < max(shifts)):
        raise ValueError("the hypothesis is outside what the outcomes can give")

    def f(x: float) -> float:
        return sum(p * d / (1 + x * d) for p, d in zip(probs, shifts))

    for _ in range(200):
        mid = (low + high) / 2
        if mid in (low, high):
            break
        if f(mid) > 0:
            low = mid
        else:
            high = mid
    return (low + high) / 2


def _mean_var(values: Sequence[float], probs: Sequence[float]) -> Tuple[float, float]:
    mean = sum(p * a for a, p in zip(values, probs))
    return mean, sum(p * (a - mean) ** 2 for a, p in zip(values, probs))


def _mle_mean(values: Sequence[float], probs: Sequence[float], s: float) -> List[float]:
    """The distribution on ``values`` of largest likelihood for the empirical ``probs`` whose mean is ``s``
    (Van den Bergh, support_MLE_multinomial.pdf, proposition 1.1)."""
    shifts = [a - s for a in values]
    x = _secular(probs, shifts)
    return [p / (1 + x * d) for p, d in zip(probs, shifts)]


def _mle_t(values: Sequence[float], probs: Sequence[float], t: float) -> List[float]:
    """The distribution on ``values`` of largest likelihood for the empirical ``probs`` whose t-value
    ``(mean - 1/2) / sd`` is ``t``: the fixed point of normalized_elo_practical.pdf, section 4.1."""
    current = [1.0 / len(values)] * len(values)
    for _ in range(100):
        mean, var = _mean_var(values, current)
        sigma = math.sqrt(var)
        shifts = [a - 0.5 - t * sigma * (1 + ((mean - a) / sigma) ** 2) / 2 for a in values]
        x = _secular(probs, shifts)
        new = [p / (1 + x * d) for p, d in zip(probs, shifts)]
        done = max(abs(u - v) for u, v in zip(new, current)) < 1e-12
        current = new
        if done:
            break
    return current


class SPRT:
    """fishtest's generalized SPRT of H0: ``elo == elo0`` against H1: ``elo == elo1`` (``model``: ``"normalized"``
    or ``"logistic"`` Elo), with false-positive rate ``alpha`` and false-negative rate ``beta``.  ``llr(counts)``
    on pentanomial counts (5: ``LL, LD, LW+DD, WD, WW``) or trinomial counts (3: losses, draws, wins);
    ``decision(llr)`` is ``"H1"``, ``"H0"`` or None (play on)."""

    MODELS = ("normalized", "logistic")

    def __init__(self, elo0: float, elo1: float, alpha: float = 0.05, beta: float = 0.05,
                 model: str = "normalized") -> None:
        for name, value in (("elo0", elo0), ("elo1", elo1), ("alpha", alpha), ("beta", beta)):
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
                raise ValueError("%s must be a finite number, not %r" % (name, value))
        if not -MAX_SPRT_ELO <= elo0 < elo1 <= MAX_SPRT_ELO:
            raise ValueError("elo0 must be less than elo1, both from %g to %g (given elo0=%g, elo1=%g)"
                             % (-MAX_SPRT_ELO, MAX_SPRT_ELO, elo0, elo1))
        if not (0 < alpha < 1 and 0 < beta < 1 and alpha + beta < 1):
            raise ValueError("alpha and beta must be between 0 and 1, their sum below 1 (given alpha=%g, beta=%g)"
                             % (alpha, beta))
        if model not in self.MODELS:
            raise ValueError("model must be normalized or logistic, not %r" % (model,))
        self.elo0, self.elo1, self.alpha, self.beta, self.model = float(elo0), float(elo1), alpha, beta, model
        self.lower = math.log(beta / (1 - alpha))
        self.upper = math.log((1 - beta) / alpha)

    @property
    def unit(self) -> str:
        return "nElo" if self.model == "normalized" else "Elo"

    def __str__(self) -> str:
        return "elo0=%g,elo1=%g,alpha=%g,beta=%g,model=%s" % (self.elo0, self.elo1, self.alpha, self.beta,
                                                            self.model)

    def __repr__(self) -> str:
        return "SPRT(%s)" % self

    def llr(self, counts: Sequence[int]) -> float:
        """The log-likelihood ratio of the counts (see the module's text)."""
        if len(counts) not in (3, 5) or any(c < 0 for c in counts):
            raise ValueError("counts are 3 (trinomial) or 5 (pentanomial) numbers, 0 or more")
        if not sum(counts):
            return 0.0
        regular = [c if c > 0 else REGULARIZATION for c in counts]
        total = sum(regular)
        probs = [c / total for c in regular]
        values = [k / (len(counts) - 1) for k in range(len(counts))]
        if self.model == "logistic":
            p0, p1 = (_mle_mean(values, probs, expected_score(e)) for e in (self.elo0, self.elo1))
        else:
            per_game = math.sqrt(2) if len(counts) == 5 else 1.0  # t of a pair's mean score, from nElo per game
            p0, p1 = (_mle_t(values, probs, e / NELO_PER_T * per_game) for e in (self.elo0, self.elo1))
        return total * sum(p * (math.log(b) - math.log(a)) for p, a, b in zip(probs, p0, p1))

    def decision(self, llr: float) -> Optional[str]:
        if llr >= self.upper:
            return "H1"
        if llr <= self.lower:
            return "H0"
        return None


def parse_sprt(text: str) -> SPRT:
    """``elo0=0,elo1=10[,alpha=0.05,beta=0.05][,model=normalized|logistic]`` as an SPRT; ValueError names what is
    wrong."""
    values: Dict[str, Union[float, str]] = {}
    for part in text.split(","):
        key, sep, value = part.partition("=")
        key, value = key.strip(), value.strip()
        if not sep or not key or not value:
            raise ValueError("--sprt %s: give KEY=VALUE pairs, comma-separated: elo0=0,elo1=10[,alpha=0.05,"
                             "beta=0.05,model=normalized]" % text)
        if key not in ("elo0", "elo1", "alpha", "beta", "model"):
            raise ValueError("--sprt: unknown key %r (keys: elo0, elo1, alpha, beta, model)" % key)
        if key in values:
            raise ValueError("--sprt: %s is given twice" % key)
        if key == "model":
            values[key] = value
            continue
        try:
            values[key] = float(value)
        except ValueError:
            raise ValueError("--sprt: %s must be a number, not %r" % (key, value)) from None
    missing = [k for k in ("elo0", "elo1") if k not in values]
    if missing:
        raise ValueError("--sprt: %s missing (e.g. elo0=0,elo1=10)" % " and ".join(missing))
    try:
        return SPRT(**values)  # type: ignore[arg-type]
    except ValueError as e:
        raise ValueError("--sprt: %s" % e) from None


# -- text ----------------------------------------------------------------------------------------------------

def format_elo(value: float, signed: bool = True, digits: int = 1) -> str:
    """An Elo figure as text: ``+12.3``, ``-inf``, ``n/a`` (nan)."""
    if math.isnan(value):
        return "n/a"
    if math.isinf(value):
        return ("+inf" if signed else "inf") if value > 0 else "-inf"
    return ("%+.*f" if signed else "%.*f") % (digits, value)


def _percent(x: Optional[float]) -> str:
    return "" if x is None or math.isnan(x) else "%.1f%%" % (100 * x)


def _table_rows(result: Ratings) -> Iterator[Tuple[str, ...]]:
    for r in result.ratings:
        yield ("%d" % r.rank, r.bot, format_elo(r.elo), "0" if r.bot == result.anchor else format_elo(r.error, False),
               "%d" % r.games, "%.1f%%" % (100 * r.score), _percent(r.los))


def text_report(result: Ratings, pairs: Sequence[PairStats] = ()) -> str:
    """The ratings as text: a heading, one row per bot (rank, Elo, 95% interval, games, score, LOS over the next
    one down), the notes, the crosstable (points against each opponent) and, for pairs at two players, a line
    each with the trinomial and pentanomial intervals (``pair_text`` for a pair alone)."""
    from .textui import table
    players = "/".join(str(p) for p in sorted(result.players))
    lines = ["Ratings: Bradley-Terry maximum likelihood, %d games, %d deals, %s players; anchor %s = %s; "
             "95%% intervals from deals" % (result.games, result.deals, players, result.anchor,
                                            format_elo(result.anchor_elo, False, 0))]
    lines.append(table(("rank", "bot", "Elo", "+/-", "games", "score", "LOS"), list(_table_rows(result)),
                       justify="rlrrrrr"))
    lines.extend("note: " + note for note in result.notes)
    bots = result.bots
    if len(bots) > 2:
        short = ["%d" % (k + 1) for k in range(len(bots))]
        rows = []
        for k, bot in enumerate(bots):
            row = [short[k], bot]
            for other in bots:
                cell = result.crosstable.get(bot, {}).get(other)
                row.append("." if cell is None else "%g/%g" % (round(cell.points, 2), round(cell.weight, 2)))
            rows.append(tuple(row))
        lines.append("crosstable (points/games against each column's bot):")
        lines.append(table(("", "bot") + tuple(short), rows, justify="rl" + "r" * len(bots)))
    if len(pairs) == 1:
        lines.append(pair_text(pairs[0]))
    elif pairs:
        rows = []
        for p in pairs:
            t, q = p.trinomial, p.pentanomial
            rows.append(("%s vs %s" % (p.a, p.b), "%d" % t.games, "+%d =%d -%d" % (t.wins, t.draws, t.losses),
                         _ptnml(q), format_elo(t.elo), _pm(q.elo_error) if q else "", _pm(t.elo_error),
                         _percent(p.best.los)))
        lines.append("pairs (Elo of the first bot; 95% intervals pentanomial, from the paired deals, and "
                     "trinomial, games as independent):")
        lines.append(table(("pair", "games", "W D L", "Ptnml(0-2)", "Elo", "+/- penta", "+/- tri", "LOS"), rows,
                           justify="lrlllrrr"))
    return "\n".join(lines)


def _pm(x: float) -> str:
    return format_elo(x, False)


def _ptnml(q: Optional[Pentanomial]) -> str:
    return "[%s]" % ", ".join(str(c) for c in q.counts) if q is not None else ""


def pair_text(p: PairStats) -> str:
    """Two bots as fastchess shows them: Elo with the pentanomial and the trinomial intervals, nElo, LOS, games and
    the pentanomial counts."""
    t, q = p.trinomial, p.pentanomial
    best = p.best
    nelo, nelo_error = best.nelo
    lines = ["Results of %s vs %s: %d games%s" % (p.a, p.b, t.games, ", %d paired deals" % q.pairs if q else "")]
    elo = "Elo: %s" % format_elo(best.elo, True, 2)
    if q is not None:
        elo += " +/- %s (pentanomial), +/- %s (trinomial)" % (format_elo(q.elo_error, False, 2),
                                                            format_elo(t.elo_error, False, 2))
    else:
        elo += " +/- %s (trinomial: no paired deals)" % format_elo(t.elo_error, False, 2)
    lines.append(elo + ", nElo: %s +/- %s" % (format_elo(nelo, True, 2), format_elo(nelo_error, False, 2)))
    lines.append("LOS: %s, Games: %d, Wins: %d, Losses: %d, Draws: %d, Points: %g (%.2f %%)" % (
        "n/a" if math.isnan(best.los) else "%.2f %%" % (100 * best.los), t.games, t.wins, t.losses, t.draws,
        t.wins + 0.5 * t.draws, 100 * t.score))
    if q is not None:
        lines.append("Ptnml(0-2): %s%s" % (_ptnml(q), ", %d games unpaired" % p.unpaired if p.unpaired else ""))
    return "\n".join(lines)


def sprt_line(test: SPRT, llr: float, games: int, decision: Optional[str] = None) -> str:
    """One line of an SPRT as it goes: ``LLR: 1.23 (-2.94, 2.94) [0.00, 10.00] nElo, 40 games`` and, once
    decided, which hypothesis it accepted."""
    verdict = {"H1": ": H1 accepted", "H0": ": H0 accepted"}.get(decision or "", "")
    return "LLR: %.2f (%.2f, %.2f) [%.2f, %.2f] %s, %d games%s" % (
        llr, test.lower, test.upper, test.elo0, test.elo1, test.unit, games, verdict)
