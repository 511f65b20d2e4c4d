"""The command line's tables and progress bars (azul_engine.textui, drawn by rich), and the docstring examples
of the modules of issue 14 (svg, replay, textui)."""

import doctest
import importlib
import io
import os
import select
import subprocess
import sys
import time

import pytest

from azul_engine import bench, textui


def test_table_aligns_text_left_and_numbers_right():
    text = textui.table(["bot", "games", "rate"], [["random", "4", "0.0%"], ["mcts:2000", "120", "55.5%"]],
                        justify="lrr")
    lines = text.splitlines()
    assert lines == ["bot        games   rate",
                     "random         4   0.0%",
                     "mcts:2000    120  55.5%"]


def test_row_keeps_its_columns():
    a = textui.row(["  x", "2p classic", "1 games/s"], (10, 18, 14), justify="llr")
    b = textui.row(["  longer", "4p grey", "1,234 games/s"], (10, 18, 14), justify="llr")
    assert a.index("2p") == b.index("4p") == 11
    assert len(a) == len(b) and a.endswith("1 games/s")
    wide = textui.row(["a" * 14, "b"], (10, 5))  # a cell wider than its column pushes, never cuts
    assert wide.startswith("a" * 14 + " b")


def test_bench_rows_keep_their_figures_and_checksums():
    row = bench.table_row({"measure": "engine", "players": 2, "variant": "classic", "games_per_s": 354671.2,
                           "plies_per_s": 24944123.0, "checksum": "a0e2b5e43cede47c"})
    assert row.split() == ["in-engine", "random", "games,", "1", "thread", "2p", "classic", "354,671", "games/s",
                           "24,944,123", "plies/s", "checksum", "a0e2b5e43cede47c"]
    loop = bench.table_row({"measure": "python-loop", "players": 4, "variant": "summer-pavilion",
                            "plies_per_s": 1400050.0})
    assert loop.split()[-2:] == ["1,400,050", "plies/s"]
    assert row.index("plies/s") == loop.index("plies/s")  # the plies column lines up


class Terminal(io.StringIO):
    def isatty(self):
        return True


def test_progress_is_quiet_when_not_a_terminal():
    out = io.StringIO()
    bar = textui.Progress(3, "games", stream=out)
    for i in range(1, 4):
        bar(i)
    assert out.getvalue() == "" and not textui.Progress.drawn


def test_progress_draws_on_a_terminal():
    out = Terminal()
    bar = textui.Progress(4, "games", stream=out)
    bar(1)
    assert textui.Progress.drawn
    bar(4)
    assert not textui.Progress.drawn
    assert "4/4" in out.getvalue() and "games" in out.getvalue()
    half = textui.Progress(4, "games", stream=Terminal())
    half(2)
    textui.Progress.stop_all()  # an interrupt ends the bar's line
    shown = half.stream.getvalue()
    assert not textui.Progress.drawn and "2/4" in shown
    assert shown.endswith("\n\x1b[?25h")  # the line ended, the cursor shown again


@pytest.mark.slow
def test_record_draws_a_bar_only_on_a_terminal(tmp_path):
    out = tmp_path / "g.jsonl"
    quiet = subprocess.run([sys.executable, "-m", "azul_engine", "record", "--games", "3", "-o", str(out)],
                           capture_output=True, text=True, timeout=120)
    # no bar (record may still say what it did, in one plain line)
    assert quiet.returncode == 0 and "3/3" not in quiet.stderr and "\x1b[" not in quiet.stderr
    assert "\r" not in quiet.stderr
    if not hasattr(os, "openpty"):
        pytest.skip("no pseudo-terminals here")
    master, slave = os.openpty()
    env = dict(os.environ, TERM="xterm-256color", COLUMNS="100")
    proc = subprocess.Popen([sys.executable, "-m", "azul_engine", "record", "--games", "5", "-o", str(out), "--force"],
                            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=slave, env=env)
    os.close(slave)
    seen, end = b"", time.monotonic() + 120
    while time.monotonic() < end:
        ready, _, _ = select.select([master], [], [], 1)
        if ready:
            try:
                chunk = os.read(master, 65536)
            except OSError:
                break
            if not chunk:
                break
            seen += chunk
        elif proc.poll() is not None:
            break
    os.close(master)
    assert proc.wait(timeout=60) == 0
    assert b"5/5" in seen and b"games" in seen
    assert len(out.read_text().splitlines()) == 5


@pytest.mark.parametrize("module", ["azul_engine.svg", "azul_engine.replay", "azul_engine.textui"])
def test_docstring_examples(module):
    result = doctest.testmod(importlib.import_module(module),
                             optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.attempted > 0 and result.failed == 0
