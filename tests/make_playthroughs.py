"""Write the golden playthrough files, tests/playthroughs/*.txt, with the pure-Python engine.

Run by hand from the repository root, only when a rules change is intended:

    PYTHONPATH=python python tests/make_playthroughs.py

(or plain ``python tests/make_playthroughs.py`` once the package is installed).  Each file records
one seeded game state by state: a header (players, variant, seed, chance mode, picker seed), then
for every step the state's ``to_text()``, its ``legal_moves()`` and the move chosen, then the final
scores, winners and ``record_json()``.  Moves are chosen by ``helpers.Picker`` (SplitMix64, not
Python's random), so the files depend on nothing but the rules.  The games to write are listed in
``helpers.PLAYTHROUGH_GAMES``.  ``test_playthroughs.py`` replays every file with each engine and
compares byte for byte; review the diff of regenerated files like any other rules change.
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import azul_engine  # noqa: E402
from helpers import PLAYTHROUGH_GAMES, playthrough_text  # noqa: E402


def main():
    engine = azul_engine.load_backend("python")
    out_dir = os.path.join(HERE, "playthroughs")
    os.makedirs(out_dir, exist_ok=True)
    for name, players, variant, seed, chance, picker in PLAYTHROUGH_GAMES:
        text = playthrough_text(engine, players, variant, seed, chance, picker)
        with open(os.path.join(out_dir, name), "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
        print("wrote %s (%d lines)" % (os.path.join("tests", "playthroughs", name),
                                       text.count("\n")))


if __name__ == "__main__":
    main()
