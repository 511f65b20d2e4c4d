"""External bots that misbehave towards the host (issue 23): an `info` flood does not stop the clock, a bot's exit
is noticed at once even when a child of its own (in a session of its own, too) holds its pipes, nothing it
started outlives it, a killed host takes its bots along, and its standard error is kept as a bounded tail."""

import os
import signal
import subprocess
import sys
import textwrap
import threading
import time

import pytest

from azul_engine import bots, external

pytestmark = [pytest.mark.skipif(os.name != "posix", reason="process groups, sessions and /proc"),
              pytest.mark.slow]  # long: pytest -m "not slow" leaves it out

HANDSHAKE = "import os, sys, time\nsys.stdin.readline()\nprint('ready 1', flush=True)\n"


def bot_file(tmp_path, body, name="bot.py"):
    path = tmp_path / name
    path.write_text(HANDSHAKE + textwrap.dedent(body))
    return "cmd:%s %s" % (sys.executable, path)


def alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:
        with open("/proc/%d/stat" % pid) as f:
            return f.read().split(")")[-1].split()[0] != "Z"  # a zombie has gone, its parent not yet told
    except OSError:
        return True


def wait_for(predicate, seconds=10.0):
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if predicate():
            return True
        time.sleep(0.02)
    return predicate()


def in_time(call, seconds=60.0):
    """``call()`` on a thread: its result, or a test failure (not a hung suite) if it takes over ``seconds``."""
    out = {}
    thread = threading.Thread(target=lambda: out.setdefault("value", call()), daemon=True)
    thread.start()
    thread.join(seconds)
    assert not thread.is_alive(), "hung for %g s" % seconds
    return out["value"]


def test_an_info_flood_does_not_stop_the_clock(engine, tmp_path):
    spec = bot_file(tmp_path, "sys.stdin.readline()\nwhile True:\n    print('info thinking', flush=True)\n")
    start = time.monotonic()
    match = in_time(lambda: bots.play_match(engine, 2, "classic", 5, ["greedy", spec], time_limit=0.5))
    assert match.forfeit.seat == 1
    assert match.forfeit.reason == "gave no answer: expected a move within the time limit of 0.5 s"
    assert time.monotonic() - start < 10


LEAVES_A_CHILD = """
if os.fork() == 0:
    os.setsid()  # a session of its own: out of the bot's process group
    with open(sys.argv[1], "w") as f:
        f.write(str(os.getpid()))
    time.sleep(300)  # holds the bot's output open
    os._exit(0)
while not os.path.exists(sys.argv[1]) or not open(sys.argv[1]).read():
    time.sleep(0.01)
os._exit(0)
"""


@pytest.mark.parametrize("time_limit", [None, 5.0])
def test_a_bot_that_exits_is_noticed_at_once_and_its_children_go_with_it(engine, tmp_path, time_limit):
    pid_file = tmp_path / "child.pid"
    spec = bot_file(tmp_path, LEAVES_A_CHILD) + " " + str(pid_file)
    start = time.monotonic()
    match = in_time(lambda: bots.play_match(engine, 2, "classic", 5, ["greedy", spec], time_limit=time_limit))
    assert match.forfeit.seat == 1 and match.forfeit.reason == "crashed: exited with status 0", match.forfeit
    assert time.monotonic() - start < 4  # not the 5 s of the time limit: the exit itself was seen
    child = int(pid_file.read_text())
    assert wait_for(lambda: not alive(child), 5), "the bot's child outlived it"


SLEEPS_WITH_A_CHILD = """
child = os.fork()
if child == 0:
    os.setsid()
    time.sleep(300)
    os._exit(0)
with open(sys.argv[1], "w") as f:
    f.write("%d %d" % (os.getpid(), child))
signal = __import__("signal")
signal.signal(signal.SIGTERM, signal.SIG_IGN)
while True:
    time.sleep(1)  # never answers, never reads its input again
"""

HOST = """
import sys
from azul_engine import external
bot = external.ExternalBot(sys.argv[1:])
print("started", flush=True)
import time
time.sleep(300)
"""


def test_a_host_killed_with_sigkill_takes_its_bot_and_the_bots_children_along(tmp_path):
    pid_file = tmp_path / "pids"
    script = tmp_path / "sleeper.py"
    script.write_text(HANDSHAKE + SLEEPS_WITH_A_CHILD)
    host = subprocess.Popen([sys.executable, "-c", HOST, sys.executable, str(script), str(pid_file)],
                            stdout=subprocess.PIPE, text=True)
    try:
        assert host.stdout.readline().strip() == "started"
        assert wait_for(lambda: pid_file.exists() and len(pid_file.read_text().split()) == 2)
        bot, child = map(int, pid_file.read_text().split())
        assert alive(bot) and alive(child)
        host.kill()
        host.wait()
        assert wait_for(lambda: not alive(bot) and not alive(child), 5), "the bot outlived its host"
    finally:
        if host.poll() is None:
            host.kill()
            host.wait()


def test_close_kills_a_bot_that_ignores_quit_and_what_it_started(tmp_path):
    pid_file = tmp_path / "pids"
    script = tmp_path / "sleeper.py"
    script.write_text(HANDSHAKE + SLEEPS_WITH_A_CHILD)
    bot = external.ExternalBot([sys.executable, str(script), str(pid_file)])
    assert wait_for(lambda: pid_file.exists() and len(pid_file.read_text().split()) == 2)
    pids = list(map(int, pid_file.read_text().split()))
    in_time(bot.close, 30)
    assert wait_for(lambda: not any(alive(p) for p in pids), 5)


def test_standard_error_is_kept_as_a_bounded_tail(engine, tmp_path):
    spec = bot_file(tmp_path, """
        chunk = b"x" * 65535 + b"\\n"
        for _ in range(320):  # 20 MiB
            sys.stderr.buffer.write(chunk)
        sys.stderr.buffer.write(b"the last words\\n")
        sys.stderr.flush()
        sys.exit(3)
        """)
    seen = {}
    real_gone = external.ExternalBot._gone

    def gone(self):
        failure = real_gone(self)  # it waits for the error reader: the tail is whole after it
        seen["tail"] = self.error_tail()
        return failure

    external.ExternalBot._gone = gone
    try:
        match = in_time(lambda: bots.play_match(engine, 2, "classic", 5, ["greedy", spec], time_limit=30))
    finally:
        external.ExternalBot._gone = real_gone
    assert match.forfeit.reason == "crashed: exited with status 3: 'the last words'"
    assert len(seen["tail"].encode()) <= external.STDERR_TAIL and seen["tail"].endswith("the last words\n")


def test_a_bot_that_cannot_start_says_why(tmp_path):
    plain = tmp_path / "not-executable"
    plain.write_text("#!/bin/sh\n")
    for argv, words in [
        (["/no/such/bot"], "could not be started: /no/such/bot: No such file or directory"),
        (["no-such-bot-anywhere"], "could not be started: no-such-bot-anywhere: No such file or directory"),
        ([str(plain)], "could not be started: %s: Permission denied" % plain),
    ]:
        with pytest.raises(bots.BotFailure) as failed:
            external.ExternalBot(argv)
        assert str(failed.value) == words


def test_a_bot_killed_by_a_signal_is_reported_so(engine, tmp_path):
    spec = bot_file(tmp_path, "sys.stdin.readline()\nos.kill(os.getpid(), 9)\n")
    match = in_time(lambda: bots.play_match(engine, 2, "classic", 5, ["greedy", spec], time_limit=30))
    assert match.forfeit.reason == "crashed: was killed by signal %d" % signal.SIGKILL
