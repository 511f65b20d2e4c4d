"""Where games are played: in this process, in local worker processes, or on a Ray cluster.

An executor runs jobs (a top-level function and its arguments, one whole game each) and yields their results in
job order, whatever the number of workers and whichever worker finishes first.  A game depends only on its own
arguments (its deal seed, and the bot seeds made from it), so every executor gives the same results, in the same
order, and the commands built on them (``tournament``, ``record``, ``selfplay``) write the same bytes.

- ``LocalExecutor(workers)``: ``workers`` processes of this machine (``multiprocessing``, spawned); 1 plays in
  this process.
- ``RayExecutor(address, workers)``: tasks on Ray (the optional extra ``azul-engine[ray]``).  ``address`` None
  starts a local Ray instance with ``workers`` CPUs (default: every core) that ends with the executor;
  ``"auto"``, ``"HOST:PORT"`` or ``"ray://HOST:PORT"`` joins a running cluster (``ray start --head``), where
  ``workers`` caps the tasks in flight (default: the cluster's CPUs).  Every node needs the same azul-engine
  installed.  A task is a chunk of consecutive games; a task whose worker dies (a killed process, a lost node) is
  run again by Ray, up to ``RETRIES`` times, and its results still arrive once, in their place.  Closing the
  executor, or an exception in the consumer (Ctrl-C's KeyboardInterrupt), cancels the tasks still running.

``executor(ray=..., workers=...)`` picks one; ``Executor.map(fn, jobs)`` is the one method the commands use.

>>> from azul_engine import distributed
>>> with distributed.LocalExecutor(1) as ex:
...     list(ex.map(pow, [(2, 3), (3, 2)]))
[8, 9]
"""

import collections
import contextlib
import itertools
import multiprocessing
import os
import signal
import sys
import threading

__all__ = ["Executor", "LocalExecutor", "RayExecutor", "WorkerDied", "executor", "ray_available", "chunk_size", "RETRIES",
           "WORKERS_PER_CORE", "check_workers", "default_workers"]

WORKERS_PER_CORE = 4  # local worker processes at most per core: more only costs memory
RETRIES = 5  # times Ray runs a task again after its worker died
IN_FLIGHT_PER_WORKER = 4  # tasks submitted ahead per worker: enough to keep every worker busy, few to cancel
MAX_CHUNK = 64  # games at most in one task
REORDER = 4  # on Ray, tasks held at most (running, or finished and waiting their turn) per task in flight


def chunk_size(jobs, workers):
    """Games per task: one, unless there are many games per worker, then enough that a task's overhead is small
    against its games while every worker still gets ``IN_FLIGHT_PER_WORKER`` tasks or more (at most
    ``MAX_CHUNK``).  The chunking never changes a result, only how they are batched."""
    return max(1, min(MAX_CHUNK, jobs // (workers * IN_FLIGHT_PER_WORKER * 4)))


def _run_chunk(fn, jobs):
    """One task: the results of ``fn(*job)`` for each job of the chunk."""
    return [fn(*job) for job in jobs]


class WorkerDied(RuntimeError):
    """A local worker process died while it played a job (it was killed, or a bot ended its process).
    ``index``: the job's place in the map's jobs (None if it could not be told); ``how``: "killed by signal 9",
    "exited with status 3"."""

    def __init__(self, index, how, last=None):
        self.index, self.how, self.last = index, how, last
        what = ("a game" if index is None else "game %d" % (index + 1) if last in (None, index) else
                "games %d-%d" % (index + 1, last + 1))
        super().__init__("%s: %s worker process died (%s)" % (what, "its" if last in (None, index) else "their",
                                                              how))


_BOARD = None  # in a worker: the shared board of (pid, job index) slots; _SLOT: this worker's slot
_SLOT = None
_SLOTS_PER_WORKER = 8  # slots for the workers the pool starts in place of dead ones


def _run_local(item):
    fn, jobs, first = item
    if _SLOT is None:
        return _run_chunk(fn, jobs)
    out = []
    for k, job in enumerate(jobs):
        _BOARD[2 * _SLOT + 1] = first + k  # the job this worker plays, for the parent if this process dies
        out.append(fn(*job))
    _BOARD[2 * _SLOT + 1] = -1
    return out


def _chunks(fn, jobs, size):
    """``(fn, chunk, index of its first job)`` for consecutive chunks of ``size`` jobs, taken from ``jobs`` (any
    iterable, read as the chunks are wanted: a generator of jobs is never held whole)."""
    jobs, first = iter(jobs), 0
    while True:
        chunk = list(itertools.islice(jobs, size))
        if not chunk:
            return
        yield fn, chunk, first
        first += len(chunk)


def _count(jobs, count):
    """How many jobs: ``count`` if given (for a generator), else ``len(jobs)``."""
    if count is not None:
        return count
    try:
        return len(jobs)
    except TypeError:
        raise TypeError("jobs without a length (a generator) need count=") from None


def _how(exitcode):
    return "killed by signal %d" % -exitcode if exitcode < 0 else "exited with status %d" % exitcode


class Executor:
    """Runs jobs; ``workers`` (how many run at once) and ``where`` (a few words: "local", "ray 127.0.0.1:6379")
    describe it.  A context manager: leaving the block closes it."""

    workers = 1
    where = "local"
    remote = False  # True: the jobs run on other machines (Ray), which reach only what is passed or shared

    def map(self, fn, jobs, chunksize=None, count=None):
        """Yield ``fn(*job)`` for each job of ``jobs`` (argument tuples: a sequence, or any iterable with
        ``count`` its length; a generator is read as the work goes, never held whole), in order.  ``fn`` must be
        a top-level function (workers import it by name).  ``chunksize``: jobs per task (default
        ``chunk_size``)."""
        raise NotImplementedError

    def close(self):
        """Stop the workers (cancelling anything still running)."""

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False


def _worker_start(board=None, taken=None):
    """In each worker process: Ctrl-C is the parent's to handle. A terminal sends SIGINT to the whole process
    group; the workers ignore it, the parent stops and terminates them, so no worker prints a traceback or
    outlives the run. A worker starts with SIGINT blocked (``_start_pool``): an interrupt that came while it
    started is pending, and is dropped as SIGINT is ignored here, before it is let through. ``board``,
    ``taken``: the slots where each worker says which job it plays (its pid and the job's index), so that the
    parent can name the game of a worker that died."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    unblock = getattr(signal, "pthread_sigmask", None)
    if unblock:
        unblock(signal.SIG_UNBLOCK, {signal.SIGINT})
    global _BOARD, _SLOT
    if board is not None:
        with taken.get_lock():
            slot = taken.value
            taken.value += 1
        if 2 * slot + 1 < len(board):
            _BOARD, _SLOT = board, slot
            board[2 * slot], board[2 * slot + 1] = os.getpid(), -1


def _start_pool(workers):
    """The worker pool, started with SIGINT blocked in this thread. The workers inherit the blocked signal across
    exec, so that a terminal's Ctrl-C, which goes to the whole process group, waits in a worker that is starting
    until ``_worker_start`` ignores it (it never raises there). Here, an interrupt while the workers start is
    pending in this thread, or taken by another thread (numpy's, say: a signal blocked in one thread goes to
    another) and only noted by the handler put in place meanwhile; either way it is raised once the pool exists,
    which is then terminated (every worker it started) before the interrupt goes on. (SIGINT was ignored here
    while the workers started, for them to inherit: an interrupt that another thread took then was lost, and
    the run went on; a loaded CI run saw it.)"""
    try:
        # Started now, not inside Pool(): starting it blocks and unblocks SIGINT itself.
        from multiprocessing import resource_tracker
        resource_tracker.ensure_running()
    except (ImportError, AttributeError):  # no resource tracker on this platform
        pass
    block = getattr(signal, "pthread_sigmask", None)
    main = threading.current_thread() is threading.main_thread()
    taken_meanwhile = []  # the interrupts another thread took while the workers started
    held = block(signal.SIG_BLOCK, {signal.SIGINT}) if block else None
    handler = None
    if main and signal.getsignal(signal.SIGINT) is not None:  # None: a handler set outside Python, left alone
        handler = signal.signal(signal.SIGINT, lambda signum, frame: taken_meanwhile.append(signum))
    context = multiprocessing.get_context("spawn")
    before = set(context.active_children())
    pool = None
    try:
        try:
            board = context.Array("q", [0] * (2 * workers * _SLOTS_PER_WORKER), lock=False)
            taken = context.Value("q", 0)
            pool = context.Pool(workers, initializer=_worker_start, initargs=(board, taken))
            pool.azul_board = board
        finally:
            if handler is not None:
                signal.signal(signal.SIGINT, handler)
                if taken_meanwhile:
                    signal.raise_signal(signal.SIGINT)  # again, for the handler that was in place
            if block:
                block(signal.SIG_SETMASK, held)  # a pending interrupt is raised here, by pthread_sigmask
    except BaseException:
        if pool is not None:
            _terminate(pool)
        else:  # stopped inside Pool() (an error there): the workers it started
            for process in set(context.active_children()) - before:
                process.kill()
                process.join(5)
        raise
    return pool


def default_workers():
    """Local worker processes when none are asked for: one per core."""
    return os.cpu_count() or 1


def check_workers(workers):
    """ValueError unless ``workers`` is None or a whole number from 1 to ``WORKERS_PER_CORE`` per core."""
    cores = os.cpu_count() or 1
    limit = max(WORKERS_PER_CORE, WORKERS_PER_CORE * cores)
    if workers is not None and (isinstance(workers, bool) or not isinstance(workers, int)
                                or not 1 <= workers <= limit):
        raise ValueError("workers must be a whole number from 1 to %d (%d per core), not %r"
                         % (limit, WORKERS_PER_CORE, workers))


class LocalExecutor(Executor):
    """``workers`` processes on this machine (default: every core; 1: this process), started at the first
    ``map`` that has work for more than one of them."""

    def __init__(self, workers=None):
        check_workers(workers)
        self.workers = workers or default_workers()
        self._pool = None

    def map(self, fn, jobs, chunksize=None, count=None):
        count = _count(jobs, count)
        workers = max(1, min(self.workers, count))
        size = chunksize or chunk_size(count, workers)
        if workers == 1:
            results = map(_run_local, _chunks(fn, jobs, size))
        else:
            if self._pool is None:
                self._pool = _start_pool(self.workers)
            results = _polled(self._pool.imap(_run_local, _chunks(fn, jobs, size)), self._pool)  # in order
        try:
            for chunk in results:
                yield from chunk
        except BaseException:
            self.close()  # Ctrl-C or a failed game: the other workers' games are not wanted
            raise

    def close(self):
        pool, self._pool = self._pool, None
        if pool is not None:
            _terminate(pool)


def _terminate(pool, patience=1.0, limit=30.0):
    """``pool.terminate()`` and ``join()``, which cannot hang. CPython's ``Pool.terminate`` puts a sentinel on
    the result queue and waits for its task handler, which puts another: a worker that holds that queue's lock
    (killed while it was putting a result, or busy putting one that nobody reads) stops both for ever (it hung
    ``record -o /dev/full`` in a loaded test run). When the pool has not finished after ``patience`` seconds,
    every worker is killed (terminate would kill them anyway) and the lock a dead one held is released; after
    ``limit`` seconds the pool's threads are left behind (daemon threads: they do not keep the process alive)."""
    finished = threading.Event()

    def stop():
        pool.terminate()
        pool.join()
        finished.set()

    threading.Thread(target=stop, name="azul-pool-terminate", daemon=True).start()
    waited = 0.0
    while not finished.wait(patience) and waited < limit:
        waited += patience
        workers = list(getattr(pool, "_pool", ()))
        for process in workers:
            if process.exitcode is None:
                process.kill()
        for process in workers:
            process.join(patience)
        lock = getattr(getattr(pool, "_outqueue", None), "_wlock", None)
        if lock is not None and all(process.exitcode is not None for process in workers):
            try:
                lock.release()
            except ValueError:  # it was not held
                pass


def _polled(results, pool=None, every=0.25):
    """The results of an ``imap``, waited for ``every`` seconds at a time: a thread waiting on a lock without a
    timeout only wakes for a signal sent to that thread, and a terminal's SIGINT may go to any thread of the
    process (numpy's or pyarrow's, say), so a wait without a timeout could miss Ctrl-C. Meanwhile the pool's
    workers are watched: the pool starts a new worker in place of one that dies, but the dead one's task is
    lost and its result would be waited for for ever, so a dead worker is a ``WorkerDied`` naming its game."""
    seen = {}
    while True:
        if pool is not None:
            for process in list(getattr(pool, "_pool", ())):
                seen.setdefault(process.pid, process)
            for pid, process in seen.items():
                if process.exitcode is not None:
                    raise WorkerDied(_job_of(pool, pid), _how(process.exitcode))
        try:
            yield results.next(every)
        except multiprocessing.TimeoutError:
            continue
        except StopIteration:
            return


def _job_of(pool, pid):
    """The job the worker ``pid`` said it played, or None."""
    board = getattr(pool, "azul_board", None)
    if board is None:
        return None
    for slot in range(len(board) // 2):
        if board[2 * slot] == pid:
            return board[2 * slot + 1] if board[2 * slot + 1] >= 0 else None
    return None


def ray_available():
    """True if the ``ray`` package imports here."""
    try:
        import ray  # noqa: F401
    except ImportError:
        return False
    return True


def _import_ray():
    try:
        import ray
    except ImportError:
        raise ImportError("--ray needs the ray package: pip install 'azul-engine[ray]'") from None
    return ray


PROBE_SECONDS = 10.0


def _loopback():
    """Make a Ray instance started from this process listen on the loopback address only: a local instance is
    this machine's, no other should reach it.  Ray reads this setting (a single-machine mode, its default on
    macOS and Windows) when it is imported, so it only works before the first ``import ray``."""
    os.environ.setdefault("RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER", "0")
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")  # an instance of the command's own reports nowhere


def _probe(address):
    """ConnectionError now if ``HOST:PORT`` (or ``ray://HOST:PORT``) takes no TCP connection, instead of Ray's
    own minutes of retries; ``auto`` is left to Ray, which fails at once when it finds no cluster."""
    import socket

    text = address[len("ray://"):] if address.startswith("ray://") else address
    host, sep, port = text.rpartition(":")
    if address == "auto" or not sep:
        return
    if not (port.isascii() and port.isdigit()) or not 0 < int(port) < 65536:
        raise ValueError("--ray %s: give auto, HOST:PORT or ray://HOST:PORT" % address)
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=PROBE_SECONDS).close()
    except OSError as e:
        raise ConnectionError("cannot reach the Ray cluster at %s: %s" % (address, e.strerror or e)) from None


def _token_auth(ray):
    """Before joining a cluster at an explicit address: turn on Ray's token authentication if this machine has a
    token (``RAY_AUTH_TOKEN``, ``RAY_AUTH_TOKEN_PATH`` or ``~/.ray/auth_token``) and ``RAY_AUTH_MODE`` is not
    set. Ray does so itself only for a cluster it finds on its own (``auto``); a cluster started by ``ray start``
    on a machine with a token (which any earlier local ``--ray`` run writes) requires it. Returns whether the
    token is used (None: this Ray has no token authentication)."""
    try:
        from ray._private.authentication.authentication_token_setup import (
            maybe_enable_token_auth_if_token_available)
    except ImportError:  # a Ray from before token authentication
        return None
    try:
        return bool(maybe_enable_token_auth_if_token_available(warn_if_disabled=False))
    except Exception:  # an unreadable token: Ray's own check at ray.init says what is wrong
        return None


def _auth_hint(token):
    if token is None:
        return ""
    if token:
        return (" (this machine's Ray token was sent: if the cluster uses token authentication, its token must be "
                "the cluster's: copy ~/.ray/auth_token from the head node, or set RAY_AUTH_TOKEN)")
    return (" (no Ray token on this machine: a cluster with token authentication needs its token here: copy "
            "~/.ray/auth_token from the head node, or set RAY_AUTH_TOKEN to it)")


def _notices_to_stderr():
    """Ray's notices about the cluster (a worker that died, a task that will be retried: "(raylet) A worker died
    or was killed ...") go to stderr. A driver prints them from a thread of Ray's own, to stdout, whatever
    log_to_driver says; a command's stdout is its output (a table, records). Done by wrapping Ray's printer, a
    module function the thread looks up at each message; a Ray without it is left as it is."""
    try:
        from ray._private import worker
    except ImportError:
        return
    printer = getattr(worker, "print_to_stdstream", None)
    if printer is None or getattr(printer, "_azul_to_stderr", False):
        return

    def to_stderr(data, *args, **kwargs):
        if isinstance(data, dict) and data.get("pid") == "raylet":
            data = dict(data, is_err=True)
        return printer(data, *args, **kwargs)

    to_stderr._azul_to_stderr = True
    worker.print_to_stdstream = to_stderr


_REMOTE: dict = {}  # the remote function, made once per process (ray.remote pickles nothing until the first call)


def _remote(ray):
    if "chunk" not in _REMOTE:
        # max_retries: a dead worker's task runs again; retry_exceptions False: a game that raises is an error,
        # not a fault (it would raise again).
        _REMOTE["chunk"] = ray.remote(num_cpus=1, max_retries=RETRIES, retry_exceptions=False)(_run_chunk)
    return _REMOTE["chunk"]


class RayExecutor(Executor):
    """Tasks on Ray: a local instance (``address`` None) or a running cluster (see the module's text).  If this
    process is already connected to Ray (``ray.init`` was called), that connection is used and left open."""

    remote = True

    def __init__(self, address=None, workers=None):
        if address is None and "ray" not in sys.modules:
            _loopback()
        ray = _import_ray()
        if workers is not None and (isinstance(workers, bool) or not isinstance(workers, int) or workers < 1):
            raise ValueError("workers must be a positive whole number, not %r" % (workers,))
        self._ray, self._owned = ray, False
        if not ray.is_initialized():
            import logging
            # ERROR: Ray's start-up notes (a token made for the local instance, ...) are not the command's output;
            # nor are the workers' own lines (log_to_driver would copy them, coloured, to the command's stdout,
            # dozens after a node loss): a game's error still comes back with its task.
            options = dict(logging_level=logging.ERROR, log_to_driver=False, include_dashboard=False)
            token = None
            if address is None:
                # "local": always a new instance, even where one runs already (ray start --head, another
                # command's), which a plain ray.init() would join instead.
                options.update(address="local", num_cpus=workers or os.cpu_count() or 1)
            else:
                _probe(address)
                options["address"] = address
                options.pop("include_dashboard")  # a setting of the cluster's head, not of a driver
                token = _token_auth(ray)
            try:
                if address is None:
                    ray.init(**options)
                else:
                    # Joining: a cluster that refuses the connection makes Ray's core log a line a second for
                    # about 20 s before ray.init gives up with a message that drops the cause; the command
                    # says it in one line instead (below).
                    with _quiet_stderr():
                        ray.init(**options)
            except ConnectionError as e:
                raise ConnectionError("cannot join the Ray cluster at %s: %s%s" % (address, e, _auth_hint(token))
                                      ) from None
            self._owned = True
            _notices_to_stderr()
        cpus = int(ray.cluster_resources().get("CPU", 0)) or 1
        capped = bool(workers) and address is not None
        self.workers = min(workers, cpus) if capped else cpus
        # Tasks in flight: a few a CPU, so that none waits for the driver; on a cluster with --workers, exactly
        # that many, so that no more run at once.
        self._window = self.workers if capped else max(2, self.workers * IN_FLIGHT_PER_WORKER)
        context = ray.get_runtime_context()
        gcs = getattr(context, "gcs_address", None)
        self.where = "ray %s" % gcs if gcs else "ray"
        self._running = []  # the submitted, uncollected tasks of each map in progress
        self._abandoned = False  # a map stopped (Ctrl-C, an error) with tasks still running

    def map(self, fn, jobs, chunksize=None, count=None):
        ray, remote = self._ray, _remote(self._ray)
        count = _count(jobs, count)
        size = chunksize or chunk_size(count, self.workers)
        chunks = _chunks(fn, jobs, size)
        window = self._window
        # Tasks are collected as they finish, whichever that is, and their results given out in order: a result
        # that comes before its turn waits in ``early``. At most ``window`` tasks run, and at most REORDER x
        # window are held in all (running or waiting their turn), so that one slow task lets the others go on
        # without the driver holding an unbounded number of results.
        held = window * REORDER
        pending = {}  # task -> its chunk's number
        self._running.append(pending)
        spans = {}  # chunk number -> (first job, last job), for the message if the task is lost
        early = {}  # chunk number -> results, finished before their turn
        submitted, turn = 0, 0

        lost = tuple(getattr(ray.exceptions, name) for name in (
            "WorkerCrashedError", "NodeDiedError", "ObjectLostError", "OwnerDiedError", "LocalRayletDiedError")
            if hasattr(ray.exceptions, name))

        def collect(ref):
            number = pending.pop(ref)
            try:
                early[number] = ray.get(ref)
            except lost as e:  # Ray's retries ran out: the games and the cause, not Ray's traceback
                first, last = spans[number]
                raise WorkerDied(first, "on Ray, %d tries: %s" % (RETRIES + 1, type(e).__name__), last) from None

        try:
            more = True
            while True:
                while more and len(pending) < window and len(pending) + len(early) < held:
                    item = next(chunks, None)
                    if item is None:
                        more = False
                        break
                    item_fn, chunk, first = item
                    pending[remote.remote(item_fn, chunk)] = submitted
                    spans[submitted] = (first, first + len(chunk) - 1)
                    submitted += 1
                if turn in early:
                    del spans[turn]
                    turn += 1
                    yield from early.pop(turn - 1)
                    continue
                if not pending:
                    break
                # Waited for in short steps, so that Ctrl-C is seen at once whichever thread the signal went to
                # (see _polled); then every task finished meanwhile is taken, not only the first.
                refs = list(pending)
                if not ray.wait(refs, num_returns=1, timeout=0.25, fetch_local=True)[0]:
                    continue
                for ref in ray.wait(refs, num_returns=len(refs), timeout=0, fetch_local=True)[0]:
                    collect(ref)
        finally:
            # None left after a whole run. After Ctrl-C or an error, those in flight: ended by disconnecting when
            # this executor made the connection (close(): the cluster stops the tasks of a driver that left),
            # else cancelled one by one.
            if pending:
                self._abandoned = True  # close() disconnects quietly: see _quiet_stderr
            if not self._owned:
                self._cancel(pending)
            self._running.remove(pending)

    def _cancel(self, pending):
        while pending:
            ref, _ = pending.popitem()
            try:
                self._ray.cancel(ref)  # a queued task is dropped; a running one gets KeyboardInterrupt
            except Exception:  # finished meanwhile, or the cluster is gone: nothing left to cancel
                pass

    def cancel(self):
        """Cancel the tasks submitted and not yet collected."""
        for pending in self._running:
            self._cancel(pending)

    def close(self):
        if self._owned:
            # Disconnecting ends this driver's job: Ray stops its tasks. Cancelling them one by one first would
            # race with tasks that are just finishing, on which Ray 2.60's driver can abort ("Tried to complete
            # task that was not pending").
            self._owned = False
            abandoned, self._abandoned = self._abandoned or any(self._running), False
            self._running.clear()
            if abandoned:
                with _quiet_stderr():
                    self._ray.shutdown()
            else:
                self._ray.shutdown()
        else:
            self.cancel()


@contextlib.contextmanager
def _quiet_stderr():
    """File descriptor 2 on the null device meanwhile (the whole process's: every thread's output too). Only for
    Ray's shutdown after a Ctrl-C or an error with tasks of this driver still running, which makes its C++ core
    log their failure ("Failed to push error to driver"): that tells the command's user nothing, and the
    command's own message comes after."""
    try:
        sys.stderr.flush()
        saved = os.dup(2)
    except (OSError, ValueError, AttributeError):  # no file descriptor 2 to save: nothing to quiet
        saved = None
    if saved is None:
        yield
        return
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        try:
            os.dup2(devnull, 2)
        finally:
            os.close(devnull)
        yield
    finally:
        try:
            sys.stderr.flush()
        except (OSError, ValueError):
            pass
        os.dup2(saved, 2)
        os.close(saved)


def executor(ray=None, workers=None):
    """The executor for a command's ``--ray`` and ``--workers``: ``ray`` False or None for local worker
    processes, True (``--ray`` without an address) for a new local Ray instance, or an address (``"auto"``,
    ``"HOST:PORT"``, ``"ray://HOST:PORT"``) to join a cluster."""
    if ray is None or ray is False:
        return LocalExecutor(workers)
    return RayExecutor(None if ray is True else ray, workers)


# -- command line ------------------------------------------------------------------------------------------------

RAY_HELP = ("play on Ray: without ADDRESS on a new local Ray instance (with --workers CPUs, default every core); "
            "'auto', HOST:PORT or ray://HOST:PORT joins a running cluster (--workers then caps the tasks in "
            "flight). Needs azul-engine[ray]")


def add_ray_argument(parser):
    """``--ray [ADDRESS]`` on a command's parser (``args.ray``: None, True without an address, or the address)."""
    parser.add_argument("--ray", nargs="?", const=True, default=None, metavar="ADDRESS", help=RAY_HELP)


def from_args(args):
    """The executor of a command's ``--ray`` and ``--workers``."""
    return executor(args.ray, args.workers)


def summary(games, seconds, workers, where):
    """One line: games, time, games per second, workers and where they ran."""
    rate = games / seconds if seconds > 0 else float("inf")
    return "%d game%s in %.1f s, %.2f games/s, %d worker%s (%s)" % (
        games, "" if games == 1 else "s", seconds, rate, workers, "" if workers == 1 else "s", where)
