"""The MCTS bot, bot specs and tournaments (azul_engine.bots, azul_engine.tournament, the CLI command)."""

import collections
import doctest
import json
import time

import pytest

import azul_engine
from azul_engine import bots, records, tournament
from azul_engine.__main__ import main


def mcts_game(engine, seed, spec="mcts:30"):
    return bots.play(engine, 2, "classic", seed, [spec, "greedy"])


# -- MCTSBot -------------------------------------------------------------------------------------------------

@pytest.mark.slow
def test_mcts_plays_legal_moves_to_the_end(engine):
    state = engine.new_game(players=3, variant="grey", seed=4)
    seats = [bots.MCTSBot(seed=s, iterations=20) for s in range(3)]
    while not state.is_over:
        action = seats[state.current_player].choose(state)
        assert action in state.legal_actions()
        state.apply(action)
    assert records.audit(state.record(), engine) == []


@pytest.mark.slow
def test_mcts_is_deterministic_for_a_seed(engine):
    state = engine.new_game(players=2, seed=11)
    for _ in range(5):
        state.apply(bots.GreedyBot(seed=1).choose(state))
    before = state.clone()
    choices = {bots.MCTSBot(seed=7, iterations=60).choose(state) for _ in range(3)}
    assert len(choices) == 1
    assert state == before  # the search plays on copies
    assert mcts_game(engine, 5).record() == mcts_game(engine, 5).record()


@pytest.mark.slow
def test_mcts_games_are_the_same_in_both_engines(engines):
    pure, cpp = engines
    for seed in (3, 4):
        assert mcts_game(cpp, seed).record_json() == mcts_game(pure, seed).record_json()


@pytest.mark.slow
def test_mcts_does_not_see_the_real_draws(engine):
    """The search reseeds its copies: two games that differ only in their generator's state (so the next
    round will be dealt differently) get the same move from the same bot seed, near a round's end, where
    the search looks into the next round."""
    state = engine.new_game(players=2, seed=21)
    greedy = bots.GreedyBot(seed=2)
    while any(state.factories) or len(state.center) > 4:
        state.apply(greedy.choose(state))
    other = state.clone()
    other.reseed(12345)
    assert state != other
    assert bots.MCTSBot(seed=3, iterations=200).choose(state) == bots.MCTSBot(seed=3, iterations=200).choose(other)


def test_mcts_with_a_time_budget(engine):
    state = engine.new_game(players=2, seed=1)
    bot = bots.MCTSBot(seed=0, seconds=0.05)
    start = time.perf_counter()
    assert bot.choose(state) in state.legal_actions()
    assert time.perf_counter() - start < 1.0


@pytest.mark.slow
def test_mcts_in_explicit_chance_games(engine):
    """At a chance node inside the search the bot draws an outcome itself."""
    state = engine.new_game(players=2, seed=6, chance="explicit")
    bot = bots.MCTSBot(seed=1, iterations=40)
    with pytest.raises(ValueError, match="mcts: no move to choose at a chance node"):
        bot.choose(state)
    while state.round < 3 and not state.is_over:
        if state.is_chance_node:
            state.apply(state.chance_outcomes()[0][0])
        else:
            action = bot.choose(state)
            assert action in state.legal_actions()
            state.apply(action)


def test_mcts_beats_random():
    """With the package's active engine (the C++ one when built)."""
    result = tournament.run(tournament.plan(["random", "mcts:200"], players=2, deals=5, seed=100), workers=1)
    rand, mcts = result.standings
    assert mcts.wins >= 8 and mcts.mean_score > rand.mean_score + 5, tournament.table(result)


# -- specs ---------------------------------------------------------------------------------------------------

def test_bot_specs():
    assert bots.parse_bot_spec("random") == ("random", {})
    assert bots.parse_bot_spec("greedy") == ("greedy", {})
    assert bots.parse_bot_spec("mcts") == ("mcts", {})
    assert bots.parse_bot_spec("mcts:2000") == ("mcts", {"iterations": 2000})
    assert bots.parse_bot_spec("mcts:2000:c=1.5") == ("mcts", {"iterations": 2000, "c": 1.5})
    assert bots.parse_bot_spec("mcts:seconds=0.25") == ("mcts", {"seconds": 0.25})
    assert isinstance(bots.make_bot("random", 1), bots.RandomBot)
    assert isinstance(bots.make_bot("greedy", 1), bots.GreedyBot)
    mcts = bots.make_bot("mcts:300", 1)
    assert isinstance(mcts, bots.MCTSBot) and mcts.iterations == 300


@pytest.mark.parametrize("spec, message", [
    ("mcts:abc", "bot spec 'mcts:abc': iterations must be a whole number, not 'abc'"),
    ("mcts:0", "bot spec 'mcts:0': iterations must be a positive integer, not 0"),
    ("mcts:2000:depth=3", "mcts has no parameter 'depth'"),
    ("mcts:c=-1", "c must be 0 or more"),
    ("mcts:c=inf", "c must be 0 or more and finite, not inf"),
    ("mcts:seconds=inf", "seconds must be positive and at most a year (31536000), not inf"),  # (was: a search that never ended)
    ("mcts:seconds=nan", "seconds must be positive and at most a year (31536000), not nan"),
    # (was, in C++: one iteration, the move at once; issue 38)
    ("mcts:seconds=1e12", "seconds must be positive and at most a year (31536000), not 1000000000000.0"),
    ("greedy:5", "bot greedy takes no parameters"),
    ("minimax", "unknown bot 'minimax' (bots: random, greedy, mcts, net)"),
])
def test_bad_specs_are_refused(spec, message):
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
        bots.parse_bot_spec(spec)
    with pytest.raises(ValueError):
        bots.make_bot(spec, 0)


# -- tournaments ---------------------------------------------------------------------------------------------

def test_seatings_rotate_every_bot_through_every_seat():
    for count in (1, 2, 3, 4, 5):
        for players in (2, 3, 4):
            seats = tournament.seatings(count, players)
            per_seat = [collections.Counter(s[seat] for s in seats) for seat in range(players)]
            assert all(c == per_seat[0] for c in per_seat), (count, players)  # each seat: the same bot mix
            assert set(per_seat[0]) == set(range(count))
            if count >= players:
                assert all(len(set(s)) == players for s in seats)  # no bot twice in a game
                assert len(set(per_seat[0].values())) == 1  # and every bot equally often
    assert tournament.seatings(3, 3) == [(0, 1, 2), (1, 2, 0), (2, 0, 1)]
    assert tournament.seatings(3, 2) == [(0, 1), (1, 0), (0, 2), (2, 0), (1, 2), (2, 1)]


def test_plan_shares_deals_between_seatings():
    plan = tournament.plan("random,greedy,mcts:10", players=3, games=7, seed=40)
    assert plan.deals == 3 and len(plan.games) == 9  # 7 rounded up to whole deals of 3 seatings
    assert [g.seed for g in plan.games] == [40, 40, 40, 41, 41, 41, 42, 42, 42]
    assert plan.games[1].seats == ("greedy", "mcts:10", "random")
    for seat in range(3):
        assert collections.Counter(g.seats[seat] for g in plan.games) == {"random": 3, "greedy": 3, "mcts:10": 3}


@pytest.mark.parametrize("specs, message", [
    ("random,mcts:abc", "iterations must be a whole number"),
    ("random,minimax", "unknown bot 'minimax'"),
    ("random,random", "listed twice"),
    ("random,", "comma-separated"),
])
def test_plan_refuses_bad_bots(specs, message):
    with pytest.raises(ValueError, match=message):
        tournament.plan(specs, games=2)


def test_tournament_with_workers_writes_records_that_audit_clean(tmp_path):
    plan = tournament.plan(["random", "greedy", "mcts:20"], players=2, games=12, seed=9)
    path = tmp_path / "games.jsonl"
    result = tournament.run(plan, workers=2, output=str(path))
    lines = path.read_text().splitlines()
    assert len(lines) == len(plan.games) == 12
    for number, line in enumerate(lines, 1):
        assert records.audit(json.loads(line), line=number) == []
    assert [json.loads(line)["seed"] for line in lines] == [g.seed for g in plan.games]
    # The table adds up: each bot plays 2 of every 3 games, the wins share out the games.
    assert [(s.bot, s.games) for s in result.standings] == [("random", 8), ("greedy", 8), ("mcts:20", 8)]
    assert sum(s.wins for s in result.standings) == pytest.approx(12)
    assert all(len(s.scores) == s.games for s in result.standings)
    # Each game's record gives the scores counted for the bots in its seats.
    scores = collections.defaultdict(list)
    for game, line in zip(plan.games, lines):
        for seat, spec in enumerate(game.seats):
            scores[spec].append(json.loads(line)["final_scores"][seat])
    assert {s.bot: s.scores for s in result.standings} == scores
    # The same games in one process.
    again = tmp_path / "again.jsonl"
    tournament.run(plan, workers=1, output=str(again))
    assert again.read_text() == path.read_text()


def test_shared_wins_count_as_fractions():
    plan = tournament.plan(["random"], players=4, games=8, seed=0)  # one bot in every seat: all the wins
    assert tournament.seatings(1, 4) == [(0, 0, 0, 0)] and plan.deals == 8
    result = tournament.run(plan, workers=1)
    (only,) = result.standings
    assert only.games == 32 and only.wins == pytest.approx(8)
    assert only.win_rate == pytest.approx(0.25)


def test_table_reports_each_bot():
    result = tournament.run(tournament.plan("random,greedy", games=4, seed=2), workers=1)
    text = tournament.table(result)
    heading, columns, *rows = text.splitlines()
    assert heading.startswith("2 players, classic, 4 games (2 deals x 2 seatings), seeds 2-3; backend ")
    assert columns.split() == ["bot", "games", "wins", "win", "rate", "95%", "CI", "avg", "score", "95%", "CI"]
    assert [r.split()[:2] for r in rows] == [["random", "4"], ["greedy", "4"]]
    greedy = result.standings[1]
    lo, hi = greedy.win_interval
    assert 0 <= lo <= greedy.win_rate <= hi <= 1
    lo, hi = greedy.score_interval
    assert lo <= greedy.mean_score <= hi


@pytest.mark.parametrize("variant, lowest", [("classic", 0), ("summer-pavilion", 1)])
def test_the_table_cuts_the_score_interval_at_the_lowest_score(variant, lowest):
    """Scores of 0, 0, 0 and 20: mean 5, mean - 1.96 standard errors is -4.8, a score no game has (it printed
    as "-4.8-14.8"); the table shows the interval from the game's lowest score."""
    result = tournament.run(tournament.plan("random,greedy", games=2, seed=2, variant=variant), workers=1)
    standing = result.standings[0]
    standing.scores = [lowest, lowest, lowest, lowest + 20]
    assert standing.score_interval[0] < lowest  # the property keeps the normal interval
    row = tournament.table(result).splitlines()[2]
    assert row.split()[-1] == "%.1f-%.1f" % (lowest, standing.score_interval[1]), row


def test_tournament_docstring_examples():
    result = doctest.testmod(tournament, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.attempted > 0 and result.failed == 0


# -- the command ---------------------------------------------------------------------------------------------

def test_tournament_command(tmp_path, capsys):
    path = tmp_path / "t.jsonl"
    assert main(["tournament", "--bots", "random,greedy", "--games", "4", "--workers", "2", "--seed", "5",
                 "-o", str(path)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("2 players, classic, 4 games (2 deals x 2 seatings), seeds 5-6; backend ")
    assert [line.split()[:3] for line in out[2:4]] == [["random", "4", "0.0"], ["greedy", "4", "4.0"]]
    # then the ratings, anchored at the first bot, and the pair's trinomial and pentanomial statistics
    assert out[4].startswith("Ratings: Bradley-Terry maximum likelihood, 4 games, 2 deals, 2 players; anchor random")
    assert [line.split()[:2] for line in out[6:8]] == [["1", "greedy"], ["2", "random"]]
    assert "Results of random vs greedy: 4 games, 2 paired deals" in out and "Ptnml(0-2): [2, 0, 0, 0, 0]" in out
    assert main(["audit", str(path)]) == 0
    assert capsys.readouterr().out.strip() == "4 records agree, 0 disagree"


@pytest.mark.parametrize("specs, message", [
    ("random,mcts:abc", "azul-engine tournament: bot spec 'mcts:abc': iterations must be a whole number, not 'abc'"),
    ("random,alphazero", "azul-engine tournament: unknown bot 'alphazero' (bots: random, greedy, mcts, net); a bot of "
                         "your own is module:Class, an external engine cmd:COMMAND"),
])
def test_tournament_command_refuses_bad_specs(specs, message, capsys):
    assert main(["tournament", "--bots", specs, "--games", "2"]) == 2
    assert capsys.readouterr().err.strip() == message


@pytest.mark.parametrize("limit", [float("nan"), float("inf"), 0, -1, "1", True])
def test_play_match_refuses_a_time_limit_that_never_or_always_forfeits(limit):
    # nan: no move was ever too slow; 0 or -1: every move was
    with pytest.raises(ValueError, match="^time_limit must be a positive, finite number of seconds or None, not "):
        bots.play_match(azul_engine.load_backend("python"), 2, "classic", 0, "random", time_limit=limit)
