"""The rated ladder (azul_engine.ladder): the ladder file the package carries, measuring a ladder (with a few
games), and ``azul-engine rate``, which places a bot on it by playing the rungs nearest to its rating."""

import json
import math
import os

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
        assert all(b in ("random", "greedy") or b.startswith("mcts:") and b[5:].isdigit() or b.startswith("net")
                   and "seconds" not in b for b in bots), \
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


def test_the_networks_that_ship_are_rungs_of_their_variants_ladders():
    from azul_engine import network

    for variant in ladder.VARIANTS:
        rungs = ladder.rungs_for(variant)
        nets = [b for b in rungs if b.startswith("net")]
        if network.shipped_path(variant, 2) is None:
            assert rungs == list(ladder.RUNGS) and variant not in ladder.NETWORK_RUNGS
            continue
        assert nets == ["net:policy_only=1", "net"] or nets == ["net", "net:policy_only=1"], rungs
        assert [b for b in rungs if not b.startswith("net")] == list(ladder.RUNGS)
        for bot, below in ladder.NETWORK_RUNGS[variant]:
            assert rungs[rungs.index(bot) - 1] == below
    # every 2-player network that ships has its places
    assert {v for (v, players) in network.shipped() if players == 2} == set(ladder.NETWORK_RUNGS)


def test_a_ladder_measured_variant_by_variant(tmp_path):
    first = ladder.measure(["classic"], ["random", "greedy"], deals=1, seed=5, provisional=True)
    second = ladder.measure(["grey"], ["greedy", "mcts:5"], deals=1, seed=7)
    merged = ladder.merge(first, second)
    assert list(merged["variants"]) == ["classic", "grey"]
    assert merged["provisional"] is True and merged["made"] == second["made"]
    path = tmp_path / "ladder.json"
    path.write_text(json.dumps(merged))
    classic, grey = ladder.load("classic", str(path)), ladder.load("grey", str(path))
    assert classic.provisional and classic.made["seed"] == 5 and [r.bot for r in classic.rungs] == ["random", "greedy"]
    assert not grey.provisional and grey.made["seed"] == 7 and {r.bot for r in grey.rungs} == {"greedy", "mcts:5"}
    # measured again: the newer replaces the older, the others stay
    again = ladder.merge(merged, ladder.measure(["classic"], ["random", "greedy"], deals=1, seed=9))
    path.write_text(json.dumps(again))
    assert ladder.load("classic", str(path)).made["seed"] == 9 and not again["provisional"]
    assert ladder.load("grey", str(path)).made["seed"] == 7


def test_the_benchmark_updates_one_variant_of_a_ladder_file(tmp_path, capsys, monkeypatch):
    import importlib.util
    import os
    import sys

    from azul_engine import outputs

    monkeypatch.setattr(sys, "path", list(sys.path))  # the script puts its checkout's package first
    spec = importlib.util.spec_from_file_location(
        "ladder_benchmark", os.path.join(os.path.dirname(__file__), "..", "benchmarks", "ladder.py"))
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    out = str(tmp_path / "ladder.json")
    run = ["--deals", "1", "--workers", "1", "-o", out]
    assert bench.main(["--variant", "classic", "--rungs", "random,greedy", *run]) == 0
    classic = json.loads(open(out).read())["variants"]["classic"]
    with pytest.raises(outputs.OutputExists):  # the file exists: neither --force nor --update
        bench.main(["--variant", "grey", "--rungs", "random,greedy", *run])
    capsys.readouterr()
    assert bench.main(["--variant", "grey", "--rungs", "greedy,mcts:5", "--update", *run]) == 0
    printed = capsys.readouterr().out.splitlines()
    assert any(line.startswith("grey: greedy ") or line.startswith("grey: mcts:5 ") for line in printed), printed
    assert not any(line.startswith("classic:") for line in printed)  # only what was measured is printed
    data = json.loads(open(out).read())
    assert list(data["variants"]) == ["classic", "grey"]
    kept = data["variants"]["classic"]
    assert kept["rungs"] == classic["rungs"] and "--variant classic" in kept["made"]["command"]
    assert "--update" in data["variants"]["grey"]["made"]["command"]
    for content in ("not json", '{"format": "azul-ladder", "version": 1, "variants": {"classic": 3}}'):
        bad = tmp_path / "bad.json"
        bad.write_text(content)
        with pytest.raises(SystemExit) as stop:
            bench.main(["--variant", "grey", "--rungs", "greedy,mcts:5", "--update", "--deals", "1",
                        "-o", str(bad)])
        assert stop.value.code == 2 and "is not a ladder file" in capsys.readouterr().err
        assert bad.read_text() == content  # a file that is no ladder is never replaced
    # an empty file is no file: written new; the variant measured may be one the file had broken
    empty = tmp_path / "empty.json"
    empty.write_text("")
    assert bench.main(["--variant", "grey", "--rungs", "greedy,mcts:5", "--update", "--deals", "1", "--workers",
                       "1", "-o", str(empty)]) == 0
    assert list(json.loads(empty.read_text())["variants"]) == ["grey"]
    broken = tmp_path / "broken.json"
    broken.write_text(json.dumps({"format": "azul-ladder", "version": 1, "made": {},
                                  "variants": {"grey": 3, "classic": kept}}))
    assert bench.main(["--variant", "grey", "--rungs", "greedy,mcts:5", "--update", "--deals", "1", "--workers",
                       "1", "-o", str(broken)]) == 0
    assert set(json.loads(broken.read_text())["variants"]) == {"classic", "grey"}


def test_a_ladder_records_the_network_its_net_rungs_played(tmp_path, capsys):
    from azul_engine import network

    data = ladder.measure(["classic"], ["greedy", "net:policy_only=1"], deals=1)
    entry = data["variants"]["classic"]
    shipped = network.shipped_path("classic", 2)
    assert entry["network"]["file"] == os.path.basename(shipped) and len(entry["network"]["sha256"]) == 64
    assert "network" not in ladder.measure(["classic"], ["random", "greedy"], deals=1)["variants"]["classic"]
    path = tmp_path / "ladder.json"
    path.write_text(json.dumps(data))
    assert ladder.load("classic", str(path)).network == entry["network"]
    entry["network"] = {"file": "classic-2.npz", "sha256": "0" * 64}  # another network than the one installed
    path.write_text(json.dumps(data))
    assert main(["rate", "mcts:5", "--ladder", str(path), "--batch", "1", "--max-games", "4", "--workers",
                 "1"]) == 0
    assert "note: the ladder's net rungs played the network classic-2.npz (sha256 000000000000...)" in \
        capsys.readouterr().out
    entry["network"] = "classic-2.npz"
    path.write_text(json.dumps(data))
    with pytest.raises(ValueError, match="classic: its network is not {file, sha256}"):
        ladder.load("classic", str(path))
