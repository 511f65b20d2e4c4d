"""The command line under abuse (issue 10): Ctrl-C, closed pipes, bad arguments and hostile records, on both
engines. The subprocess tests pick the engine with AZUL_BACKEND (and --backend where a command takes it)."""

import json
import os
import signal
import subprocess
import sys
import threading
import time

import pytest

import azul_engine
from azul_engine import bots, records
from azul_engine.__main__ import main

BACKENDS = ["python", "cpp"]
EXIT_WITHIN = 2.0  # seconds from SIGINT to the process being gone (the requirement)
READY_WITHIN = 60.0  # a guard against a hang while waiting for a command to start working, not a timing target


def backend_name(engine):
    return "python" if engine is azul_engine.load_backend("python") else "cpp"


@pytest.fixture(params=BACKENDS)
def backend(request):
    try:
        azul_engine.load_backend(request.param)
    except ImportError:
        if request.param == "cpp" and os.environ.get("AZUL_REQUIRE_CPP") != "1" and not os.environ.get("CI"):
            pytest.skip("C++ engine not built")
        raise
    return request.param


def cli(args, backend, **kwargs):
    env = dict(os.environ, AZUL_BACKEND=backend)
    return subprocess.Popen([sys.executable, "-m", "azul_engine", *args], env=env, **kwargs)


def children(pid):
    """Pids of the live processes whose parent is ``pid``."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    fields = f.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid and fields[0] != "Z":
                found.append(int(entry))
    return found


def alive(pid):
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def wait_until(condition, what):
    deadline = time.monotonic() + READY_WITHIN
    while not condition():
        if time.monotonic() > deadline:
            pytest.fail(f"never {what}")
        time.sleep(0.05)


def interrupt(proc, group=False, sig=signal.SIGINT):
    """SIGINT (or ``sig``) to ``proc`` (``group``: to its whole process group, as a terminal's Ctrl-C does); its
    exit code and standard error, after checking that it and every child it had are gone within EXIT_WITHIN."""
    kids = children(proc.pid)
    if group:
        os.killpg(proc.pid, sig)
    else:
        proc.send_signal(sig)
    sent = time.monotonic()
    try:
        proc.wait(timeout=EXIT_WITHIN)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
        pytest.fail(f"still running {EXIT_WITHIN} s after {signal.Signals(sig).name}")
    while any(alive(k) for k in kids) and time.monotonic() - sent < EXIT_WITHIN:
        time.sleep(0.05)
    assert not [k for k in kids if alive(k)], "child processes outlived the command"
    err = proc.stderr.read().decode()
    proc.stderr.close()
    return proc.returncode, err


def assert_one_line_interrupted(code, err, command):
    assert code == 130
    assert err == f"azul-engine {command}: interrupted\n", err


def lines_of(path):
    if not path.exists():  # a run stopped before its first game leaves no file
        return []
    data = path.read_bytes()
    assert data == b"" or data.endswith(b"\n"), "the output ends in a partial line"
    return data.decode().splitlines()


def count_lines(path):
    try:
        return path.read_bytes().count(b"\n")
    except FileNotFoundError:
        return 0


# -- Ctrl-C ------------------------------------------------------------------------------------------------------

@pytest.mark.slow
def test_record_stops_on_ctrl_c_with_whole_lines(backend, tmp_path):
    out = tmp_path / "r.jsonl"
    proc = cli(["record", "--games", "1000000", "--bot", "random", "-o", str(out)], backend,
               stderr=subprocess.PIPE)
    wait_until(lambda: count_lines(out) >= 3, "wrote a record")
    code, err = interrupt(proc)
    assert_one_line_interrupted(code, err, "record")
    lines = lines_of(out)
    assert 3 <= len(lines) < 1000000
    for i, line in enumerate(lines):
        assert json.loads(line)["seed"] == i


# -- SIGTERM, SIGKILL and the file replaced (issue 38) --------------------------------------------------------------

OLD = b'{"old": "a file the user kept"}\n'


def partials(folder):
    """The temporary files beside the outputs (outputs.LineWriter's replacements being written)."""
    return [name for name in os.listdir(folder) if name.endswith(".partial")]


@pytest.mark.slow
def test_record_stops_on_sigterm_with_whole_lines_and_no_file_before_its_first(backend, tmp_path):
    """SIGTERM is an interrupt to the command line: the one line, the shell's status for SIGTERM, the whole lines
    of a new file kept; a run stopped before its first line leaves no file (it left a 0-byte file, and then its
    rerun refused: "already exists")."""
    out = tmp_path / "r.jsonl"
    proc = cli(["record", "--games", "1000000", "--bot", "random", "-o", str(out)], backend, stderr=subprocess.PIPE)
    wait_until(lambda: count_lines(out) >= 3, "wrote a record")
    code, err = interrupt(proc, sig=signal.SIGTERM)
    assert code == 128 + signal.SIGTERM and err == "azul-engine record: terminated\n"
    lines = lines_of(out)
    assert 3 <= len(lines) < 1000000 and [json.loads(line)["seed"] for line in lines] == list(range(len(lines)))
    slow = tmp_path / "slow.jsonl"  # its first game takes minutes
    proc = cli(["record", "--games", "1", "--bot", "mcts:seconds=600", "-o", str(slow), "--workers", "1"], backend,
               stderr=subprocess.PIPE)
    wait_until(slow.exists, "made its file")
    code, err = interrupt(proc, sig=signal.SIGTERM)
    assert code == 128 + signal.SIGTERM and err == "azul-engine record: terminated\n"
    assert not slow.exists() and not partials(tmp_path)


@pytest.mark.slow
@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_record_force_stopped_leaves_the_old_file_whole(backend, tmp_path, sig):
    """``record --force -o OLD`` stopped after its first lines replaced OLD with them (Ctrl-C), or left OLD and a
    hidden .OLD.XXXXXXXX.partial (SIGTERM): OLD stays whole until the new file is complete, and nothing is left
    beside it."""
    out = tmp_path / "r.jsonl"
    out.write_bytes(OLD)
    proc = cli(["record", "--games", "1000000", "--bot", "random", "--force", "-o", str(out)], backend,
               stderr=subprocess.PIPE)
    wait_until(lambda: any(count_lines(tmp_path / name) >= 3 for name in partials(tmp_path)), "wrote a record")
    code, err = interrupt(proc, sig=sig)
    if sig == signal.SIGINT:
        assert_one_line_interrupted(code, err, "record")
    else:
        assert code == 128 + signal.SIGTERM and err == "azul-engine record: terminated\n"
    assert out.read_bytes() == OLD and not partials(tmp_path)


@pytest.mark.slow
def test_a_killed_replacement_leaves_the_old_file_and_its_rerun_clears_up(backend, tmp_path):
    """SIGKILL cannot be cleaned up after: the old file is whole, and the hidden partial file left beside it is
    removed by the next run that writes the same path (its lock died with its run), which neither blocks nor
    mixes with it."""
    out = tmp_path / "r.jsonl"
    out.write_bytes(OLD)
    proc = cli(["record", "--games", "1000000", "--bot", "random", "--force", "-o", str(out), "--workers", "1"],
               backend, stderr=subprocess.DEVNULL)
    wait_until(lambda: any(count_lines(tmp_path / name) >= 3 for name in partials(tmp_path)), "wrote a record")
    proc.kill()
    proc.wait()
    assert out.read_bytes() == OLD and len(partials(tmp_path)) == 1
    done = subprocess.run([sys.executable, "-m", "azul_engine", "record", "--games", "2", "--bot", "random",
                           "--force", "-o", str(out), "--workers", "1"], env=dict(os.environ, AZUL_BACKEND=backend),
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert [json.loads(line)["seed"] for line in lines_of(out)] == [0, 1] and not partials(tmp_path)


def test_an_empty_file_is_no_file_to_keep(backend, tmp_path, capsys):
    """A run killed before its first line leaves a 0-byte file (SIGKILL; SIGTERM now leaves none): the rerun
    writes it without --force, as there is nothing in it to lose."""
    from azul_engine.__main__ import main

    out = tmp_path / "r.jsonl"
    out.write_bytes(b"")
    assert main(["record", "--games", "2", "--bot", "random", "-o", str(out), "--workers", "1",
                 "--backend", backend]) == 0, capsys.readouterr().err
    assert [json.loads(line)["seed"] for line in lines_of(out)] == [0, 1]


@pytest.mark.slow
@pytest.mark.parametrize("when", ["parent", "group", "starting"])
def test_tournament_stops_on_ctrl_c_and_takes_its_workers_along(backend, tmp_path, when):
    """``parent``: SIGINT to the command alone, ``group``: to its process group as a terminal's Ctrl-C, both
    once games are coming in; ``starting``: to the group as soon as the first child process exists, while the
    worker pool is starting (no worker may be left behind, none may print a traceback)."""
    out = tmp_path / "t.jsonl"
    proc = cli(["tournament", "--bots", "random,greedy", "--games", "100000", "--workers", "2", "-o", str(out),
                "--backend", backend], backend, stderr=subprocess.PIPE, stdout=subprocess.DEVNULL,
               start_new_session=True)
    if when == "starting":
        wait_until(lambda: children(proc.pid), "started a child process")
    else:
        wait_until(lambda: count_lines(out) >= 2, "wrote a game")
        assert len(children(proc.pid)) >= 2  # the workers (and multiprocessing's resource tracker)
    code, err = interrupt(proc, group=when != "parent")
    assert_one_line_interrupted(code, err, "tournament")
    lines = lines_of(out)
    assert when == "starting" or len(lines) >= 2
    for line in lines:
        assert json.loads(line)["format"] == "azul-record"


def feed_forever(path, line, stop, opened):
    """Write ``line`` to the FIFO ``path`` until the reader goes away or ``stop`` is set; set ``opened`` once a
    reader has opened it."""
    try:
        with open(path, "w") as f:
            opened.set()
            while not stop.is_set():
                f.write(line * 50)
                f.flush()
    except (BrokenPipeError, OSError):
        pass


@pytest.fixture
def fifo_feed(tmp_path):
    """``start(line)``: a FIFO fed with copies of ``line`` by a thread for as long as a reader reads it; returns
    its path and an Event set once the reader has opened it (the command is then past its start-up)."""
    stop = threading.Event()
    threads = []

    def start(line):
        path = tmp_path / "feed.jsonl"
        os.mkfifo(path)
        opened = threading.Event()
        thread = threading.Thread(target=feed_forever, args=(path, line, stop, opened), daemon=True)
        thread.start()
        threads.append(thread)
        return path, opened

    yield start
    stop.set()
    for thread in threads:
        thread.join(timeout=5)


def corrupted_record():
    record = bots.play(azul_engine.load_backend("python"), 2, "classic", 4, "random").record()
    record["winners"] = [1] if record["winners"] != [1] else [0]
    return json.dumps(record) + "\n"


@pytest.mark.slow
def test_audit_of_an_endless_input_stops_on_ctrl_c(backend, tmp_path, fifo_feed):
    path, _ = fifo_feed(corrupted_record())
    out = tmp_path / "out.txt"
    with open(out, "wb") as stdout:
        proc = cli(["audit", str(path)], backend, stdout=stdout, stderr=subprocess.PIPE)
        wait_until(lambda: count_lines(out) >= 3, "printed a finding")
        code, err = interrupt(proc)
    assert_one_line_interrupted(code, err, "audit")
    lines = lines_of(out)
    assert lines and all(line.startswith(f"{path}: line ") and "winners: record says" in line for line in lines)


@pytest.mark.slow
def test_explain_of_an_endless_input_stops_on_ctrl_c(backend, tmp_path, fifo_feed):
    path, opened = fifo_feed("\n")
    proc = cli(["explain", str(path), "--game", str(10 ** 12)], backend, stdout=subprocess.PIPE,
               stderr=subprocess.PIPE)
    wait_until(opened.is_set, "opened its input")
    time.sleep(1.0)  # reading blank lines, looking for line 10**12
    code, err = interrupt(proc)
    assert_one_line_interrupted(code, err, "explain")
    assert proc.stdout.read() == b""
    proc.stdout.close()


@pytest.mark.slow
def test_bench_stops_on_ctrl_c_with_whole_lines(backend, tmp_path):
    # A bench on the C++ engine spends part of its time inside random_playouts (runs of about --seconds): an
    # interrupt that lands there is noticed when that native call returns (or sooner once native calls poll
    # for signals), well within EXIT_WITHIN for runs of 0.2 s.
    out = tmp_path / "bench.jsonl"
    with open(out, "wb") as stdout:
        proc = cli(["bench", "--backend", backend, "--json", "--repeats", "2"], backend, stdout=stdout,
                   stderr=subprocess.PIPE)
        wait_until(lambda: count_lines(out) >= 1, "measured a configuration")
        code, err = interrupt(proc)
    assert_one_line_interrupted(code, err, "bench")
    lines = lines_of(out)
    assert lines and all(json.loads(line)["backend"] == backend for line in lines)


def test_line_writer_cuts_a_partial_line_when_interrupted(tmp_path):
    path = tmp_path / "x.jsonl"

    class Stop(BaseException):
        pass

    with pytest.raises(Stop):
        with records.LineWriter(path) as out:
            out.write_line('{"a": 1}')
            out._file.write(b'{"b": ')  # as if an interrupt came in the middle of a write
            raise Stop
    assert path.read_bytes() == b'{"a": 1}\n'
    with records.LineWriter(path, "replace") as out:
        out.write_line('{"c": 2}')
    assert path.read_bytes() == b'{"c": 2}\n' and out.lines == 1


# -- a closed pipe -----------------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def record_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("records") / "g.jsonl"
    pure = azul_engine.load_backend("python")
    records.write(path, [bots.play(pure, 2, "classic", seed, "greedy") for seed in range(3)])
    return path


@pytest.mark.slow
@pytest.mark.parametrize("command", ["info", "explain", "audit", "check-score", "tournament", "bench"])
def test_a_closed_pipe_ends_each_printing_command_quietly(backend, record_file, tmp_path, command):
    wall = tmp_path / "wall.txt"
    wall.write_text("BYRKW\nWBYRK\nKWBYR\nRKWBY\nYRKW.\n")
    args = {
        "info": ["info"],
        "explain": ["explain", str(record_file)],
        "audit": ["audit", str(record_file)],
        "check-score": ["check-score", str(wall), "--score", "10"],
        "tournament": ["tournament", "--bots", "random,greedy", "--games", "2", "--workers", "1"],
        "bench": ["bench", "--backend", backend, "--repeats", "1", "--seconds", "0.01"],
    }[command]
    read, write = os.pipe()
    os.close(read)  # `azul-engine ... | head` once head has gone: every write fails with EPIPE
    try:
        proc = cli(args, backend, stdout=write, stderr=subprocess.PIPE)
    finally:
        os.close(write)
    _, err = proc.communicate(timeout=120)
    assert err == b"", err.decode()
    assert proc.returncode == 141  # 128 + SIGPIPE, as a shell reports a program that a closed pipe stopped


@pytest.mark.slow
def test_explain_into_a_reader_that_leaves_early(backend, record_file):
    # The real `explain ... | head -1`: head reads one line and goes.
    proc = cli(["explain", str(record_file)], backend, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout.readline().startswith(b"Classic Azul, 2 players")
    proc.stdout.close()
    err = proc.stderr.read()
    proc.stderr.close()
    assert proc.wait(timeout=120) in (0, 141)
    assert b"Traceback" not in err and b"Error" not in err


# -- bad arguments: one line, status 2 ---------------------------------------------------------------------------

def run_main(argv, capsys):
    """main(argv)'s exit code (argparse's SystemExit included) and its standard error."""
    try:
        code = main(argv)
    except SystemExit as e:
        code = e.code
    captured = capsys.readouterr()
    return code, captured.err


@pytest.mark.parametrize("seed, games, message", [
    ("-1", "1", "argument --seed: must be a whole number from 0 to 2**64-1, not -1"),
    (str(2 ** 64), "1", "argument --seed: must be a whole number from 0 to 2**64-1, not %d" % 2 ** 64),
    (str(2 ** 64 - 1), "2", "game seeds %d-%d pass 2**64-1" % (2 ** 64 - 1, 2 ** 64)),
    ("seven", "1", "argument --seed: invalid int value: 'seven'"),
])
def test_record_refuses_bad_seeds_in_one_line(engine, tmp_path, capsys, seed, games, message):
    out = tmp_path / "r.jsonl"
    code, err = run_main(["record", "--seed", seed, "--games", games, "-o", str(out),
                          "--backend", backend_name(engine)], capsys)
    assert code == 2
    assert err.count("\n") == 1 and err.startswith("azul-engine record: ") and message in err, err
    assert not out.exists()  # refused before anything was written


@pytest.mark.slow
def test_record_plays_the_last_seed(engine, tmp_path, capsys):
    out = tmp_path / "r.jsonl"
    assert main(["record", "--seed", str(2 ** 64 - 2), "--games", "2", "-o", str(out),
                 "--backend", backend_name(engine)]) == 0
    assert [json.loads(x)["seed"] for x in lines_of(out)] == [2 ** 64 - 2, 2 ** 64 - 1]


@pytest.mark.parametrize("where", ["missing-dir/r.jsonl", "."])
def test_record_and_tournament_refuse_an_unwritable_output(engine, tmp_path, capsys, where):
    path = str(tmp_path / where)
    for argv in (["record", "-o", path, "--backend", backend_name(engine)],
                 ["tournament", "--bots", "random,greedy", "--games", "2", "--workers", "1", "-o", path,
                  "--backend", backend_name(engine)]):
        code, err = run_main(argv, capsys)
        assert code == 2
        assert err.count("\n") == 1 and err.startswith(f"azul-engine {argv[0]}: cannot write {path}: "), err


@pytest.mark.slow
@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
def test_a_full_disk_is_one_line_not_a_traceback(engine, capsys):
    for argv in (["record", "--games", "2"], ["tournament", "--bots", "random,greedy", "--games", "2",
                                              "--workers", "1"]):
        code, err = run_main(argv + ["-o", "/dev/full", "--backend", backend_name(engine)], capsys)
        assert code == 2
        assert err == f"azul-engine {argv[0]}: cannot write /dev/full: No space left on device\n"


@pytest.mark.parametrize("argv, message", [
    (["tournament", "--bots", "random,greedy", "--seed", "-3"], "argument --seed: must be a whole number"),
    (["tournament", "--bots", "random,greedy", "--games", str(10 ** 12)],
     "games must be a whole number from 1 to 1000000, not 1000000000000"),
    (["tournament", "--bots", "random,greedy", "--workers", str(10 ** 6)],
     "workers must be a whole number from 1 to"),
    (["tournament", "--bots", "random,greedy", "--seed", str(2 ** 64 - 1), "--games", "4"], "pass 2**64-1"),
    (["tournament", "--bots", "random,greedy", "--games", "0"], "argument --games: must be positive: 0"),
    (["explain", "FILE", "--game", "0"], "argument --game: must be positive: 0"),
    (["explain", "FILE", "--game", "x"], "argument --game: invalid int value: 'x'"),
    (["explain", "NOWHERE"], "cannot read NOWHERE: No such file or directory"),
    (["explain", "DIR"], "cannot read DIR: it is a directory"),
    (["audit", "FILE", "NOWHERE"], "cannot read NOWHERE: No such file or directory"),
    (["audit", "DIR"], "cannot read DIR: it is a directory"),
    (["check-score", "NOWHERE", "--score", "3"], "cannot read NOWHERE: No such file or directory"),
    (["check-score", "--record", "DIR"], "cannot read DIR: it is a directory"),
    (["check-score", "WALL", "--score", "-5"], "argument --score: must be 0 or more, not -5"),
    (["record", "--time-limit", "nan"], "argument --time-limit: must be positive: nan"),
    (["record", "--time-limit", "inf"], "argument --time-limit: must be positive: inf"),
    (["board", "FILE", "--size", "inf", "-o", "-"],
     "size must be a number of pixels above 0 and at most 100000, not inf"),
])
def test_bad_arguments_get_one_line_and_status_2(engine, record_file, tmp_path, capsys, argv, message):
    wall = tmp_path / "wall.txt"
    wall.write_text("BYRKW\nWBYRK\nKWBYR\nRKWBY\nYRKW.\n")
    names = {"FILE": str(record_file), "NOWHERE": str(tmp_path / "nowhere.jsonl"), "DIR": str(tmp_path),
             "WALL": str(wall)}
    argv = [names.get(a, a) for a in argv] + ["--backend", backend_name(engine)]
    for key, value in names.items():
        message = message.replace(key, value)
    code, err = run_main(argv, capsys)
    assert code == 2
    assert err.count("\n") == 1 and message in err, err
    assert capsys.readouterr().out == ""


def test_explain_past_the_last_line(engine, record_file, capsys):
    code, err = run_main(["explain", str(record_file), "--game", "99", "--backend", backend_name(engine)], capsys)
    assert code == 1 and err == f"{record_file}: no record on line 99\n"


def test_hint_refuses_a_search_without_end(engine, capsys):
    text = engine.new_game(2, seed=1).to_text()
    for spec, words in (("mcts:seconds=inf", "seconds must be positive and at most a year (31536000), not inf"),
                        ("mcts:seconds=nan", "seconds must be positive and at most a year (31536000), not nan")):
        code, err = run_main(["hint", text, "--bot", spec, "--backend", backend_name(engine)], capsys)
        assert code == 2 and err.count("\n") == 1 and words in err, err


def test_explain_a_blank_line_or_null_says_so(engine, record_file, tmp_path, capsys):
    """A blank line says where the next record is (a file that starts with blank lines); a JSON null is not a
    record (it was read as "no record on line N")."""
    path = tmp_path / "gaps.jsonl"
    path.write_text("\n\n" + record_file.read_text(encoding="utf-8").splitlines()[0] + "\nnull\n", encoding="utf-8")
    for game, message in ((1, "no record on line 1 (the next one is on line 3)"),
                          (4, "line 4: null is not a record (a record is a JSON object)"),
                          (5, "no record on line 5")):
        code, err = run_main(["explain", str(path), "--game", str(game), "--backend", backend_name(engine)], capsys)
        assert code == 1 and err == f"{path}: {message}\n", err
    code, err = run_main(["explain", str(path), "--game", "3", "--backend", backend_name(engine)], capsys)
    assert code == 0, err


# -- audit findings ----------------------------------------------------------------------------------------------

def test_audit_of_an_empty_file_is_a_finding(engine, tmp_path, record_file, capsys):
    empty = tmp_path / "empty.jsonl"
    empty.write_text("\n  \n")
    assert main(["audit", str(empty), "--backend", backend_name(engine)]) == 1
    assert capsys.readouterr().out.splitlines() == [
        f"{empty}: no records: the file is empty",
        "0 records agree, 0 disagree, 1 file without records",
    ]
    # With a good file beside it, the empty one still fails the audit.
    assert main(["audit", str(record_file), str(empty), "--backend", backend_name(engine)]) == 1
    assert capsys.readouterr().out.splitlines()[-1] == "3 records agree, 0 disagree, 1 file without records"
    assert main(["audit", str(record_file), "--backend", backend_name(engine)]) == 0


@pytest.fixture(scope="module")
def good_record():
    return bots.play(azul_engine.load_backend("python"), 2, "classic", 5, "greedy").record()


def test_a_record_without_winners_names_that_field(engine, good_record):
    record = dict(good_record)
    del record["winners"]
    finding, = records.audit(record, engine)
    assert finding.field == "winners"
    assert str(finding) == "field winners: missing (the record has final_scores, so the game ended)"
    record = dict(good_record, final_scores=None)
    finding, = records.audit(record, engine)
    assert str(finding) == "field final_scores: missing (the record has winners, so the game ended)"
    record = dict(good_record, final_scores=None, winners=None)  # a game in progress, yet its moves end it
    finding, = records.audit(record, engine)
    assert str(finding).startswith("field final_scores: null (and winners), but the game is over")
    del record["final_scores"], record["winners"]
    finding, = records.audit(record, engine)
    assert "stops before the game's end" in str(finding)


def hostile(good):
    """(record line, fragment of its finding) for strings no engine should see, and a line nested too deep."""
    def changed(path, value):
        record = json.loads(json.dumps(good))
        target = record
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value
        return json.dumps(record)

    factory = good["rounds"][0]["factories"][1]
    move = good["rounds"][1]["moves"][2]
    return [
        (changed(["rounds", 0, "factories", 1], factory[:1] + "\u00e9" + factory[2:]),
         "round 1: field factories: factory 2 is %s: character 2 (U+00E9, not ASCII, '\\xe9') is not a colour "
         "letter (B Y R K W)" % ascii(factory[:1] + "\u00e9" + factory[2:])),
        (changed(["rounds", 0, "factories", 0], "B\ud800"), "factory 1 is 'B\\ud800': character 2 (U+D800"),
        (changed(["rounds", 1, "moves", 2], move[:1] + "\udfff" + move[2:]),
         "round 2: field moves: move 3 of the round is %s: character 2 (U+DFFF, not ASCII" %
         ascii(move[:1] + "\udfff" + move[2:])),
        (changed(["rounds", 1, "moves", 0], "1B\x003"), "move 1 of the round is '1B\\x003': character 3 (U+0000"),
        (changed(["rounds", 1, "moves", 0], "1b3"), "character 2 (U+0062, 'b') is not a character of move notation"),
        (changed(["variant"], "\ud800"), "field variant: unknown variant '\\ud800'"),
        (changed(["format"], "azul-r\u00e9cord"), "field format: 'azul-r\\xe9cord' is not 'azul-record'"),
        (changed(["variant"], "x" * 100000), "unknown variant 'xxxxxxxx"),
        ("[" * 100000 + "]" * 100000, "not JSON that can be read (nested too deeply)"),
        ('{"format": ' + "[" * 100000, "not JSON that can be read (nested too deeply)"),
        (changed(["players"], json.loads("[" * 900 + "]" * 900)), "field players: "),
    ]


def test_hostile_strings_are_findings_naming_line_and_field_and_the_audit_goes_on(engine, good_record, tmp_path,
                                                                                   capsys):
    cases = hostile(good_record)
    path = tmp_path / "hostile.jsonl"
    good_line = json.dumps(good_record)
    lines = [good_line]
    for text, _ in cases:
        lines += [text, good_line]
    # Lone surrogates cannot be written as UTF-8: json.dumps escapes them, as any JSON writer would; a file
    # whose bytes are not UTF-8 is read with replacement characters, which are then just as foreign.
    path.write_bytes(("\n".join(lines) + "\n").encode("utf-8") +
                     good_line.encode().replace(b'"azul-record"', b'"azul-r\xff\xfe"') + b"\n")
    assert main(["audit", str(path), "--backend", backend_name(engine)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[-1] == "%d records agree, %d disagree" % (len(cases) + 1, len(cases) + 1)
    for i, (_, fragment) in enumerate(cases):
        number = 2 * i + 2
        hits = [x for x in out if x.startswith((f"{path}: line {number}: ", f"{path}: line {number},"))]
        assert len(hits) == 1 and fragment in hits[0], (number, fragment, hits)
        assert len(hits[0]) < 400  # a huge string is cut, not echoed
    last = [x for x in out if x.startswith(f"{path}: line {len(lines) + 1}:")]
    assert last == [f"{path}: line {len(lines) + 1}: field format: 'azul-r\\ufffd\\ufffd' is not 'azul-record'"]
    for text, fragment in cases[:8]:
        record = json.loads(text)
        with pytest.raises(records.RecordError):
            records.replay(record, engine)
        with pytest.raises(records.RecordError):
            records.explain(record, engine)


def test_hostile_summer_pavilion_strings(engine):
    pure = azul_engine.load_backend("python")
    good = bots.play(pure, 2, "summer-pavilion", 3, "random").record()
    assert records.audit(good, engine) == []
    bad = dict(good, supply=good["supply"][:3] + "\u0130" + good["supply"][4:])
    finding, = records.audit(bad, engine)
    assert str(finding).startswith("field supply: ") and "(U+0130, not ASCII" in str(finding)
    bad = json.loads(json.dumps(good))
    bad["rounds"][0]["factories"][0] = "BYRK"  # K is no Summer Pavilion colour
    finding, = records.audit(bad, engine)
    assert "factory 1 is 'BYRK': character 4 (U+004B, 'K') is not a colour letter (P G O Y B R)" in str(finding)


# -- check-score -------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("text", [
    "BYRKW\nWBYRK\nKWBYR\nRKWBY\nYRKW.\n",
    "b y r k w\nw b y r k\nk w b y r\nr k w b y\ny r k w .\n",
    "  BYRKW \n\nwbyrk\nKwByR\n R K W B Y\nY R K W .",
    "BYRKW/WBYRK/KWBYR/RKWBY/YRKW.",
    "byrkw wbyrk kwbyr rkwby yrkw.",
])
def test_check_score_accepts_lower_case_and_spaced_walls(engine, tmp_path, capsys, text):
    path = tmp_path / "wall.txt"
    path.write_text(text)
    assert main(["check-score", str(path), "--score", "45", "--variant", "classic",
                 "--backend", backend_name(engine)]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "final score: 45 + 76 = 121"


@pytest.mark.parametrize("text, message", [
    ("BYRKW\nWBYRK\nKWBYR\nRKWBY\n", "wall: 4 rows, not 5"),
    ("BYRKW\nWBYRK\nKWBQR\nRKWBY\nYRKW.\n", "wall: row 3: 'Q' is not a colour letter (B Y R K W) or '.'"),
    ("BYRKW\nWBYRK\nKWBYR\nRKWB\nYRKW.\n", "wall: row 4 has 4 cells, not 5: 'RKWB'"),
    ("BYRKW\nWBYRK\nKWBYR\nRKWBY\nYRKW\u00e9\n", "wall: row 5: '\\xe9' is not a colour letter"),
])
def test_check_score_refuses_a_bad_wall_naming_the_row(engine, tmp_path, capsys, text, message):
    path = tmp_path / "wall.txt"
    path.write_text(text)
    code, err = run_main(["check-score", str(path), "--score", "45", "--backend", backend_name(engine)], capsys)
    assert code == 1
    assert err.startswith("check-score: ") and err.count("\n") == 1 and message in err, err


def test_wall_bonus_text_refuses_a_negative_score(engine):
    with pytest.raises(ValueError, match="score: -5 is not a whole number 0 or more"):
        records.wall_bonus_text(engine, "BYRKW\nWBYRK\nKWBYR\nRKWBY\nYRKW.\n", -5)


@pytest.mark.slow
def test_check_score_reads_bytes_that_are_not_utf8_from_stdin(backend):
    proc = cli(["check-score", "-", "--score", "3"], backend, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
               stderr=subprocess.PIPE)
    out, err = proc.communicate(b"BYRKW\nWBYRK\nKW\xffYR\nRKWBY\nYRKW.\n", timeout=120)
    assert proc.returncode == 1 and out == b""
    assert err.decode() == "check-score: wall: row 3: '\\ufffd' is not a colour letter (B Y R K W) or '.' for an " \
                           "empty cell\n"


def test_an_engine_that_is_not_built_is_one_line(monkeypatch, tmp_path, record_file, capsys):
    def load_backend(name):
        raise ImportError("azul-engine: the C++ engine (azul_engine._cppengine) cannot be imported: test")

    monkeypatch.setattr(azul_engine._backends, "load_backend", load_backend)  # what engine_named calls
    for argv in (["record", "-o", str(tmp_path / "r.jsonl")], ["audit", str(record_file)],
                 ["explain", str(record_file)], ["check-score", "--record", str(record_file)]):
        code, err = run_main(argv + ["--backend", "cpp"], capsys)
        assert code == 2
        assert err == f"azul-engine {argv[0]}: azul-engine: the C++ engine (azul_engine._cppengine) cannot be " \
                      "imported: test\n"


def test_a_line_without_end_is_read_in_bounded_memory(engine, record_file, tmp_path, capsys, monkeypatch):
    """/dev/zero as a record file or a wall filled the memory (a line without end): a record line is read up to
    records.MAX_LINE characters (here lowered), a wall file up to 4096."""
    from azul_engine import records

    monkeypatch.setattr(records, "MAX_LINE", 100000)
    path = tmp_path / "endless.jsonl"
    path.write_text(record_file.read_text(encoding="utf-8").splitlines()[0] + "\n" + "x" * 100001)
    code = main(["audit", str(path), "--backend", backend_name(engine)])
    out = capsys.readouterr().out
    assert code == 1 and "line 2: more than 100000 characters without a line end: not a record" in out, out
    code, err = run_main(["explain", str(path), "--game", "2", "--backend", backend_name(engine)], capsys)
    assert code == 1 and "line 2: more than 100000 characters" in err
    wall = tmp_path / "wall.txt"
    wall.write_text("B" * 5000)
    code, err = run_main(["check-score", str(wall), "--score", "1", "--backend", backend_name(engine)], capsys)
    assert code == 1 and err == f"check-score: {wall} is not a wall: more than 4096 characters\n"


def test_every_command_prints_its_help(capsys):
    """``--help`` of every command: argparse formats each option's help with ``%`` again, so a help text that
    formatted its default into a ``95%`` before it raised TypeError (``rate --help`` did)."""
    from azul_engine.__main__ import parser

    top = parser()
    names = next(a for a in top._actions if a.dest == "command").choices
    assert {"tournament", "rate", "train", "bench"} <= set(names)
    for name in names:
        with pytest.raises(SystemExit) as stop:
            main([name, "--help"])
        assert stop.value.code == 0, name
        assert "usage: azul-engine %s" % name in capsys.readouterr().out
