"""Ratings (azul_engine.ratings): Bradley-Terry Elo by maximum likelihood, intervals counted in deals, the
pairwise treatment of 3 and 4 players, trinomial and pentanomial statistics, the generalized SPRT; and the
tournament's SPRT runs (greedy against random), the ratings command, the report.

The figures are checked against independent computations written here from the formulas (scipy's general
optimizer for the likelihoods, numpy for the sandwich covariance), never against the module's own numbers."""

import doctest
import json
import math
import multiprocessing
import os
import random

import pytest

from azul_engine import distributed, ratings, report, tournament
from azul_engine.__main__ import main
from azul_engine.ratings import ELO_PER_NAT, GameResult, Z95

import numpy as np

CI = os.environ.get("CI", "").strip().lower() not in ("", "0", "false")


@pytest.fixture(scope="module")
def scipy_optimize():
    """scipy's optimizers, for the independent reference computations (the [test] extra has scipy): skipped
    without it, except under CI, where its absence fails."""
    try:
        import scipy.optimize
    except ImportError:
        if CI:
            pytest.fail("scipy is not installed: it is in the [test] extra")
        pytest.skip("scipy is not installed (it is in the [test] extra)")
    return scipy.optimize


def test_docstring_examples():
    for module in (ratings, report):
        result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
        assert result.attempted > 0 and result.failed == 0, module.__name__


# -- the logistic curve --------------------------------------------------------------------------------------

def test_elo_and_expected_score_are_inverse():
    assert ratings.expected_score(400) == pytest.approx(10 / 11)
    assert ratings.expected_score(-400) == pytest.approx(1 / 11)
    assert ratings.expected_score(0) == 0.5
    for p in (0.01, 0.2, 0.5, 0.77, 0.999):
        assert ratings.expected_score(ratings.elo_of_score(p)) == pytest.approx(p, abs=1e-12)
    assert ratings.elo_of_score(1) == math.inf and ratings.elo_of_score(0) == -math.inf
    assert ratings.expected_score(-1e6) == 0.0 and ratings.expected_score(1e6) == 1.0  # no overflow


# -- how a game counts ---------------------------------------------------------------------------------------

def test_a_two_player_game_is_one_result():
    assert ratings.pairwise(GameResult(["a", "b"], [10, 30], [1])) == [("a", "b", 0.0, 1.0)]
    assert ratings.pairwise(GameResult(["a", "b"], [30, 30], [0, 1])) == [("a", "b", 0.5, 1.0)]  # a shared win
    # equal scores, the tie broken by the rules (the record's winners): the winner beats the other
    assert ratings.pairwise(GameResult(["a", "b"], [30, 30], [1])) == [("a", "b", 0.0, 1.0)]


def test_three_and_four_players_count_as_pairwise_results_weighing_one_over_seats_minus_one():
    # seat 2 wins; seats 0 and 1 did not win and are ranked by score; seat 3 ties seat 1 on score
    game = GameResult(["a", "b", "c", "d"], [20, 15, 40, 15], [2])
    got = ratings.pairwise(game)
    assert got == [("a", "b", 1.0, 1 / 3), ("a", "c", 0.0, 1 / 3), ("a", "d", 1.0, 1 / 3),
                   ("b", "c", 0.0, 1 / 3), ("b", "d", 0.5, 1 / 3), ("c", "d", 1.0, 1 / 3)]
    # each seat's pairs weigh one game in all, as a two-player game does
    for bot in "abcd":
        assert sum(w for x, y, _, w in got if bot in (x, y)) == pytest.approx(1.0)
    # a shared win at three players: the winners draw, each beats the third
    assert ratings.pairwise(GameResult(["a", "b", "c"], [30, 30, 50], [0, 2])) == [
        ("a", "b", 1.0, 0.5), ("a", "c", 0.5, 0.5), ("b", "c", 0.0, 0.5)]
    # fewer bots than seats (a b a b): pairs of seats held by the same bot are left out
    got = ratings.pairwise(GameResult(["a", "b", "a", "b"], [25, 20, 30, 40], [3]))
    assert [(x, y, s) for x, y, s, _ in got] == [("a", "b", 1.0), ("a", "b", 0.0), ("b", "a", 0.0), ("a", "b", 0.0)]


@pytest.mark.slow
def test_a_multiplayer_tournament_rates_its_bots_from_the_pairs_of_its_seats():
    """A 3-player tournament with a 4th bot: every game's pairs go into the fit, and the fit's expected points
    equal each bot's pairwise points (the maximum-likelihood condition)."""
    result = tournament.run(tournament.plan(["random", "greedy", "mcts:10", "mcts:30"], players=3, deals=2,
                                            seed=1), workers=1)
    rated, pairs = tournament.ratings(result, anchor="greedy")
    assert pairs == []  # the pentanomial is for two-player deals
    assert rated.players == {3} and rated.games == result.played == 24 and rated.deals == 2
    for r in rated.ratings:  # each seat's two pairs weigh 1/2 each
        assert r.weight == pytest.approx(r.games) and r.games == 18
    _assert_score_equations(rated)


def _assert_score_equations(rated):
    for r in rated.ratings:
        expected = sum(cell.weight * ratings.expected_score(r.elo - rated[other].elo)
                       for other, cell in rated.crosstable[r.bot].items())
        prior = rated.prior * sum(ratings.expected_score(r.elo - rated[o].elo) - 0.5
                                  for o in rated.crosstable[r.bot])
        assert expected + prior == pytest.approx(r.points, abs=1e-6), r.bot


# -- Bradley-Terry ---------------------------------------------------------------------------------------

def synthetic_games(strengths, deals, players=2, seed=1):
    """Games of bots with the given true Elo, each deal played by every pair (two players: both seatings) or by
    the whole field (more players: its rotations), results drawn from the logistic model."""
    rng = random.Random(seed)
    bots = list(strengths)
    games = []
    for d in range(deals):
        if players == 2:
            for i, a in enumerate(bots):
                for b in bots[i + 1:]:
                    for seats in ((a, b), (b, a)):
                        p = ratings.expected_score(strengths[seats[0]] - strengths[seats[1]])
                        u = rng.random()
                        winners = [0] if u < p * 0.97 else [1] if u > p + 0.03 * (1 - p) else [0, 1]
                        games.append(GameResult(seats, [30, 20], winners, ("classic", 2, d)))
        else:  # the whole field (``players`` bots) at one table, in every rotation
            assert len(bots) == players
            for r in range(players):
                seats = bots[r:] + bots[:r]
                scores = [int(strengths[b] / 10 + rng.gauss(60, 20)) for b in seats]
                top = max(scores)
                games.append(GameResult(seats, scores, [k for k, s in enumerate(scores) if s == top],
                                        ("classic", players, d)))
    return games


def independent_fit(scipy_optimize, games, anchor, bots):
    """The maximum-likelihood Elo with ``anchor`` at 0, by scipy's BFGS on the log-likelihood written here."""
    index = {b: i for i, b in enumerate(bots)}
    data = [(index[a], index[b], s, w) for g in games for a, b, s, w in ratings.pairwise(g)]
    free = [i for i in range(len(bots)) if i != index[anchor]]

    def negative(theta):
        x = np.zeros(len(bots))
        x[free] = theta
        total = 0.0
        for i, j, s, w in data:
            d = x[i] - x[j]
            total -= w * (s * -np.logaddexp(0, -d) + (1 - s) * -np.logaddexp(0, d))
        return total

    found = scipy_optimize.minimize(negative, np.zeros(len(free)), method="BFGS", options={"gtol": 1e-10})
    x = np.zeros(len(bots))
    x[free] = found.x
    return {b: x[index[b]] * ELO_PER_NAT for b in bots}


@pytest.mark.slow
def test_the_fit_is_the_maximum_likelihood_of_an_independent_optimizer(scipy_optimize):
    strengths = {"a": 0, "b": 80, "c": -150, "d": 220}
    games = synthetic_games(strengths, 30)
    rated = ratings.rate(games, anchor="a")
    assert rated.prior == 0 and rated.notes == []
    reference = independent_fit(scipy_optimize, games, "a", list(strengths))
    for bot in strengths:
        assert rated[bot].elo == pytest.approx(reference[bot], abs=0.01)
    _assert_score_equations(rated)
    # the order follows the ratings, each LOS is that of the next bot down
    assert rated.bots == sorted(strengths, key=lambda b: -rated[b].elo)
    # another anchor and rating move every rating by the same amount
    moved = ratings.rate(games, anchor="d", anchor_elo=1500)
    for bot in strengths:
        assert moved[bot].elo - rated[bot].elo == pytest.approx(1500 - rated["d"].elo, abs=1e-6)
        assert moved[bot].elo - moved["d"].elo == pytest.approx(rated[bot].elo - rated["d"].elo, abs=1e-6)


@pytest.mark.slow
@pytest.mark.parametrize("players", [3, 4])
def test_multiplayer_games_are_fitted_as_their_pairs(players, scipy_optimize):
    strengths = dict(zip("abcd", (0, 300, -300, 100)[:players]))
    games = synthetic_games(strengths, 40, players=players)
    rated = ratings.rate(games, anchor="a")
    assert rated.players == {players} and rated.prior == 0
    reference = independent_fit(scipy_optimize, games, "a", list(strengths))
    for bot in strengths:
        assert rated[bot].elo == pytest.approx(reference[bot], abs=0.01)
    with_prior = ratings.rate(games, anchor="a", prior=0.5)
    _assert_score_equations(with_prior)
    assert with_prior.notes == ["0.5 virtual draws added to each pair of bots that met (the prior)"]


def test_two_bots_rate_at_the_elo_of_their_score():
    games = synthetic_games({"x": 0, "y": 120}, 50)
    rated = ratings.rate(games, anchor="x")
    points = rated["y"].points / rated["y"].weight
    assert rated["y"].elo == pytest.approx(ratings.elo_of_score(points), abs=1e-6)


def test_the_interval_from_deals_is_the_pentanomial_variance_in_elo():
    """Two bots on paired deals: the sandwich clustered by deal equals the variance of a pair's mean score
    (pentanomial) carried to Elo by the logistic slope; the games-as-independent interval is the binomial's."""
    counts = [3, 11, 25, 14, 7]
    games = []
    for d, k in enumerate(k for k, c in enumerate(counts) for _ in range(c)):
        # a deal where "a" scores k/2 points over its two games (1 = a win and a loss)
        first, second = {0: (0, 0), 1: (0, 0.5), 2: (1, 0), 3: (1, 0.5), 4: (1, 1)}[k]
        for seats, mine in ((("a", "b"), first), (("b", "a"), second)):
            seat = seats.index("a")
            winners = [0, 1] if mine == 0.5 else [seat] if mine == 1 else [1 - seat]
            games.append(GameResult(seats, [1, 1], winners, ("classic", 2, d)))
    rated = ratings.rate(games, anchor="b")
    pairs = sum(counts)
    score = sum(k / 4 * c for k, c in enumerate(counts)) / pairs
    var_pair = sum(c * (k / 4 - score) ** 2 for k, c in enumerate(counts)) / pairs
    slope = ELO_PER_NAT / (score * (1 - score))  # dElo / dscore
    assert rated["a"].elo == pytest.approx(ratings.elo_of_score(score))
    assert rated["a"].error == pytest.approx(Z95 * math.sqrt(var_pair / pairs) * slope, rel=1e-9)
    assert rated["a"].error_games == pytest.approx(Z95 * ELO_PER_NAT / math.sqrt(2 * pairs * score * (1 - score)),
                                                   rel=1e-9)
    # the same counts through pair_stats
    stats = ratings.pair_stats(games, "a", "b")
    assert stats.pentanomial.counts == counts and stats.unpaired == 0
    assert stats.trinomial.games == 2 * pairs


def test_the_sandwich_covariance_matches_numpy():
    """Three bots, three players: the covariance clustered by deal, computed here with numpy from the fit's
    ratings: information matrix, per-deal score vectors, I^-1 M I^-1."""
    games = synthetic_games({"a": 0, "b": 200, "c": -100}, 30, players=3, seed=5)
    rated = ratings.rate(games, anchor="a")
    bots = ["a", "b", "c"]
    x = np.array([rated[b].elo / ELO_PER_NAT for b in bots])
    info = np.zeros((3, 3))
    per_deal = {}
    for g in games:
        vec = per_deal.setdefault(g.deal, np.zeros(3))
        for a, b, s, w in ratings.pairwise(g):
            i, j = bots.index(a), bots.index(b)
            p = 1 / (1 + np.exp(-(x[i] - x[j])))
            h = w * p * (1 - p)
            info[i, i] += h
            info[j, j] += h
            info[i, j] -= h
            info[j, i] -= h
            vec[i] += w * (s - p)
            vec[j] -= w * (s - p)
    free = [1, 2]
    inv = np.linalg.inv(info[np.ix_(free, free)])
    meat = sum(np.outer(v[free], v[free]) for v in per_deal.values())
    cov = inv @ meat @ inv * ELO_PER_NAT ** 2
    for k, bot in zip(free, ("b", "c")):
        assert rated[bot].error == pytest.approx(Z95 * math.sqrt(cov[k - 1, k - 1]), rel=1e-7)
        assert rated[bot].error_games == pytest.approx(Z95 * math.sqrt(inv[k - 1, k - 1]) * ELO_PER_NAT, rel=1e-7)
    assert rated.covariance["b", "c"] == pytest.approx(cov[0, 1], rel=1e-7)
    assert rated["a"].error == 0
    # likelihood of superiority of each bot over the next one down, from the covariance
    top, second = rated.ratings[0], rated.ratings[1]
    sd = math.sqrt(rated.covariance[top.bot, top.bot] + rated.covariance[second.bot, second.bot]
                   - 2 * rated.covariance[top.bot, second.bot])
    assert top.los == pytest.approx(0.5 * math.erfc(-(top.elo - second.elo) / sd / math.sqrt(2)))
    assert rated.ratings[-1].los is None


def test_a_bot_that_wins_every_game_gets_virtual_draws_and_a_note():
    seatings = [["w", "l"] if d % 2 else ["l", "w"] for d in range(20)]
    games = [GameResult(seats, [50, 0] if seats[0] == "w" else [0, 50], [seats.index("w")], ("classic", 2, d))
             for d, seats in enumerate(seatings)]
    rated = ratings.rate(games, anchor="l")
    assert rated.prior == ratings.AUTO_PRIOR == 1
    assert len(rated.notes) == 1 and rated.notes[0].startswith("l lost every game it played: no finite maximum")
    # 20 wins and one virtual draw: a score of 20.5 / 21
    assert rated["w"].elo == pytest.approx(ratings.elo_of_score(20.5 / 21))
    with pytest.raises(ValueError, match="no finite maximum: l lost every game it played; give a prior"):
        ratings.rate(games, prior=0)
    rated = ratings.rate(games, anchor="l", prior=3)
    assert rated["w"].elo == pytest.approx(ratings.elo_of_score(21.5 / 23))
    assert rated.notes == ["3 virtual draws added to each pair of bots that met (the prior)"]


@pytest.mark.parametrize("kwargs, message", [
    ({"anchor": "z"}, "the anchor 'z' did not play (bots: a, b, c, d)"),
    ({"prior": -1}, "the prior must be 0 or more virtual draws, not -1"),
    ({"anchor_elo": math.inf}, "the anchor's rating must be a finite number, not inf"),
])
def test_bad_arguments_are_named(kwargs, message):
    games = synthetic_games({"a": 0, "b": 0}, 3) + synthetic_games({"c": 0, "d": 0}, 3)
    with pytest.raises(ValueError, match=r"^%s$" % message.replace("(", r"\(").replace(")", r"\)")):
        ratings.rate(synthetic_games({"a": 0, "b": 0, "c": 0, "d": 0}, 2), **kwargs)
    with pytest.raises(ValueError, match="never met, directly or through others.*: a, b; c, d"):
        ratings.rate(games)
    with pytest.raises(ValueError, match="no games to rate"):
        ratings.rate([])


# -- trinomial and pentanomial: fastchess's formulas ------------------------------------------------------

def test_pentanomial_and_trinomial_elo_as_fastchess_computes_them():
    counts = [2, 5, 20, 9, 4]
    p = ratings.Pentanomial(counts)
    n = sum(counts)
    values = [0, 0.25, 0.5, 0.75, 1]
    mean = sum(v * c for v, c in zip(values, counts)) / n
    var = sum(c * (v - mean) ** 2 for v, c in zip(values, counts)) / n
    elo = lambda s: -400 * math.log10(1 / s - 1)  # noqa: E731
    lo, hi = mean - Z95 * math.sqrt(var / n), mean + Z95 * math.sqrt(var / n)
    assert p.score == pytest.approx(0.55) and p.elo == pytest.approx(elo(0.55))
    assert p.elo_error == pytest.approx((elo(hi) - elo(lo)) / 2)
    assert p.nelo[0] == pytest.approx((mean - 0.5) / math.sqrt(2 * var) * 800 / math.log(10))
    assert p.los == pytest.approx(0.5 * (1 - math.erf(-(mean - 0.5) / math.sqrt(2 * var / n))))
    t = ratings.Trinomial(wins=30, draws=10, losses=20)
    s = (30 + 5) / 60
    tvar = (30 * (1 - s) ** 2 + 10 * (0.5 - s) ** 2 + 20 * s ** 2) / 60
    assert t.score == pytest.approx(s)
    assert t.elo_error == pytest.approx((elo(s + Z95 * math.sqrt(tvar / 60)) - elo(s - Z95 * math.sqrt(tvar / 60)))
                                        / 2)
    assert t.nelo[0] == pytest.approx((s - 0.5) / math.sqrt(tvar) * 800 / math.log(10))
    # a perfect score: infinite Elo, no interval
    assert ratings.Pentanomial([0, 0, 0, 0, 5]).elo == math.inf and ratings.Pentanomial([0, 0, 0, 0, 5]).los == 1


def test_pair_stats_pairs_the_seat_swapped_games_of_a_deal():
    games = [GameResult(["a", "b"], [1, 0], [0], ("classic", 2, 0)),  # deal 0: a wins both: WW
             GameResult(["b", "a"], [0, 1], [1], ("classic", 2, 0)),
             GameResult(["a", "b"], [1, 1], [0, 1], ("classic", 2, 1)),  # deal 1: a draw and a loss: LD
             GameResult(["b", "a"], [1, 0], [0], ("classic", 2, 1)),
             GameResult(["a", "b"], [1, 0], [0], ("classic", 2, 2)),  # deal 2: one seating only
             GameResult(["a", "b"], [1, 0], [0], None),  # no deal
             GameResult(["a", "c"], [1, 0], [0], ("classic", 2, 3))]  # another pair
    stats = ratings.pair_stats(games, "a", "b")
    assert stats.pentanomial.counts == [0, 1, 0, 0, 1]
    assert stats.unpaired == 2
    t = stats.trinomial
    assert (t.wins, t.draws, t.losses) == (4, 1, 1)
    assert ratings.pair_stats(games, "b", "a").pentanomial.counts == [1, 0, 0, 1, 0]


# -- the SPRT: LLR against an independent maximum-likelihood computation ------------------------------------

COUNTS = [[2, 5, 20, 9, 4], [0, 0, 0, 0, 50], [10, 30, 100, 40, 12], [3, 0, 0, 0, 0], [0, 3, 7, 3, 0],
          [5, 0, 0, 0, 5], [40, 70, 180, 90, 35], [1, 10, 50, 12, 0], [7, 3, 2], [0, 40, 13]]
BOUNDS = [(0, 10), (-5, 5), (0, 2), (0, 100)]


def reference_llr(scipy_optimize, counts, elo0, elo1, model):
    """The generalized LLR from its definition: for each hypothesis, the distribution on the outcomes that
    maximizes the likelihood of the observed frequencies (empty cells counted as 0.001) under the hypothesis's
    constraint on the mean score (logistic) or on the t-value (mean - 1/2) / sd (normalized), found by scipy's
    SLSQP on the logarithms of the probabilities from a few starting points (the best feasible one kept); the LLR
    is N times the mean log-ratio of the two at the observed outcomes."""
    regular = np.array([c if c else 1e-3 for c in counts], dtype=float)
    n = regular.sum()
    phat = regular / n
    values = np.linspace(0, 1, len(counts))
    k = len(counts)

    def best(constraint):
        found = []
        for start in (phat, np.full(k, 1 / k), (phat + 1 / k) / 2):
            # y = log q: the log-likelihood is linear in y
            r = scipy_optimize.minimize(
                lambda y: -float(phat @ y), np.log(start), jac=lambda y: -phat, method="SLSQP",
                constraints=[{"type": "eq", "fun": lambda y: np.exp(y).sum() - 1},
                             {"type": "eq", "fun": lambda y: constraint(np.exp(y))}],
                bounds=[(-80, 0)] * k, options={"ftol": 1e-15, "maxiter": 3000})
            q = np.exp(r.x)
            if abs(q.sum() - 1) < 1e-8 and abs(constraint(q)) < 1e-8:
                found.append((float(phat @ np.log(q)), q))
        assert found, "no start converged"
        return max(found, key=lambda f: f[0])[1]

    def hypothesis(elo):
        if model == "logistic":
            s = 1 / (1 + 10 ** (-elo / 400))
            return lambda q: q @ values - s
        t = elo / (800 / math.log(10)) * (math.sqrt(2) if k == 5 else 1)
        return lambda q: (q @ values - 0.5) - t * math.sqrt(max(q @ values ** 2 - (q @ values) ** 2, 1e-300))

    q0, q1 = best(hypothesis(elo0)), best(hypothesis(elo1))
    return n * float(phat @ (np.log(q1) - np.log(q0)))


@pytest.mark.slow
@pytest.mark.parametrize("model", ["logistic", "normalized"])
@pytest.mark.parametrize("counts", COUNTS, ids=[",".join(map(str, c)) for c in COUNTS])
def test_the_llr_is_the_generalized_likelihood_ratio(counts, model, scipy_optimize):
    for elo0, elo1 in BOUNDS:
        got = ratings.SPRT(elo0, elo1, model=model).llr(counts)
        want = reference_llr(scipy_optimize, counts, elo0, elo1, model)
        assert got == pytest.approx(want, rel=1e-6, abs=1e-6), (elo0, elo1)


def test_the_sprt_bounds_and_decisions():
    test = ratings.SPRT(0, 10, alpha=0.05, beta=0.1)
    assert test.upper == pytest.approx(math.log(0.9 / 0.05)) and test.lower == pytest.approx(math.log(0.1 / 0.95))
    assert test.decision(test.upper) == "H1" and test.decision(test.lower) == "H0"
    assert test.decision(0.0) is None and test.llr([0, 0, 0, 0, 0]) == 0.0


def test_a_bot_that_wins_every_deal_gains_at_most_log_s1_over_s0_a_deal():
    """Why elo1=10 cannot stop in a few dozen games even when one bot wins them all: under H0 and under H1 the
    best a distribution with the hypothesis's mean can give the observed "won both games" is that mean, so each
    deal adds log(s1/s0) to the LLR (plus what the regularization of the empty cells adds)."""
    test = ratings.SPRT(0, 10, model="logistic")
    gain = math.log(ratings.expected_score(10) / 0.5)
    for n in (10, 50, 104):
        assert test.llr([0, 0, 0, 0, n]) == pytest.approx(n * gain, rel=1e-3)
    needed = math.ceil(test.upper / gain)
    assert needed == 104
    assert test.decision(test.llr([0, 0, 0, 0, needed])) == "H1"
    assert test.decision(test.llr([0, 0, 0, 0, needed - 1])) is None


@pytest.mark.parametrize("text, message", [
    ("elo1=10", "--sprt: elo0 missing (e.g. elo0=0,elo1=10)"),
    ("elo0=0", "--sprt: elo1 missing"),
    ("elo0=10,elo1=0", "--sprt: elo0 must be less than elo1, both from -1000 to 1000 (given elo0=10, elo1=0)"),
    ("elo0=0,elo1=10,alpha=0", "--sprt: alpha and beta must be between 0 and 1, their sum below 1"),
    ("elo0=0,elo1=10,alpha=0.6,beta=0.5", "--sprt: alpha and beta must be between 0 and 1, their sum below 1 (given "
                                          "alpha=0.6, beta=0.5)"),
    ("elo0=0,elo1=ten", "--sprt: elo1 must be a number, not 'ten'"),
    ("elo0=0,elo1=nan", "--sprt: elo1 must be a finite number, not nan"),
    ("elo0=0,elo1=10,model=bayes", "--sprt: model must be normalized or logistic, not 'bayes'"),
    ("elo0=0,elo1=10,gamma=1", "--sprt: unknown key 'gamma' (keys: elo0, elo1, alpha, beta, model)"),
    ("elo0=0,elo0=1,elo1=2", "--sprt: elo0 is given twice"),
    ("0,10", "--sprt 0,10: give KEY=VALUE pairs, comma-separated"),
])
def test_bad_sprt_specs_are_named(text, message):
    with pytest.raises(ValueError, match="^" + message.replace("(", r"\(").replace(")", r"\)")):
        ratings.parse_sprt(text)


def test_an_sprt_spec_reads_back():
    test = ratings.parse_sprt(" elo0=-2.5, elo1=2.5,alpha=0.1,beta=0.2,model=logistic")
    assert (test.elo0, test.elo1, test.alpha, test.beta, test.model) == (-2.5, 2.5, 0.1, 0.2, "logistic")
    assert str(ratings.parse_sprt(str(test))) == str(test)


# -- tournaments under an SPRT ----------------------------------------------------------------------------------

def test_greedy_against_random_stops_with_h1_within_a_few_dozen_games(tmp_path):
    """A bound that a perfect score can reach quickly (elo1 = 100 nElo): H1 within a few dozen games, the
    records and the table holding exactly the deals played, far fewer than the plan's."""
    plan = tournament.plan(["greedy", "random"], players=2, deals=500, seed=7)
    lines = []
    path = tmp_path / "sprt.jsonl"
    result = tournament.run(plan, workers=1, output=str(path), sprt=ratings.SPRT(0, 100),
                            on_deal=lambda s: lines.append(s.line()))
    state = result.sprt
    assert state.decision == "H1" and state.llr >= state.test.upper
    assert result.played <= 48 and result.played == state.games == 2 * len(lines)
    assert state.counts == [0, 0, 0, 0, result.played // 2]
    assert len(path.read_text().splitlines()) == result.played
    assert [s.games for s in result.standings] == [result.played] * 2
    assert lines[-1].endswith(": H1 accepted") and not any("accepted" in line for line in lines[:-1])
    assert tournament.table(result).startswith("2 players, classic, %d games (%d deals x 2 seatings), seeds 7-%d"
                                               % (result.played, result.played // 2, 7 + result.played // 2 - 1))


@pytest.mark.slow
def test_the_issue_s_sprt_elo0_0_elo1_10_accepts_h1_for_greedy(engine):
    """tournament --sprt elo0=0,elo1=10 (normalized, the default) on greedy against random accepts H1 on either
    engine, after the deals the LLR needs (it cannot need fewer: see the test above)."""
    test = ratings.SPRT(0, 10)
    needed = next(n for n in range(1, 1000) if test.llr([0, 0, 0, 0, n]) >= test.upper)
    plan = tournament.plan(["greedy", "random"], players=2, deals=needed + 20, seed=0)
    result = tournament.run(plan, workers=1, backend=engine.NAME, sprt=test)
    assert result.sprt.decision == "H1" and result.played == 2 * needed


@pytest.mark.slow
def test_an_sprt_stops_the_local_workers_when_it_decides():
    """The executor is the caller's (not closed by run): the decision itself stops its pool."""
    plan = tournament.plan(["greedy", "random"], players=2, deals=3000, seed=3)
    with distributed.LocalExecutor(2) as executor:
        result = tournament.run(plan, executor=executor, sprt=ratings.SPRT(0, 100))
        assert result.sprt.decision == "H1" and result.played < 100
        assert executor._pool is None  # terminated at the decision
        assert multiprocessing.active_children() == []


def test_an_sprt_needs_two_bots_at_two_players():
    with pytest.raises(ValueError, match=r"an SPRT needs two bots at two players \(given 3 bots, 2 players\)"):
        tournament.run(tournament.plan(["greedy", "random", "mcts:5"], deals=1), sprt=ratings.SPRT(0, 10))


# -- the commands ----------------------------------------------------------------------------------------------

@pytest.mark.slow
def test_tournament_sprt_command(tmp_path, capsys, engine):
    path = tmp_path / "g.jsonl"
    assert main(["tournament", "--bots", "greedy,random", "--sprt", "elo0=0,elo1=100", "--workers", "1",
                 "--backend", engine.NAME, "-o", str(path), "--rating-interval", "6"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == ("SPRT of greedy against random: elo0=0,elo1=100,alpha=0.05,beta=0.05,model=normalized; at "
                      "most 20000 games")
    llr = [line for line in out if line.startswith("LLR: ")]
    assert llr[0] == "LLR: %.2f (-2.94, 2.94) [0.00, 100.00] nElo, 6 games" % ratings.SPRT(0, 100).llr([0] * 4 + [3])
    assert llr[-1].endswith("H1 accepted") and llr[-2] == llr[-1]  # as it goes, then with the results
    games = len(path.read_text().splitlines())
    assert "Results of greedy vs random: %d games, %d paired deals" % (games, games // 2) in out
    assert "Ptnml(0-2): [0, 0, 0, 0, %d]" % (games // 2) in out


@pytest.mark.parametrize("argv, message", [
    (["--bots", "greedy,random,mcts:5", "--sprt", "elo0=0,elo1=10"],
     "--sprt tests two bots at two players (given 3 bots, 2 players): the first bot against the second"),
    (["--bots", "greedy,random", "--players", "3", "--sprt", "elo0=0,elo1=10"],
     "--sprt tests two bots at two players (given 2 bots, 3 players)"),
    (["--bots", "greedy,random", "--sprt", "elo0=5,elo1=1"], "--sprt: elo0 must be less than elo1"),
    (["--bots", "greedy,random", "--anchor", "mcts"], "--anchor mcts is not one of the bots (greedy, random)"),
    (["--bots", "greedy", "--html", "{tmp}/r.html"], "--html: a report rates two bots or more (given 1)"),
    (["--bots", "greedy,random", "--html", "{tmp}/r.html", "-o", "{tmp}/r.html"], "--html and -o name the same file"),
])
def test_tournament_refuses_bad_rating_arguments(argv, message, capsys, tmp_path):
    assert main(["tournament", "--games", "2", *[a.format(tmp=tmp_path) for a in argv]]) == 2
    err = capsys.readouterr().err
    assert err.startswith("azul-engine tournament: " + message), err
    assert list(tmp_path.iterdir()) == []  # refused before any game: nothing written


def test_ratings_recomputed_from_the_records_are_the_tournament_s(tmp_path, capsys):
    path = tmp_path / "t.jsonl"
    assert main(["tournament", "--bots", "random,greedy,mcts:10", "--games", "24", "--workers", "1", "--seed", "4",
                 "-o", str(path), "--anchor", "greedy", "--anchor-elo", "1000"]) == 0
    out = capsys.readouterr().out
    section = out[out.index("Ratings: "):]
    assert "anchor greedy = 1000" in section and "crosstable" in section and "pairs (" in section
    # split in two files: the same ratings
    lines = path.read_text().splitlines(keepends=True)
    (tmp_path / "a.jsonl").write_text("".join(lines[:10]))
    (tmp_path / "b.jsonl").write_text("".join(lines[10:]))
    assert main(["ratings", str(tmp_path / "a.jsonl"), str(tmp_path / "b.jsonl"), "--anchor", "greedy",
                 "--anchor-elo", "1000"]) == 0
    again = capsys.readouterr().out
    assert again.splitlines()[0] == "classic, 2 players: 24 games from 2 files"
    assert again[again.index("Ratings: "):] == section


def test_the_ratings_command_leaves_out_what_it_cannot_count(tmp_path, capsys):
    result = tournament.run(tournament.plan("random,greedy", deals=2, seed=1), workers=1, output=str(tmp_path / "t"))
    assert result.played == 4
    lines = (tmp_path / "t").read_text().splitlines()
    no_bots = json.loads(lines[0])
    del no_bots["bots"]
    path = tmp_path / "mixed.jsonl"
    path.write_text("\n".join(lines + [json.dumps(no_bots), "not json", "[1]"]) + "\n")
    assert main(["ratings", str(path)]) == 0
    captured = capsys.readouterr()
    assert captured.out.startswith("classic, 2 players: 4 games from 1 file, 3 records left out\n")
    assert captured.err.splitlines() == [
        "azul-engine ratings: left out: %s: line 5: the record does not say who played (no field bots): write "
        "records with tournament -o or record --bots" % path,
        "azul-engine ratings: left out: %s: line 6: not JSON (Expecting value: line 1 column 1 (char 0))" % path,
        "azul-engine ratings: left out: %s: line 7: a record is a JSON object, not list" % path]


def test_the_ratings_command_refuses_a_mix_of_variants_and_empty_input(tmp_path, capsys):
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    tournament.run(tournament.plan("random,greedy", deals=1), workers=1, output=str(a))
    tournament.run(tournament.plan("random,greedy", deals=1, variant="grey"), workers=1, output=str(b))
    assert main(["ratings", str(a), str(b)]) == 2
    assert capsys.readouterr().err == ("azul-engine ratings: the files hold games of classic, 2 players and grey, 2 "
                                       "players: ratings compare one variant at one player count (give --variant "
                                       "and --players)\n")
    assert main(["ratings", str(a), str(b), "--variant", "grey"]) == 0
    assert "grey, 2 players: 2 games from 2 files" in capsys.readouterr().out
    empty = tmp_path / "empty.jsonl"
    empty.write_text("")
    assert main(["ratings", str(empty)]) == 1
    assert capsys.readouterr().err == "azul-engine ratings: no games to rate in %s\n" % empty
    assert main(["ratings", str(tmp_path / "missing.jsonl")]) == 2
    assert "cannot read" in capsys.readouterr().err


def test_the_ratings_command_audits_when_asked(tmp_path, capsys, engine):
    path = tmp_path / "t.jsonl"
    tournament.run(tournament.plan("random,greedy", deals=2), workers=1, output=str(path))
    lines = path.read_text().splitlines()
    bad = json.loads(lines[1])
    bad["final_scores"] = [s + 1 for s in bad["final_scores"]]  # a result the rules do not give
    lines[1] = json.dumps(bad)
    path.write_text("\n".join(lines) + "\n")
    assert main(["ratings", str(path), "--audit", "--backend", engine.NAME]) == 0
    captured = capsys.readouterr()
    assert captured.out.startswith("classic, 2 players: 3 games from 1 file, 1 records left out")
    assert "line 2" in captured.err and "(audit)" in captured.err
    assert main(["ratings", str(path)]) == 0  # without --audit the record is taken as it says
    assert capsys.readouterr().out.startswith("classic, 2 players: 4 games from 1 file\n")


def test_html_reports_are_written_once_and_escape_what_the_records_say(tmp_path, capsys):
    path = tmp_path / "t.jsonl"
    page = tmp_path / "report.html"
    assert main(["tournament", "--bots", "random,greedy", "--games", "4", "--workers", "1", "-o", str(path),
                 "--html", str(page)]) == 0
    html = page.read_text()
    assert html.startswith("<!DOCTYPE html>") and "<script" not in html and "http" not in html.replace(
        "http://www.w3.org/", "")
    assert 'id="standings"' in html and 'id="plot"' in html and "Score distributions" in html
    capsys.readouterr()
    assert main(["tournament", "--bots", "random,greedy", "--games", "2", "--html", str(page)]) == 2
    assert "it already exists (--force replaces it)" in capsys.readouterr().err
    # a record's bot spec is the file's text: it reaches the page escaped
    evil = '<img src=x onerror="alert(1)">&'
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    for record in lines:
        for seat in record["bots"]:
            if seat["spec"] == "random":
                seat["spec"] = evil
    path.write_text("".join(json.dumps(r) + "\n" for r in lines))
    assert main(["ratings", str(path), "--html", str(page), "--force"]) == 0
    html = page.read_text()
    assert evil not in html and "&lt;img src=x onerror=&#34;alert(1)&#34;&gt;&amp;" in html


# -- reading records ---------------------------------------------------------------------------------------------

def test_game_from_record_says_why_a_record_cannot_count():
    good = {"players": 2, "variant": "classic", "seed": 3, "bots": [{"spec": "a"}, {"spec": "b"}],
            "final_scores": [3, 4], "winners": [1]}
    game = ratings.game_from_record(good)
    assert game.seats == ("a", "b") and game.deal == ("classic", 2, 3) and game.winners == {1}
    for change, message in [({"bots": None}, "does not say who played"),
                            ({"bots": [{"spec": "a"}]}, "field bots: not a list of 2 objects with a spec"),
                            ({"final_scores": None}, "the game is not over"),
                            ({"winners": [2]}, "field winners: not a list of seats"),
                            ({"final_scores": [1, True]}, "field final_scores: not 2 whole numbers"),
                            ({"players": 5}, "field players: not 2, 3 or 4")]:
        with pytest.raises(ValueError, match=message):
            ratings.game_from_record(dict(good, **change))
    assert ratings.game_from_record(dict(good, seed=None)).deal is None


def test_read_games_filters_checks_and_says_what_it_left_out(tmp_path):
    def record(variant, seed, winner):
        return {"players": 2, "variant": variant, "seed": seed, "bots": [{"spec": "a"}, {"spec": "b"}],
                "final_scores": [3, 4], "winners": [winner]}
    path = tmp_path / "r.jsonl"
    path.write_text("\n".join([json.dumps(record("classic", 1, 0)), "{oops", json.dumps(record("grey", 2, 1)),
                               json.dumps(record("classic", 3, 1)), ""]) + "\n")
    games, skipped, kinds = ratings.read_games([str(path)])
    assert [g.deal for g in games] == [("classic", 2, 1), ("grey", 2, 2), ("classic", 2, 3)]
    assert kinds == ["classic, 2 players", "grey, 2 players"]
    assert len(skipped) == 1 and skipped[0].startswith("%s: line 2: not JSON" % path)
    games, skipped, kinds = ratings.read_games(
        [str(path)], variant="classic", check=lambda r, line: "seed 3 refused" if r["seed"] == 3 else None)
    assert [g.deal for g in games] == [("classic", 2, 1)] and kinds == ["classic, 2 players"]
    assert skipped[1] == "%s: line 4: seed 3 refused" % path
    assert ratings.read_games([str(path)], players=3)[0] == []
    with pytest.raises(OSError):
        ratings.read_games([str(tmp_path / "missing.jsonl")])
