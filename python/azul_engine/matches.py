"""Matches: one game between bots (``play_match``, ``play``), played on a ``table.Table``, and ``BotForfeit``.
``azul_engine.bots`` re-exports every name.
"""

from __future__ import annotations

import datetime
import re
from typing import List, Optional, Sequence, Union

from ._types import AnyEngine, State
from .bot_specs import BotFactory, BotSpecError
from .table import Table

# A bot spec (a string) or a resolved one, as play_match takes each seat's.
_Spec = Union[str, BotFactory]

__all__ = ["BotForfeit", "check_date", "play_match", "play"]


class BotForfeit(Exception):
    """Raised by ``play`` when a bot forfeits the game; ``table`` is the game's ``Table`` (``table.forfeit`` says
    who and why, in the message's words)."""

    def __init__(self, table: Table) -> None:
        assert table.forfeit is not None
        super().__init__(str(table.forfeit))
        self.table = table


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


def play_match(engine: AnyEngine, players: int, variant: str, seed: int, specs: Union[str, Sequence[_Spec]],
               time_limit: Optional[float] = None, event: Optional[str] = None,
               date: Optional[str] = None) -> Table:
    """Play one game made from ``seed``, seat ``i`` played by the bot of ``specs[i]`` (a spec string or a
    ``BotFactory``; one spec string for every seat), on a ``Table`` (which makes each bot for the game with
    ``reset(i, bot_seed(seed, i))``). Returns the Table, its bots stopped: ``state``, ``specs``, ``names``,
    ``forfeit``, ``scores``, ``winners``, ``record()``.

    A bot that cannot be made, raises an exception (BotFailure from an external engine: it crashed, broke the
    protocol or ran out of time), answers something that is not a legal move, or (``time_limit`` seconds, for
    Python bots checked once the move is back) takes longer than ``time_limit`` for a move forfeits: the game stops
    there, lost by that seat (``Table.forfeit``).  KeyboardInterrupt is never a forfeit."""
    seats = _seat_specs(specs, players)
    with Table(engine, players, variant, seats, seed, time_limit, event, date, undo=False) as table:
        table.play_bots()
        table.tell_bots_the_end()
    return table


def play(engine: AnyEngine, players: int, variant: str, seed: int, bots: Union[str, Sequence[_Spec]]) -> State:
    """Play one game made from ``seed`` to its end, seat ``i`` played by the bot of ``bots[i]`` (a bot spec for
    every seat, or one for all); return the final state (its ``record()`` is the game).  Raises BotForfeit
    if a bot forfeits (``play_match`` says how)."""
    if not isinstance(bots, str):
        bots = list(bots)[:players]  # as before: a longer list's first seats
    table = play_match(engine, players, variant, seed, bots)
    if table.forfeit is not None:
        raise BotForfeit(table)
    return table.state
