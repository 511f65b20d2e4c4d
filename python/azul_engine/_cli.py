"""The command line's one layer: how a command is registered, the argument types, the ``--backend`` option, the
engine it names, and the output helpers. ``azul_engine.__main__.parser`` builds the parser from the command
modules' ``register(commands)`` functions, each adding its commands with :func:`add_command`; no command module
imports ``__main__``.
"""

import argparse
import math
import os
import sys

from . import textui
from ._backends import BACKEND, engine_named

SEED_LIMIT = 1 << 64  # game seeds are 0..2**64-1
BACKENDS = ("cpp", "python")
VARIANTS = ("classic", "grey", "summer-pavilion")

# A progress bar on standard error, drawn by rich only when it is a terminal (textui.Progress).
Progress = textui.Progress


class Parser(argparse.ArgumentParser):
    """argparse, with its errors on one line: ``azul-engine record: error: argument --seed: ...``, status 2."""

    def error(self, message):
        self.exit(2, f"{self.prog}: error: {message}\n")


class CommandError(Exception):
    """A bad argument found while a command runs: ``main`` prints it as one line, status 2."""


def add_command(commands, name, handler, **kwargs):
    """Register the command ``name`` on ``commands`` (the parser's subparsers), run by ``handler(args)`` (its exit
    code); ``kwargs`` go to ``add_parser`` (help, description). Returns the command's parser."""
    parser = commands.add_parser(name, **kwargs)
    parser.set_defaults(handler=handler)
    return parser


def add_backend(parser, repeat=False, help=None):
    """The ``--backend`` option: ``cpp`` or ``python`` (``repeat``: given once per engine, for ``bench``)."""
    if repeat:
        parser.add_argument("--backend", action="append", choices=BACKENDS, help=help)
    else:
        parser.add_argument("--backend", choices=BACKENDS,
                            help=help or "engine to use (default: the active one, " + BACKEND + ")")


def add_game_arguments(parser, players_default=2):
    """``--players`` (2-4) and ``--variant``."""
    parser.add_argument("--players", type=int, choices=[2, 3, 4], default=players_default)
    parser.add_argument("--variant", choices=list(VARIANTS), default="classic")


def engine(args):
    """The engine module ``--backend`` names (default: the active one); CommandError when it cannot be loaded
    (``--backend cpp`` where the C++ engine was not built)."""
    try:
        return engine_named(args.backend)
    except ImportError as e:
        raise CommandError(str(e)) from None


def out(line):
    """Print one whole line with one write: an interrupt never leaves half a line in a redirected output."""
    sys.stdout.write(line + "\n")


def usage_error(args, message):
    """A bad argument found after parsing: one line on standard error, status 2 (as argparse does)."""
    print(f"azul-engine {args.command}: {message}", file=sys.stderr)
    return 2


def worker_died(args, e, seeds):
    """A worker process that died with a game (distributed.WorkerDied): one line naming the games and their
    seeds (``seeds[i]``: game i's), status 1; the games before them are in the output, whole."""
    if e.index is None:
        print(f"azul-engine {args.command}: {e}", file=sys.stderr)
    else:
        last = e.last if e.last is not None else e.index
        which = (f"seed {seeds[e.index]}" if last == e.index else f"seeds {seeds[e.index]}-{seeds[last]}")
        head, _, rest = str(e).partition(": ")
        print(f"azul-engine {args.command}: {head} ({which}): {rest}", file=sys.stderr)
    return 1


# -- argument types (each named "int" or "float" in argparse's messages) ---------------------------------------

def seed(text):
    """A game seed: a whole number from 0 to 2**64-1."""
    value = int(text)
    if not 0 <= value < SEED_LIMIT:
        raise argparse.ArgumentTypeError(f"must be a whole number from 0 to 2**64-1, not {text}")
    return value


seed.__name__ = "int"


def non_negative(text):
    value = int(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be 0 or more, not {text}")
    return value


non_negative.__name__ = "int"


def finite(text):
    """A finite number (not nan or inf)."""
    value = float(text)
    if not math.isfinite(value):
        raise argparse.ArgumentTypeError(f"must be a finite number, not {text}")
    return value


finite.__name__ = "float"


def positive(kind):
    """A positive ``kind`` (int or float; not nan or inf)."""
    def parse(text):
        value = kind(text)
        if not 0 < value < float("inf"):  # (nan and inf too)
            raise argparse.ArgumentTypeError(f"must be positive: {text}")
        return value

    parse.__name__ = kind.__name__  # argparse names the type in its error messages
    return parse


def input_file(path):
    """The reason ``path`` cannot be read as an input file, or None."""
    try:
        if os.path.isdir(path):
            return f"cannot read {path}: it is a directory"
        os.stat(path)
    except OSError as e:
        return f"cannot read {path}: {e.strerror}"
    except ValueError as e:  # a NUL in the name
        return f"cannot read {path!a}: {e}"
    return None
