"""The HTML report of ratings: one self-contained page (``tournament --html``, ``ratings --html``).

The page shows the standings (Elo with its 95% interval, games, score, likelihood of superiority, wins and
average game score), the rating plot (each bot's Elo and interval on one axis), the crosstable, the pairs at two
players (trinomial and pentanomial intervals, the pentanomial counts), the SPRT when there was one, and each
bot's distribution of game scores.  It needs no network (no script, its style inline), fits a phone's screen
(the wide tables scroll on their own), and every text from the games (bot specs come from record files) is
escaped by the template's autoescape.  The page is a Jinja2 template, ``data/ratings.html``, with its style in
``data/ratings.css``; this module only computes what it shows, the pictures' coordinates included.

>>> from azul_engine import ratings, report
>>> games = [ratings.GameResult(["a", "b"], [30, 20], [0], ("classic", 2, d)) for d in range(3)]
>>> games += [ratings.GameResult(["b", "a"], [25, 22], [0], ("classic", 2, d)) for d in range(3)]
>>> page = report.to_html(ratings.rate(games), games, title="a against b")
>>> page.startswith("<!DOCTYPE html>") and "<script" not in page
True
"""

from __future__ import annotations

import functools
import importlib.resources
import math
from typing import TYPE_CHECKING, Any, Dict, List, Optional, Sequence, Tuple


from . import ratings as _ratings
from ._markup import Markup
from ._version import __version__

if TYPE_CHECKING:
    from jinja2 import Template

__all__ = ["to_html", "nice_ticks"]

PLOT_WIDTH = 480  # the rating plot's coordinates (it scales to the page's width: about 0.75 on a phone)
PLOT_LEFT = 140  # room for the bots' names
PLOT_RIGHT = 20
ROW = 34
LABEL = 16  # characters of a bot's name in a picture (the whole name is in its tooltip and the tables)
HIST_WIDTH, HIST_HEIGHT, HIST_BINS = 300, 120, 12


@functools.lru_cache(maxsize=None)
def _page() -> Tuple[Template, Markup]:
    from ._markup import environment

    style = (importlib.resources.files("azul_engine") / "data" / "ratings.css").read_text(encoding="utf-8")
    return environment("azul_engine", "data").get_template("ratings.html"), Markup(style)


def nice_ticks(low: float, high: float, count: int = 5) -> List[float]:
    """Round numbers from ``low`` to ``high``, about ``count`` of them, 1, 2 or 5 times a power of ten apart.

    >>> nice_ticks(-130, 420)
    [-100.0, 0.0, 100.0, 200.0, 300.0, 400.0]
    """
    span = high - low
    if not span > 0:
        return [low]
    power = 10 ** math.floor(math.log10(span / (count + 1)))
    step = next(m * power for m in (1, 2, 5, 10) if span / (m * power) <= count + 1)
    first = math.ceil(low / step) * step
    out = []
    k = 0
    while first + k * step <= high + 1e-9 * span:
        out.append(round(first + k * step, 10) + 0.0)
        k += 1
    return out


def _short(name: str) -> str:
    return name if len(name) <= LABEL else name[:LABEL - 1] + "\u2026"


def _plot(rated: _ratings.Ratings) -> Dict[str, Any]:
    """The rating plot's coordinates: a row per bot (best first), its Elo as a dot and its interval as a bar."""
    ends = []
    for r in rated.ratings:
        for v in (r.elo - r.error, r.elo + r.error):
            if math.isfinite(v):
                ends.append(v)
    low, high = (min(ends), max(ends)) if ends else (-100.0, 100.0)
    if high - low < 20:
        low, high = low - 10, high + 10
    pad = (high - low) * 0.05
    low, high = low - pad, high + pad
    inner = PLOT_WIDTH - PLOT_LEFT - PLOT_RIGHT

    def x(v: float) -> float:
        v = min(max(v, low), high)
        return round(PLOT_LEFT + (v - low) / (high - low) * inner, 1)

    rows = []
    for k, r in enumerate(rated.ratings):
        y = 20 + k * ROW + ROW / 2
        rows.append({"bot": r.bot, "label": _short(r.bot), "y": y, "x": x(r.elo), "x1": x(r.elo - r.error),
                     "x2": x(r.elo + r.error),
                     "text": "%s: %s +/- %s Elo" % (r.bot, _ratings.format_elo(r.elo),
                                                    _ratings.format_elo(r.error, False))})
    height = 20 + len(rows) * ROW + 36
    ticks = [{"x": x(t), "label": "%g" % t} for t in nice_ticks(low, high)]
    return {"width": PLOT_WIDTH, "height": height, "rows": rows, "ticks": ticks, "axis_y": height - 30,
            "left": PLOT_LEFT, "right": PLOT_WIDTH - PLOT_RIGHT}


def _histogram(bot: str, scores: Sequence[int]) -> Dict[str, Any]:
    """One bot's game scores in at most HIST_BINS bins of a round width."""
    low, high = min(scores), max(scores)
    width = 1
    while (high // width - low // width + 1) > HIST_BINS:
        width = {1: 2, 2: 5}.get(width) or (width * 2 if str(width)[0] == "5" else width * 5 // 2)
    first = low // width * width
    bins = [0] * (high // width - low // width + 1)
    for s in scores:
        bins[s // width - low // width] += 1
    top = max(bins)
    slot = (HIST_WIDTH - 20) / len(bins)
    bars = []
    for k, count in enumerate(bins):
        start = first + k * width
        label = "%d" % start if width == 1 else "%d-%d" % (start, start + width - 1)
        h = round(count / top * (HIST_HEIGHT - 40), 1)
        bars.append({"x": round(10 + k * slot + 1, 1), "w": round(max(slot - 2, 1), 1), "y": HIST_HEIGHT - 22 - h,
                     "h": h, "count": count, "label": label, "cx": round(10 + (k + 0.5) * slot, 1)})
    every = max(1, -(-len(bins) // 6))  # at most about six labels under the bars
    summary = ", ".join("%s: %s" % (b["label"], b["count"]) for b in bars if b["count"])
    return {"bot": bot, "bars": bars, "every": every, "width": HIST_WIDTH, "height": HIST_HEIGHT,
            "base": HIST_HEIGHT - 22, "games": len(scores), "mean": sum(scores) / len(scores),
            "text": "Game scores of %s, %d games (score: games): %s" % (bot, len(scores), summary)}


def _percent(x: Optional[float]) -> str:
    return "" if x is None or (isinstance(x, float) and math.isnan(x)) else "%.1f%%" % (100 * x)


def to_html(rated: _ratings.Ratings, games: Sequence[_ratings.GameResult], pairs: Sequence[_ratings.PairStats] = (),
            title: str = "Ratings", lines: Sequence[str] = (), sprt: Any = None) -> str:
    """The report's page (see the module's text).  ``rated``: what ``ratings.rate`` gave for ``games``;
    ``pairs``: the pairs to show (``ratings.all_pair_stats``); ``title`` and ``lines`` (sentences under it);
    ``sprt``: an SPRT as it ended (``tournament.SPRTState``: ``test``, ``counts``, ``llr``, ``games``,
    ``decision``), or None."""
    wins: Dict[str, float] = {}
    scores: Dict[str, List[int]] = {}
    for game in games:
        for seat, bot in enumerate(game.seats):
            scores.setdefault(bot, []).append(game.scores[seat])
            if seat in game.winners:
                wins[bot] = wins.get(bot, 0.0) + 1.0 / len(game.winners)
    fmt, pm = _ratings.format_elo, (lambda v: _ratings.format_elo(v, False))
    standings = []
    for r in rated.ratings:
        mine = scores.get(r.bot, [])
        standings.append({"rank": r.rank, "bot": r.bot, "elo": fmt(r.elo), "error": "0" if r.bot == rated.anchor
                          else pm(r.error), "games": r.games, "score": _percent(r.score), "los": _percent(r.los),
                          "wins": "%g" % round(wins.get(r.bot, 0.0), 2),
                          "win_rate": _percent(wins.get(r.bot, 0.0) / len(mine)) if mine else "",
                          "mean": "%.1f" % (sum(mine) / len(mine)) if mine else ""})
    bots = rated.bots
    cross = []
    for bot in bots:
        cells: List[Optional[Dict[str, Any]]] = []
        for other in bots:
            cell = rated.crosstable.get(bot, {}).get(other)
            if bot == other or cell is None:
                cells.append(None)
            else:
                cells.append({"points": "%g/%g" % (round(cell.points, 2), round(cell.weight, 2)),
                              "score": _percent(cell.score), "games": cell.games})
        cross.append({"bot": bot, "cells": cells})
    pair_rows = []
    for p in pairs:
        t, q = p.trinomial, p.pentanomial
        nelo, nelo_error = p.best.nelo
        pair_rows.append({"a": p.a, "b": p.b, "games": t.games, "wdl": "+%d =%d -%d" % (t.wins, t.draws, t.losses),
                          "ptnml": ", ".join(str(c) for c in q.counts) if q else "", "elo": fmt(p.best.elo),
                          "penta": pm(q.elo_error) if q else "", "tri": pm(t.elo_error),
                          "nelo": "%s +/- %s" % (fmt(nelo), pm(nelo_error)), "los": _percent(p.best.los)})
    sprt_view = None
    if sprt is not None:
        tested, unit = sprt_bot(pairs), sprt.test.unit
        verdict = {"H1": "H1 accepted: %s is %g %s stronger rather than %g" % (tested, sprt.test.elo1, unit,
                                                                              sprt.test.elo0),
                   "H0": "H0 accepted: %s is %g %s stronger rather than %g" % (tested, sprt.test.elo0, unit,
                                                                              sprt.test.elo1)}.get(
                       sprt.decision or "", "no decision: the games ran out first")
        sprt_view = {"llr": "%.2f" % sprt.llr, "lower": "%.2f" % sprt.test.lower, "upper": "%.2f" % sprt.test.upper,
                     "elo0": "%g" % sprt.test.elo0, "elo1": "%g" % sprt.test.elo1, "unit": sprt.test.unit,
                     "alpha": "%g" % sprt.test.alpha, "beta": "%g" % sprt.test.beta, "model": sprt.test.model,
                     "games": sprt.games, "counts": ", ".join(str(c) for c in sprt.counts), "verdict": verdict}
    histograms = [_histogram(bot, scores[bot]) for bot in bots if scores.get(bot)]
    template, style = _page()
    return template.render(
        title=title, lines=list(lines), style=style, standings=standings, anchor=rated.anchor,
        anchor_elo="%g" % rated.anchor_elo, games=rated.games, deals=rated.deals, notes=rated.notes,
        players="/".join(str(p) for p in sorted(rated.players)), plot=_plot(rated), bots=bots, cross=cross,
        pairs=pair_rows, sprt=sprt_view, histograms=histograms, version=__version__)


def sprt_bot(pairs: Sequence[_ratings.PairStats]) -> str:
    """The bot an SPRT tested: the first of its one pair."""
    return pairs[0].a if pairs else "the first bot"
