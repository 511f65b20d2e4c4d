"""Ray (azul_engine.distributed.RayExecutor, --ray on tournament, record and selfplay): the same output as the
local run, a killed worker, Ctrl-C on the driver.

One local Ray instance (2 CPUs) serves the whole session; subprocess drivers join it by its address. Without
the ray package these tests skip, except in CI (CI set), where they fail: CI installs azul-engine[ray]."""

import contextlib
import json
import logging
import os
import re
import shutil
import signal
import subprocess
import sys
import threading
import time

import pytest

import azul_engine
from azul_engine import distributed, ratings, selfplay, tournament
from azul_engine.__main__ import main

# The whole module is long (pytest -m 'not slow' leaves it out; CI runs it).
pytestmark = pytest.mark.slow

# A log line of Ray's C++ core ("[2026-12-01 15:23:51,271 E 7066 7209] task_manager.cc:1545: ..."), or one that
# Ray forwards from its own processes ("(raylet) [...] ...").
RAY_LOG_LINE = re.compile(r"^(\x1b\[\d+m)?(\([^)]*\))?(\x1b\[0m)? ?\[\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3} [DIWEF] \d+ \d+\] ")

CI = os.environ.get("CI", "").strip().lower() not in ("", "0", "false")
WAIT = 120.0  # a guard against a hang, not a timing target


def test_quiet_stderr_silences_descriptor_2_and_gives_it_back(capfd):
    """What quiets Ray's shutdown after a Ctrl-C: the process's descriptor 2 (a child's too) goes nowhere, then
    back where it was."""
    os.write(2, b"before\n")
    with distributed._quiet_stderr():
        os.write(2, b"hidden\n")
        subprocess.run([sys.executable, "-c", "import os; os.write(2, b'child\\n')"], check=True)
    os.write(2, b"after\n")
    assert capfd.readouterr().err == "before\nafter\n"


@pytest.fixture(scope="session")
def ray_address():
    distributed._loopback()  # the session's instance listens on 127.0.0.1 only (so do the CLI's own instances)
    try:
        import ray
    except ImportError:
        if CI:
            pytest.fail("the ray package is not installed: CI installs azul-engine[ray]")
        pytest.skip("the ray package is not installed (pip install 'azul-engine[ray]')")
    ray.init(address="local", num_cpus=2, include_dashboard=False, logging_level=logging.ERROR,
             object_store_memory=200 * 1024 * 1024)
    try:
        yield ray.get_runtime_context().gcs_address
    finally:
        ray.shutdown()


def cli(args, **kwargs):
    return subprocess.Popen([sys.executable, "-m", "azul_engine", *args], **kwargs)


def task_workers(root):
    """Pids of the processes under ``root`` (a process tree) running one of our tasks: Ray names a worker
    process after the task it runs (``ray::_run_chunk``)."""
    parents, titles = {}, {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            with open(f"/proc/{entry}/cmdline", "rb") as f:
                titles[int(entry)] = f.read()
        except OSError:
            continue
        if fields[0] != "Z":
            parents[int(entry)] = int(fields[1])
    found = []
    for pid, title in titles.items():
        if not title.startswith(b"ray::_run_chunk") or pid not in parents:
            continue
        p = pid
        while p in parents and p != root:
            p = parents[p]
        if p == root:
            found.append(pid)
    return found


def wait_until(condition, what):
    deadline = time.monotonic() + WAIT
    while not condition():
        if time.monotonic() > deadline:
            pytest.fail(f"never {what}")
        time.sleep(0.05)


def table_rows(result):
    return tournament.table(result).splitlines()[1:]  # the heading line tells the time and workers


def test_tournament_on_ray_is_the_local_tournament(ray_address, tmp_path):
    plan = tournament.plan(["random", "greedy", "mcts:10"], players=2, games=12, seed=5)
    local = tournament.run(plan, workers=1, output=str(tmp_path / "local.jsonl"))
    with distributed.RayExecutor() as ex:
        assert ex.workers == 2 and ex.where.startswith("ray 127.0.0.1:")
        remote = tournament.run(plan, output=str(tmp_path / "ray.jsonl"), executor=ex)
    assert (tmp_path / "local.jsonl").read_bytes() == (tmp_path / "ray.jsonl").read_bytes()
    assert table_rows(local) == table_rows(remote) and len(table_rows(local)) == 4
    heading = tournament.table(remote).splitlines()[0]
    assert ", 2 workers (ray 127.0.0.1:" in heading and heading.endswith(" games/s")
    assert [(s.bot, s.games, s.wins, s.scores) for s in local.standings] == \
        [(s.bot, s.games, s.wins, s.scores) for s in remote.standings]


def test_an_sprt_on_ray_stops_its_tasks_when_it_decides(ray_address, tmp_path):
    """An SPRT on Ray plays the local run's deals and no more (the same records), and when it decides, the tasks
    still in flight are cancelled (this executor uses the test's own connection, so it cancels them one by one)."""
    plan = tournament.plan(["greedy", "random"], players=2, deals=3000, seed=11)
    test = ratings.SPRT(0, 100)
    local = tournament.run(plan, workers=1, output=str(tmp_path / "local.jsonl"), sprt=test)
    cancelled = []
    with distributed.RayExecutor() as ex:
        cancel = ex._cancel
        ex._cancel = lambda pending: (cancelled.append(len(pending)), cancel(pending))
        remote = tournament.run(plan, output=str(tmp_path / "ray.jsonl"), executor=ex, sprt=test)
        assert ex._running == []  # nothing of the run left to collect
    assert remote.sprt.decision == local.sprt.decision == "H1" and remote.played == local.played < 100
    assert (tmp_path / "local.jsonl").read_bytes() == (tmp_path / "ray.jsonl").read_bytes()
    assert cancelled and cancelled[0] > 0, cancelled  # tasks were in flight at the decision, and were cancelled


def test_tournament_sprt_command_on_ray(ray_address, tmp_path):
    proc = cli(["tournament", "--bots", "greedy,random", "--sprt", "elo0=0,elo1=100", "--ray", ray_address,
                "-o", str(tmp_path / "g.jsonl")], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    out, err = proc.communicate(timeout=WAIT)
    assert proc.returncode == 0, err.decode()
    lines = out.decode().splitlines()
    assert lines[-1].startswith("LLR: ") and lines[-1].endswith(": H1 accepted")
    games = int(lines[-1].split(" games")[0].rsplit(" ", 1)[1])
    assert (tmp_path / "g.jsonl").read_bytes().count(b"\n") == games < 100
    assert err == b"", err.decode()


@pytest.mark.parametrize("fmt", ["parquet", "npz"])
def test_selfplay_on_ray_writes_the_local_bytes(ray_address, tmp_path, fmt):
    if fmt == "parquet" and not CI:
        pytest.importorskip("pyarrow")
    args = dict(players=2, seed=21, fmt=fmt, shard_games=2)
    with distributed.LocalExecutor(1) as ex:
        selfplay.run("mcts:10,random", 5, str(tmp_path / "local"), executor=ex, **args)
    with distributed.RayExecutor() as ex:
        summary = selfplay.run("mcts:10,random", 5, str(tmp_path / "ray"), executor=ex, **args)
    names = sorted(os.listdir(tmp_path / "local"))
    assert names == sorted(os.listdir(tmp_path / "ray")) == ["_manifest.json"] + [
        "part-0000%d.%s" % (i, fmt) for i in range(3)]
    for name in names:  # the shards written by the tasks, the manifest by the driver
        assert (tmp_path / "local" / name).read_bytes() == (tmp_path / "ray" / name).read_bytes()
    assert summary.workers == 2 and summary.where.startswith("ray")


def test_selfplay_on_ray_resumes_a_stopped_run(ray_address, tmp_path):
    args = dict(players=2, seed=4, fmt="npz", shard_games=2)
    with distributed.LocalExecutor(1) as ex:
        selfplay.run("greedy", 6, str(tmp_path / "local"), executor=ex, **args)
    (tmp_path / "ray").mkdir()
    # The stopped run: its first shard written (a shard's metadata names the run's games, so it is the whole
    # run's first shard), the manifest saying the run is not complete.
    shutil.copyfile(tmp_path / "local" / "part-00000.npz", tmp_path / "ray" / "part-00000.npz")
    manifest = json.loads((tmp_path / "local" / "_manifest.json").read_text())
    manifest.update(complete=False, shards=manifest["shards"][:1])
    (tmp_path / "ray" / "_manifest.json").write_text(json.dumps(manifest))
    with distributed.RayExecutor() as ex:
        summary = selfplay.run("greedy", 6, str(tmp_path / "ray"), executor=ex, resume=True, **args)
    assert summary.resumed == 1 and summary.played == 4
    for name in os.listdir(tmp_path / "local"):
        assert (tmp_path / "local" / name).read_bytes() == (tmp_path / "ray" / name).read_bytes(), name


def test_a_slow_first_task_does_not_hold_back_the_others(ray_address, tmp_path):
    """Results are collected as the tasks finish, not strictly in order: while the first task still runs, all
    the others (more than the tasks in flight at once) run and wait their turn, and the results still come in
    job order. Collected in order, the first would wait for jobs never submitted."""
    wait = WAIT

    def waits_for_the_others(marks, index, others):
        """The first job waits until every other job has run (each leaves a file). Defined here, so that Ray
        sends it by value: the workers cannot import this test module."""
        if index:
            with open(os.path.join(marks, str(index)), "w"):
                pass
            return index
        deadline = time.monotonic() + wait
        while len(os.listdir(marks)) < others:
            if time.monotonic() > deadline:
                raise RuntimeError("the other jobs never ran while the first was running")
            time.sleep(0.02)
        return index

    with distributed.RayExecutor() as ex:
        jobs = 3 * ex._window  # fewer than the tasks held at most (REORDER x window), more than the window
        assert jobs < distributed.REORDER * ex._window
        out = list(ex.map(waits_for_the_others, ((str(tmp_path), i, jobs - 1) for i in range(jobs)),
                          chunksize=1, count=jobs))
    assert out == list(range(jobs))


@contextlib.contextmanager
def ray_head(tmp_path, env):
    """A cluster's head started by ``ray start --head --block`` (1 CPU, a free port) with ``env``: its port. Its
    processes are ended afterwards one by one (``ray stop`` would stop every Ray instance of the machine, the
    session's too)."""
    import socket

    ray_cli = shutil.which("ray", path=os.path.dirname(sys.executable))
    if ray_cli is None:
        pytest.fail("the ray command is not installed beside " + sys.executable)
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    log = tmp_path / ("head-%d.log" % port)
    with open(log, "w") as out:
        head = subprocess.Popen([ray_cli, "start", "--head", "--block", "--port", str(port), "--num-cpus", "1",
                                 "--include-dashboard", "false"], stdout=out, stderr=subprocess.STDOUT,
                                start_new_session=True, env=dict(env, RAY_USAGE_STATS_ENABLED="0"))
    try:
        wait_until(lambda: "Ray runtime started" in log.read_text() or head.poll() is not None, "started the head")
        assert head.poll() is None, log.read_text()
        yield port
    finally:
        mine = ("--port %d" % port, ":%d" % port, "port=%d" % port)
        for entry in os.listdir("/proc"):
            if entry.isdigit() and int(entry) != os.getpid():
                try:
                    with open("/proc/%s/cmdline" % entry, "rb") as f:
                        line = f.read().replace(b"\0", b" ").decode(errors="replace")
                except OSError:
                    continue
                if any(m in line for m in mine) and ("ray" in line):
                    try:
                        os.kill(int(entry), signal.SIGKILL)
                    except OSError:
                        pass
        head.wait(timeout=WAIT)


def test_a_local_instance_is_a_new_one_beside_a_running_cluster(ray_address, tmp_path):
    """After docs/tournaments.md's own ``ray start --head``, --ray without an address still starts an instance of its own
    (a plain ray.init() would join the running one and refuse the CPU count: exit 2)."""
    with ray_head(tmp_path, dict(os.environ)) as port:
        out = tmp_path / "r.jsonl"
        proc = cli(["record", "--games", "3", "--bot", "random", "--ray", "--workers", "2", "-o", str(out)],
                   stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        stdout, stderr = proc.communicate(timeout=WAIT)
        assert proc.returncode == 0, stderr.decode()
        where = re.search(r", 2 workers \(ray [^:]+:(\d+)\)\n$", stdout.decode())
        assert where and int(where.group(1)) != port, stdout  # an instance of its own, not the running cluster
        assert out.read_bytes().count(b"\n") == 3


def test_joining_a_cluster_with_token_authentication(ray_address, tmp_path):
    """A head started on a machine with a Ray token requires it (Ray's token authentication). Ray's driver sends
    the token by itself only to a cluster it finds on its own, not at an explicit address: the command sends this
    machine's token; without one it says in one line what is wrong and how to fix it (it was 20 lines of Ray's
    retries, then "Failed to connect" without the cause)."""
    import secrets

    home, stranger = tmp_path / "home", tmp_path / "stranger"
    (home / ".ray").mkdir(parents=True)
    stranger.mkdir()
    (home / ".ray" / "auth_token").write_text(secrets.token_hex(32))
    env = {k: v for k, v in os.environ.items() if k not in ("RAY_AUTH_MODE", "RAY_AUTH_TOKEN", "RAY_AUTH_TOKEN_PATH",
                                                             "RAY_ADDRESS")}
    with ray_head(tmp_path, dict(env, HOME=str(home))) as port:
        args = ["record", "--games", "2", "--bot", "random", "--ray", "127.0.0.1:%d" % port]
        done = subprocess.run([sys.executable, "-m", "azul_engine", *args, "-o", str(tmp_path / "a.jsonl")],
                              capture_output=True, text=True, timeout=WAIT, env=dict(env, HOME=str(home)))
        assert done.returncode == 0, done.stderr
        refused = subprocess.run([sys.executable, "-m", "azul_engine", *args, "-o", str(tmp_path / "b.jsonl")],
                                 capture_output=True, text=True, timeout=WAIT, env=dict(env, HOME=str(stranger)))
    assert refused.returncode == 2 and refused.stdout == ""
    assert refused.stderr.count("\n") == 1, refused.stderr
    assert refused.stderr.startswith("azul-engine record: cannot join the Ray cluster at 127.0.0.1:%d: " % port)
    assert "no Ray token on this machine" in refused.stderr and "~/.ray/auth_token" in refused.stderr
    assert not (tmp_path / "b.jsonl").exists()


def test_ray_data_reads_the_shards(ray_address, tmp_path):
    pytest.importorskip("ray.data")
    pytest.importorskip("pyarrow")
    import ray

    with distributed.LocalExecutor(1) as ex:
        summary = selfplay.run("greedy", 3, str(tmp_path), seed=2, executor=ex, shard_games=2)
    ds = ray.data.read_parquet(str(tmp_path))
    assert ds.count() == summary.rows
    rows = ds.take(summary.rows)
    assert sorted({r["game"] for r in rows}) == [0, 1, 2]
    assert len(rows[0]["observation"]) == azul_engine.observation_shape(2)[0]
    import ray.train  # noqa: F401  (iter_torch_batches imports it; it needs pydantic, which the [ray] extra brings)


def test_record_joining_the_cluster_from_the_command_line_writes_the_local_file(ray_address, tmp_path, capsys):
    local, remote = tmp_path / "local.jsonl", tmp_path / "ray.jsonl"
    assert main(["record", "--games", "6", "--seed", "3", "--bot", "greedy", "--workers", "1",
                 "-o", str(local)]) == 0
    capsys.readouterr()
    proc = cli(["record", "--games", "6", "--seed", "3", "--bot", "greedy", "--ray", ray_address,
                "-o", str(remote)], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    out, err = proc.communicate(timeout=WAIT)
    assert proc.returncode == 0, err.decode()
    assert remote.read_bytes() == local.read_bytes() and local.read_bytes().count(b"\n") == 6
    assert out.decode().startswith(f"{remote}: 6 games in ") and "2 workers (ray " in out.decode()
    assert err == b"", err.decode()  # Ray's own start-up notes stay out of the command's output


def test_a_killed_worker_costs_only_time(ray_address, tmp_path):
    """SIGKILL to a Ray worker process while it plays a game: Ray runs its task again; the file is the local
    run's, no game lost or written twice."""
    plan = tournament.plan(["mcts:400", "greedy"], players=2, games=8, seed=60)
    local = tournament.run(plan, workers=1, output=str(tmp_path / "local.jsonl"))
    killed, stop = [], threading.Event()

    def killer():
        while not stop.is_set() and not killed:
            workers = task_workers(os.getpid())
            if workers:
                os.kill(workers[0], signal.SIGKILL)
                killed.append(workers[0])
            time.sleep(0.02)

    thread = threading.Thread(target=killer, daemon=True)
    with distributed.RayExecutor() as ex:
        thread.start()
        try:
            remote = tournament.run(plan, output=str(tmp_path / "ray.jsonl"), executor=ex)
        finally:
            stop.set()
            thread.join()
    assert killed, "no worker was running a task to kill"
    assert (tmp_path / "ray.jsonl").read_bytes() == (tmp_path / "local.jsonl").read_bytes()
    assert table_rows(remote) == table_rows(local)


def test_a_killed_worker_leaves_the_commands_stdout_its_own(ray_address, tmp_path):
    """From the command line, with an instance of the command's own: a worker killed mid-game makes Ray's raylet
    report it ("A worker died or was killed while executing a task"), which Ray copies to the driver's stdout,
    coloured, unless log_to_driver is off. The table is all that stdout holds, and it is the local run's."""
    args = ["tournament", "--bots", "mcts:400,greedy", "--games", "6", "--seed", "61"]
    local = subprocess.run([sys.executable, "-m", "azul_engine", *args, "--workers", "1"], capture_output=True,
                           text=True, timeout=WAIT)
    assert local.returncode == 0, local.stderr
    proc = cli([*args, "--ray", "--workers", "2"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    killed = []

    def killer():
        while proc.poll() is None and not killed:
            workers = task_workers(proc.pid)
            if workers:
                os.kill(workers[0], signal.SIGKILL)
                killed.append(workers[0])
            time.sleep(0.02)

    thread = threading.Thread(target=killer, daemon=True)
    thread.start()
    out, err = proc.communicate(timeout=WAIT)
    thread.join()
    assert proc.returncode == 0 and killed, err
    assert "\x1b[" not in out and "(raylet)" not in out and "Traceback" not in err
    assert out.splitlines()[1:] == local.stdout.splitlines()[1:]  # the heading line tells the time and workers


def test_ctrl_c_on_a_ray_driver_cancels_its_tasks_and_keeps_whole_lines(ray_address, tmp_path):
    out = tmp_path / "r.jsonl"
    proc = cli(["record", "--games", "100000", "--bot", "greedy", "--ray", ray_address, "-o", str(out)],
               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)

    def lines():
        return out.read_bytes().count(b"\n") if out.exists() else 0

    wait_until(lambda: lines() >= 3 and task_workers(os.getpid()), "wrote records with tasks running")
    proc.send_signal(signal.SIGINT)
    try:
        proc.wait(timeout=WAIT)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
        pytest.fail("still running after SIGINT")
    err = proc.stderr.read().decode()
    proc.stderr.close()
    assert proc.returncode == 130 and err == "azul-engine record: interrupted\n", err
    data = out.read_bytes()
    assert data.endswith(b"\n")
    seeds = [json.loads(line)["seed"] for line in data.decode().splitlines()]
    assert seeds == list(range(len(seeds))) and 3 <= len(seeds) < 100000
    wait_until(lambda: not task_workers(os.getpid()), "stopped the driver's tasks")


def test_ray_on_its_own_local_instance_from_the_command_line(tmp_path, ray_address):
    """--ray without an address: the command starts (and stops) a Ray instance of its own, here beside the
    session's, and still writes the local file; a terminal's Ctrl-C (SIGINT to the process group) stops it and
    everything it started."""
    local, remote = tmp_path / "local.jsonl", tmp_path / "ray.jsonl"
    proc = cli(["record", "--games", "100000", "--bot", "random", "--ray", "--workers", "2", "-o", str(remote)],
               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True)
    wait_until(lambda: remote.exists() and remote.read_bytes().count(b"\n") >= 100, "wrote records")
    os.killpg(proc.pid, signal.SIGINT)
    try:
        proc.wait(timeout=WAIT)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
        pytest.fail("still running after SIGINT")
    err = proc.stderr.read().decode()
    proc.stderr.close()
    # The terminal's Ctrl-C reaches the instance's own processes at the same moment, and their failures may reach
    # Ray's C++ core in the driver before the command sees the interrupt; the lines it logs then are Ray's, in
    # its own format. What the command says must be the one line after them.
    lines = err.splitlines(keepends=True)
    assert proc.returncode == 130 and lines and lines[-1] == "azul-engine record: interrupted\n", err
    assert all(RAY_LOG_LINE.match(line) for line in lines[:-1]), err
    data = remote.read_bytes()
    n = data.count(b"\n")
    assert data.endswith(b"\n") and n >= 100
    assert main(["record", "--games", str(n), "--bot", "random", "--workers", "1", "-o", str(local)]) == 0
    assert data == local.read_bytes()

    def group_gone():
        try:
            os.killpg(proc.pid, 0)
        except ProcessLookupError:
            return True
        return False

    wait_until(group_gone, "stopped the Ray instance it started")


def test_an_address_without_a_cluster_is_one_line_not_minutes_of_retries(ray_address, tmp_path):
    import socket

    with socket.socket() as s:  # a port that nothing listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = cli(["record", "--games", "2", "--ray", f"127.0.0.1:{port}", "-o", str(tmp_path / "r.jsonl")],
               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    out, err = proc.communicate(timeout=WAIT)
    assert proc.returncode == 2 and out == b""
    assert err.decode() == f"azul-engine record: cannot reach the Ray cluster at 127.0.0.1:{port}: Connection refused\n"


def test_selfplay_command_with_ray(ray_address, tmp_path, capsys):
    """In this process Ray is already connected: --ray uses that connection (and leaves it open)."""
    import ray

    args = ["selfplay", "--bots", "mcts:5,greedy", "--games", "4", "--seed", "9", "--format", "npz",
            "--shard-games", "3"]
    assert main(args + ["--workers", "1", "-o", str(tmp_path / "local")]) == 0
    assert main(args + ["--ray", "-o", str(tmp_path / "ray")]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[1].endswith("2 workers (ray %s)" % ray_address) and ray.is_initialized()
    for name in ("part-00000.npz", "part-00001.npz"):
        assert (tmp_path / "local" / name).read_bytes() == (tmp_path / "ray" / name).read_bytes()


def test_the_workers_own_output_stays_out_of_the_commands(ray_address, tmp_path):
    """A bot that prints in a Ray worker: the command's stdout carries the command's output only (Ray would copy
    the workers' lines to it, coloured, with log_to_driver)."""
    out = tmp_path / "loud.jsonl"
    tests = os.path.dirname(os.path.abspath(__file__))
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in (tests, os.environ.get("PYTHONPATH")) if p))
    proc = cli(["record", "--games", "2", "--bots", "bot_examples:Loud,greedy", "--ray", "--workers", "2",
                "-o", str(out)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    stdout, stderr = proc.communicate(timeout=WAIT)
    assert proc.returncode == 0, stderr.decode()
    assert stdout.decode().startswith(f"{out}: 2 games in ") and stdout.decode().count("\n") == 1, stdout
    assert b"LOUD" not in stdout and b"LOUD" not in stderr
