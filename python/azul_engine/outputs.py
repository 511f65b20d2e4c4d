"""The files the commands write (``record -o``, ``tournament -o``, ``replay -o``, ``picture -o``).

A file the user already has is never replaced without ``--force`` (``mode="replace"``) and never added to
without ``--append`` (``mode="append"``); refusing is an ``OutputExists`` (an OSError naming the file) raised
before any work starts. An empty file counts as none (there is nothing in it to lose, and a run killed before its
first line leaves one). A replaced file is written to a temporary file beside it, ``.NAME.XXXXXXXX.partial``,
renamed over the path only when the new file is complete: whatever stops the run before (a full disk, Ctrl-C,
SIGTERM, SIGKILL), the old file stays whole. A new file of lines is written in place (it can be followed as it
grows), and an appended one is added to in place: there an interrupt keeps the whole lines written so far, and a
run interrupted before its first line leaves no file, or the file as it found it. The command line turns SIGTERM
into an interrupt (``__main__.main``), so that it cleans up as for Ctrl-C; a temporary file left by a run that was
killed (SIGKILL, a crash) is removed by the next run that writes the same path: each run holds a lock on its
own temporary file (``fcntl.flock``, where there is one), which the system frees when the run ends, however it
ends. Paths that are not regular files (a pipe, ``/dev/stdout``) are written in place.

>>> import os, tempfile
>>> path = os.path.join(tempfile.mkdtemp(), "games.jsonl")
>>> with LineWriter(path) as f:
...     f.write_line('{"a": 1}')
>>> LineWriter(path)
Traceback (most recent call last):
    ...
azul_engine.outputs.OutputExists: [Errno 17] it already exists (--force replaces it, --append adds to it): '...'
>>> with LineWriter(path, mode="append") as f:
...     f.write_line('{"a": 2}')
>>> open(path).read().splitlines()
['{"a": 1}', '{"a": 2}']
"""

from __future__ import annotations

import argparse
import errno
import os
import re
import stat
import tempfile
from types import TracebackType
from typing import BinaryIO, Literal, Optional, Tuple, Type, Union

try:
    import fcntl
except ImportError:  # Windows: no locks; a killed run's temporary file stays there (it blocks nothing)
    fcntl = None  # type: ignore[assignment]

# A path as open() takes it.
_Path = Union[str, "os.PathLike[str]"]

__all__ = ["MODES", "OutputExists", "LineWriter", "write_text", "check", "add_arguments", "mode_of"]

MODES = ("new", "replace", "append")
_EXISTS = "it already exists (--force replaces it%s)"


class OutputExists(FileExistsError):
    """An output path that already holds a file, written without ``--force`` (or ``--append``)."""


def add_arguments(parser: argparse.ArgumentParser, append: bool = True) -> None:
    """``--force`` (and with ``append``, ``--append``) on a command's parser; ``mode_of(args)`` reads them."""
    parser.add_argument("--force", action="store_true", help="replace the output file if it exists")
    if append:
        parser.add_argument("--append", action="store_true", help="add to the output file if it exists")


def mode_of(args: argparse.Namespace) -> str:
    """The mode the command line asks for; ValueError for both --force and --append."""
    force, append = getattr(args, "force", False), getattr(args, "append", False)
    if force and append:
        raise ValueError("give --force (replace the file) or --append (add to it), not both")
    return "replace" if force else "append" if append else "new"


def _existing(path: _Path) -> Optional[os.stat_result]:
    """os.stat of path, or None when nothing is there."""
    try:
        return os.stat(path)
    except FileNotFoundError:
        return None


def check(path: _Path, mode: str = "new", append: bool = True) -> None:
    """Raise now what writing ``path`` in ``mode`` would raise at its start (OutputExists for a file that exists
    in mode "new", IsADirectoryError): for a command that has slow work to do before it writes.  ``append``:
    whether the command can add to the file (False for a page, written whole: its message offers --force only)."""
    _check(path, mode, append)


def _check(path: _Path, mode: str, append_allowed: bool) -> Optional[os.stat_result]:
    if mode not in MODES:
        raise ValueError("mode must be one of %s, not %r" % (", ".join(MODES), mode))
    st = _existing(path)
    if st is not None and stat.S_ISDIR(st.st_mode):
        raise IsADirectoryError(errno.EISDIR, "it is a directory", path)
    if st is not None and stat.S_ISREG(st.st_mode) and st.st_size and mode == "new":
        raise OutputExists(errno.EEXIST, _EXISTS % (", --append adds to it" if append_allowed else ""), path)
    return st


def _lock(fd: int, wait: bool) -> bool:
    """Take the lock a run holds on its temporary file while it writes it (without ``wait``: only if it is
    free); True when taken, or when the system has no such locks."""
    if fcntl is None:
        return True
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | (0 if wait else fcntl.LOCK_NB))
    except BlockingIOError:
        return False
    except OSError:  # a file system without locks: written without one, and nothing is swept there
        return wait
    return True


def _sweep(folder: str, name: str) -> None:
    """Remove the temporary files of ``name`` that runs killed while writing it left in ``folder`` (a temporary
    file whose lock is free: its run has ended); those of runs still writing are locked, and stay."""
    if fcntl is None:
        return
    pattern = re.compile(re.escape("." + name + ".") + r"[a-z0-9_]{8}\.partial\Z")
    try:
        names = [n for n in os.listdir(folder) if pattern.match(n)]
    except OSError:
        return
    for leftover in names:
        path = os.path.join(folder, leftover)
        try:
            fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
        except OSError:
            continue
        try:
            if _lock(fd, wait=False) and os.path.samestat(os.fstat(fd), os.lstat(path)):
                os.unlink(path)
        except OSError:
            pass
        finally:
            os.close(fd)


def _temporary(path: _Path, st: Optional[os.stat_result]) -> Tuple[int, str]:
    """A new temporary file beside path, with the permissions the file would get (the old file's, if any), locked
    for as long as it is open; first, the temporary files of path that killed runs left are removed."""
    folder, name = os.path.split(os.path.abspath(path))
    _sweep(folder, name)
    umask = os.umask(0)
    os.umask(umask)
    while True:
        try:
            fd, temp = tempfile.mkstemp(prefix="." + name + ".", suffix=".partial", dir=folder)
        except OSError as e:  # a missing or read-only folder: named by the path asked for, not the temporary one
            raise OSError(e.errno, e.strerror, path) from None
        try:
            _lock(fd, wait=True)
            # Another run's sweep may have taken it for a killed run's between mkstemp and the lock: then again.
            if os.path.samestat(os.fstat(fd), os.lstat(temp)):
                break
        except FileNotFoundError:
            pass
        except BaseException:
            os.close(fd)
            _unlink(temp)
            raise
        os.close(fd)
    try:
        os.chmod(temp, stat.S_IMODE(st.st_mode) if st is not None else 0o666 & ~umask)
    except BaseException:
        os.close(fd)
        _unlink(temp)
        raise
    return fd, temp


def _unlink(path: str) -> None:
    try:
        os.unlink(path)
    except OSError:
        pass


class LineWriter:
    """A file of lines written one whole line at a time, for outputs that an interrupt may stop.

    ``mode``: ``"new"`` (the default: an existing file, unless empty, is an ``OutputExists``), ``"replace"`` or
    ``"append"``. ``write_line(text)`` writes ``text`` and its line end at once, unbuffered. When the ``with``
    block ends on an exception (Ctrl-C's KeyboardInterrupt, SIGTERM's in the command line, a full disk), a
    replaced file stays as it was (the new one was not complete), and a new or appended file is cut back to its
    last whole line, so that every line in it is complete (a new one is kept only if it has a line). ``lines``
    counts the lines written.
    """

    def __init__(self, path: _Path, mode: str = "new") -> None:
        st = _check(path, mode, True)
        self.path, self.lines = path, 0
        self._temp: Optional[str] = None
        self._file: BinaryIO
        if mode == "append" and st is not None and stat.S_ISREG(st.st_mode) and st.st_size:
            with open(path, "rb") as f:
                f.seek(-1, os.SEEK_END)
                if f.read(1) != b"\n":
                    raise OSError(errno.EINVAL, "it does not end with a whole line: cannot add to it", path)
        self._new = st is None
        if st is None:  # nothing to keep safe: written in place, so that it can be followed as it grows
            self._file = open(path, "xb", buffering=0)
        elif stat.S_ISREG(st.st_mode):
            if mode == "append" or mode == "new":  # (a new one: an empty file, in place, as it was found if cut)
                self._file = open(path, "ab", buffering=0)
            else:  # replaced: the old file stays whole until the new one is
                fd, self._temp = _temporary(path, st)
                self._file = open(fd, "wb", buffering=0)
        else:  # a pipe, a device: in place
            self._file = open(path, "ab" if mode == "append" else "wb", buffering=0)
        try:
            self._size = self._start = self._file.seek(0, os.SEEK_END) if self._file.seekable() else 0
        except OSError:
            self._size = self._start = 0

    def write_line(self, text: str) -> None:
        """Write ``text`` and a line end; an OSError (a full disk) names the file."""
        data = memoryview((text + "\n").encode("utf-8"))
        done = 0
        try:
            while done < len(data):
                done += self._file.write(data[done:])
        except OSError as e:
            raise OSError(e.errno, e.strerror, self.path) from e
        self._size += len(data)
        self.lines += 1

    def close(self, cut: bool = False) -> None:
        """Close the file; a replacement complete (no ``cut``) is put in place of the old file. ``cut``: the run
        did not end as it should: a replacement is dropped (the old file stays as it was), and a file written in
        place loses anything after its last whole line (a new one, with no line, is removed)."""
        if self._file.closed:
            return
        temp, self._temp = self._temp, None
        try:
            if temp is not None:
                if not cut:
                    os.fsync(self._file.fileno())  # on the disk before it replaces the old file
                    os.replace(temp, self.path)  # before the file is closed: its lock is held until then
                    temp = None
            elif cut:
                try:
                    self._file.truncate(self._size)
                except OSError:  # not a regular file (a pipe, a device): nothing to cut back
                    pass
        finally:
            self._file.close()
            if temp is not None:
                _unlink(temp)  # not complete, or not put in place: the old file stays as it was
            elif self._new and cut and not self.lines:
                _unlink(os.fspath(self.path))  # made by this run, which failed before its first line

    def __enter__(self) -> LineWriter:
        return self

    def __exit__(self, kind: Optional[Type[BaseException]], value: Optional[BaseException],
                 traceback: Optional[TracebackType]) -> Literal[False]:
        self.close(cut=kind is not None)
        return False


def write_text(path: _Path, text: str, mode: str = "new") -> None:
    """Write ``text`` to ``path`` (UTF-8, ``\\n`` line ends) through a temporary file renamed at the end: an
    existing file (unless empty) is an ``OutputExists`` unless ``mode="replace"``, and stays whole if the write
    fails."""
    if mode == "append":
        raise ValueError("a picture or page is written whole: --append does not apply")
    st = _check(path, mode, False)
    data = text.encode("utf-8")
    if st is not None and not stat.S_ISREG(st.st_mode):
        with open(path, "wb") as f:
            f.write(data)
        return
    fd, temp = _temporary(path, st)
    try:
        with open(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
            os.replace(temp, path)  # before the file is closed: its lock is held until then
    except BaseException:
        _unlink(temp)
        raise
