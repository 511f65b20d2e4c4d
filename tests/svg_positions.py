"""The positions of the golden SVG pictures (tests/golden/svg/*.svg) and of the README's pictures
(docs/board.svg, docs/board-pavilion.svg), and the command that rewrites them all.

Regenerate, from the repository root, only when the picture is meant to change (review the files in a browser):

    .venv/bin/python tests/svg_positions.py

Each position is a seeded game played by ``helpers.Picker`` (its own SplitMix64 stream) for a number of moves,
so it depends on nothing but the rules; ``test_svg.py`` draws every one with each engine and compares the bytes.
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from helpers import Picker  # noqa: E402

GOLDEN_DIR = os.path.join(HERE, "golden", "svg")
DOCS_DIR = os.path.join(os.path.dirname(HERE), "docs")
# The README's pictures: file name in docs/ -> the position's name in POSITIONS
DOCS = {"board.svg": "classic-readme", "board-pavilion.svg": "pavilion-readme"}

# name: (players, variant, seed, moves to play (None: to the end), picture options)
POSITIONS = {
    "classic-2p-start": (2, "classic", 7, 0, {}),
    "classic-2p-hint": (2, "classic", 7, 9, {"highlight": "first", "size": 480}),
    "classic-3p-round3": (3, "classic", 11, 50, {"seat": 2}),
    "classic-4p-over": (4, "classic", 5, None, {}),
    "grey-2p-tiling": (2, "grey", 3, "tiling", {}),
    "grey-3p-over": (3, "grey", 8, None, {"seat": 1}),
    "pavilion-2p-start": (2, "summer-pavilion", 7, 0, {}),
    "pavilion-3p-play": (3, "summer-pavilion", 4, 20, {"highlight": "first"}),
    "pavilion-4p-over": (4, "summer-pavilion", 9, None, {}),
    "classic-readme": (2, "classic", 21, 31, {"highlight": "first", "size": 520}),
    "pavilion-readme": (2, "summer-pavilion", 4, 40, {"size": 520}),
}


def position(engine, players, variant, seed, moves):
    """The state after ``moves`` Picker moves (None: the whole game; "tiling": up to the first grey-wall
    tiling decision) of the game made from ``seed``."""
    state = engine.new_game(players=players, variant=variant, seed=seed)
    picker = Picker(seed)
    done = 0
    while not state.is_over:
        if moves == "tiling" and state.phase == "tiling":
            break
        if isinstance(moves, int) and done >= moves:
            break
        state.apply(picker.likely_move(state.legal_moves()))
        done += 1
    return state


def picture(engine, name):
    from azul_engine import svg
    players, variant, seed, moves, options = POSITIONS[name]
    state = position(engine, players, variant, seed, moves)
    options = dict(options)
    if options.get("highlight") == "first":
        options["highlight"] = state.legal_moves()[len(state.legal_moves()) // 2]
    return svg.board(state, **options)


def main():
    import azul_engine
    engine = azul_engine.load_backend("python")
    os.makedirs(GOLDEN_DIR, exist_ok=True)
    for name in sorted(set(POSITIONS) - set(DOCS.values())):
        path = os.path.join(GOLDEN_DIR, name + ".svg")
        with open(path, "w", encoding="utf-8", newline="\n") as f:
            f.write(picture(engine, name))
        print("wrote", os.path.relpath(path, os.path.dirname(HERE)))
    os.makedirs(DOCS_DIR, exist_ok=True)
    for filename, name in DOCS.items():
        path = os.path.join(DOCS_DIR, filename)
        with open(path, "w", encoding="utf-8", newline="\n") as f:
            f.write(picture(engine, name))
        print("wrote", os.path.relpath(path, os.path.dirname(HERE)))


if __name__ == "__main__":
    main()
