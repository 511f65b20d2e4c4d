"""Bots: the bot protocol, bot specs, reference bots (random, greedy; Monte Carlo tree search from ``mcts``) and hints.

The bot protocol.  A bot is any object with

- ``choose(state) -> action``: an action id from ``state.legal_actions()`` or its notation (a string from
  ``state.legal_moves()``) for the player to move, ``state.current_player``.  ``state`` is the bot's own copy
  of the game: changing it changes nothing.
- optional ``reset(seat, seed)``: called before each game with the bot's seat and a seed for the bot's own
  random choices (``bot_seed(game_seed, seat)``), so that games are reproducible.
- optional ``name``: a short name, written into records (default: the spec).
- optional ``close()``: called once the game is over (external engines stop their process there).
- optional ``hints(state, top)``: the best moves with search statistics (``hint``).

A bot that raises an exception, answers a move that is not legal, or takes longer than the time limit (when one
is set) loses the game by forfeit (``play_match``); the record says so.

Bot specs name a bot and its parameters, with ``:`` (or, after the first parameter, ``,``) between them:

- built-in bots: ``random``, ``greedy``, ``mcts``, ``mcts:2000`` (2000 iterations a move),
  ``mcts:seconds=0.5``, ``mcts:2000:c=1.0``, ``mcts:seconds=0.2:threads=2`` (``mcts.MCTSBot``);
- a bot of your own: ``package.module:Class[:arg=value,...]``, made as ``Class(arg=value, ...)`` (values are
  converted to the type of the parameter's default, else read as a number, ``true``/``false``/``none``, or
  a string; a bare first value fills the first parameter): ``mybots.flat:FlatMC:playouts=50,depth=2``;
- an installed bot: a name in the entry-point group ``azul_engine.bots`` (``ENTRY_POINT_GROUP``) of an
  installed distribution, for example ``[project.entry-points."azul_engine.bots"] flatmc =
  "mybots.flat:FlatMC"`` in its pyproject.toml, then ``flatmc:playouts=50``;
- an external engine in any language, speaking the line protocol of docs/bot-protocol.md:
  ``cmd:COMMAND ARGS`` (``cmd:python3 examples/random_bot.py --seed 3``).

Built-in names come first, then installed entry points, then modules.  Reference bots draw from their own
SplitMix64 generator, never from the game's, so that a bot's choices do not change the game's draws and the
same seeds give the same games in both engines.

>>> import azul_engine
>>> state = azul_engine.new_game(players=2, seed=7)
>>> RandomBot(seed=1).choose(state) in state.legal_actions()
True
>>> parse_bot_spec("mcts:2000")
('mcts', {'iterations': 2000})
>>> make_bot("mcts:50", seed=1).choose(state) in state.legal_actions()
True
"""

import datetime
import importlib
import inspect
import json
import math
import os
import re
import shlex
import shutil
import sys
import time

from ._pycommon import SplitMix64  # the generator of rules.md section 5, the games' own
from .mcts import POLICIES, Hint, MCTSBot, engine_of  # the search bot has a module of its own


__all__ = ["SplitMix64", "RandomBot", "GreedyBot", "MCTSBot", "BOTS", "ENTRY_POINT_GROUP", "BotSpecError",
           "BotFailure", "BotForfeit", "Forfeit", "Match", "BotFactory", "resolve_bot_spec", "split_bot_specs",
           "parse_bot_spec", "make_bot", "bot_seed", "play", "play_match", "hint", "Hint", "POLICIES", "engine_of"]

ENTRY_POINT_GROUP = "azul_engine.bots"


def bot_seed(game_seed, seat):
    """The seed of the bot in ``seat`` for the game made from ``game_seed``."""
    return SplitMix64((game_seed ^ 0xA2F1_B0C5_D00D_F00D) + seat).next()


class RandomBot:
    """Uniformly random legal moves."""

    name = "random"

    def __init__(self, seed=0):
        self.rng = SplitMix64(seed)

    def reset(self, seat, seed):
        self.rng = SplitMix64(seed)

    def choose(self, state):
        legal = state.legal_actions()
        return legal[self.rng.below(len(legal))]


class GreedyBot:
    """The move that leaves its player the best score if the round ended at once
    (``score_if_round_ended``; in Summer Pavilion, where points are scored as tiles are placed, the score
    after the move plus a point for each tile still in hand, so that it does not throw tiles away); ties are
    broken by the bot's own generator."""

    name = "greedy"

    def __init__(self, seed=0):
        self.rng = SplitMix64(seed)

    def reset(self, seat, seed):
        self.rng = SplitMix64(seed)

    def choose(self, state):
        player = state.current_player
        best, choices = None, []
        for action in state.legal_actions():
            value = greedy_value(state, action, player)
            if best is None or value > best:
                best, choices = value, [action]
            elif value == best:
                choices.append(action)
        return choices[self.rng.below(len(choices))] if len(choices) > 1 else choices[0]


def greedy_value(state, action, player):
    """What the greedy bot thinks of ``action`` in ``state`` for ``player``: the player's score if the round
    ended right after it (Summer Pavilion: the score after it plus a point for each tile in hand)."""
    after = state.clone()
    after.apply(action)
    if after.variant == "summer-pavilion":
        return after.scores[player] + len(after.hands[player])
    return after.score_if_round_ended()[player]


BOTS = {"random": RandomBot, "greedy": GreedyBot, "mcts": MCTSBot}

# The parameters a spec may give each built-in bot: name -> type; the first is also taken without a name.
_SPEC_PARAMETERS = {"mcts": {"iterations": int, "seconds": float, "c": float, "margin": float, "rollouts": int,
                             "policy": str, "candidates": int, "threads": int, "inner_candidates": int,
                             "widen": int}}
_TYPE_WORDS = {int: "a whole number", float: "a number", str: "a word", bool: "true or false"}


class BotSpecError(ValueError):
    """A bot spec that names no bot, or a bot that cannot be made from it; the message says why."""


class BotFailure(Exception):
    """Raised by a bot (an external engine) that cannot go on: it crashed, broke the protocol or ran out of
    time. ``reason`` is the sentence a forfeit records."""

    def __init__(self, reason):
        super().__init__(reason)
        self.reason = reason


class Forfeit:
    """A game lost by forfeit: the ``seat`` that forfeited and the ``reason`` (a sentence)."""

    __slots__ = ("seat", "reason")

    def __init__(self, seat, reason):
        self.seat, self.reason = seat, reason

    def __repr__(self):
        return "Forfeit(seat=%d, reason=%r)" % (self.seat, self.reason)

    def as_dict(self):
        return {"seat": self.seat, "reason": self.reason}


class BotForfeit(Exception):
    """Raised by ``play`` when a bot forfeits the game; ``match`` is the ``Match``."""

    def __init__(self, match):
        f = match.forfeit
        super().__init__("seat %d (%s) forfeits: %s" % (f.seat, match.specs[f.seat], f.reason))
        self.match = match


def split_bot_specs(text):
    """A comma-separated list of bot specs as a list.  A piece with ``=`` and no ``:`` continues the spec
    before it (``mybots:Flat:depth=2,width=3,greedy`` is two specs); a ``cmd:`` spec takes everything up to the
    next comma.

    >>> split_bot_specs("random,mcts:2000:c=1.0,policy=light,mybots.flat:FlatMC:n=5,depth=2")
    ['random', 'mcts:2000:c=1.0,policy=light', 'mybots.flat:FlatMC:n=5,depth=2']
    """
    out = []
    for piece in text.split(","):
        piece = piece.strip()
        if out and "=" in piece and ":" not in piece and not out[-1].startswith("cmd:"):
            out[-1] += "," + piece
        else:
            out.append(piece)
    return out


def _entry_points():
    """The installed bots: entry-point name -> EntryPoint, in the group ``ENTRY_POINT_GROUP``."""
    from importlib import metadata
    try:
        found = metadata.entry_points(group=ENTRY_POINT_GROUP)
    except TypeError:  # Python 3.8-3.9: a dict by group
        found = metadata.entry_points().get(ENTRY_POINT_GROUP, [])
    return {ep.name: ep for ep in found}


def _unknown(text, name):
    installed = sorted(_entry_points())
    return BotSpecError("unknown bot %r (bots: %s%s); a bot of your own is module:Class, an external engine "
                        "cmd:COMMAND" % (name, ", ".join(BOTS),
                                         "; installed: " + ", ".join(installed) if installed else ""))


def _parameters(parts):
    """The ``:``- and ``,``-separated parameters of a spec, in order."""
    return [p for part in parts for p in part.split(",")]


_IDENTIFIER_PATH = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$")


def _convert(text, key, value, default):
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

    def __init__(self, spec, kind, target, kwargs):
        self.spec, self.kind, self.target, self.kwargs = spec, kind, target, dict(kwargs)

    def __repr__(self):
        return "BotFactory(%r)" % self.spec

    def make(self, seat=0, seed=0, time_limit=None):
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

    def check(self):
        """Make the bot once, so that a bad parameter shows before any game: BotSpecError names the problem.
        An external engine is started, greets and quits."""
        try:
            bot = self.make(0, 0)
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


def _builtin(text, name, parts):
    known = _SPEC_PARAMETERS.get(name, {})
    if parts and not known:
        raise BotSpecError("bot spec %r: bot %s takes no parameters" % (text, name))
    kwargs = {}
    for i, part in enumerate(_parameters(parts)):
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
            kwargs[key] = known[key](value)
        except ValueError:
            raise BotSpecError("bot spec %r: %s must be %s, not %r"
                               % (text, key, _TYPE_WORDS[known[key]], value)) from None
    try:
        BOTS[name](0, **kwargs)  # the bot checks its own ranges
    except ValueError as e:
        raise BotSpecError("bot spec %r: %s" % (text, str(e).split(": ", 1)[-1])) from None
    return BotFactory(text, "builtin", name, kwargs)


def _load_class(text, module_name, attribute):
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
    target = module
    for part in attribute.split("."):
        if not hasattr(target, part):
            found = sorted(n for n, v in vars(module).items()
                           if inspect.isclass(v) and callable(getattr(v, "choose", None)))
            raise BotSpecError("bot spec %r: module %s has no %r%s" % (
                text, module_name, attribute, " (bots in it: %s)" % ", ".join(found) if found else ""))
        target = getattr(target, part)
    if not callable(target):
        raise BotSpecError("bot spec %r: %s:%s is not a class" % (text, module_name, attribute))
    return target


def _custom(text, target, where, parts):
    """A factory for ``target`` (a class or callable) with the spec's parameters."""
    try:
        signature = inspect.signature(target)
    except (TypeError, ValueError):
        signature = None
    params, any_keyword = [], signature is None
    if signature is not None:
        for p in signature.parameters.values():
            if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY):
                params.append(p)
            elif p.kind == p.VAR_KEYWORD:
                any_keyword = True
    by_name = {p.name: p for p in params}
    kwargs = {}
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
        p = by_name.get(key)
        kwargs[key] = _convert(text, key, value, None if p is None or p.default is p.empty else p.default)
    missing = [p.name for p in params if p.default is p.empty and p.name not in kwargs]
    if missing:
        raise BotSpecError("bot spec %r: %s needs %s (give %s)" % (
            text, where, ", ".join(missing), ",".join("%s=VALUE" % m for m in missing)))
    return BotFactory(text, "class", target, kwargs)


def resolve_bot_spec(text):
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


def parse_bot_spec(text):
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
    azul_engine.bots.BotSpecError: bot spec 'mcts:abc': iterations must be a whole number, not 'abc'
    """
    factory = resolve_bot_spec(text)
    if factory.kind == "builtin":
        return factory.target, factory.kwargs
    if factory.kind == "cmd":
        return "cmd", {"command": factory.target}
    name, *parts = factory.spec.split(":")
    return (name if name in _entry_points() else "%s:%s" % (name, parts[0].strip())), factory.kwargs


def make_bot(name, seed, seat=0):
    """A bot by name or spec (see ``BOTS`` and ``resolve_bot_spec``), reset for ``seat`` and ``seed``;
    ValueError names the known ones."""
    return resolve_bot_spec(name).make(seat, seed)


class Match:
    """A game played by ``play_match``: ``state`` (the final state, or the state when a bot forfeited),
    ``specs`` and ``names`` by seat, ``forfeit`` (None or a ``Forfeit``), ``scores`` and ``winners``
    (with a forfeit: the other seats with the highest score so far), ``event`` and ``date``."""

    def __init__(self, state, specs, names, forfeit, event=None, date=None):
        self.state, self.specs, self.names, self.forfeit = state, list(specs), list(names), forfeit
        self.event, self.date = event, date
        self.scores = list(state.scores)
        if forfeit is None:
            self.winners = list(state.winners)
        else:
            from .records import forfeit_winners
            self.winners = forfeit_winners(self.scores, forfeit.seat)

    def record(self):
        """The game as an azul-record dict, with who played (``bots``), ``event``, ``date`` and ``forfeit``
        (records.md section 5)."""
        record = json.loads(self.state.record_json())
        record["bots"] = [dict({"spec": spec}, **({"name": name} if name and name != spec else {}))
                          for spec, name in zip(self.specs, self.names)]
        if self.event is not None:
            record["event"] = self.event
        if self.date is not None:
            record["date"] = self.date
        if self.forfeit is not None:
            record["final_scores"] = self.scores
            record["winners"] = self.winners
            record["forfeit"] = self.forfeit.as_dict()
        return record

    def record_json(self):
        """``record()`` as its line of JSON, the game's own part byte for byte as the engine writes it."""
        return json.dumps(self.record(), separators=(", ", ": "))


def check_date(date):
    """``date`` as a record writes it: ``"today"`` is today's date (UTC); otherwise YYYY-MM-DD, checked."""
    if date is None:
        return None
    if date == "today":
        return datetime.datetime.now(datetime.timezone.utc).date().isoformat()
    if isinstance(date, str) and re.match(r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$", date):
        try:
            return datetime.date.fromisoformat(date).isoformat()
        except ValueError:
            pass
    raise ValueError("date must be YYYY-MM-DD (or today), not %r" % (date,))


def _seat_specs(specs, players):
    if isinstance(specs, str):
        return [specs] * players
    specs = list(specs)
    if len(specs) != players:
        raise BotSpecError("%d players need %d bot specs (one a seat), not %d" % (players, players, len(specs)))
    return specs


def ask(bot, state):
    """``bot``'s answer for a copy of ``state``: ``(answer, None)``, or ``(None, reason)`` when it raised (a
    forfeit's reason, as ``play_match`` words it)."""
    try:
        return bot.choose(state.clone()), None
    except BotFailure as e:
        return None, e.reason
    except Exception as e:
        return None, "raised %s: %s" % (type(e).__name__, e)


def play_answer(state, answer):
    """Apply a bot's ``answer`` (an action id or notation) to ``state``: ``(action id, notation, None)``, or
    ``(None, None, reason)`` for what is not a legal move (``state`` is then unchanged)."""
    try:
        action = state.string_to_action(answer) if isinstance(answer, str) else answer
        move = state.action_to_string(action)  # before the move: a grey tiling's notation needs its row
        state.apply(action)
    except (ValueError, TypeError, OverflowError) as e:  # IllegalMoveError is a ValueError
        shown = answer if isinstance(answer, (int, str)) else type(answer).__name__
        return None, None, "illegal move %r: %s" % (shown, e)
    return int(action), move, None


def close_bots(seats):
    """Call each bot's ``close()`` if it has one (external engines stop); a bot that fails to stop does not
    change the game played."""
    for bot in seats:
        close = getattr(bot, "close", None)
        if callable(close):
            try:
                close()
            except Exception:
                pass


def play_match(engine, players, variant, seed, specs, time_limit=None, event=None, date=None):
    """Play one game made from ``seed``, seat ``i`` played by the bot of ``specs[i]`` (a spec string or a
    ``BotFactory``; one spec string for every seat), made for the game with ``reset(i, bot_seed(seed, i))``.
    Returns a ``Match``.

    A bot that raises an exception (BotFailure from an external engine: it crashed, broke the protocol or ran
    out of time), answers something that is not a legal move, or (``time_limit`` seconds, for Python bots
    checked once the move is back) takes longer than ``time_limit`` for a move forfeits: the game stops there,
    lost by that seat (``Match.forfeit``).  KeyboardInterrupt is never a forfeit."""
    if time_limit is not None and (isinstance(time_limit, bool) or not isinstance(time_limit, (int, float))
                                   or not 0 < time_limit < math.inf):
        raise ValueError("time_limit must be a positive, finite number of seconds or None, not %r" % (time_limit,))
    factories = [s if isinstance(s, BotFactory) else resolve_bot_spec(s) for s in _seat_specs(specs, players)]
    specs = [f.spec for f in factories]
    seats, names, forfeit = [], [], None
    try:
        for seat, factory in enumerate(factories):
            try:
                bot = factory.make(seat, bot_seed(seed, seat), time_limit)
            except BotFailure as e:
                forfeit = Forfeit(seat, e.reason)
                break
            except Exception as e:
                forfeit = Forfeit(seat, "could not be made: %s: %s" % (type(e).__name__, e))
                break
            seats.append(bot)
            names.append(getattr(bot, "name", None))
        state = engine.new_game(players=players, variant=variant, seed=seed)
        while forfeit is None and not state.is_over:
            seat = state.current_player
            start = time.perf_counter()
            answer, reason = ask(seats[seat], state)
            elapsed = time.perf_counter() - start
            if reason is None and time_limit is not None and elapsed > time_limit:
                reason = "took %.3f s for a move, over the time limit of %g s" % (elapsed, time_limit)
            if reason is None:
                reason = play_answer(state, answer)[2]
            if reason is not None:
                forfeit = Forfeit(seat, reason)
                break
        if state.is_over:
            for bot in seats:
                over = getattr(bot, "game_over", None)
                if callable(over):
                    over(state)
    finally:
        close_bots(seats)
    names += [None] * (players - len(names))
    return Match(state, specs, [n if isinstance(n, str) else None for n in names], forfeit, event, date)


def play(engine, players, variant, seed, bots):
    """Play one game made from ``seed`` to its end, seat ``i`` played by the bot of ``bots[i]`` (a bot spec for
    every seat, or one for all); return the final state (its ``record()`` is the game).  Raises BotForfeit
    if a bot forfeits (``play_match`` says how)."""
    if not isinstance(bots, str):
        bots = list(bots)[:players]  # as before: a longer list's first seats
    match = play_match(engine, players, variant, seed, bots)
    if match.forfeit is not None:
        raise BotForfeit(match)
    return match.state


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
