"""Matches: one game between bots (``play_match``, ``play``), each bot's turn as every game takes it (``ask``,
``play_answer``), forfeits, and ``Match``, the game with who played. ``azul_engine.bots`` re-exports every name.
"""

from __future__ import annotations

import datetime
import json
import math
import re
import time
from typing import Any, Dict, Iterable, List, Optional, Sequence, Tuple, Union

from ._types import AnyEngine, Bot, Move, Record, State
from .bot_specs import BotFactory, BotSpecError, resolve_bot_spec
from .simple_bots import BotFailure, bot_seed

# A bot spec (a string) or a resolved one, as play_match takes each seat's.
_Spec = Union[str, BotFactory]

__all__ = ["Forfeit", "BotForfeit", "Match", "check_date", "ask", "play_answer", "close_bots", "play_match", "play"]


class Forfeit:
    """A game lost by forfeit: the ``seat`` that forfeited and the ``reason`` (a sentence)."""

    __slots__ = ("seat", "reason")

    def __init__(self, seat: int, reason: str) -> None:
        self.seat, self.reason = seat, reason

    def __repr__(self) -> str:
        return "Forfeit(seat=%d, reason=%r)" % (self.seat, self.reason)

    def as_dict(self) -> Dict[str, Union[int, str]]:
        return {"seat": self.seat, "reason": self.reason}


class BotForfeit(Exception):
    """Raised by ``play`` when a bot forfeits the game; ``match`` is the ``Match``."""

    def __init__(self, match: Match) -> None:
        f = match.forfeit
        assert f is not None
        super().__init__("seat %d (%s) forfeits: %s" % (f.seat, match.specs[f.seat], f.reason))
        self.match = match


class Match:
    """A game played by ``play_match``: ``state`` (the final state, or the state when a bot forfeited),
    ``specs`` and ``names`` by seat, ``forfeit`` (None or a ``Forfeit``), ``scores`` and ``winners``
    (with a forfeit: the other seats with the highest score so far), ``event`` and ``date``."""

    def __init__(self, state: State, specs: Iterable[str], names: Iterable[Optional[str]], forfeit: Optional[Forfeit],
                 event: Optional[str] = None, date: Optional[str] = None) -> None:
        self.state, self.specs, self.names, self.forfeit = state, list(specs), list(names), forfeit
        self.event, self.date = event, date
        self.scores = list(state.scores)
        if forfeit is None:
            self.winners = list(state.winners)
        else:
            from .records import forfeit_winners
            self.winners = forfeit_winners(self.scores, forfeit.seat)

    def record(self) -> Record:
        """The game as an azul-record dict, with who played (``bots``), ``event``, ``date`` and ``forfeit``
        (records.md section 5)."""
        record: Record = json.loads(self.state.record_json())
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

    def record_json(self) -> str:
        """``record()`` as its line of JSON, the game's own part byte for byte as the engine writes it."""
        return json.dumps(self.record(), separators=(", ", ": "))


def check_date(date: Optional[str]) -> Optional[str]:
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


def _seat_specs(specs: Union[str, Sequence[_Spec]], players: int) -> List[_Spec]:
    if isinstance(specs, str):
        return [specs] * players
    specs = list(specs)
    if len(specs) != players:
        raise BotSpecError("%d players need %d bot specs (one a seat), not %d" % (players, players, len(specs)))
    return specs


def ask(bot: Bot, state: State) -> Tuple[Optional[Move], Optional[str]]:
    """``bot``'s answer for a copy of ``state``: ``(answer, None)``, or ``(None, reason)`` when it raised (a
    forfeit's reason, as ``play_match`` words it)."""
    try:
        return bot.choose(state.clone()), None
    except BotFailure as e:
        return None, e.reason
    except Exception as e:
        return None, "raised %s: %s" % (type(e).__name__, e)


def play_answer(state: State, answer: Any) -> Tuple[Optional[int], Optional[str], Optional[str]]:
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


def close_bots(seats: Iterable[Bot]) -> None:
    """Call each bot's ``close()`` if it has one (external engines stop); a bot that fails to stop does not
    change the game played."""
    for bot in seats:
        close = getattr(bot, "close", None)
        if callable(close):
            try:
                close()
            except Exception:
                pass


def play_match(engine: AnyEngine, players: int, variant: str, seed: int, specs: Union[str, Sequence[_Spec]],
               time_limit: Optional[float] = None, event: Optional[str] = None,
               date: Optional[str] = None) -> Match:
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
    spec_texts = [f.spec for f in factories]
    seats: List[Bot] = []
    names: List[Optional[str]] = []
    forfeit: Optional[Forfeit] = None
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
    return Match(state, spec_texts, [n if isinstance(n, str) else None for n in names], forfeit, event, date)


def play(engine: AnyEngine, players: int, variant: str, seed: int, bots: Union[str, Sequence[_Spec]]) -> State:
    """Play one game made from ``seed`` to its end, seat ``i`` played by the bot of ``bots[i]`` (a bot spec for
    every seat, or one for all); return the final state (its ``record()`` is the game).  Raises BotForfeit
    if a bot forfeits (``play_match`` says how)."""
    if not isinstance(bots, str):
        bots = list(bots)[:players]  # as before: a longer list's first seats
    match = play_match(engine, players, variant, seed, bots)
    if match.forfeit is not None:
        raise BotForfeit(match)
    return match.state

