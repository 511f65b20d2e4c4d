"""Bot specs: the language that names a bot and its parameters (``greedy``, ``mcts:2000``,
``package.module:Class:arg=value``, an installed bot's name, ``cmd:COMMAND``; ``azul_engine.bots`` has its text),
read into a ``BotFactory`` that makes the bot for a game. ``azul_engine.bots`` re-exports every name.
"""

from __future__ import annotations

import importlib
import inspect
import os
import re
import shlex
import shutil
from typing import TYPE_CHECKING, Any, Callable, Dict, List, Mapping, Optional, Sequence, Tuple, Type, cast

from ._types import Bot
from .mcts import MCTSBot, NetBot
from .simple_bots import BotFailure, GreedyBot, RandomBot

if TYPE_CHECKING:
    from importlib.metadata import EntryPoint

__all__ = ["BOTS", "ENTRY_POINT_GROUP", "BotSpecError", "BotFactory", "resolve_bot_spec", "split_bot_specs",
           "parse_bot_spec", "make_bot"]

ENTRY_POINT_GROUP = "azul_engine.bots"

BOTS: Dict[str, Callable[..., Bot]] = {"random": RandomBot, "greedy": GreedyBot, "mcts": MCTSBot, "net": NetBot}

# The parameters a spec may give each built-in bot: name -> type; the first is also taken without a name.
_SPEC_PARAMETERS: Dict[str, Dict[str, Type[Any]]] = {
    "mcts": {"iterations": int, "seconds": float, "c": float, "margin": float, "rollouts": int, "policy": str,
             "candidates": int, "threads": int, "inner_candidates": int, "widen": int, "exact": int},
    "net": {"path": str, "iterations": int, "seconds": float, "threads": int, "batch": int, "c_puct": float,
            "fpu": float, "policy_only": bool, "exact": int}}
_TYPE_WORDS: Dict[Type[Any], str] = {int: "a whole number", float: "a number", str: "a word", bool: "true or false"}


def _truth(value: str) -> bool:
    """A spec's true or false (true, yes, 1; false, no, 0)."""
    low = value.lower()
    if low in ("true", "yes", "1"):
        return True
    if low in ("false", "no", "0"):
        return False
    raise ValueError(value)


class BotSpecError(ValueError):
    """A bot spec that names no bot, or a bot that cannot be made from it; the message says why."""


def split_bot_specs(text: str) -> List[str]:
    """A comma-separated list of bot specs as a list.  A piece with ``=`` and no ``:`` continues the spec
    before it (``mybots:Flat:depth=2,width=3,greedy`` is two specs); a ``cmd:`` spec takes everything up to the
    next comma.

    >>> split_bot_specs("random,mcts:2000:c=1.0,policy=light,mybots.flat:FlatMC:n=5,depth=2")
    ['random', 'mcts:2000:c=1.0,policy=light', 'mybots.flat:FlatMC:n=5,depth=2']
    """
    out: List[str] = []
    for piece in text.split(","):
        piece = piece.strip()
        if out and "=" in piece and ":" not in piece and not out[-1].startswith("cmd:"):
            out[-1] += "," + piece
        else:
            out.append(piece)
    return out


def _entry_points() -> Dict[str, EntryPoint]:
    """The installed bots: entry-point name -> EntryPoint, in the group ``ENTRY_POINT_GROUP``."""
    from importlib import metadata
    try:
        found = metadata.entry_points(group=ENTRY_POINT_GROUP)
    except TypeError:  # Python 3.8-3.9: a dict by group
        found = metadata.entry_points().get(ENTRY_POINT_GROUP, [])  # type: ignore[attr-defined,arg-type,unused-ignore]
    return {ep.name: ep for ep in found}


def _unknown(text: str, name: str) -> BotSpecError:
    installed = sorted(_entry_points())
    return BotSpecError("unknown bot %r (bots: %s%s); a bot of your own is module:Class, an external engine "
                        "cmd:COMMAND" % (name, ", ".join(BOTS),
                                         "; installed: " + ", ".join(installed) if installed else ""))


def _parameters(parts: Sequence[str]) -> List[str]:
    """The ``:``- and ``,``-separated parameters of a spec, in order."""
    return [p for part in parts for p in part.split(",")]


_IDENTIFIER_PATH = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$")


def _convert(text: str, key: str, value: str, default: object) -> Any:
    """``value`` (a string from a spec) as the type of the parameter's ``default``, else guessed."""
    low = value.lower()
    kind = type(default) if isinstance(default, (bool, int, float, str)) else None
    if kind is bool or (kind is None and low in ("true", "false")):
        if low in ("true", "yes", "1"):
            return True
        if low in ("false", "no", "0"):
            return False
        raise BotSpecError("bot spec %r: %s must be true or false, not %r" % (text, key, value))
    if kind is int:
        try:
            return int(value)
        except ValueError:
            raise BotSpecError("bot spec %r: %s must be a whole number, not %r" % (text, key, value)) from None
    if kind is float:
        try:
            return float(value)
        except ValueError:
            raise BotSpecError("bot spec %r: %s must be a number, not %r" % (text, key, value)) from None
    if kind is str:
        return value
    if low in ("none", "null"):
        return None
    for convert in (int, float):
        try:
            return convert(value)
        except ValueError:
            pass
    return value


class BotFactory:
    """A bot spec, resolved: ``spec`` (the text), ``kind`` (``"builtin"``, ``"class"`` or ``"cmd"``),
    ``target`` (the built-in name, the class or callable, or the command's argument list) and ``kwargs``.
    ``make(seat, seed, time_limit=None)`` makes a bot for one game (``reset(seat, seed)`` already called)."""

    def __init__(self, spec: str, kind: str, target: Any, kwargs: Mapping[str, Any]) -> None:
        self.spec, self.kind, self.target, self.kwargs = spec, kind, target, dict(kwargs)

    def __repr__(self) -> str:
        return "BotFactory(%r)" % self.spec

    def make(self, seat: int = 0, seed: int = 0, time_limit: Optional[float] = None) -> Bot:
        bot: Bot
        if self.kind == "builtin":
            bot = BOTS[self.target](seed, **self.kwargs)
        elif self.kind == "cmd":
            from .external import ExternalBot
            bot = ExternalBot(self.target, spec=self.spec, time_limit=time_limit)
        else:
            bot = self.target(**self.kwargs)
        reset = getattr(bot, "reset", None)
        if callable(reset):
            reset(seat, seed)
        return bot

    def check(self, variant: Optional[str] = None, players: Optional[int] = None) -> BotFactory:
        """Make the bot once, so that a bad parameter shows before any game: BotSpecError names the problem.
        An external engine is started, greets and quits.  With the game's ``variant`` and ``players``, a bot
        that can tell (``check_game(variant, players)``, as the ``net`` bot's network) says now whether it plays
        that game."""
        try:
            bot = self.make(0, 0)
            check_game = getattr(bot, "check_game", None)
            if variant is not None and players is not None and callable(check_game):
                check_game(variant, players)
        except BotSpecError:
            raise
        except BotFailure as e:
            raise BotSpecError("bot spec %r: %s" % (self.spec, e.reason)) from None
        except Exception as e:
            message = str(e)
            if self.kind == "builtin":
                raise BotSpecError("bot spec %r: %s" % (self.spec, message.split(": ", 1)[-1])) from None
            raise BotSpecError("bot spec %r: making the bot failed: %s: %s"
                               % (self.spec, type(e).__name__, message)) from None
        try:
            if not callable(getattr(bot, "choose", None)):
                raise BotSpecError("bot spec %r: %r is not a bot: it has no choose(state) method"
                                   % (self.spec, bot))
        finally:
            close = getattr(bot, "close", None)
            if callable(close):
                close()
        return self


def _builtin(text: str, name: str, parts: Sequence[str]) -> BotFactory:
    known = _SPEC_PARAMETERS.get(name, {})
    if parts and not known:
        raise BotSpecError("bot spec %r: bot %s takes no parameters" % (text, name))
    kwargs: Dict[str, Any] = {}
    for i, part in enumerate(_parameters(parts)):
        key: Optional[str]
        key, sep, value = part.partition("=")
        if not sep:
            key, value = (next(iter(known)) if i == 0 else None), part
            if key is None:
                raise BotSpecError("bot spec %r: %r needs a name (key=value; %s: %s)"
                                   % (text, part, name, ", ".join(known)))
        key, value = key.strip(), value.strip()
        if key not in known:
            raise BotSpecError("bot spec %r: %s has no parameter %r (parameters: %s)"
                               % (text, name, key, ", ".join(known)))
        if key in kwargs:
            raise BotSpecError("bot spec %r: %s given twice" % (text, key))
        try:
            kwargs[key] = _truth(value) if known[key] is bool else known[key](value)
        except ValueError:
            raise BotSpecError("bot spec %r: %s must be %s, not %r"
                               % (text, key, _TYPE_WORDS[known[key]], value)) from None
    try:
        BOTS[name](0, **kwargs)  # the bot checks its own ranges
    except ValueError as e:
        raise BotSpecError("bot spec %r: %s" % (text, str(e).split(": ", 1)[-1])) from None
    return BotFactory(text, "builtin", name, kwargs)


def _load_class(text: str, module_name: str, attribute: str) -> Callable[..., Bot]:
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as e:
        if e.name == module_name or module_name.startswith((e.name or "") + "."):
            raise BotSpecError("bot spec %r: no module named %r (is it installed, or on PYTHONPATH?)"
                               % (text, module_name)) from None
        raise BotSpecError("bot spec %r: importing %s failed: %s" % (text, module_name, e)) from None
    except Exception as e:
        raise BotSpecError("bot spec %r: importing %s failed: %s: %s"
                           % (text, module_name, type(e).__name__, e)) from None
    target: Any = module
    for part in attribute.split("."):
        if not hasattr(target, part):
            found = sorted(n for n, v in vars(module).items()
                           if inspect.isclass(v) and callable(getattr(v, "choose", None)))
            raise BotSpecError("bot spec %r: module %s has no %r%s" % (
                text, module_name, attribute, " (bots in it: %s)" % ", ".join(found) if found else ""))
        target = getattr(target, part)
    if not callable(target):
        raise BotSpecError("bot spec %r: %s:%s is not a class" % (text, module_name, attribute))
    return cast(Callable[..., Bot], target)


def _custom(text: str, target: Callable[..., Bot], where: str, parts: Sequence[str]) -> BotFactory:
    """A factory for ``target`` (a class or callable) with the spec's parameters."""
    try:
        signature = inspect.signature(target)
    except (TypeError, ValueError):
        signature = None
    params: List[inspect.Parameter] = []
    any_keyword = signature is None
    if signature is not None:
        for p in signature.parameters.values():
            if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY):
                params.append(p)
            elif p.kind == p.VAR_KEYWORD:
                any_keyword = True
    by_name = {p.name: p for p in params}
    kwargs: Dict[str, Any] = {}
    for i, part in enumerate(_parameters(parts)):
        key, sep, value = part.partition("=")
        if not sep:
            if i or not params:
                raise BotSpecError("bot spec %r: %r needs a name (key=value%s)" % (
                    text, part, "; %s takes: %s" % (where, ", ".join(by_name)) if by_name else ""))
            key, value = params[0].name, part
        key, value = key.strip(), value.strip()
        if key not in by_name and not any_keyword:
            raise BotSpecError("bot spec %r: %s has no parameter %r (parameters: %s)"
                               % (text, where, key, ", ".join(by_name) or "none"))
        if key in kwargs:
            raise BotSpecError("bot spec %r: %s given twice" % (text, key))
        param = by_name.get(key)
        kwargs[key] = _convert(text, key, value,
                               None if param is None or param.default is param.empty else param.default)
    missing = [p.name for p in params if p.default is p.empty and p.name not in kwargs]
    if missing:
        raise BotSpecError("bot spec %r: %s needs %s (give %s)" % (
            text, where, ", ".join(missing), ",".join("%s=VALUE" % m for m in missing)))
    return BotFactory(text, "class", target, kwargs)


def resolve_bot_spec(text: str) -> BotFactory:
    """The ``BotFactory`` of a bot spec (see the module docstring); BotSpecError (a ValueError) names what is
    wrong: an unknown bot, module or class, a parameter it does not take, a value of the wrong type, a command
    that is not found.  Nothing is made or started (``BotFactory.check`` does that)."""
    if not isinstance(text, str):
        raise BotSpecError("a bot spec is a string like 'greedy' or 'mcts:2000', not %r" % (text,))
    text = text.strip()
    if not text:
        raise BotSpecError("empty bot spec: give e.g. greedy, mcts:2000, package.module:Class or cmd:COMMAND")
    if text.startswith("cmd:"):
        try:
            argv = shlex.split(text[4:])
        except ValueError as e:
            raise BotSpecError("bot spec %r: the command cannot be read: %s" % (text, e)) from None
        if not argv:
            raise BotSpecError("bot spec %r: give the command after cmd:, e.g. cmd:python3 examples/random_bot.py"
                               % text)
        program = argv[0]
        if os.sep in program or (os.altsep and os.altsep in program):
            if not os.path.isfile(program) or not os.access(program, os.X_OK):
                raise BotSpecError("bot spec %r: %s is not an executable file" % (text, program))
        elif shutil.which(program) is None:
            raise BotSpecError("bot spec %r: command %r not found" % (text, program))
        return BotFactory(text, "cmd", argv, {})
    name, *parts = text.split(":")
    if "," in name:  # mcts,c=1.0: parameters after a comma
        name, first = name.split(",", 1)
        parts.insert(0, first)
    name = name.strip()
    if name in BOTS:
        return _builtin(text, name, parts)
    entry = _entry_points().get(name)
    if entry is not None:
        try:
            target = entry.load()
        except Exception as e:
            raise BotSpecError("bot spec %r: the installed bot %s (%s) cannot be loaded: %s: %s"
                               % (text, name, entry.value, type(e).__name__, e)) from None
        return _custom(text, target, name, parts)
    if not parts or not _IDENTIFIER_PATH.match(name):
        raise _unknown(text, name)
    attribute = parts[0].strip()
    if not _IDENTIFIER_PATH.match(attribute):
        raise BotSpecError("bot spec %r: %r is not a class name (module:Class)" % (text, attribute))
    return _custom(text, _load_class(text, name, attribute), "%s:%s" % (name, attribute), parts[1:])


def parse_bot_spec(text: str) -> Tuple[str, Dict[str, Any]]:
    """``(name, keyword arguments)`` of a bot spec: for a built-in bot its name from ``BOTS``, then optional
    parameters after colons, each ``key=value`` or, for the bot's first parameter, the bare value: ``mcts:2000``
    is MCTS with 2000 iterations a move, ``mcts:2000:c=1.0`` also sets ``c``, ``mcts:seconds=0.5`` searches for
    half a second a move.  Other specs (``module:Class``, installed, ``cmd:``) give the spec's bot target
    (``"module:Class"``, the entry-point name or ``"cmd"``) and its parameters.  Raises ValueError
    (``BotSpecError``) naming what is wrong.

    >>> parse_bot_spec("greedy")
    ('greedy', {})
    >>> parse_bot_spec("mcts:500:c=1.2")
    ('mcts', {'iterations': 500, 'c': 1.2})
    >>> parse_bot_spec("mcts:abc")
    Traceback (most recent call last):
        ...
    azul_engine.bot_specs.BotSpecError: bot spec 'mcts:abc': iterations must be a whole number, not 'abc'
    """
    factory = resolve_bot_spec(text)
    if factory.kind == "builtin":
        return factory.target, factory.kwargs
    if factory.kind == "cmd":
        return "cmd", {"command": factory.target}
    name, *parts = factory.spec.split(":")
    return (name if name in _entry_points() else "%s:%s" % (name, parts[0].strip())), factory.kwargs


def make_bot(name: str, seed: int, seat: int = 0) -> Bot:
    """A bot by name or spec (see ``BOTS`` and ``resolve_bot_spec``), reset for ``seat`` and ``seed``;
    ValueError names the known ones."""
    return resolve_bot_spec(name).make(seat, seed)

