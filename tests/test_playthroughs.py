"""Golden playthroughs: each engine must reproduce tests/playthroughs/*.txt byte for byte.

The files were written by the pure-Python engine with tests/make_playthroughs.py (see its
docstring to regenerate them after an intended rules change).
"""

import os

import pytest

from helpers import PLAYTHROUGH_GAMES, parse_playthrough_header, playthrough_text

DIRECTORY = os.path.join(os.path.dirname(os.path.abspath(__file__)), "playthroughs")
FILES = sorted(name for name in os.listdir(DIRECTORY) if name.endswith(".txt"))


def test_every_listed_playthrough_file_exists():
    assert sorted(game[0] for game in PLAYTHROUGH_GAMES) == FILES


@pytest.mark.parametrize("name", FILES)
def test_engine_reproduces_the_playthrough(engine, name):
    with open(os.path.join(DIRECTORY, name), encoding="utf-8", newline="") as f:
        expected = f.read()
    players, variant, seed, chance, picker = parse_playthrough_header(expected)
    actual = playthrough_text(engine, players, variant, seed, chance, picker)
    if actual != expected:
        # Point at the first step that differs rather than dumping two long files.
        for number, (want, got) in enumerate(zip(expected.splitlines(), actual.splitlines())):
            assert got == want, "%s, line %d" % (name, number + 1)
        assert actual == expected
