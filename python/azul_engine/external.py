"""External engines: bots in any language, run as a process speaking a line protocol (docs/bot-protocol.md).

A bot spec ``cmd:COMMAND ARGS`` (``bots.resolve_bot_spec``) runs ``COMMAND ARGS`` once per game and seat as an
``ExternalBot``.  The host writes lines to the bot's standard input and reads its answers from the bot's standard
output (UTF-8, one message a line); the bot's standard error is kept, and its last line is quoted when the bot
fails.  In short (the document has the details):

    host: azul-bot-protocol 1
    bot:  id name Random bot 1.0          (optional; also "id author ...")
    bot:  ready 1
    host: newgame classic 2 0 1234567     (variant, players, the bot's seat, a seed for its own choices)
    host: position azul-state/1 variant=classic ...
    host: moves 1B1 1B3 1BF ...
    host: go 5000                         (milliseconds for this move; 0: no limit)
    bot:  move 1B3
    ...
    host: gameover 31 27                  (final scores by seat)
    host: quit

The position is the state's text (``to_text()``, one line) with its generator replaced by one the bot cannot
know (and ``seed=0``), so that it shows everything a player at the table sees and nothing of the future draws.

Any failure raises ``BotFailure`` with a sentence for the record (``bots.play_match`` turns it into a
forfeit): the program cannot start, does not greet within ``HANDSHAKE_SECONDS``, speaks another protocol
version, exits or closes its output, answers something else than ``move ...`` (``info ...`` lines are allowed
and ignored), or gives no move within the time limit.
"""

import collections
import os
import queue
import re
import subprocess
import sys
import threading
import time

from ._backends import SplitMix64
from .simple_bots import BotFailure


def _kill_group(process):
    """SIGKILL to the process group a bot was started in (POSIX; its own, start_new_session), so that children
    it left behind go too; nothing when the group is gone."""
    if os.name != "posix":
        return
    import signal

    try:
        os.killpg(process.pid, signal.SIGKILL)
    except (OSError, ProcessLookupError):
        pass

__all__ = ["ExternalBot", "PROTOCOL", "PROTOCOL_VERSION", "HANDSHAKE_SECONDS"]

PROTOCOL, PROTOCOL_VERSION = "azul-bot-protocol", 1
HANDSHAKE_SECONDS = 10.0  # from start to "ready"
QUIT_SECONDS = 2.0  # after "quit", before the process is killed
MAX_LINE = 1 << 20  # characters in one line from a bot: a longer one is a protocol failure (memory stays bounded)
STDERR_TAIL = 1 << 16  # bytes of a bot's standard error kept (the last ones): a flood costs no more memory
_QUEUED = 256  # lines read ahead of the host: a bot that floods waits for the host to read them
# The keeper (_botshim.py) that runs each bot on POSIX, so that nothing the bot starts outlives it.
_SHIM = os.path.join(os.path.dirname(os.path.abspath(__file__)), "_botshim.py")
_CANNOT_START = 127  # the keeper's exit status when the bot cannot be started (its reason on standard error)
_TOO_LONG = object()  # the reader's mark for such a line
_SHOWN = 80  # characters of a bad answer quoted in a forfeit


def _show(line):
    return repr(line[:_SHOWN] + ("..." if len(line) > _SHOWN else ""))


class ExternalBot:
    """One external engine process for one game (see the module docstring).

    ``argv``: the command and its arguments; ``spec``: its bot spec (for messages); ``time_limit``: seconds a
    move (None: no limit).  Starting it and the handshake happen here: BotFailure if either fails.  ``name``
    and ``author`` are what the bot said in the handshake (None if it said nothing).
    """

    def __init__(self, argv, spec=None, time_limit=None, handshake_seconds=HANDSHAKE_SECONDS):
        self.argv = list(argv)
        self.spec = spec or "cmd:" + " ".join(self.argv)
        self.time_limit = time_limit
        self.name = self.author = None
        self.seat, self.seed = 0, 0
        self._started_game = False
        self._hidden = SplitMix64(0)
        self._lines = queue.Queue(_QUEUED)
        self._stderr = collections.deque()  # chunks of the last STDERR_TAIL bytes of the bot's standard error
        self._stderr_size = 0
        self._kept = os.name == "posix"  # run by the keeper, in a session of its own
        if not self.argv:
            raise BotFailure("could not be started: no command")
        try:
            # On POSIX the keeper runs the bot in a session of its own and kills whatever the bot leaves behind
            # (which could hold its output open) when the bot exits, the host asks, or the host goes.
            command = [sys.executable, "-I", _SHIM] + self.argv if self._kept else self.argv
            if self._kept:
                _check_startable(self.argv[0])
            self._process = subprocess.Popen(
                command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                encoding="utf-8", errors="replace", bufsize=1, start_new_session=self._kept)
        except OSError as e:
            raise BotFailure("could not be started: %s: %s" % (self.argv[0], e.strerror or e)) from None
        self._reader = threading.Thread(target=self._read_lines, daemon=True)
        self._reader.start()
        self._error_reader = threading.Thread(target=self._read_errors, daemon=True)
        self._error_reader.start()
        try:
            self._handshake(handshake_seconds)
        except BaseException:
            self.close()
            raise

    # -- the protocol ------------------------------------------------------------------------------------

    def _handshake(self, seconds):
        self._send("%s %d" % (PROTOCOL, PROTOCOL_VERSION))
        deadline = time.monotonic() + seconds
        while True:
            line = self._read(deadline, "the handshake (ready) within %g s" % seconds)
            word, _, rest = line.partition(" ")
            if word == "id":
                key, _, value = rest.partition(" ")
                if key in ("name", "author"):
                    setattr(self, key, value.strip() or None)
            elif word == "ready":
                version = rest.strip()
                if version != str(PROTOCOL_VERSION):
                    raise BotFailure("speaks %s version %s; this host speaks version %d"
                                          % (PROTOCOL, _show(version), PROTOCOL_VERSION))
                return
            elif word != "info" and line.strip():
                raise BotFailure("answered %s to the handshake, not 'id ...' or 'ready %d'"
                                      % (_show(line), PROTOCOL_VERSION))

    def reset(self, seat, seed):
        """A new game: the bot's seat and seed go out with ``newgame`` before its first move."""
        self.seat, self.seed = seat, seed
        self._hidden = SplitMix64(seed ^ 0x5EC2E7_0F_DEA15)
        self._started_game = False

    def choose(self, state):
        """Send the position, the legal moves and the time; return the bot's move (notation)."""
        if not self._started_game:
            self._send("newgame %s %d %d %d" % (state.variant, state.players, self.seat, self.seed))
            self._started_game = True
        hidden = state.clone()
        hidden.reseed(self._hidden.next())
        text = re.sub(r"\bseed=[0-9]+", "seed=0", hidden.to_text())
        limit = self.time_limit
        self._send("position %s\nmoves %s\ngo %d" % (text, " ".join(state.legal_moves()),
                                                      0 if limit is None else max(1, int(limit * 1000))))
        deadline = None if limit is None else time.monotonic() + limit
        while True:
            line = self._read(deadline, "a move within the time limit of %g s" % (limit or 0))
            word, _, rest = line.partition(" ")
            if word == "move":
                return rest.strip()
            if word != "info" and line.strip():
                raise BotFailure("answered %s, not 'move MOVE'" % _show(line))

    def game_over(self, state):
        """Tell the bot the final scores."""
        try:
            self._send("gameover %s" % " ".join(str(s) for s in state.scores))
        except BotFailure:
            pass

    def close(self):
        """Send ``quit``, wait ``QUIT_SECONDS`` for the process to exit, then kill it."""
        process = getattr(self, "_process", None)
        if process is None:
            return
        self._process = None
        try:
            if process.poll() is None:
                try:
                    process.stdin.write("quit\n")
                    process.stdin.flush()
                except (OSError, ValueError):
                    pass
            try:
                process.stdin.close()
            except (OSError, ValueError):
                pass
            try:
                process.wait(QUIT_SECONDS)
            except subprocess.TimeoutExpired:
                _stop(process)
        finally:
            _kill_group(process)  # what the bot left running, holding its output
            for reader, pipe in ((getattr(self, "_reader", None), process.stdout),
                                 (getattr(self, "_error_reader", None), process.stderr)):
                if reader is not None:
                    end = time.monotonic() + QUIT_SECONDS
                    while reader.is_alive() and time.monotonic() < end:
                        self._drain()  # a reader waiting to queue a line must not wait for ever
                        reader.join(0.01)
                # (closing a pipe under a reader still blocked in it would wait for ever: then leave it open)
                if reader is None or not reader.is_alive():
                    try:
                        pipe.close()
                    except (OSError, ValueError):
                        pass

    def __del__(self):
        try:
            self.close()
        except Exception:
            pass

    # -- the pipes ---------------------------------------------------------------------------------------

    def _read_lines(self):
        process = self._process
        try:
            while True:
                line = process.stdout.readline(MAX_LINE + 1)
                if not line:
                    break
                if len(line) > MAX_LINE:
                    self._lines.put(_TOO_LONG)
                    return
                self._lines.put(line.rstrip("\r\n"))
        except (OSError, ValueError):
            pass
        self._lines.put(None)

    def _read_errors(self):
        """Keep the last STDERR_TAIL bytes of the bot's standard error."""
        try:
            stream = self._process.stderr.buffer
            while True:
                chunk = stream.read1(1 << 16)
                if not chunk:
                    return
                self._stderr.append(chunk)
                self._stderr_size += len(chunk)
                while self._stderr_size - len(self._stderr[0]) >= STDERR_TAIL:
                    self._stderr_size -= len(self._stderr.popleft())
        except (OSError, ValueError, AttributeError):
            pass

    def _drain(self):
        try:
            while True:
                self._lines.get_nowait()
        except queue.Empty:
            pass

    def _send(self, text):
        process = self._process
        try:
            process.stdin.write(text + "\n")
            process.stdin.flush()
        except (OSError, ValueError):
            raise self._gone() from None

    def _read(self, deadline, waiting_for):
        """The bot's next line, by ``deadline`` (time.monotonic(); None: wait for ever)."""
        try:
            if deadline is not None and time.monotonic() >= deadline:  # lines that keep coming do not stop the clock
                raise queue.Empty
            line = self._lines.get(timeout=None if deadline is None else max(0.0, deadline - time.monotonic()))
        except queue.Empty:
            self._kill()
            raise BotFailure("gave no answer: expected %s" % waiting_for) from None
        if line is None:
            raise self._gone()
        if line is _TOO_LONG:
            self._kill()
            raise BotFailure("sent a line of more than %d characters" % MAX_LINE)
        return line

    def _kill(self):
        process = self._process
        if process is not None and process.poll() is None:
            _stop(process)
        if process is not None:
            _kill_group(process)

    def _gone(self):
        """The BotFailure of a bot whose pipes closed: its exit status and last line on standard error."""
        process = self._process
        status = None
        if process is not None:
            try:
                status = process.wait(QUIT_SECONDS)
            except subprocess.TimeoutExpired:
                self._kill()
        why = ("exited with status %d" % status if status is not None and status >= 0 else
               "was killed by signal %d" % -status if status is not None else "closed its output")
        error_reader = getattr(self, "_error_reader", None)
        if error_reader is not None:
            error_reader.join(0.5)  # the last words on standard error, once it has closed
        last = self._last_error_line()
        if self._kept and status == _CANNOT_START and last.startswith("could not be started: "):
            return BotFailure(last)
        return BotFailure("crashed: %s%s" % (why, ": " + _show(last) if last else ""))

    def error_tail(self):
        """The last bytes (at most STDERR_TAIL) the bot wrote to its standard error, as text."""
        return b"".join(list(self._stderr))[-STDERR_TAIL:].decode("utf-8", "replace")

    def _last_error_line(self):
        lines = [line.strip() for line in self.error_tail()[-2000:].splitlines() if line.strip()]
        return lines[-1] if lines else ""


def _check_startable(program):
    """The OSError that starting ``program`` would give (not found, not executable), raised here: the keeper
    starts the bot, so its own start says nothing about the bot's."""
    import errno
    import shutil

    if os.sep in program or (os.altsep and os.altsep in program):
        if not os.path.exists(program):
            raise FileNotFoundError(errno.ENOENT, os.strerror(errno.ENOENT), program)
        if os.path.isdir(program) or not os.access(program, os.X_OK):
            raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), program)
    elif shutil.which(program) is None:
        raise FileNotFoundError(errno.ENOENT, os.strerror(errno.ENOENT), program)


def _stop(process):
    """Stop the keeper (SIGTERM: it kills the bot and all it started, then exits) or the bot; kill it if it
    has not gone within QUIT_SECONDS."""
    try:
        process.terminate()
        process.wait(QUIT_SECONDS)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
    except OSError:
        pass
