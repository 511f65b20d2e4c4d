"""The bot protocol's reference bots: ``RandomBot`` and ``GreedyBot`` (the search bot is ``azul_engine.mcts``),
``bot_seed``, and ``BotFailure``, which a bot raises when it cannot go on. ``azul_engine.bots`` re-exports them
and has the protocol's text.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, List, Optional, cast

from ._backends import SplitMix64  # the generator of rules.md section 5, the games' own
from ._types import State

if TYPE_CHECKING:
    from ._types import GameState, PavilionState

__all__ = ["SplitMix64", "RandomBot", "GreedyBot", "BotFailure", "bot_seed", "greedy_value"]


def bot_seed(game_seed: int, seat: int) -> int:
    """The seed of the bot in ``seat`` for the game made from ``game_seed``."""
    return SplitMix64((game_seed ^ 0xA2F1_B0C5_D00D_F00D) + seat).next()


class RandomBot:
    """Uniformly random legal moves."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.rng = SplitMix64(seed)

    def reset(self, seat: int, seed: int) -> None:
        self.rng = SplitMix64(seed)

    def choose(self, state: State) -> int:
        legal = state.legal_actions()
        return legal[self.rng.below(len(legal))]


class GreedyBot:
    """The move that leaves its player the best score if the round ended at once
    (``score_if_round_ended``; in Summer Pavilion, where points are scored as tiles are placed, the score
    after the move plus a point for each tile still in hand, so that it does not throw tiles away); ties are
    broken by the bot's own generator."""

    name = "greedy"

    def __init__(self, seed: int = 0) -> None:
        self.rng = SplitMix64(seed)

    def reset(self, seat: int, seed: int) -> None:
        self.rng = SplitMix64(seed)

    def choose(self, state: State) -> int:
        player = state.current_player
        best: Optional[int] = None
        choices: List[int] = []
        for action in state.legal_actions():
            value = greedy_value(state, action, player)
            if best is None or value > best:
                best, choices = value, [action]
            elif value == best:
                choices.append(action)
        return choices[self.rng.below(len(choices))] if len(choices) > 1 else choices[0]


def greedy_value(state: State, action: int, player: int) -> int:
    """What the greedy bot thinks of ``action`` in ``state`` for ``player``: the player's score if the round
    ended right after it (Summer Pavilion: the score after it plus a point for each tile in hand)."""
    after = state.clone()
    after.apply(action)
    if after.variant == "summer-pavilion":
        return after.scores[player] + len(cast("PavilionState", after).hands[player])
    return cast("GameState", after).score_if_round_ended()[player]


class BotFailure(Exception):
    """Raised by a bot (an external engine) that cannot go on: it crashed, broke the protocol or ran out of
    time. ``reason`` is the sentence a forfeit records."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason

