"""Bots of your own: specs (module:Class, installed entry points), the bot protocol, forfeits, external engines
over azul-bot-protocol (examples/random_bot.py), records that say who played, record --bots, hints."""

import json
import os
import sys
import textwrap

import pytest

import azul_engine
from azul_engine import bots, records, tournament
from azul_engine.__main__ import main

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EXAMPLE = os.path.join(ROOT, "examples", "random_bot.py")
OLD_RECORDS = os.path.join(ROOT, "tests", "records", "before-who-played.jsonl")


def example(*args):
    """The cmd: spec of the shipped external bot, with options."""
    return "cmd:%s %s" % (sys.executable, " ".join((EXAMPLE,) + args))


# -- specs ---------------------------------------------------------------------------------------------------

def test_a_class_of_your_own_with_parameters():
    factory = bots.resolve_bot_spec("bot_examples:FirstMove:pick=2,label=abc:scale=0.5,loud=true")
    assert factory.kind == "class"
    assert factory.kwargs == {"pick": 2, "label": "abc", "scale": 0.5, "loud": True}
    bot = factory.make(seat=1, seed=99)
    assert (bot.pick, bot.label, bot.scale, bot.loud) == (2, "abc", 0.5, True)
    assert bot.resets == [(1, 99)]  # reset(seat, seed) before the game
    # A bare first value fills the first parameter; a factory function is a target too.
    assert bots.resolve_bot_spec("bot_examples:FirstMove:3").kwargs == {"pick": 3}
    assert bots.make_bot("bot_examples:make_first_move", 0).pick == 1
    assert bots.parse_bot_spec("bot_examples:FirstMove:1") == ("bot_examples:FirstMove", {"pick": 1})


def test_split_bot_specs_keeps_parameters_with_their_spec():
    assert bots.split_bot_specs("random, bot_examples:FirstMove:pick=1,label=a,greedy,mcts:200,c=1.0") == [
        "random", "bot_examples:FirstMove:pick=1,label=a", "greedy", "mcts:200,c=1.0"]
    assert bots.parse_bot_spec("mcts:200,c=1.0") == ("mcts", {"iterations": 200, "c": 1.0})
    assert bots.split_bot_specs("mcts,c=1.0,greedy") == ["mcts,c=1.0", "greedy"]
    assert bots.parse_bot_spec("mcts,c=1.0") == ("mcts", {"c": 1.0})
    with pytest.raises(ValueError, match="bot greedy takes no parameters"):
        bots.parse_bot_spec("greedy,x=1")


@pytest.mark.parametrize("spec, message", [
    ("nosuchmodule:Bot", "bot spec 'nosuchmodule:Bot': no module named 'nosuchmodule'"),
    ("bot_examples:Nope", "bot spec 'bot_examples:Nope': module bot_examples has no 'Nope' (bots in it: "),
    ("bot_examples:FirstMove:depth=3", "bot_examples:FirstMove has no parameter 'depth' (parameters: pick, label, "
                                       "scale, loud)"),
    ("bot_examples:FirstMove:pick=two", "bot spec 'bot_examples:FirstMove:pick=two': pick must be a whole number, "
                                        "not 'two'"),
    ("bot_examples:FirstMove:loud=maybe", "loud must be true or false, not 'maybe'"),
    ("bot_examples:FirstMove:pick=1,pick=2", "pick given twice"),
    ("bot_examples:FirstMove:1:2", "'2' needs a name"),
    ("bot_examples:NeedsDepth", "bot_examples:NeedsDepth needs depth (give depth=VALUE)"),
    ("bot_examples:9x", "'9x' is not a class name"),
    ("alphazero", "unknown bot 'alphazero' (bots: random, greedy, mcts, net)"),
    ("cmd:", "give the command after cmd:"),
    ("cmd:no-such-program-azul --x", "command 'no-such-program-azul' not found"),
    ("cmd:/nonexistent/bot", "/nonexistent/bot is not an executable file"),
    ("cmd:python3 'unclosed", "the command cannot be read"),
    ("mcts:policy=heavy", "policy must be one of uniform, light, not 'heavy'"),
])
def test_bad_specs_name_the_problem(spec, message):
    with pytest.raises(bots.BotSpecError) as info:
        bots.resolve_bot_spec(spec)
    assert message in str(info.value)
    assert isinstance(info.value, ValueError)


@pytest.mark.parametrize("spec, message", [
    ("bot_examples:RefusesToBeMade", "making the bot failed: ValueError: size must be even"),
    ("bot_examples:NotABot", "is not a bot: it has no choose(state) method"),
    (example("--protocol", "7"), "speaks azul-bot-protocol version '7'; this host speaks version 1"),
])
def test_check_makes_the_bot_once(spec, message):
    factory = bots.resolve_bot_spec(spec)  # resolves: the problem shows when the bot is made
    with pytest.raises(bots.BotSpecError, match=message.replace("(", r"\(").replace(")", r"\)")):
        factory.check()


def test_command_line_reports_bad_specs_on_one_line(capsys, tmp_path):
    out = str(tmp_path / "x.jsonl")
    assert main(["record", "--bots", "greedy,bot_examples:FirstMove:depth=3", "-o", out]) == 2
    err = capsys.readouterr().err
    assert err == ("azul-engine record: bot spec 'bot_examples:FirstMove:depth=3': bot_examples:FirstMove has no "
                   "parameter 'depth' (parameters: pick, label, scale, loud)\n")
    assert main(["tournament", "--bots", "greedy,nosuchmodule:X", "--games", "2"]) == 2
    assert capsys.readouterr().err == ("azul-engine tournament: bot spec 'nosuchmodule:X': no module named "
                                       "'nosuchmodule' (is it installed, or on PYTHONPATH?)\n")
    assert main(["tournament", "--bots", "greedy,bot_examples:RefusesToBeMade", "--games", "2"]) == 2
    assert "Traceback" not in capsys.readouterr().err


def _install_fake_distribution(root, monkeypatch):
    """A distribution installed in ``root`` (on sys.path) declaring a bot in the entry-point group."""
    (root / "flatbots.py").write_text(textwrap.dedent("""
        class Flat:
            name = "flat"
            def __init__(self, width=1):
                self.width = width
            def choose(self, state):
                return state.legal_actions()[-1]
        """))
    info = root / "flatbots-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: flatbots\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text("[azul_engine.bots]\nflat = flatbots:Flat\nbroken = flatbots:Missing\n")
    monkeypatch.syspath_prepend(str(root))


def test_installed_bots_by_entry_point(tmp_path, monkeypatch, capsys):
    _install_fake_distribution(tmp_path, monkeypatch)
    factory = bots.resolve_bot_spec("flat:width=3")
    bot = factory.make(0, 0)
    assert type(bot).__module__ == "flatbots" and bot.width == 3
    assert bots.parse_bot_spec("flat:2") == ("flat", {"width": 2})
    with pytest.raises(bots.BotSpecError, match=r"the installed bot broken \(flatbots:Missing\) cannot be loaded"):
        bots.resolve_bot_spec("broken")
    with pytest.raises(bots.BotSpecError, match="installed: broken, flat"):
        bots.resolve_bot_spec("nobody")
    out = tmp_path / "t.jsonl"
    assert main(["tournament", "--bots", "greedy,flat:width=2", "--games", "2", "--workers", "1",
                 "-o", str(out)]) == 0
    lines = out.read_text().splitlines()
    assert [json.loads(line)["bots"] for line in lines] == [
        [{"spec": "greedy"}, {"spec": "flat:width=2", "name": "flat"}],
        [{"spec": "flat:width=2", "name": "flat"}, {"spec": "greedy"}]]
    assert main(["audit", str(out)]) == 0


# -- the protocol and forfeits -------------------------------------------------------------------------------

def test_bots_of_your_own_play_whole_games(engine):
    for variant in ("classic", "grey", "summer-pavilion"):
        match = bots.play_match(engine, 3, variant, 8, ["bot_examples:FirstMove:pick=1", "bot_examples:Notation",
                                                         "greedy"])
        assert match.forfeit is None and match.state.is_over
        record = match.record()
        assert records.audit(record, engine) == []
        assert record["bots"] == [{"spec": "bot_examples:FirstMove:pick=1", "name": "first-move"},
                                  {"spec": "bot_examples:Notation"}, {"spec": "greedy"}]
        assert record["final_scores"] == match.scores and record["winners"] == match.winners


def test_the_bot_gets_a_copy(engine):
    class Meddler:
        def choose(self, state):
            move = state.legal_actions()[0]
            state.apply(move)  # on its own copy: the game does not move
            return move

    factory = bots.BotFactory("meddler", "class", Meddler, {})
    match = bots.play_match(engine, 2, "classic", 3, [factory, "greedy"])
    assert match.forfeit is None and match.state.is_over
    assert records.audit(match.record(), engine) == []


@pytest.mark.parametrize("spec, reason", [
    ("bot_examples:Crashes:after=4", "raised RuntimeError: out of ideas"),
    ("bot_examples:Illegal", "illegal move 9999: "),
    ("bot_examples:RefusesToBeMade", "could not be made: ValueError: size must be even"),
])
def test_a_failing_bot_forfeits(engine, spec, reason):
    match = bots.play_match(engine, 2, "classic", 5, ["greedy", spec])
    assert match.forfeit.seat == 1 and match.forfeit.reason.startswith(reason)
    assert match.winners == [0]
    record = match.record()
    assert record["forfeit"] == {"seat": 1, "reason": match.forfeit.reason}
    assert record["winners"] == [0] and record["final_scores"] == match.scores
    assert records.audit(record, engine) == []
    with pytest.raises(bots.BotForfeit, match="seat 1 .* forfeits: "):
        bots.play(engine, 2, "classic", 5, ["greedy", spec])


def test_over_the_time_limit_forfeits(engine):
    match = bots.play_match(engine, 2, "classic", 5, ["bot_examples:Slow:seconds=0.3", "greedy"], time_limit=0.05)
    assert match.forfeit.seat == 0 and "over the time limit of 0.05 s" in match.forfeit.reason
    assert records.audit(match.record(), engine) == []


def test_forfeit_in_three_players_goes_to_the_best_other_score(engine):
    match = bots.play_match(engine, 3, "classic", 2, ["greedy", "greedy", "bot_examples:Crashes:after=12"])
    assert match.forfeit.seat == 2
    scores = match.scores
    best = max(scores[0], scores[1])
    assert match.winners == [p for p in (0, 1) if scores[p] == best]


def test_audit_checks_a_forfeit_record(engine):
    match = bots.play_match(engine, 2, "summer-pavilion", 4, ["greedy", "bot_examples:Crashes:after=9"])
    good = match.record()
    assert good["rounds"][-1]["scores"] is None  # the round the forfeit stopped
    assert records.audit(good, engine) == []
    replayed = records.replay(good, engine)  # the position at the forfeit
    assert replayed.scores == match.scores and replayed.boards == match.state.boards
    assert replayed.current_player == match.forfeit.seat == 1
    bad = json.loads(json.dumps(good))
    bad["winners"] = [1]
    assert [f.field for f in records.audit(bad, engine)] == ["winners"]
    bad = json.loads(json.dumps(good))
    bad["final_scores"] = [s + 1 for s in good["final_scores"]]
    assert "final_scores" in [f.field for f in records.audit(bad, engine)]
    bad = json.loads(json.dumps(good))
    bad["forfeit"] = {"seat": 5, "reason": "x"}
    assert str(records.audit(bad, engine)[0]) == "field forfeit: seat 5 is not a seat 0-1"
    bad = json.loads(json.dumps(good))
    del bad["forfeit"]  # without the forfeit it is a game cut short
    assert records.audit(bad, engine) != []
    finished = bots.play_match(engine, 2, "classic", 4, ["greedy", "greedy"]).record()
    finished["forfeit"] = {"seat": 0, "reason": "said so"}
    assert "but its moves play the game to its end" in str(records.audit(finished, engine)[0])


# -- external engines ----------------------------------------------------------------------------------------

@pytest.mark.slow
def test_external_engine_plays_whole_games(engine):
    for variant in ("classic", "summer-pavilion"):
        match = bots.play_match(engine, 2, variant, 6, ["greedy", example()], event="Test cup", date="2026-12-01")
        assert match.forfeit is None and match.state.is_over
        record = match.record()
        assert record["bots"] == [{"spec": "greedy"}, {"spec": example(), "name": "random_bot.py 1.0"}]
        assert (record["event"], record["date"]) == ("Test cup", "2026-12-01")
        assert records.audit(record, engine) == []
    # Seeded by newgame: the same game twice.
    assert (bots.play_match(engine, 2, "grey", 6, [example(), "greedy"]).record_json()
            == bots.play_match(engine, 2, "grey", 6, [example(), "greedy"]).record_json())


@pytest.mark.parametrize("options, reason", [
    (("--crash-after", "3"), "crashed: exited with status 3: 'random_bot.py: crashing on purpose (--crash-after)'"),
    (("--illegal-after", "2"), "illegal move 'Z9Z': 'Z9Z' is not a move"),
    (("--sleep", "3"), "gave no answer: expected a move within the time limit of 0.5 s"),
    (("--protocol", "2"), "speaks azul-bot-protocol version '2'; this host speaks version 1"),
])
@pytest.mark.slow
def test_external_engine_forfeits(engine, options, reason):
    match = bots.play_match(engine, 2, "classic", 5, ["greedy", example(*options)], time_limit=0.5)
    assert match.forfeit.seat == 1 and match.forfeit.reason.startswith(reason), match.forfeit
    assert match.winners == [0]
    assert records.audit(match.record(), engine) == []


FORKS_AND_LEAVES = """
import os, sys, time
sys.stdin.readline()
print("ready 1", flush=True)
if os.fork() == 0:
    time.sleep(120)  # the child keeps the bot's output open
os._exit(0)
"""


@pytest.mark.skipif(os.name != "posix", reason="fork and process groups")
def test_a_bot_that_leaves_a_child_holding_its_output_forfeits_without_a_hang(engine, tmp_path):
    """The bot exits after the handshake, its child holds the pipe: no end of file comes, and closing the pipe
    under the blocked reader waited for ever (even with a time limit).  The bot's process group is killed."""
    import time

    bot = tmp_path / "forks.py"
    bot.write_text(FORKS_AND_LEAVES)
    start = time.monotonic()
    match = bots.play_match(engine, 2, "classic", 5, ["greedy", "cmd:%s %s" % (sys.executable, bot)],
                            time_limit=1.0)
    assert match.forfeit.seat == 1 and match.forfeit.reason == "crashed: exited with status 0", match.forfeit
    assert time.monotonic() - start < 30


def test_a_bot_line_without_end_is_a_forfeit_not_unbounded_memory(engine, tmp_path):
    bot = tmp_path / "floods.py"
    bot.write_text("import sys\nsys.stdin.readline()\nprint('ready 1', flush=True)\n"
                   "sys.stdin.readline()\nwhile True:\n    sys.stdout.write('x' * 65536)\n")
    match = bots.play_match(engine, 2, "classic", 5, ["greedy", "cmd:%s %s" % (sys.executable, bot)],
                            time_limit=30)
    assert match.forfeit.seat == 1 and match.forfeit.reason == "sent a line of more than 1048576 characters"


def test_external_engine_sees_the_position_but_not_the_draws(tmp_path):
    """A bot that logs what it is sent: the position reads back as the game's (factories, boards, scores), but
    with another generator and seed 0, so its text tells nothing of the future draws."""
    log = tmp_path / "log.txt"
    script = tmp_path / "logbot.py"
    script.write_text(textwrap.dedent("""
        import sys
        log = open(sys.argv[1], "a")
        for line in sys.stdin:
            log.write(line)
            log.flush()
            if line.startswith("azul-bot-protocol"):
                print("ready 1", flush=True)
            elif line.startswith("moves "):
                moves = line.split()[1:]
            elif line.startswith("go "):
                print("move " + moves[0], flush=True)
            elif line.startswith("quit"):
                break
        """))
    match = bots.play_match(azul_engine, 2, "classic", 77, ["cmd:%s %s %s" % (sys.executable, script, log),
                                                             "greedy"])
    assert match.forfeit is None
    lines = log.read_text().splitlines()
    assert lines[0] == "azul-bot-protocol 1"
    assert lines[1] == "newgame classic 2 0 %d" % bots.bot_seed(77, 0)
    positions = [line[len("position "):] for line in lines if line.startswith("position ")]
    first = azul_engine.from_text(positions[0])
    real = azul_engine.new_game(2, seed=77)
    assert first.factories == real.factories and first.scores == real.scores
    assert " seed=0 " in positions[0] and " seed=77 " not in positions[0]
    assert first != real  # another generator
    assert lines[2:5] == ["position " + positions[0], "moves " + " ".join(real.legal_moves()), "go 0"]
    assert lines[-2] == "gameover %d %d" % tuple(match.scores)
    assert lines[-1] == "quit"


@pytest.mark.slow
def test_tournament_goes_on_past_forfeits(tmp_path, capsys):
    out = tmp_path / "t.jsonl"
    assert main(["tournament", "--bots", "greedy," + example("--illegal-after", "5") + ",random", "--games", "6",
                 "--workers", "2", "-o", str(out), "--event", "Cup", "--date", "2026-12-01"]) == 0
    captured = capsys.readouterr()
    forfeits = [line for line in captured.err.splitlines() if "forfeits: illegal move 'Z9Z'" in line]
    assert len(forfeits) == 4  # the external bot plays 4 of the 6 games, and forfeits each
    heading, columns, *rows = captured.out.splitlines()
    assert columns.split()[-1] == "forfeits" and rows[3].startswith("Ratings: ")  # the standings, then the ratings
    assert [row.split()[-1] for row in rows[:3]] == ["0", "4", "0"]
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(lines) == 6 and sum("forfeit" in r for r in lines) == 4
    assert all(r["event"] == "Cup" and r["date"] == "2026-12-01" for r in lines)
    assert main(["audit", str(out)]) == 0
    assert capsys.readouterr().out.strip() == "6 records agree, 0 disagree"


# -- records say who played ----------------------------------------------------------------------------------

def test_record_bots_one_spec_a_seat(tmp_path, capsys):
    out = tmp_path / "r.jsonl"
    assert main(["record", "--players", "3", "--bots", "greedy,mcts:20,c=1.0,random", "--games", "2", "-o",
                 str(out), "--event", "Club night", "--date", "2026-11-30"]) == 0
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert [r["bots"] for r in lines] == [[{"spec": "greedy"}, {"spec": "mcts:20,c=1.0", "name": "mcts"},
                                           {"spec": "random"}]] * 2
    assert all((r["event"], r["date"]) == ("Club night", "2026-11-30") for r in lines)
    # The game itself is what bots.play gives, byte for byte, with who played after it.
    state = bots.play(azul_engine, 3, "classic", 0, ["greedy", "mcts:20,c=1.0", "random"])
    assert out.read_text().splitlines()[0].startswith(state.record_json()[:-1] + ", \"bots\": ")
    assert main(["audit", str(out)]) == 0
    capsys.readouterr()
    # The old --bot keeps working, for every seat; without --event/--date there are none.
    assert main(["record", "--bot", "greedy", "-o", str(out), "--force"]) == 0
    (record,) = [json.loads(line) for line in out.read_text().splitlines()]
    assert record["bots"] == [{"spec": "greedy"}] * 2 and "event" not in record and "date" not in record


@pytest.mark.parametrize("argv, message", [
    (["--bots", "greedy"], "azul-engine record: --bots gives 1 spec for 2 players: give one a seat, comma-separated"),
    (["--bots", "greedy,random", "--bot", "greedy"], "azul-engine record: give --bots (one spec a seat) or --bot"),
    (["--bot", "minimax"], "azul-engine record: unknown bot 'minimax'"),
    (["--bot", "greedy", "--date", "yesterday"], "azul-engine record: --date must be YYYY-MM-DD (or today), not "
                                                 "'yesterday'"),
])
def test_record_refuses_bad_bots(tmp_path, capsys, argv, message):
    assert main(["record", "-o", str(tmp_path / "r.jsonl")] + argv) == 2
    err = capsys.readouterr().err
    assert err.startswith(message) and err.count("\n") == 1


def test_old_records_still_read_and_audit(engine, capsys):
    """Records written before who-played fields existed (tests/records, by the project at a6e5b2d)."""
    found = list(records.iter_file(OLD_RECORDS))
    assert len(found) == 3 and all("bots" not in r for _, r in found)
    for number, record in found:
        assert records.audit(record, engine, line=number) == []
        assert records.replay(record, engine).is_over
    assert main(["audit", OLD_RECORDS]) == 0
    assert capsys.readouterr().out.strip() == "3 records agree, 0 disagree"


@pytest.mark.parametrize("field, value, message", [
    ("bots", [{"spec": "greedy"}], 'field bots: [{"spec": "greedy"}] is not a list of 2 objects, one a seat'),
    ("bots", [{"spec": "greedy"}, {"name": "x"}], 'field bots: seat 1: {"name": "x"} is not an object with a '
                                                  "string spec"),
    ("bots", [{"spec": "a"}, {"spec": "b", "name": 3}], "field bots: seat 1: name 3 is not a string"),
    ("event", 5, "field event: 5 is not a string"),
    ("date", ["2026"], 'field date: ["2026"] is not a string'),
    ("forfeit", "seat 1", "field forfeit: 'seat 1' is not an object with seat and reason"),
    ("forfeit", {"seat": 1}, "field forfeit: reason null is not a string"),
])
def test_bad_who_played_fields_are_findings(engine, field, value, message):
    record = bots.play_match(engine, 2, "classic", 1, ["greedy", "random"]).record()
    assert records.audit(record, engine) == []
    record[field] = value
    assert [str(f) for f in records.audit(record, engine)] == [message]


# -- hints ---------------------------------------------------------------------------------------------------

@pytest.mark.slow
def test_hint_gives_the_best_moves_with_statistics(engine):
    state = engine.new_game(2, seed=12)
    before = state.clone()
    found = bots.hint(state, bot="mcts:400", top=4)
    assert state == before
    assert len(found) == 4
    legal = dict(zip(state.legal_actions(), state.legal_moves()))
    assert all(legal[h.action] == h.move for h in found)
    assert [h.visits for h in found] == sorted((h.visits for h in found), reverse=True)
    assert sum(h.visits for h in found) <= 400 and all(0 <= h.value <= 1 for h in found)
    # The best is the move the bot plays, with the same seed.
    assert found[0].action == bots.make_bot("mcts:400", 0).choose(state)
    assert [h.as_dict() for h in bots.hint(state, bot="mcts:400", top=4)] == [h.as_dict() for h in found]


@pytest.mark.slow
@pytest.mark.parametrize("variant", ["classic", "grey", "summer-pavilion"])
def test_mcts_searches_the_same_in_both_engines(variant):
    """MCTS finds its engine by the state's class (the pure engine's Summer Pavilion state lives in _pypavilion,
    which has no playouts_from: an AttributeError); both engines give the same search, visit for visit."""
    found = []
    for engine in (azul_engine.load_backend("python"), azul_engine.load_backend("cpp")):
        state = engine.new_game(2, variant, seed=5)
        found.append([h.as_dict() for h in bots.hint(state, bot="mcts:60", top=3)])
        assert bots.engine_of(state) is engine
    assert found[0] == found[1]
    with pytest.raises(TypeError, match="^not a game state of either engine: str$"):
        bots.engine_of("x")


def test_hint_refuses(engine):
    state = engine.new_game(2, seed=1)
    with pytest.raises(ValueError, match="bot greedy gives no search statistics"):
        bots.hint(state, bot="greedy")
    with pytest.raises(ValueError, match="top must be a positive whole number"):
        bots.hint(state, bot="mcts:10", top=0)
    over = bots.play(engine, 2, "classic", 1, "greedy")
    with pytest.raises(ValueError, match="the game is over"):
        bots.hint(over, bot="mcts:10")


def test_hint_command(tmp_path, capsys, monkeypatch):
    state = azul_engine.new_game(2, variant="summer-pavilion", seed=3)
    text = state.to_text()
    assert main(["hint", text, "--bot", "mcts:200", "--top", "2"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "summer-pavilion, 2 players, round 1: player %d to move; mcts:200" % state.current_player
    assert out[1].split() == ["move", "visits", "share", "value"] and len(out) == 4
    visits, share = out[2].split()[1:3]
    assert share == "%.1f%%" % (100 * int(visits) / 200)
    path = tmp_path / "position.txt"
    path.write_text(text + "\n")
    assert main(["hint", str(path), "--bot", "mcts:200", "--top", "2", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [h["move"] for h in data["hints"]] == [line.split()[0] for line in out[2:]]
    assert [h["share"] for h in data["hints"]] == [h["visits"] / 200 for h in data["hints"]]
    assert data["player"] == state.current_player
    import io
    monkeypatch.setattr(sys, "stdin", io.StringIO(text))
    assert main(["hint", "-", "--bot", "mcts:200", "--top", "2"]) == 0
    assert capsys.readouterr().out.splitlines() == out
    assert main(["hint", "azul-state/1 nonsense"]) == 2
    assert capsys.readouterr().err.startswith("azul-engine hint: not a state's text: ")
    assert main(["hint", str(tmp_path / "missing.txt")]) == 2
    assert "is neither a state's text (azul-state/1 ...) nor a file" in capsys.readouterr().err


def test_mcts_spec_takes_seconds_and_policy():
    assert bots.parse_bot_spec("mcts:seconds=1") == ("mcts", {"seconds": 1.0})
    assert bots.parse_bot_spec("mcts:2000:policy=uniform") == ("mcts", {"iterations": 2000, "policy": "uniform"})
    assert bots.make_bot("mcts:50,policy=uniform", 0).policy == "uniform"


def test_tournament_plan_checks_the_bots():
    with pytest.raises(ValueError, match="making the bot failed"):
        tournament.plan(["greedy", "bot_examples:RefusesToBeMade"], games=2, check=True)
    tournament.plan(["greedy", "bot_examples:RefusesToBeMade"], games=2)  # resolved only


def test_explain_says_who_forfeited(engine, tmp_path, capsys):
    for variant in ("classic", "summer-pavilion"):
        match = bots.play_match(engine, 2, variant, 5, ["greedy", "bot_examples:Crashes:after=7"])
        text = records.explain(match.record(), engine)
        assert text.splitlines()[-2:] == [
            "Seat 1 forfeited in round %d: raised RuntimeError: out of ideas" % match.state.round,
            "Scores when the game stopped %s, winners [0]" % match.scores]


@pytest.mark.slow
def test_mcts_candidates_search_the_greedy_best_moves_only(engine):
    state = engine.new_game(2, variant="grey", seed=9)
    player = state.current_player
    values = {a: bots.greedy_value(state, a, player) for a in state.legal_actions()}
    assert len(values) > 20
    bot = bots.MCTSBot(seed=4, iterations=300, candidates=4)
    searched = bot.search(state).visit_counts()
    assert len(searched) == 4 and sum(searched.values()) == 300
    worst_kept = min(values[a] for a in searched)
    assert all(values[a] <= worst_kept for a in values if a not in searched)  # none better left out
    assert bots.MCTSBot(seed=4, iterations=300, candidates=4).choose(state) in searched  # same seed, same ties
    everything = bots.MCTSBot(seed=4, iterations=300, candidates=0).search(state).visit_counts()
    assert len(everything) > 4
    with pytest.raises(ValueError, match="candidates must be a whole number 0 or more"):
        bots.MCTSBot(candidates=-1)


@pytest.mark.slow
def test_bots_of_your_own_in_worker_processes(tmp_path):
    """Worker processes find the module the parent found (its sys.path goes with them)."""
    plan = tournament.plan(["greedy", "bot_examples:FirstMove:pick=1", "bot_examples:Crashes:after=6"], players=3,
                           games=3, seed=4, check=True)
    result = tournament.run(plan, workers=2, output=str(tmp_path / "t.jsonl"))
    assert [s.games for s in result.standings] == [3, 3, 3]
    assert [s.forfeits for s in result.standings] == [0, 0, 3]
    assert [(g.index, seat) for g, seat, _ in result.forfeits] == [(0, 2), (1, 1), (2, 0)]  # rotations a b c, b c a, c a b
    assert all(reason == "raised RuntimeError: out of ideas" for _, _, reason in result.forfeits)
    lines = (tmp_path / "t.jsonl").read_text().splitlines()
    assert all(records.audit(json.loads(line)) == [] for line in lines)


@pytest.mark.slow
def test_both_engines_write_the_same_records_with_who_played():
    try:
        cpp = azul_engine.load_backend("cpp")
    except ImportError:
        from helpers import cpp_required
        if cpp_required():
            raise
        pytest.skip("C++ engine not built")
    pure = azul_engine.load_backend("python")
    for variant, specs in (("classic", ["bot_examples:FirstMove:pick=2", "mcts:30", "greedy"]),
                           ("summer-pavilion", ["greedy", "bot_examples:Crashes:after=11", example()])):
        lines = [bots.play_match(engine, 3, variant, 21, specs, event="E", date="2026-12-01").record_json()
                 for engine in (cpp, pure)]
        assert lines[0] == lines[1]
