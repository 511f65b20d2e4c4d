"""Hints: ``hint``, the best moves of a position with their search statistics (re-exported by
``azul_engine.bots``), and the ``hint`` command that prints them.

    python -m azul_engine hint "azul-state/1 variant=classic players=2 ..."   # a state's text
    python -m azul_engine hint position.txt --bot mcts:seconds=2 --top 5     # or a file holding it
    ... | python -m azul_engine hint -                                       # or standard input
"""

import json
import os
import sys

from . import _cli
from .bot_specs import BotFactory, resolve_bot_spec

__all__ = ["hint", "register", "read_state_text"]

_PREFIX = "azul-state/"


def hint(state, bot="mcts:seconds=1", top=3, seed=0):
    """The ``top`` best moves for the player to move in ``state``, as the bot ``bot`` (a spec, or a bot
    object with ``hints(state, top)``) sees them: a list of ``Hint``, most visited first.  The search runs on
    copies; ``state`` is unchanged.  ValueError once the game is over, at a chance node, or for a bot that
    gives no search statistics.

    >>> import azul_engine
    >>> best = hint(azul_engine.new_game(2, seed=7), bot="mcts:200", top=2)
    >>> len(best), best[0].visits >= best[1].visits
    (2, True)
    """
    if isinstance(top, bool) or not isinstance(top, int) or top < 1:
        raise ValueError("hint: top must be a positive whole number, not %r" % (top,))
    if state.is_over:
        raise ValueError("hint: the game is over: no move to choose")
    if state.is_chance_node:
        raise ValueError("hint: the state is a chance node: no player's move to choose")
    if isinstance(bot, (str, BotFactory)):
        factory = bot if isinstance(bot, BotFactory) else resolve_bot_spec(bot)
        bot = factory.make(state.current_player, seed)
    hints = getattr(bot, "hints", None)
    if not callable(hints):
        raise ValueError("hint: bot %s gives no search statistics (it has no hints(state, top) method); use mcts"
                         % getattr(bot, "name", type(bot).__name__))
    return hints(state.clone(), top)


def read_state_text(text):
    """The state's text from the command's TEXT: the text itself, ``-`` for standard input, or a file's path.
    ValueError says why it cannot be read."""
    if text.lstrip().startswith(_PREFIX):
        return text.strip()
    if text == "-":
        return sys.stdin.read().strip()
    try:
        if os.path.isdir(text):
            raise ValueError("cannot read %s: it is a directory" % text)
        with open(text, encoding="utf-8", errors="replace") as f:
            return f.read().strip()
    except FileNotFoundError:
        raise ValueError("%r is neither a state's text (azul-state/1 ...) nor a file" % text[:60]) from None
    except OSError as e:
        raise ValueError("cannot read %s: %s" % (text, e.strerror)) from None


def _run(args):
    _out, _usage_error = _cli.out, _cli.usage_error
    try:
        text = read_state_text(args.text)
    except ValueError as e:
        return _usage_error(args, str(e))
    engine = _cli.engine(args)
    try:
        state = engine.from_text(text)
    except ValueError as e:  # StateFormatError
        return _usage_error(args, "not a state's text: %s" % e)
    try:
        found = hint(state, bot=args.bot, top=args.top, seed=args.seed)
    except ValueError as e:
        return _usage_error(args, str(e).replace("hint: ", "", 1))
    if args.json:
        _out(json.dumps({"player": state.current_player, "bot": args.bot,
                         "hints": [h.as_dict() for h in found]}))
        return 0
    _out("%s, %d players, round %d: player %d to move; %s" % (state.variant, state.players, state.round,
                                                              state.current_player, args.bot))
    rows = [("move", "visits", "share", "value")] + [
        (h.move, "%d" % h.visits, "-" if h.share is None else "%.1f%%" % (100 * h.share), "%.3f" % h.value)
        for h in found]
    widths = [max(len(r[i]) for r in rows) for i in range(4)]
    for r in rows:
        _out("  ".join([r[0].ljust(widths[0])] + [c.rjust(w) for c, w in zip(r[1:], widths[1:])]).rstrip())
    return 0


def register(commands):
    """The ``hint`` command."""
    parser = _cli.add_command(
        commands, "hint", _run, help="the best moves of a position, with search statistics",
        description="Search the position TEXT (a state's text, azul-state/1 ..., as to_text() writes it; or a "
        "file holding it; or - for standard input) with a bot and print its best moves: visits (search "
        "iterations through the move) and value (mean utility for the player to move, 0-1).")
    parser.add_argument("text", metavar="TEXT", help="the state's text, a file with it, or - for standard input")
    parser.add_argument("--bot", default="mcts:seconds=1", metavar="SPEC",
                        help="a bot that gives search statistics (default: mcts:seconds=1)")
    parser.add_argument("--top", type=_cli.positive(int), default=3, help="moves to show (default: 3)")
    parser.add_argument("--seed", type=_cli.seed, default=0, help="seed of the bot's own choices (default: 0)")
    parser.add_argument("--json", action="store_true", help="one JSON object")
    _cli.add_backend(parser)
    return parser
