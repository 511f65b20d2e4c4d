"""Tables and progress bars of the command line, drawn by rich.

``table`` and ``row`` lay out plain text (no colour codes, no trailing spaces: the same bytes into a file, a
pipe or a terminal); ``Progress`` draws a bar on standard error only when it is a terminal.

>>> print(table(["bot", "games"], [["random", "4"], ["greedy", "12"]], justify="lr"))
bot     games
random      4
greedy     12
"""

import io
import sys

__all__ = ["table", "row", "Progress"]


def _console(width):
    from rich.console import Console
    return Console(file=io.StringIO(), width=width, color_system=None, force_terminal=False, no_color=True,
                   highlight=False, emoji=False, legacy_windows=False, soft_wrap=False)


def _render(grid, width):
    console = _console(width)
    console.print(grid)
    return "\n".join(line.rstrip() for line in console.file.getvalue().splitlines())


def table(headers, rows, justify=None, gap=2):
    """Rows of text under a header line, each column as wide as its widest cell, ``gap`` spaces apart;
    ``justify``: one letter a column, ``l`` (left, the default) or ``r`` (right)."""
    from rich.table import Table
    justify = justify or "l" * len(headers)
    grid = Table(box=None, show_header=True, show_edge=False, pad_edge=False,
                 padding=(0, gap, 0, 0), header_style="", collapse_padding=True)
    for name, j in zip(headers, justify):
        grid.add_column(name, justify="right" if j == "r" else "left", no_wrap=True)
    for cells in rows:
        grid.add_row(*cells)
    width = sum(max(len(str(c)) for c in col) + gap for col in zip(headers, *rows)) + 1
    return _render(grid, width)


def row(cells, widths, justify=None, gap=1):
    """One line of fixed-width columns (for rows printed one at a time, as they are measured): cell ``i``
    padded to ``widths[i]``, ``gap`` spaces apart, ``justify`` as in ``table``; a cell wider than its column
    pushes the rest right."""
    from rich.table import Table
    justify = justify or "l" * len(cells)
    grid = Table(box=None, show_header=False, show_edge=False, pad_edge=False, padding=(0, gap, 0, 0),
                 collapse_padding=True)
    for w, j, cell in zip(widths, justify, cells):
        grid.add_column(justify="right" if j == "r" else "left", no_wrap=True,
                        min_width=max(w, len(cell)))
    grid.add_row(*cells)
    return _render(grid, sum(max(w, len(c)) + gap for w, c in zip(widths, cells)) + 1)


class Progress:
    """A progress bar for ``total`` items (``what``: "games") on standard error, drawn by rich only when
    standard error is a terminal.  Call it with the number done; it closes itself at ``total``.  The class
    attribute ``drawn`` is true while a bar is on the screen, so an interrupt message can start a new line."""

    drawn = False
    _active = None  # the bar on the screen

    def __init__(self, total, what, stream=None):
        self.total, self.what = total, what
        self.stream = sys.stderr if stream is None else stream
        self.on = bool(getattr(self.stream, "isatty", lambda: False)())
        self._bar = self._task = None

    def _start(self):
        from rich.console import Console
        from rich.progress import (BarColumn, MofNCompleteColumn, Progress as Bar, TextColumn,
                                   TimeElapsedColumn, TimeRemainingColumn)
        # No refresh thread (auto_refresh=False): the bar is redrawn by each call, so nothing else runs while
        # worker processes fork or an interrupt unwinds.
        self._bar = Bar(TextColumn(self.what), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                        TextColumn("left"), TimeRemainingColumn(),
                        console=Console(file=self.stream), auto_refresh=False, transient=False)
        self._task = self._bar.add_task(self.what, total=self.total)
        self._bar.start()
        Progress.drawn = True
        Progress._active = self

    def __call__(self, done):
        if not self.on:
            return
        if self._bar is None:
            self._start()
        self._bar.update(self._task, completed=done)
        self._bar.refresh()
        if done >= self.total:
            self.close()

    def close(self):
        """Stop drawing (the bar stays on the screen, its line ended)."""
        if self._bar is not None:
            bar, self._bar = self._bar, None
            Progress.drawn = False
            Progress._active = None
            bar.stop()

    @classmethod
    def stop_all(cls):
        """End the line of a bar left on the screen (after an interrupt), and show the cursor again."""
        if cls._active is not None:
            cls._active.close()
