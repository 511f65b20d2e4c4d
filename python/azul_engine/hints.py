"""Hints: ``hint``, the best moves of a position with their search statistics (re-exported by
``azul_engine.bots``; the ``hint`` command that prints them is in ``azul_engine._commands``)."""

from __future__ import annotations

from typing import List, Union, cast

from ._types import Bot, State
from .bot_specs import BotFactory, resolve_bot_spec
from .mcts import Hint

__all__ = ["hint"]


def hint(state: State, bot: Union[str, BotFactory, Bot] = "mcts:seconds=1", top: int = 3,
         seed: int = 0) -> List[Hint]:
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
    return cast(List[Hint], hints(state.clone(), top))
