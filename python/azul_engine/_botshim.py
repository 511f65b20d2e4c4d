"""The keeper of one external bot (external.py runs it as ``python -I _botshim.py COMMAND ARGS`` on POSIX).

It starts the bot with the host's pipes as its own standard input, output and error, waits for it, and makes sure
that nothing the bot started outlives it:

- it is the bot's *subreaper* (Linux ``PR_SET_CHILD_SUBREAPER``): a process the bot started and left behind,
  even one in a session of its own (``setsid``), becomes the keeper's child when its parent exits, and is
  killed when the bot exits, so that no one holds the bot's output open after it (the host sees the end of the
  file at once) and nothing runs on;
- the bot runs in a process group of its own, killed as a whole;
- when the host goes (``kill -9`` included: the keeper's parent changes) or asks it to stop (SIGTERM), the
  keeper kills the bot and everything it started, then exits.

It exits with the bot's status (or by the bot's signal), so the host reports the bot's own exit. Only the
standard library: it is run by path with ``-I``, without importing the package.
"""

import os
import signal
import subprocess
import sys
import threading
import time

CANNOT_START = 127  # exit status, with the reason on standard error, when the bot cannot be started
_WATCH_SECONDS = 0.05  # how often the keeper looks whether the host is still there


def _become_subreaper():
    """PR_SET_CHILD_SUBREAPER on Linux (orphans of the bot become our children); nothing elsewhere."""
    if not sys.platform.startswith("linux"):
        return
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(36, 1, 0, 0, 0)  # PR_SET_CHILD_SUBREAPER
    except (OSError, AttributeError):
        pass


def _children():
    """Pids of our live children (Linux: from /proc; elsewhere none are known)."""
    me, found = os.getpid(), []
    try:
        entries = os.listdir("/proc")
    except OSError:
        return found
    for entry in entries:
        if not entry.isdigit():
            continue
        try:
            with open("/proc/%s/stat" % entry, "rb") as f:
                stat = f.read()
        except OSError:
            continue
        fields = stat[stat.rfind(b")") + 2:].split()  # after "pid (name) ": state, ppid, ...
        if len(fields) > 1 and int(fields[1]) == me:
            found.append(int(entry))
    return found


def _reap():
    """Collect every child that has exited, without waiting."""
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return


def kill_all(bot):
    """Kill the bot's process group and then every process left as our child (orphans of the bot, and theirs),
    until none is left."""
    try:
        os.killpg(bot.pid, signal.SIGKILL)
    except OSError:
        pass
    for _ in range(1000):  # a bound, in case something keeps forking as fast as it is killed
        _reap()
        left = [pid for pid in _children() if pid != bot.pid or bot.returncode is None]
        if not left:
            return
        for pid in left:
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
            try:
                os.killpg(pid, signal.SIGKILL)  # a group it leads, if any
            except OSError:
                pass
        time.sleep(0.001)


def main(argv):
    if not argv:
        print("_botshim: no command", file=sys.stderr)
        return 2
    host = os.getppid()
    _become_subreaper()
    try:
        if sys.version_info >= (3, 11):
            bot = subprocess.Popen(argv, process_group=0)
        else:  # no threads yet: setpgrp before exec is safe
            bot = subprocess.Popen(argv, preexec_fn=os.setpgrp)
    except OSError as e:
        print("could not be started: %s: %s" % (argv[0], e.strerror or e), file=sys.stderr)
        return CANNOT_START
    lock = threading.RLock()  # the signal handler may run while the main thread holds it

    def stop(*_):
        with lock:
            kill_all(bot)
            os._exit(1)

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the host decides when the bot stops
    signal.signal(signal.SIGHUP, stop)

    def watch_host():
        while os.getppid() == host:
            time.sleep(_WATCH_SECONDS)
        stop()

    threading.Thread(target=watch_host, daemon=True).start()
    while True:
        try:
            status = bot.wait()
            break
        except InterruptedError:
            continue
    with lock:
        kill_all(bot)
    if status < 0:  # killed by a signal: end the same way, so that the host says so
        try:
            signal.signal(-status, signal.SIG_DFL)
        except (OSError, ValueError):  # SIGKILL, SIGSTOP: already the default
            pass
        os.kill(os.getpid(), -status)
        time.sleep(1)
        return 128 - status
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
