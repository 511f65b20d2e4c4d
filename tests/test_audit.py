"""Records, replay, audit, explain and check-score (azul_engine.records, bots and the CLI), on both engines."""

import copy
import io
import json

import pytest

import azul_engine
from azul_engine import bots, records
from azul_engine.__main__ import main


def games(engine, bot, players=2, variant="classic", seeds=range(3)):
    return [bots.play(engine, players, variant, seed, bot) for seed in seeds]


@pytest.fixture(scope="module")
def greedy_records():
    """Greedy 2-player classic games recorded by the pure engine: the originals corrupted below."""
    pure = azul_engine.load_backend("python")
    return [g.record() for g in games(pure, "greedy", seeds=range(6))]


def only(findings):
    assert len(findings) == 1, [str(f) for f in findings]
    return findings[0]


# -- writing, reading, replaying -----------------------------------------------------------------------------

@pytest.mark.parametrize("bot", ["random", "greedy"])
@pytest.mark.parametrize("players,variant", [(2, "classic"), (3, "grey"), (4, "classic")])
def test_self_play_records_round_trip(engine, tmp_path, bot, players, variant):
    played = games(engine, bot, players, variant, seeds=range(2))
    path = tmp_path / "games.jsonl"
    records.write(path, played)
    read = records.read(path)
    assert read == [g.record() for g in played]
    for game, record in zip(played, read):
        final = records.replay(record, engine)
        assert final.is_over
        assert final.walls == game.walls and final.scores == game.scores and final.winners == game.winners
        assert final.record()["rounds"] == record["rounds"]
        assert records.audit(record, engine) == []


@pytest.mark.slow
def test_records_from_both_engines_are_byte_identical(engine, tmp_path):
    argv = ["record", "--players", "3", "--variant", "grey", "--games", "4", "--seed", "11", "--bot", "greedy"]
    assert main(argv + ["-o", str(tmp_path / "py.jsonl"), "--backend", "python"]) == 0
    name = "cpp" if engine is not azul_engine.load_backend("python") else "python"
    assert main(argv + ["-o", str(tmp_path / "x.jsonl"), "--backend", name]) == 0
    assert (tmp_path / "py.jsonl").read_bytes() == (tmp_path / "x.jsonl").read_bytes()
    lines = (tmp_path / "py.jsonl").read_text().splitlines()
    assert [json.loads(x)["seed"] for x in lines] == [11, 12, 13, 14]


def test_greedy_beats_random_on_average(engine):
    """The greedy bot is a real bot: over a few games it outscores random play clearly."""
    greedy = [sum(g.scores) for g in games(engine, "greedy", seeds=range(4))]
    random_ = [sum(g.scores) for g in games(engine, "random", seeds=range(4))]
    assert sum(greedy) > 3 * sum(random_)


def test_bots_use_their_own_generator_not_the_games(engine):
    """Same game seed, different bots: round 1 is dealt the same, because bots never draw from the game."""
    a = bots.play(engine, 2, "classic", 9, "random").record()
    b = bots.play(engine, 2, "classic", 9, "greedy").record()
    assert a["rounds"][0]["factories"] == b["rounds"][0]["factories"]
    assert a["first_player"] == b["first_player"]


def test_replay_uses_the_recorded_factories_not_the_seed(engine, greedy_records):
    record = dict(greedy_records[0], seed=None)
    assert records.replay(record, engine).scores == greedy_records[0]["final_scores"]


# -- the audit finds exactly the corruption ------------------------------------------------------------------

def test_untouched_records_agree(engine, greedy_records):
    for record in greedy_records:
        assert records.audit(record, engine) == []


def test_one_wrong_round_score_is_reported_once(engine, greedy_records):
    record = copy.deepcopy(greedy_records[0])
    correct = record["rounds"][1]["scores"][1]
    record["rounds"][1]["scores"][1] += 3
    f = only(records.audit(record, engine))
    assert (f.round, f.field, f.recorded, f.correct) == (2, "scores", correct + 3, correct)
    assert str(f).startswith("round 2: player 1: ")


def test_a_mistake_carried_forward_is_reported_once(engine, greedy_records):
    """A wrong score copied into every later round is one mistake, not one per round."""
    record = copy.deepcopy(greedy_records[0])
    for rnd in record["rounds"][1:]:
        rnd["scores"][0] += 2
    record["final_scores"][0] += 2
    f = only(records.audit(record, engine))
    assert (f.round, f.field) == (2, "scores")


def test_a_wrong_tile_score_names_the_tile(engine, greedy_records):
    """Where one tile and nothing else scored in the round, the finding names that tile and its runs."""
    for record in (g.record() for g in games(engine, "random", seeds=range(1000))):
        sheet = records.replay(record, engine).score_sheet()
        for i, events in enumerate(sheet):
            for p in range(2):
                mine = [e for e in events if e["player"] == p and e["event"] != "bonus"]
                if len(mine) == 2 and mine[0]["event"] == "tile" and mine[1]["items"] == 0 \
                        and mine[0]["points"] > 2:
                    tile = mine[0]
                    bad = copy.deepcopy(record)
                    bad["rounds"][i]["scores"][p] -= 2
                    f = only(records.audit(bad, engine))
                    runs = []
                    if tile["across"] > 1:
                        runs.append("%d across" % tile["across"])
                    if tile["down"] > 1:
                        runs.append("%d down" % tile["down"])
                    assert str(f) == "round %d: player %d: the tile on row %d scores %d (%s), record says %d" % (
                        i + 1, p, tile["row"] + 1, tile["points"], ", ".join(runs), tile["points"] - 2)
                    return
    pytest.fail("no round with a single scoring tile in the sample games")


def test_a_swapped_move_is_reported_as_the_illegal_move_it_makes(engine, greedy_records):
    record = copy.deepcopy(greedy_records[0])
    moves = record["rounds"][0]["moves"]
    # Find a swap of two neighbouring moves that makes one of the two illegal where it now stands.
    for j in range(len(moves) - 1):
        bad = copy.deepcopy(record)
        m = bad["rounds"][0]["moves"]
        m[j], m[j + 1] = m[j + 1], m[j]
        findings = records.audit(bad, engine)
        assert findings, "a swap of two players' moves changes the game"
        at = [findings[0].round == 1 and "illegal move %d of the round" % k in str(findings[0])
              for k in (j + 1, j + 2)]
        if any(at):
            f = only(findings)
            assert f.round == 1 and f.field == "moves" and f.move == (m[j] if at[0] else m[j + 1])
            return
    pytest.fail("no swap made a move illegal")


def test_a_missing_end_bonus_is_named(engine, greedy_records):
    record = next(r for r in greedy_records if r["final_scores"][0] > r["rounds"][-1]["scores"][0])
    record = copy.deepcopy(record)
    bonus = record["final_scores"][0] - record["rounds"][-1]["scores"][0]
    record["final_scores"][0] -= bonus
    f = only(records.audit(record, engine))
    assert f.field == "final_scores" and "end bonuses missing: +%d" % bonus in str(f)


def test_a_double_counted_end_bonus_is_named(engine, greedy_records):
    record = next(r for r in greedy_records if r["final_scores"][1] > r["rounds"][-1]["scores"][1])
    record = copy.deepcopy(record)
    bonus = record["final_scores"][1] - record["rounds"][-1]["scores"][1]
    record["final_scores"][1] += bonus
    f = only(records.audit(record, engine))
    assert f.field == "final_scores" and "end bonuses counted twice: +%d, not +%d" % (2 * bonus, bonus) in str(f)


def test_a_second_tile_in_a_wall_row_is_refused_with_the_rule(engine, greedy_records):
    """A draft that would put a colour in a line whose wall row has it (a second tile of that colour in the
    row) is the illegal move the audit reports."""
    record = greedy_records[1]
    for i, rnd in enumerate(record["rounds"][1:], 1):
        for j, move in enumerate(rnd["moves"]):
            for line in "12345":
                bad = copy.deepcopy(record)
                bad["rounds"][i]["moves"][j] = move[:2] + line
                findings = records.audit(bad, engine)
                if findings and "already has" in str(findings[0]):
                    f = only(findings)
                    assert (f.round, f.move, f.field) == (i + 1, move[:2] + line, "moves")
                    assert "illegal move %d of the round" % (j + 1) in str(f)
                    return
    pytest.fail("no such move found")


def test_wrong_winners_are_reported(engine, greedy_records):
    record = copy.deepcopy(greedy_records[0])
    loser = [p for p in range(2) if p not in record["winners"]][0]
    record["winners"] = [loser]
    f = only(records.audit(record, engine))
    assert f.field == "winners" and f.recorded == [loser]


def test_factories_that_the_seed_does_not_deal_are_reported(engine, greedy_records):
    """A record with a seed claims its draws: dealing other (legal) factories contradicts it."""
    record = copy.deepcopy(greedy_records[0])
    record["seed"] = next(s for s in range(100, 200) if s != record["seed"] and
                          engine.new_game(2, seed=s).starting_player == record["first_player"])
    f = only(records.audit(record, engine))
    assert (f.round, f.field) == (1, "factories") and "seed %d deals" % record["seed"] in str(f)
    record["seed"] = next(s for s in range(100, 200) if
                          engine.new_game(2, seed=s).starting_player != record["first_player"])
    f = only(records.audit(record, engine))
    assert f.field == "first_player" and "seed %d starts with player" % record["seed"] in str(f)


# -- broken input: a finding naming the line and field, never a crash ----------------------------------------

def broken_corpus(good):
    """(line text, expected fragment of the finding) for each kind of broken record."""
    def variant(**changes):
        r = copy.deepcopy(good)
        r.update(changes)
        return json.dumps(r)

    no_winners = copy.deepcopy(good)
    del no_winners["winners"]
    bad_notation = copy.deepcopy(good)
    bad_notation["rounds"][0]["moves"][0] = "3-R-4"
    unordered = copy.deepcopy(good)
    f0 = unordered["rounds"][0]["factories"][0]
    unordered["rounds"][0]["factories"][0] = f0[::-1] if f0[::-1] != f0 else "WB" + f0[2:]
    cut = copy.deepcopy(good)
    cut["rounds"] = cut["rounds"][:2]
    cut["rounds"][1]["moves"] = cut["rounds"][1]["moves"][:3]
    four = copy.deepcopy(good)
    four.update(players=4, first_player=0)
    four["rounds"] = [{"factories": ["BBBB"] * 6 + ["YYYY"] * 3, "moves": [], "scores": [0, 0, 0, 0]}]
    four["final_scores"] = [0, 0, 0, 0]
    four["seed"] = None
    return [
        ('{"format": "azul-record", "version": 1, ', "not JSON"),
        (json.dumps({k: v for k, v in good.items() if k != "first_player"}), "field first_player: missing"),
        (variant(variant="hexagonal"), "field variant: unknown variant 'hexagonal'"),
        (json.dumps(bad_notation), "'3-R-4' is not a move"),
        (json.dumps(unordered), "not in colour order"),
        (json.dumps(four), "24 blue dealt, but bag and lid hold only 20"),
        (json.dumps(cut), "cut short"),
        (json.dumps(no_winners), "field winners: missing"),
        ('[1, 2, 3]', "a record is a JSON object, not list"),
    ]


def test_audit_of_a_broken_corpus_names_each_line_and_goes_on(engine, greedy_records, tmp_path, capsys):
    corpus = broken_corpus(greedy_records[2])
    path = tmp_path / "broken.jsonl"
    path.write_text("\n".join([json.dumps(greedy_records[2])] + [text for text, _ in corpus]) + "\n")
    backend = "python" if engine is azul_engine.load_backend("python") else "cpp"
    assert main(["audit", str(path), "--backend", backend]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[-1] == "1 records agree, %d disagree" % len(corpus)
    for line_number, (_, fragment) in enumerate(corpus, 2):
        hits = [x for x in out if x.startswith("%s: line %d" % (path, line_number))]
        assert hits, "no finding for line %d" % line_number
        assert fragment in hits[0], (fragment, hits)


def test_replay_raises_a_record_error_naming_the_field(engine, greedy_records):
    record = copy.deepcopy(greedy_records[0])
    record["rounds"][0]["moves"][0] = "ZZZ"
    with pytest.raises(records.RecordError, match=r"round 1, move ZZZ: .*'ZZZ' is not a move"):
        records.replay(record, engine)
    with pytest.raises(records.RecordError, match="field players"):
        records.replay(dict(record, players=7), engine)


def test_read_names_the_line_that_is_not_json(tmp_path):
    path = tmp_path / "x.jsonl"
    path.write_text('{"a": 1}\n\n{oops\n')
    with pytest.raises(records.RecordError, match="line 3: not JSON"):
        records.read(path)


# -- explain and check-score ---------------------------------------------------------------------------------

def test_explain_shows_every_tile_floor_and_bonus(engine, greedy_records, tmp_path, capsys):
    record = greedy_records[0]
    path = tmp_path / "g.jsonl"
    records.write(path, greedy_records[:2])
    backend = "python" if engine is azul_engine.load_backend("python") else "cpp"
    assert main(["explain", str(path), "--game", "1", "--backend", backend]) == 0
    text = capsys.readouterr().out
    sheet = records.replay(record, engine).score_sheet()
    tiles = sum(1 for events in sheet for e in events if e["event"] == "tile")
    assert text.count(" = ") >= tiles  # one line per tile, with its points
    assert "Round %d" % len(record["rounds"]) in text
    assert "End bonuses" in text
    assert "Final scores %s, winners %s" % (record["final_scores"], record["winners"]) in text
    for p in range(2):
        assert "player %d: rows" % p in text


def test_explain_shows_the_clamp_at_zero(engine):
    """A floor penalty larger than the score is shown clamped (rules: score 3 minus 8 is 0)."""
    pure = azul_engine.load_backend("python")
    for seed in range(40):
        record = bots.play(pure, 2, "classic", seed, "random").record()
        text = records.explain(record, engine)
        if "(clamped at 0)" in text:
            line = next(x for x in text.splitlines() if "(clamped at 0)" in x)
            before, after = line.split(": ")[-1].split(" (")[0].split(" -> ")
            penalty = int(line.split(" = -")[1].split(":")[0])
            assert int(after) == 0 and int(before) - penalty < 0
            return
    pytest.fail("no clamp in 40 random games")


WALL = "BYRKW\nWBYRK\nKWBYR\nRKWBY\nYRKW.\n"


def test_check_score_from_a_wall_file(engine, tmp_path, capsys):
    path = tmp_path / "wall.txt"
    path.write_text(WALL)
    backend = "python" if engine is azul_engine.load_backend("python") else "cpp"
    assert main(["check-score", str(path), "--score", "45", "--variant", "classic", "--backend", backend]) == 0
    assert capsys.readouterr().out.splitlines() == [
        "complete rows:    4 x 2 = 8",
        "complete columns: 4 x 7 = 28",
        "complete colours: 4 x 10 = 40",
        "bonuses: 76",
        "final score: 45 + 76 = 121",
    ]


def test_check_score_from_stdin_refuses_an_impossible_wall(engine, monkeypatch, capsys):
    monkeypatch.setattr("sys.stdin", io.StringIO("BB...\n.....\n.....\n.....\n.....\n"))
    backend = "python" if engine is azul_engine.load_backend("python") else "cpp"
    assert main(["check-score", "-", "--score", "10", "--backend", backend]) == 1
    assert "impossible wall: row 1 repeats a colour" in capsys.readouterr().err


def test_check_score_of_a_record_audits_it(engine, greedy_records, tmp_path, capsys):
    path = tmp_path / "g.jsonl"
    records.write(path, greedy_records[:3])
    backend = "python" if engine is azul_engine.load_backend("python") else "cpp"
    assert main(["check-score", "--record", str(path), "--backend", backend]) == 0
    assert capsys.readouterr().out.strip() == "3 records agree, 0 disagree"


@pytest.mark.parametrize("players,seed", [(2, 3), (3, 1), (4, 5)])
def test_check_score_of_a_summer_pavilion_board_gives_the_engines_end(engine, tmp_path, capsys, players, seed):
    """check-score --variant summer-pavilion (issue 38: the variant had no score check): each board of a finished
    bot game, with its score after round 6's passes and its kept tiles, gives the stars, the numbers and the
    final score of the engine's own end scoring (its score sheet's "end" event)."""
    game = bots.play(engine, players, "summer-pavilion", seed, "greedy")
    backend = "python" if engine is azul_engine.load_backend("python") else "cpp"
    ends = [e for e in game.score_sheet()[-1] if e["event"] == "end"]
    for p, end in enumerate(ends):
        path = tmp_path / "board.txt"
        path.write_text("\n".join(game.boards[p]).lower() + "\n")
        assert main(["check-score", str(path), "--variant", "summer-pavilion", "--score", str(end["before"]),
                     "--kept", str(end["kept"]), "--backend", backend]) == 0
        out = capsys.readouterr().out.splitlines()
        assert out[-1].endswith(" = %d" % end["after"]) and out[2] == "bonuses: %d" % (
            end["star_points"] + end["number_points"]), out
        result = records.board_bonus(engine, game.boards[p], end["before"], end["kept"])
        assert "".join(result["stars"]) == end["stars"] and list(result["numbers"]) == end["numbers"]
        assert result["final"] == end["after"]


def test_check_score_of_a_summer_pavilion_board_names_what_is_wrong(engine, monkeypatch, capsys):
    backend = "python" if engine is azul_engine.load_backend("python") else "cpp"
    board = "OOOOOO\nRRR...\n......\n......\n......\n......\nPGOYBR\n"
    monkeypatch.setattr("sys.stdin", io.StringIO(board))
    assert main(["check-score", "-", "--variant", "summer-pavilion", "--score", "47", "--kept", "2",
                 "--backend", backend]) == 0
    assert capsys.readouterr().out.splitlines() == [
        "complete stars:   orange 17, centre 12 = 29", "numbers covered:  none = 0", "bonuses: 29",
        "kept tiles:       2, -2", "final score: 47 + 29 - 2 = 74"]
    for text, args, message in [
            (board.replace("PGOYBR", "PGOYBG"), [], "check-score: board: the centre star holds green twice"),
            (board.replace("OOOOOO", "ROOOOO"), [], "check-score: board: the orange star cannot hold red"),
            (board.replace("RRR...", "RRX..."), [], "check-score: board: row 2 (red star): 'X' is not a colour "
             "letter (P G O Y B R) or '.' for an empty space"),
            (board.replace("RRR...", "RRR.."), [], "check-score: board: row 2 (red star) has 5 spaces, not 6"),
            ("OOOOOO\n", [], "check-score: board: 1 rows, not 7"),
            (board, ["--kept", "5"], "check-score: kept: 5 is not 0 to 4 (a pass keeps at most 4 tiles)"),
            (board, ["--score", "0"], "check-score: score: 0 is not a whole number 1 or more")]:
        monkeypatch.setattr("sys.stdin", io.StringIO(text))
        argv = ["check-score", "-", "--variant", "summer-pavilion", "--score", "47", "--backend", backend] + args
        assert main(argv) == 1
        err = capsys.readouterr().err
        assert err.startswith(message) and err.count("\n") == 1, err
    monkeypatch.setattr("sys.stdin", io.StringIO(WALL))
    assert main(["check-score", "-", "--score", "4", "--kept", "1", "--backend", backend]) == 2
    assert "--kept is for --variant summer-pavilion" in capsys.readouterr().err


def test_end_bonus_counts_rows_columns_and_colours(engine):
    assert engine.end_bonus(WALL.split(), variant="classic") == {
        "rows": 4, "columns": 4, "colours": 4, "points": 76}
    grey = ["BYRKW", "YRKWB", ".....", ".....", "....."]
    assert engine.end_bonus(grey) == {"rows": 2, "columns": 0, "colours": 0, "points": 4}
    with pytest.raises(engine.StateFormatError, match="cannot be in row 2, column 1 of the coloured wall"):
        engine.end_bonus(grey, variant="classic")
