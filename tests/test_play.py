"""The terminal game (``azul-engine play``): scripted through a pipe, driven through a pseudo-terminal, and
the Game object directly."""

import io
import json
import os
import select
import subprocess
import sys
import time

import pytest

from azul_engine import bots, play

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def scripted_game(engine, players, variant, seed, specs, seat=0, pick=0):
    """The person's moves of a whole game (the pick-th legal move each time, modulo the count) against
    deterministic bots, and the final state, played here as `play` will play it."""
    if len(specs) == 1:
        specs = specs * (players - 1)
    others = iter(specs)
    seats = {p: bots.make_bot(next(others), bots.bot_seed(seed, p), p) for p in range(players) if p != seat}
    state = engine.new_game(players=players, variant=variant, seed=seed)
    mine = []
    while not state.is_over:
        p = state.current_player
        if p == seat:
            moves = state.legal_moves()
            move = moves[pick % len(moves)]
            mine.append(move)
            state.apply(move)
        else:
            state.apply(seats[p].choose(state))
    return mine, state


def run_play(args, lines, timeout=300):
    return subprocess.run([sys.executable, "-m", "azul_engine", "play", *args], input="\n".join(lines) + "\n",
                          capture_output=True, text=True, timeout=timeout)


@pytest.mark.parametrize("players,variant,seed,seat", [(2, "classic", 7, 0), (3, "grey", 2, 1),
                                                       (2, "summer-pavilion", 5, 1)])
@pytest.mark.slow
def test_a_whole_game_from_a_pipe(engine, tmp_path, players, variant, seed, seat):
    backend = "cpp" if engine.__name__.endswith("cppengine") else "python"
    moves, final = scripted_game(engine, players, variant, seed, ["greedy"], seat=seat, pick=1)
    out = tmp_path / "game.jsonl"
    done = run_play(["--players", str(players), "--variant", variant, "--bots", "greedy", "--seat", str(seat),
                     "--seed", str(seed), "--backend", backend], moves + ["save %s" % out, "quit"])
    assert done.returncode == 0, done.stderr
    text = done.stdout
    assert "\x1b[" not in text  # no colour codes into a pipe
    for p, score in enumerate(final.scores):
        assert "player %d (%s) %d" % (p, "you" if p == seat else "greedy", score) in text
    assert "final scores:" in text and "winner" in text
    assert text.count("end bonuses, player") == players
    assert "plays" in text and "player %d (greedy) plays" % ((seat + 1) % players) in text
    record = json.loads(out.read_text().splitlines()[0])
    assert record.pop("bots") == [{"spec": "human" if p == seat else "greedy"} for p in range(players)]
    assert record == final.record()


@pytest.mark.slow
def test_errors_commands_and_undo_from_a_pipe(engine):
    backend = "cpp" if engine.__name__.endswith("cppengine") else "python"
    state = engine.new_game(players=2, seed=7)
    messages = {}
    for bad in ("9Z9", "CBF", "1B6", "W11"):
        try:
            state.apply(bad)
        except engine.IllegalMoveError as e:
            messages[bad] = str(e)
    done = run_play(["--seed", "7", "--bots", "random", "--backend", backend],
                    ["help", "moves", *messages, "1B1", "undo", "undo", "hint", "board", "quit"])
    assert done.returncode == 0, done.stderr
    text = done.stdout
    for bad, message in messages.items():
        assert "illegal move %s: %s" % (bad, message) in text
    assert "legal moves: " + " ".join(state.legal_moves()) in text
    assert "player 0 (you) plays 1B1" in text
    assert "took back your last move" in text and "nothing to undo" in text
    assert text.count("hint ") >= 3 and "hint 1: " in text and "% of the search, value 0." in text
    for word in ("moves", "hint", "undo", "help", "quit"):
        assert "  %s " % word in text
    assert "left the game in round 1" in text


@pytest.mark.slow
def test_bad_arguments():
    done = run_play(["--players", "2", "--seat", "2"], ["quit"])
    assert done.returncode == 2 and "--seat" in done.stderr
    done = run_play(["--players", "3", "--bots", "greedy,random,mcts"], ["quit"])
    assert done.returncode == 2 and "one bot spec, or 2" in done.stderr
    done = run_play(["--bots", "nobody"], ["quit"])
    assert done.returncode == 2 and "unknown bot" in done.stderr


@pytest.mark.slow
def test_end_of_input_leaves_quietly():
    done = subprocess.run([sys.executable, "-m", "azul_engine", "play", "--seed", "1"], input="",
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and "left the game in round 1" in done.stdout


def test_undo_restores_the_position_and_the_draws(engine):
    from rich.console import Console
    console = Console(file=io.StringIO(), width=100)
    game = play.TerminalGame(engine, 2, "classic", ["greedy"], seat=0, seed=11, console=console)
    game.start()
    start = game.state.clone()
    first = game.state.legal_moves()[3]
    game.handle(first)
    after = game.state.clone()
    assert after != start
    game.handle("undo")
    assert game.state == start
    game.handle(first)
    assert game.state == after  # the same bot replies and the same draws
    assert game.handle("quit") is False


@pytest.mark.slow
def test_hint_is_legal_and_ranked(engine):
    state = engine.new_game(players=2, seed=3)
    hints = play.hint(state, top=3, iterations=200)
    assert len(hints) == 3
    moves = [h[0] for h in hints]
    assert all(m in state.legal_moves() for m in moves) and len(set(moves)) == 3
    visits = [h[1] for h in hints]
    assert visits == sorted(visits, reverse=True) and sum(visits) <= 200
    assert all(0 <= h[2] <= 1 for h in hints)
    forced = position_with_one_move(engine)
    assert play.hint(forced) == [(forced.legal_moves()[0], 1, None)]


def position_with_one_move(engine):
    state = engine.new_game(players=2, variant="summer-pavilion", seed=1)
    while len(state.legal_actions()) != 1:
        state.apply(state.legal_actions()[0])
    return state


def read_until(fd, needle, timeout=60):
    out = b""
    end = time.monotonic() + timeout
    while needle not in out:
        left = end - time.monotonic()
        if left <= 0:
            raise AssertionError("no %r in %r" % (needle, out[-2000:]))
        ready, _, _ = select.select([fd], [], [], left)
        if ready:
            try:
                chunk = os.read(fd, 65536)
            except OSError:
                break
            if not chunk:
                break
            out += chunk
    return out


@pytest.mark.slow
@pytest.mark.skipif(not hasattr(os, "openpty"), reason="no pseudo-terminals on this system")
def test_through_a_pseudo_terminal():
    master, slave = os.openpty()
    env = dict(os.environ, TERM="xterm-256color", COLUMNS="120", LINES="50")
    env.pop("NO_COLOR", None)
    proc = subprocess.Popen([sys.executable, "-m", "azul_engine", "play", "--seed", "7", "--bots", "greedy"],
                            stdin=slave, stdout=slave, stderr=slave, env=env, close_fds=True)
    os.close(slave)
    try:
        screen = read_until(master, b"your move")
        assert b"\x1b[" in screen  # rich draws colours in a terminal
        assert b"factories" in screen
        os.write(master, b"CBF\n")
        screen = read_until(master, b"your move")
        assert b"the centre has no blue" in screen
        os.write(master, b"1B1\n")
        screen = read_until(master, b"your move")
        assert b"player 1 (greedy) plays" in screen
        os.write(master, b"quit\n")
        read_until(master, b"left the game")
        assert proc.wait(timeout=60) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        os.close(master)


@pytest.mark.slow
@pytest.mark.parametrize("variant", ["classic", "grey", "summer-pavilion"])
def test_undo_all_the_way_back_from_the_end(engine, variant):
    from rich.console import Console
    console = Console(file=io.StringIO(), width=100)
    game = play.TerminalGame(engine, 2, variant, ["greedy"], seat=1, seed=6, console=console)
    game.start()
    before = []
    while not game.done:
        before.append(game.state.clone())
        game.handle(game.state.legal_moves()[-1])
    assert game.state.is_over
    while before:
        game.handle("undo")
        assert game.state == before.pop()
        assert not game.done
    game.handle("undo")
    assert "nothing to undo" in console.file.getvalue()


@pytest.mark.slow
def test_a_bot_that_answers_in_notation_plays(engine):
    """External bots answer in move notation (Python bots may too): the game applies it (it raised a TypeError in
    action_to_string, a traceback)."""
    backend = "cpp" if engine.__name__.endswith("cppengine") else "python"
    bot = "cmd:%s %s" % (sys.executable, os.path.join(os.path.dirname(os.path.dirname(__file__)), "examples",
                                                      "random_bot.py"))
    done = run_play(["--seat", "1", "--bots", bot, "--seed", "3", "--backend", backend], ["quit"])
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    assert "player 0 (%s) plays " % bot in done.stdout


FAILING_BOTS = '''
from azul_engine.bots import GreedyBot


class Fails(GreedyBot):
    def choose(self, state):
        raise RuntimeError("out of ideas")


class Nonsense(GreedyBot):
    def choose(self, state):
        return "9Z9"
'''


@pytest.mark.parametrize("spec, reason", [("failing:Fails", "raised RuntimeError: out of ideas"),
                                          ("failing:Nonsense", "illegal move '9Z9': ")])
@pytest.mark.slow
def test_a_failing_bot_forfeits_and_the_saved_record_says_so(engine, tmp_path, spec, reason):
    from azul_engine import records

    backend = "cpp" if engine.__name__.endswith("cppengine") else "python"
    (tmp_path / "failing.py").write_text(FAILING_BOTS)
    env = dict(os.environ, PYTHONPATH=str(tmp_path) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    out = tmp_path / "game.jsonl"
    state = engine.new_game(2, seed=4)
    moves = [state.legal_moves()[0], state.legal_moves()[0]]  # the second is refused: the game has stopped
    done = subprocess.run([sys.executable, "-m", "azul_engine", "play", "--seed", "4", "--bots", spec,
                           "--backend", backend], input="\n".join(moves + ["save %s" % out, "save a\0b", "quit"]),
                          capture_output=True, text=True, timeout=300, env=env)
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    assert "player 1 (%s) forfeits: %s" % (spec, reason) in done.stdout
    assert "the game is over: save FILE, undo or quit" in done.stdout
    assert "cannot write 'a\\x00b'" in done.stdout
    record = json.loads(out.read_text().splitlines()[-1])
    assert record["forfeit"]["seat"] == 1 and record["forfeit"]["reason"].startswith(reason)
    assert record["winners"] == [0] and records.audit(record, engine) == []


@pytest.mark.slow
def test_a_bot_that_does_not_start_is_one_line(engine):
    backend = "cpp" if engine.__name__.endswith("cppengine") else "python"
    done = run_play(["--bots", "cmd:%s -c pass" % sys.executable, "--backend", backend], ["quit"])
    assert done.returncode == 2 and done.stderr.startswith("azul-engine play: a bot could not start: "), done.stderr
    assert done.stderr.count("\n") == 1
