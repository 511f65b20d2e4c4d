"""Summer Pavilion records: writing, replaying, auditing and explaining them, on both engines."""

import copy
import json

import pytest

import azul_engine
from azul_engine import bots, records
from azul_engine.__main__ import main

SP = "summer-pavilion"


@pytest.fixture(scope="module")
def greedy_records():
    """Greedy-against-random 3-player games recorded by the pure engine: the originals corrupted below."""
    pure = azul_engine.load_backend("python")
    return [bots.play(pure, 3, SP, seed, ["greedy", "random", "greedy"]).record() for seed in range(4)]


def only(findings):
    assert len(findings) == 1, [str(f) for f in findings]
    return findings[0]


def test_record_shape(greedy_records):
    rec = greedy_records[0]
    assert rec["variant"] == SP and len(rec["supply"]) == 10 and len(rec["rounds"]) == 6
    assert list(rec) == ["format", "version", "variant", "players", "seed", "first_player", "supply", "rounds",
                         "final_scores", "winners"]
    assert rec["supply"] == "".join(sorted(rec["supply"], key="PGOYBR".index))
    for rnd in rec["rounds"]:
        for move in rnd["moves"]:
            if move[0] == "~":
                assert move[1:] == "".join(sorted(move[1:], key="PGOYBR".index))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_self_play_records_replay_and_audit_clean(engine, tmp_path, players):
    played = [bots.play(engine, players, SP, seed, ["greedy", "random"] * 2) for seed in range(2)]
    path = tmp_path / "games.jsonl"
    records.write(path, played)
    for game, record in zip(played, records.read(path)):
        assert record == game.record()
        final = records.replay(record, engine)
        assert final.boards == game.boards and final.scores == game.scores and final.winners == game.winners
        assert records.audit(record, engine) == []


@pytest.mark.slow
def test_records_from_both_engines_are_byte_identical(engine, tmp_path):
    argv = ["record", "--players", "2", "--variant", SP, "--games", "3", "--seed", "5", "--bot", "greedy"]
    assert main(argv + ["-o", str(tmp_path / "py.jsonl"), "--backend", "python"]) == 0
    name = "cpp" if engine is not azul_engine.load_backend("python") else "python"
    assert main(argv + ["-o", str(tmp_path / "x.jsonl"), "--backend", name]) == 0
    assert (tmp_path / "py.jsonl").read_bytes() == (tmp_path / "x.jsonl").read_bytes()


def test_a_wrong_round_score_is_reported_once(engine, greedy_records):
    rec = copy.deepcopy(greedy_records[0])
    rec["rounds"][2]["scores"][0] += 2
    f = only(records.audit(rec, engine))
    assert f.round == 3 and f.field == "scores" and f.recorded == f.correct + 2
    assert "player 0: score" in str(f)


def test_a_score_below_one_is_named(engine, greedy_records):
    rec = copy.deepcopy(greedy_records[1])
    rec["rounds"][0]["scores"][1] = 0
    assert "never drops below 1" in only(records.audit(rec, engine)).why


def test_missing_end_bonuses_and_kept_penalty_are_named(engine):
    pure = azul_engine.load_backend("python")
    for seed in range(40):
        game = bots.play(pure, 2, SP, seed, "greedy")
        sheet = game.score_sheet()[-1]
        ends = {e["player"]: e for e in sheet if e["event"] == "end"}
        with_bonus = [p for p in ends if ends[p]["star_points"] + ends[p]["number_points"]]
        if with_bonus:
            break
    else:
        pytest.fail("no greedy game with an end bonus")
    rec = game.record()
    p = with_bonus[0]
    e = ends[p]
    last = rec["rounds"][-1]["scores"][p]
    bad = copy.deepcopy(rec)
    bad["final_scores"][p] = max(1, last - e["kept"])
    bad["winners"] = game.winners
    assert "end bonuses missing" in only(records.audit(bad, engine)).why
    if e["kept"]:
        bad["final_scores"][p] = last + e["star_points"] + e["number_points"]
        assert "kept are not subtracted" in only(records.audit(bad, engine)).why


def test_wrong_winners_are_reported(engine, greedy_records):
    rec = copy.deepcopy(greedy_records[2])
    rec["winners"] = [s for s in range(3) if s not in rec["winners"]][:1]
    assert only(records.audit(rec, engine)).field == "winners"


def test_broken_records_name_the_problem(engine, greedy_records):
    rec = copy.deepcopy(greedy_records[0])
    del rec["supply"]
    assert "field supply: missing" in str(only(records.audit(rec, engine)))
    rec = copy.deepcopy(greedy_records[0])
    rec["supply"] = "PPPP"
    assert "field supply" in str(only(records.audit(rec, engine)))
    rec = copy.deepcopy(greedy_records[0])
    rec["rounds"].append(copy.deepcopy(rec["rounds"][-1]))
    assert "Summer Pavilion has exactly 6" in str(only(records.audit(rec, engine)))
    rec = copy.deepcopy(greedy_records[0])
    moves = rec["rounds"][1]["moves"]
    i = next(i for i, m in enumerate(moves) if len(m) == 4 and m[0] != "-")
    moves[i] = "C1R5"  # wild count too high for any space 1
    f = only(records.audit(rec, engine))
    assert f.round == 2 and f.move == "C1R5" and "illegal move" in f.why
    rec = copy.deepcopy(greedy_records[0])
    refills = [(r, i) for r, rnd in enumerate(rec["rounds"]) for i, m in enumerate(rnd["moves"]) if m[0] == "~"]
    r, i = refills[0]
    del rec["rounds"][r]["moves"][i]
    f = records.audit(rec, engine)[0]
    assert f.round == r + 1 and "supply refill after the previous turn" in f.why and "is missing" in f.why
    with pytest.raises(records.RecordError, match="is missing"):
        records.replay(rec, engine)


def refills(rec, size=None):
    return [(r, i, m) for r, rnd in enumerate(rec["rounds"]) for i, m in enumerate(rnd["moves"])
            if m[0] == "~" and (size is None or len(m) - 1 == size)]


def test_a_refill_is_one_move_with_all_its_tiles(engine, greedy_records):
    rec = next(r for r in greedy_records if refills(r, 2))
    r, i, move = refills(rec, 2)[0]
    split = copy.deepcopy(rec)
    split["rounds"][r]["moves"][i:i + 1] = ["~" + move[1], "~" + move[2]]
    split["seed"] = None
    f = records.audit(split, engine)[0]
    assert f.round == r + 1 and f.move == "~" + move[1] and "refill: 1 tiles drawn" in f.why


def test_every_tampered_refill_of_a_seeded_record_is_found(engine, greedy_records):
    for rec in greedy_records[:2]:
        for r, i, move in refills(rec)[:4]:
            for c in "PGOYBR":
                fake = "~" + c * (len(move) - 1)
                if fake == move:
                    continue
                bad = copy.deepcopy(rec)
                bad["rounds"][r]["moves"][i] = fake
                findings = records.audit(bad, engine)
                assert findings, (r, i, move, fake)
                # The first finding is the refill itself (the seed draws otherwise) or, when the fake refill
                # cannot come out of the bag at all, the replay's refusal of it.
                assert findings[0].round == r + 1 and findings[0].move == fake, (fake, findings[0])


def test_seed_contradictions_are_found(engine, greedy_records):
    rec = copy.deepcopy(greedy_records[3])
    rec["seed"] = rec["seed"] + 100
    findings = records.audit(rec, engine)
    assert findings and findings[0].field in ("first_player", "supply", "factories")


def test_explain_lists_every_scoring_event(engine, greedy_records):
    text = records.explain(greedy_records[0], engine)
    assert text.startswith("Summer Pavilion, 3 players")
    assert text.count("Round ") == 6 and "End of the game" in text and "Final scores" in text
    rec = greedy_records[0]
    places = sum(1 for r in rec["rounds"] for m in r["moves"] if len(m) == 4 and m[0] != "-")
    assert text.count("(run ") == places
    print(text)


def test_cli_audit_and_explain(engine, tmp_path, capsys, greedy_records):
    path = tmp_path / "sp.jsonl"
    bad = copy.deepcopy(greedy_records[1])
    bad["rounds"][4]["scores"][2] += 1
    records.write(path, [greedy_records[0], bad])
    name = "cpp" if engine is not azul_engine.load_backend("python") else "python"
    assert main(["audit", str(path), "--backend", name]) == 1
    out = capsys.readouterr().out
    assert "line 2, round 5" in out
    assert main(["explain", str(path), "--backend", name]) == 0
    assert json.loads(path.read_text().splitlines()[0])["variant"] == SP
