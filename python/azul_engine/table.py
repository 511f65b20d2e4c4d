"""A game being played, wherever it is played: ``Table``, its seats (a bot by spec, or a person), the bots made
for it and asked for their moves (a copy of the position each time, a time limit, a forfeit with one wording),
a person's move, undo back to a person's last move, the record with who played and any forfeit, and the returns.

A match between bots (``matches.play_match``), a self-play game (``selfplay``), an environment's episode
(``envs.AzulEnv``: its learner is the person), the terminal game (``play``) and the web app's play page
(``web.game``) all play on a Table; each keeps only what is its own (drawing the position, reading what a person
types or taps, the learner's observations and rewards, the rows of a data set). ``azul_engine.bots`` re-exports
``Table``, ``Forfeit``, ``ask``, ``play_answer`` and ``close_bots``.
"""

from __future__ import annotations

import copy
import json
import math
import time
from typing import Any, Dict, Iterable, Iterator, List, NamedTuple, Optional, Sequence, Tuple, Union, cast

from ._types import AnyEngine, Bot, Move, Record, State
from .bot_specs import BotFactory, BotSpecError, resolve_bot_spec
from .records import forfeit_winners
from .simple_bots import BotFailure, bot_seed

__all__ = ["HUMAN", "Forfeit", "Played", "Table", "ask", "play_answer", "close_bots", "check_time_limit"]

HUMAN = "human"
"""A seat played from outside the table (a person at a terminal or a web page, a learner): a record's spec for it."""

# A seat as a Table takes it: HUMAN, a bot spec (a string) or a resolved one.
Seat = Union[str, BotFactory]


class Forfeit:
    """A game lost by forfeit: the ``seat`` that forfeited, its ``spec`` and the ``reason`` (a sentence);
    ``str()`` says it in the one wording every place uses: "seat S (SPEC) forfeits: REASON"."""

    __slots__ = ("seat", "reason", "spec")

    def __init__(self, seat: int, reason: str, spec: Optional[str] = None) -> None:
        self.seat, self.reason, self.spec = seat, reason, spec

    def __repr__(self) -> str:
        return "Forfeit(seat=%d, reason=%r, spec=%r)" % (self.seat, self.reason, self.spec)

    def __str__(self) -> str:
        return "seat %d (%s) forfeits: %s" % (self.seat, self.spec, self.reason)

    def as_dict(self) -> Dict[str, Union[int, str]]:
        """The record's ``forfeit`` field (records.md section 5)."""
        return {"seat": self.seat, "reason": self.reason}


class Played(NamedTuple):
    """A move made at a table: the ``seat`` that made it, its ``action`` id and its notation (``move``)."""

    seat: int
    action: int
    move: str


def ask(bot: Bot, state: State) -> Tuple[Optional[Move], Optional[str]]:
    """``bot``'s answer for a copy of ``state``: ``(answer, None)``, or ``(None, reason)`` when it raised (the
    forfeit's reason)."""
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


def close_bots(bots: Iterable[Bot]) -> None:
    """Call each bot's ``close()`` if it has one (external engines stop), once a bot however often it is named; a
    bot that fails to stop does not change the game played."""
    for bot in {id(bot): bot for bot in bots}.values():
        close = getattr(bot, "close", None)
        if callable(close):
            try:
                close()
            except Exception:
                pass


def _copies(bots: Dict[int, Bot]) -> Dict[int, Bot]:
    """Each bot as it is now, for an undo (a deep copy), or the bot itself where it cannot be copied: an external
    engine holds a process, a queue and threads (``cmd:``), and answers for the position it is sent whatever it
    saw before, so it is kept as it is."""
    out: Dict[int, Bot] = {}
    for seat, bot in bots.items():
        try:
            out[seat] = copy.deepcopy(bot)
        except Exception:  # TypeError: cannot pickle '_thread.lock' object, and the like
            out[seat] = bot
    return out


def check_time_limit(time_limit: Optional[float]) -> Optional[float]:
    """``time_limit`` if it is None or a positive, finite number of seconds; ValueError otherwise."""
    if time_limit is not None and (isinstance(time_limit, bool) or not isinstance(time_limit, (int, float))
                                   or not 0 < time_limit < math.inf):
        raise ValueError("time_limit must be a positive, finite number of seconds or None, not %r" % (time_limit,))
    return time_limit


class Table:
    """A game being played: ``state`` (the engine's), seat ``i`` played by ``seats[i]``: ``HUMAN`` (a person, or
    anyone moving from outside through :meth:`person_move`) or a bot spec (a string, or a ``BotFactory``), made
    here for the game with ``reset(i, bot_seed(seed, i))`` (``seed`` None: a random game, its seed then in
    ``state.seed``).

    ``time_limit`` (seconds, or None): what a bot may take for a move: external engines are stopped at it, and a
    Python bot that took longer forfeits once its move is back. A bot that cannot be made, raises, answers what is
    not a legal move or runs over the time limit forfeits: the game stops there, lost by that seat (``forfeit``, a
    :class:`Forfeit`; until an undo takes the game up again). ``undo``: keep what :meth:`undo` needs (a copy of
    the bots before each person's move, so that after an undo they answer as they did); an environment, which
    never undoes, leaves it out. Bad specs raise ``BotSpecError`` before anything is made; KeyboardInterrupt is
    never a forfeit. ``event`` and ``date`` go to the record.

    ``specs`` and ``names`` by seat (a person's spec is "human", a bot's its spec; a bot's name if it has one),
    ``bots`` (seat -> bot), ``moves`` (every move made: ``Played``), :meth:`record` (who played and any forfeit),
    :meth:`returns`. :meth:`close` stops the bots (``with Table(...) as table:`` does it too)."""

    def __init__(self, engine: AnyEngine, players: int, variant: str, seats: Sequence[Seat],
                 seed: Optional[int] = None, time_limit: Optional[float] = None, event: Optional[str] = None,
                 date: Optional[str] = None, undo: bool = True) -> None:
        self.time_limit = check_time_limit(time_limit)
        seats = list(seats)
        if len(seats) != players:
            raise BotSpecError("%d players need %d seats (a bot spec or %r each), not %d"
                               % (players, players, HUMAN, len(seats)))
        factories: List[Optional[BotFactory]] = [
            None if s == HUMAN else s if isinstance(s, BotFactory) else resolve_bot_spec(s) for s in seats]
        self.engine, self.players, self.variant = engine, players, variant
        self.state: State = engine.new_game(players=players, variant=variant, seed=seed)
        self.seed = cast(int, self.state.seed)  # a new game has one (drawn when seed is None)
        self.specs = [HUMAN if f is None else f.spec for f in factories]
        self.names: List[Optional[str]] = [None] * players
        self.bots: Dict[int, Bot] = {}
        self.moves: List[Played] = []
        self.forfeit: Optional[Forfeit] = None
        self.event, self.date = event, date
        self._undo = undo
        self._undo_points: List[Tuple[int, Dict[int, Bot]]] = []
        for seat, factory in enumerate(factories):
            if factory is None:
                continue
            try:
                bot = factory.make(seat, bot_seed(self.seed, seat), self.time_limit)
            except BotFailure as e:
                self.forfeit = Forfeit(seat, e.reason, factory.spec)
                break
            except Exception as e:
                self.forfeit = Forfeit(seat, "could not be made: %s: %s" % (type(e).__name__, e), factory.spec)
                break
            except BaseException:  # Ctrl-C while a bot starts: the ones made are stopped, nobody else can
                close_bots(self.bots.values())
                raise
            self.bots[seat] = bot
            name = getattr(bot, "name", None)
            self.names[seat] = name if isinstance(name, str) else None

    # -- who is to move ------------------------------------------------------------------------------------------
    def stopped(self) -> bool:
        """Over, or stopped by a forfeit."""
        return self.state.is_over or self.forfeit is not None

    def person_to_move(self) -> bool:
        """A person's turn (the game not stopped)."""
        return not self.stopped() and self.specs[self.state.current_player] == HUMAN

    def bot_to_move(self) -> bool:
        """A bot's turn (the game not stopped)."""
        return not self.stopped() and self.specs[self.state.current_player] != HUMAN

    # -- moves ---------------------------------------------------------------------------------------------------
    def bot_move(self) -> Optional[Played]:
        """The bot to move plays: it answers for a copy of the position (``ask``), within the time limit, and its
        answer (an action id or notation) is applied if it is a legal move (``play_answer``). Returns the move, or
        None when the bot forfeited (``forfeit``). RuntimeError when it is not a bot's turn."""
        if not self.bot_to_move():
            raise RuntimeError("no bot is to move: %s" % ("the game is over" if self.stopped() else "a person is"))
        state, seat = self.state, self.state.current_player
        start = time.perf_counter()
        answer, reason = ask(self.bots[seat], state)
        elapsed = time.perf_counter() - start
        if reason is None and self.time_limit is not None and elapsed > self.time_limit:
            reason = "took %.3f s for a move, over the time limit of %g s" % (elapsed, self.time_limit)
        action = move = None
        if reason is None:
            action, move, reason = play_answer(state, answer)
        if reason is not None:
            self.forfeit = Forfeit(seat, reason, self.specs[seat])
            return None
        assert action is not None and move is not None
        played = Played(seat, action, move)
        self.moves.append(played)
        return played

    def bot_moves(self) -> Iterator[Played]:
        """The bots' moves, one at a time as they are made, up to a person's turn, the end or a forfeit."""
        while self.bot_to_move():
            played = self.bot_move()
            if played is None:
                return
            yield played

    def play_bots(self) -> List[Played]:
        """``bot_moves()`` played out: the bots' moves up to a person's turn, the end or a forfeit."""
        return list(self.bot_moves())

    def person_move(self, move: Move) -> Played:
        """The person to move plays ``move`` (an action id or notation): the engine's IllegalMoveError (or
        TypeError) when it is not a legal move, the game unchanged; RuntimeError when it is not a person's turn.
        Then :meth:`undo` can take it back (the bots' replies with it)."""
        if not self.person_to_move():
            raise RuntimeError("no person is to move: %s" % ("the game is over" if self.stopped() else "a bot is"))
        state, seat = self.state, self.state.current_player
        action: Move = move
        try:
            action = state.string_to_action(move) if isinstance(move, str) else move
            notation = state.action_to_string(action)  # before the move: a grey tiling's notation needs its row
        except (ValueError, TypeError, OverflowError):
            notation = None  # apply() below refuses it, in its own words
        bots_before = _copies(self.bots) if self._undo else {}  # after an undo the bots answer the same
        state.apply(action)
        assert notation is not None and not isinstance(action, str)
        if self._undo:
            self._undo_points.append((len(self.moves), bots_before))
        played = Played(seat, int(action), notation)
        self.moves.append(played)
        return played

    @property
    def can_undo(self) -> bool:
        """A person's move to take back."""
        return bool(self._undo_points)

    def undo(self) -> bool:
        """Back to before the last move of a person, the bots' replies undone too (the engine's own undo, move by
        move) and the bots as they were then; a forfeit since is forgotten (the game takes up again). False when
        there is no move of a person to take back."""
        if not self._undo_points:
            return False
        count, bots = self._undo_points.pop()
        kept = {id(bot) for bot in bots.values()}
        close_bots(bot for bot in self.bots.values() if id(bot) not in kept)  # the copies' successors go
        self.bots = bots
        while len(self.moves) > count:
            self.state.undo()
            self.moves.pop()
        self.forfeit = None
        return True

    # -- the result ----------------------------------------------------------------------------------------------
    @property
    def scores(self) -> List[int]:
        return list(self.state.scores)

    @property
    def winners(self) -> List[int]:
        """The winners: the engine's once over; after a forfeit, the other seats with the highest score so far;
        none until then."""
        if self.forfeit is not None:
            return forfeit_winners(self.scores, self.forfeit.seat)
        return list(self.state.winners)

    def returns(self) -> List[float]:
        """Each seat's return: the engine's ``returns()`` (0 until the end, then +1 a sole winner, 0 each of several,
        -1 the others); after a forfeit, the same from the forfeit's winners."""
        if self.forfeit is None:
            return list(self.state.returns())
        winners = self.winners
        win = 1.0 if len(winners) == 1 else 0.0
        return [win if p in winners else -1.0 for p in range(self.players)]

    def record(self) -> Record:
        """The game so far as an azul-record dict (records.md), with who played each seat (``bots``: a spec, a
        person's "human", and a bot's name when it has one), ``event``, ``date`` and, after a forfeit,
        ``forfeit`` with the scores and winners at it (section 5)."""
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
        """:meth:`record` as its line of JSON, the game's own part byte for byte as the engine writes it."""
        return json.dumps(self.record(), separators=(", ", ": "))

    # -- the end -------------------------------------------------------------------------------------------------
    def tell_bots_the_end(self) -> None:
        """Give each bot with ``game_over(state)`` the final state (once the game is over)."""
        if self.state.is_over:
            for bot in self.bots.values():
                over = getattr(bot, "game_over", None)
                if callable(over):
                    over(self.state)

    def close(self) -> None:
        """Stop the bots (``close()`` of those that have one: external engines end their processes)."""
        bots = list(self.bots.values())
        for _, kept in self._undo_points:
            bots += kept.values()
        close_bots(bots)

    def __enter__(self) -> Table:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
