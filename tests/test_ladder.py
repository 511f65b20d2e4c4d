"""The rated ladder (azul_engine.ladder): the ladder file the package carries, measuring a ladder (with a few
games), and ``azul-engine rate``, which places a bot on it by playing the rungs nearest to its rating."""

import json
import math

import pytest

from azul_engine import ladder, ratings
from azul_engine.__main__ import main

# The whole module is long (pytest -m 'not slow' leaves it out; CI runs it).
pytestmark = pytest.mark.slow


def write_ladder(path, rungs, variant="classic", **extra):
    data = {"format": "azul-ladder", "version": 1, "provisional": True,
            "made": {"command": "a test's own", "deals": 0, "seed": 0},
            "variants": {variant: {"players": 2, "anchor": "greedy", "anchor_elo": 0,
                                   "rungs": [{"bot": b, "elo": e, "error": err, "games": 10} for b, e, err in rungs]}}}
    data.update(extra)
    path.write_text(json.dumps(data))
    return str(path)


def test_the_package_carries_a_ladder_for_every_variant_and_says_how_it_was_made():
    for variant in ladder.VARIANTS:
        lad = ladder.load(variant)
        bots = [r.bot for r in lad.rungs]
        assert set(bots) >= {"random", "greedy", "mcts:100", "mcts:1000"}, bots
        assert all(b in ("random", "greedy") or b.startswith("mcts:") and b[5:].isdigit() for b in bots), \
            "a rung plays by an iteration budget, never by seconds: %s" % bots
        assert lad.anchor == "greedy" and next(r for r in lad.rungs if r.bot == "greedy").elo == 0
        assert bots[0] == "random"  # the weakest
        assert [r.elo for r in lad.rungs] == sorted(r.elo for r in lad.rungs)
        for key in ("command", "deals", "reach", "seed", "backend", "version", "date"):
            assert key in lad.made, key
        assert lad.made["command"].startswith("benchmarks/ladder.py ")
        assert "--deals %d" % lad.made["deals"] in lad.made["command"]


@pytest.mark.parametrize("content, message", [
    ("not json", "is not a ladder file: not JSON"),
    ('{"format": "other"}', "is not a ladder file: its format is not 'azul-ladder'"),
    ('{"format": "azul-ladder", "version": 2}', "is not a ladder file: version 2, not 1"),
    ('{"format": "azul-ladder", "version": 1, "variants": {"grey": {}}}', "has no ladder for classic (it has: grey)"),
    ('{"format": "azul-ladder", "version": 1, "variants": {"classic": {"rungs": [{"bot": "a", "elo": 0, '
     '"error": 0}]}}}', "classic: fewer than two rungs"),
    ('{"format": "azul-ladder", "version": 1, "variants": {"classic": {"rungs": [{"bot": "a", "elo": 0, '
     '"error": 0}, {"bot": "b", "elo": "high", "error": 0}]}}}', "classic: rung 2 is not {bot, elo, error, games}"),
])
def test_a_bad_ladder_file_is_named(tmp_path, content, message, capsys):
    path = tmp_path / "ladder.json"
    path.write_text(content)
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)").replace("{", r"\{")
                       .replace("}", r"\}")):
        ladder.load("classic", str(path))
    assert main(["rate", "greedy", "--ladder", str(path)]) == 2
    assert message in capsys.readouterr().err


def test_measuring_a_small_ladder(tmp_path):
    data = ladder.measure(["classic"], ["random", "greedy", "mcts:10"], deals=2, seed=3, reach=2,
                          records=str(tmp_path))
    assert data["format"] == "azul-ladder" and data["made"]["deals"] == 2 and data["made"]["seed"] == 3
    entry = data["variants"]["classic"]
    assert entry["games"] == 3 * 4  # three pairs, two deals in both seatings
    path = tmp_path / "ladder.json"
    path.write_text(json.dumps(data))
    lad = ladder.load("classic", str(path))
    assert lad.rungs[0].bot == "random" and next(r for r in lad.rungs if r.bot == "greedy").elo == 0
    # the games were kept: the ratings command gives the same figures from them
    games, skipped, _ = ratings.read_games([str(tmp_path / "ladder-classic.jsonl")])
    assert not skipped and len(games) == 12
    again = ratings.rate(games, anchor="greedy")
    for rung in lad.rungs:
        assert again[rung.bot].elo == pytest.approx(rung.elo, abs=0.05)
    with pytest.raises(ValueError, match="the rungs must include the anchor, greedy"):
        ladder.measure(["classic"], ["random", "mcts:10"], deals=1)


def test_one_bot_against_fixed_rungs_rates_at_the_elo_of_its_score():
    rung = ladder.Rung("r", 100.0, 0.0, 10)
    results = [(rung, s, 1.0, d // 2) for d, s in enumerate([1, 1, 1, 0, 0.5, 1, 0, 1])]
    elo, error, total = ladder._fit_one(results, 0.0)
    score = 5.5 / 8
    assert elo == pytest.approx(100 + ratings.elo_of_score(score), abs=1e-6)
    # deals of two games as the unit (the pentanomial variance carried to Elo), but never below games as
    # independent (the binomial's): here the second is the wider
    pairs = [1 + 1, 1 + 0, 0.5 + 1, 0 + 1]
    var = sum((p / 2 - score) ** 2 for p in pairs) / len(pairs)
    slope = ratings.ELO_PER_NAT / (score * (1 - score))
    by_deals = ratings.Z95 * math.sqrt(var / len(pairs)) * slope
    by_games = ratings.Z95 * ratings.ELO_PER_NAT / math.sqrt(8 * score * (1 - score))
    assert by_games > by_deals and error == pytest.approx(by_games, rel=1e-6)
    assert total == pytest.approx(error)  # the rung has no error of its own
    # deals that disagree more than games would: the deals' interval
    spread = [(rung, s, 1.0, d // 2) for d, s in enumerate([1, 1, 0, 0, 1, 1, 0, 0])]
    elo, wide, _ = ladder._fit_one(spread, 0.0)
    assert elo == pytest.approx(100) and wide == pytest.approx(ratings.Z95 * 0.5 / math.sqrt(4) * 4
                                                                 * ratings.ELO_PER_NAT, rel=1e-6)
    rung.error = 30.0
    _, error2, total2 = ladder._fit_one(results, 0.0)
    assert error2 == pytest.approx(error) and total2 == pytest.approx(math.hypot(error, 30.0))


def test_the_opponents_are_the_rungs_around_the_estimate():
    rungs = [ladder.Rung(b, e, 0, 0) for b, e in (("a", -500), ("b", 0), ("c", 200), ("d", 600))]
    names = lambda rs: [r.bot for r in rs]  # noqa: E731
    assert names(ladder._opponents(rungs, None)) == ["b", "c"]  # the middle first
    assert names(ladder._opponents(rungs, 100)) == ["b", "c"]
    assert names(ladder._opponents(rungs, 300)) == ["c", "d"]
    assert names(ladder._opponents(rungs, 900)) == ["c", "d"]  # above the top: the top two
    assert names(ladder._opponents(rungs, -900)) == ["a", "b"]


def test_rate_places_a_bot_between_the_rungs_it_played(tmp_path, capsys, engine):
    path = write_ladder(tmp_path / "ladder.json", [("random", -700, 60), ("greedy", 0, 0), ("mcts:40", 150, 50),
                                                   ("mcts:200", 400, 70)])
    records = tmp_path / "rate.jsonl"
    assert main(["rate", "mcts:10", "--ladder", path, "--batch", "2", "--precision", "1000", "--workers", "1",
                 "--backend", engine.NAME, "-o", str(records)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("rate mcts:10 on the classic ladder (provisional, deals 0, seed 0; anchor greedy = 0)")
    assert out[1].startswith("note: this ladder is provisional")
    rounds = [line for line in out if line.startswith("round ")]
    assert len(rounds) == 2  # a precision of 1000 Elo: two rounds are the least it plays
    assert rounds[0].startswith("round 1: greedy (+0.0) and mcts:40 (+150.0): 8 games so far, ")
    final = next(line for line in out if line.startswith("mcts:10: "))
    assert "16 games" in final and "stopped: the interval is within +/- 1000 Elo" in out
    assert len(records.read_text().splitlines()) == 16


def test_place_stops_at_the_most_games_and_beyond_the_ladder(tmp_path):
    path = write_ladder(tmp_path / "ladder.json", [("random", -300, 0), ("greedy", 0, 0), ("mcts:5", 50, 0)])
    lad = ladder.load("classic", path)
    placed = ladder.place("mcts:300", lad, precision=1, max_games=24, batch=2)
    # mcts:300 wins every game against the top rung: above the ladder, a lower bound, stopped at once
    assert placed.beyond == "above" and placed.stopped == "it won every game against the top rung"
    assert placed.elo > 50 and "above the top rung, mcts:5" in placed.line()
    assert placed.rounds[0][0] == ["greedy", "mcts:5"]
    lad.rungs = [ladder.Rung("random", -50, 0, 0), ladder.Rung("greedy", 0, 0, 0), ladder.Rung("mcts:10", 60, 0, 0)]
    placed = ladder.place("mcts:20", lad, precision=1, max_games=24, batch=2)
    if placed.beyond is None:
        assert placed.stopped == "the next round would pass 24 games" and placed.games <= 24


@pytest.mark.parametrize("argv, message", [
    (["greedy", "--variant", "grey", "--ladder", "{classic}"], "has no ladder for grey (it has: classic)"),
    (["mcts:abc", "--ladder", "{classic}"], "bot spec 'mcts:abc': iterations must be a whole number"),
    (["greedy", "--ladder", "{missing}"], "cannot read"),
    (["mcts:5", "--ladder", "{classic}", "--max-games", "20"],
     "max_games 20 is less than one round's games: 40 (2 seatings x batch 10 deals x 2 rungs)"),
])
def test_rate_refuses_bad_arguments(tmp_path, argv, message, capsys):
    classic = write_ladder(tmp_path / "c.json", [("random", -300, 0), ("greedy", 0, 0)])
    argv = [a.format(classic=classic, missing=str(tmp_path / "none.json")) for a in argv]
    assert main(["rate", *argv]) == 2
    assert message in capsys.readouterr().err
