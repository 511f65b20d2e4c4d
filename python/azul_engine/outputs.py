"""The files the commands write (``record -o``, ``tournament -o``, ``replay -o``, ``picture -o``).

A file the user already has is never replaced without ``--force`` (``mode="replace"``) and never added to
without ``--append`` (``mode="append"``); refusing is an ``OutputExists`` (an OSError naming the file) raised
before any work starts. A replaced file is written to a temporary file beside it and renamed over the path at
the end, so that the old file stays whole until the new one is; a new file of lines is written in place (it can
be followed as it grows). An interrupt keeps the whole lines written so far, and a run interrupted before its
first line leaves the old file, or no file, as it found it. Paths that are not regular files (a pipe,
``/dev/stdout``) are written in place.

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
import stat
import tempfile
from types import TracebackType
from typing import BinaryIO, Literal, Optional, Tuple, Type, Union

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
    if st is not None and stat.S_ISREG(st.st_mode) and mode == "new":
        raise OutputExists(errno.EEXIST, _EXISTS % (", --append adds to it" if append_allowed else ""), path)
    return st


def _temporary(path: _Path, st: Optional[os.stat_result]) -> Tuple[int, str]:
    """A new temporary file beside path, with the permissions the file would get (the old file's, if any)."""
    folder, name = os.path.split(os.path.abspath(path))
    try:
        fd, temp = tempfile.mkstemp(prefix="." + name + ".", suffix=".partial", dir=folder)
    except OSError as e:  # a missing or read-only folder: named by the path asked for, not the temporary one
        raise OSError(e.errno, e.strerror, path) from None
    umask = os.umask(0)
    os.umask(umask)
    os.chmod(temp, stat.S_IMODE(st.st_mode) if st is not None else 0o666 & ~umask)
    return fd, temp


class LineWriter:
    """A file of lines written one whole line at a time, for outputs that an interrupt may stop.

    ``mode``: ``"new"`` (the default: an existing file is an ``OutputExists``), ``"replace"`` or ``"append"``.
    ``write_line(text)`` writes ``text`` and its line end at once, unbuffered. When the ``with`` block ends on
    an exception (Ctrl-C's KeyboardInterrupt, a full disk), the file is cut back to its last whole line, so every
    line in it is complete; a replaced file is replaced, and a new one kept, only if it has a line. ``lines``
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
            if mode == "append":
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
        """Close the file (and put a temporary file in place); ``cut``: first drop anything after the last
        whole line, and keep the old file when no line was written."""
        if self._file.closed:
            return
        try:
            if cut:
                try:
                    self._file.truncate(self._size)
                except OSError:  # not a regular file (a pipe, a device): nothing to cut back
                    pass
        finally:
            self._file.close()
            temp, self._temp = self._temp, None
            if temp is not None:
                if cut and not self.lines:
                    os.unlink(temp)
                else:
                    os.replace(temp, self.path)
            elif self._new and cut and not self.lines:
                try:
                    os.unlink(self.path)  # made by this run, which failed before its first line
                except OSError:
                    pass

    def __enter__(self) -> LineWriter:
        return self

    def __exit__(self, kind: Optional[Type[BaseException]], value: Optional[BaseException],
                 traceback: Optional[TracebackType]) -> Literal[False]:
        self.close(cut=kind is not None)
        return False


def write_text(path: _Path, text: str, mode: str = "new") -> None:
    """Write ``text`` to ``path`` (UTF-8, ``\\n`` line ends) through a temporary file renamed at the end: an
    existing file is an ``OutputExists`` unless ``mode="replace"``, and stays whole if the write fails."""
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
        os.replace(temp, path)
    except BaseException:
        try:
            os.unlink(temp)
        except OSError:
            pass
        raise
