"""The public API under a type checker: this file passes ``mypy --strict`` (tests/test_typing.py checks it) and
runs (``python examples/typed_example.py``).

A game, its moves, random playouts, a search, a batch of games stepped together, a record written, read back,
replayed and audited, and a bot of one's own (the bot protocol, ``azul_engine.bots.Bot``) playing a match.
"""

import os
import sys
import tempfile
from typing import List, Union

import numpy as np
import numpy.typing as npt

import azul_engine as az
from azul_engine import bots, records

State = Union[az.GameState, az.PavilionState]


class FirstMoveBot:
    """A bot of one's own: always the first legal move (the bot protocol needs only ``choose``)."""

    name = "first"

    def choose(self, state: State) -> int:
        return state.legal_actions()[0]


def play_a_game(seed: int) -> State:
    """A two-player game to its end, greedy moves from the engine's own functions."""
    state = az.new_game(players=2, variant="classic", seed=seed)
    while not state.is_over:
        moves: List[str] = state.legal_moves()
        state.apply(moves[0] if len(moves) < 3 else moves[len(moves) // 2])
    return state


def main() -> int:
    state = play_a_game(seed=7)
    scores: List[int] = state.scores
    print("game over:", scores, "winners", state.winners)

    info = az.game_info("summer-pavilion", players=3)
    print("Summer Pavilion:", info.num_actions, "actions,", info.rounds, "rounds")

    fresh = az.new_game(2, seed=1)
    result = az.search(fresh, iterations=200, seed=3)
    print("search:", result.move, "visited", result.visits[0], "of", result.iterations)
    for move, action, visits, value in result.top(2):
        print("  %s (%d): %d visits, value %.2f" % (move, action, visits, value))

    same = az.from_text(fresh.to_text())
    assert same == fresh

    playouts = az.random_playouts(8, players=2, seed=5)
    print("random playouts:", len(playouts))

    games = az.VectorGame(4, players=2, seed=0)
    mask: npt.NDArray[np.bool_] = games.legal_mask
    actions = np.array([int(np.flatnonzero(row)[0]) for row in mask], dtype=np.int64)
    games.step(actions)
    print("VectorGame: %d games, %d steps" % (games.n, games.stepped))

    bot: bots.Bot = FirstMoveBot()
    match = bots.play_match(az, 2, "classic", 11, ["greedy", "random"])
    print("match:", match.scores, "forfeit" if match.forfeit else "no forfeit")
    print("my bot answers", bot.choose(az.new_game(2, seed=2)))

    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "games.jsonl")
        records.write(path, [state, match.record()])
        read_back = records.read(path)
        final = records.replay(read_back[0])
        assert final.scores == state.scores
        assert records.audit(read_back[1]) == []
        for number, item in records.iter_file(path):
            print("line %d:" % number, "error" if isinstance(item, records.RecordError) else item["variant"])
        print(records.explain(read_back[0]).splitlines()[0])
    return 0


if __name__ == "__main__":
    sys.exit(main())
