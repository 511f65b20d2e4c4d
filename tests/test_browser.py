"""The pictures, the replays and the ratings report in a real browser (headless Chromium through Playwright): an
SVG board renders, a replay steps with the arrow keys, the buttons and the slider, its picture changes, and no
script error is logged; the ratings report fits a phone's screen, escapes what the records say and meets WCAG 2.1
AA (axe-core).  Screenshots go to tests/artifacts/.  Skipped without Chromium outside CI (see
browser_playwright)."""

import hashlib
import os

import pytest

import azul_engine
from azul_engine import bots, ratings, replay, report, svg, tournament
from browser_playwright import ARTIFACTS, axe_violations, new_page, page  # noqa: F401  (page: a pytest fixture)
from svg_positions import GOLDEN_DIR, POSITIONS

# The whole module is long (pytest -m 'not slow' leaves it out; CI runs it).
pytestmark = pytest.mark.slow

ENGINE = azul_engine.load_backend(azul_engine.BACKEND)


def shot(p, name, **kwargs):
    path = os.path.join(ARTIFACTS, name + ".png")
    data = p.screenshot(path=path, **kwargs)
    return hashlib.sha256(data).hexdigest()


@pytest.mark.parametrize("name", ["classic-2p-hint", "grey-2p-tiling", "pavilion-3p-play"])
def test_svg_board_renders(page, name):
    assert name in POSITIONS
    url = "file://" + os.path.join(GOLDEN_DIR, name + ".svg")
    page.goto(url)
    # Chromium's XML parser took it as an SVG document (a parse error would show an error page instead)
    assert page.evaluate("document.documentElement.namespaceURI") == "http://www.w3.org/2000/svg"
    assert page.evaluate("document.getElementsByTagName('parsererror').length") == 0
    size = page.evaluate("(() => { const b = document.documentElement.getBoundingClientRect(); "
                         "return [b.width, b.height]; })()")
    assert size[0] > 300 and size[1] > 300
    # tiles are drawn: the symbols' rendered boxes are real, and every tile letter is laid out
    boxes = page.evaluate("Array.from(document.querySelectorAll('#player-0 use')).map(u => u.getBBox().width)")
    assert boxes and all(w > 0 for w in boxes)
    letters = page.evaluate("Array.from(document.querySelectorAll('symbol text')).map(t => t.getComputedTextLength())")
    assert letters and all(w > 0 for w in letters)
    shot(page, "board-" + name)
    assert page.problems == [] and page.requests == []


def test_svg_inline_in_a_page(page):
    state = ENGINE.new_game(players=4, variant="summer-pavilion", seed=3)
    page.set_content("<!DOCTYPE html><html><body>%s</body></html>" % svg.board(state, size=500))
    width = page.evaluate("document.querySelector('svg').getBoundingClientRect().width")
    assert abs(width - 500) < 1
    shot(page, "board-inline-pavilion-4p")
    assert page.problems == []


def frame(p):
    return int(p.get_attribute("body", "data-frame"))


@pytest.mark.parametrize("players,variant,seed", [(2, "classic", 3), (3, "grey", 5), (2, "summer-pavilion", 4)])
def test_replay_steps_with_keys_buttons_and_slider(page, tmp_path, players, variant, seed):
    record = bots.play(ENGINE, players, variant, seed, "greedy").record()
    path = tmp_path / ("replay-%s.html" % variant)
    path.write_text(replay.to_html(record), encoding="utf-8")
    page.goto("file://%s" % path)
    page.wait_for_function("document.body.getAttribute('data-frame') === '0'")
    moves = [m for r in record["rounds"] for m in r["moves"] if not m.startswith("~")]
    first = shot(page, "replay-%s-start" % variant, full_page=True)
    board0 = page.inner_html("#board")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    assert frame(page) == 3
    assert moves[2] in page.text_content("#where")
    assert page.inner_html("#board") != board0
    assert shot(page, "replay-%s-move3" % variant, full_page=True) != first
    page.keyboard.press("ArrowLeft")
    assert frame(page) == 2
    page.keyboard.press("End")
    assert frame(page) == len(moves)
    assert "game over" in page.text_content("#where")
    assert "game over" in page.text_content("#board")
    shot(page, "replay-%s-end" % variant, full_page=True)
    page.keyboard.press("ArrowRight")  # past the end: stays
    assert frame(page) == len(moves)
    page.keyboard.press("Home")
    assert frame(page) == 0 and page.inner_html("#board") == board0
    page.click("#next")
    assert frame(page) == 1
    page.click("#last")
    assert frame(page) == len(moves)
    page.click("#first")
    assert frame(page) == 0
    page.eval_on_selector("#slider", "(s, n) => { s.value = n; s.dispatchEvent(new Event('input')); }",
                          len(moves) // 2)
    assert frame(page) == len(moves) // 2
    page.click("#moves li >> nth=4")  # a move in the list
    assert frame(page) == 5
    assert page.url.endswith("#5")
    page.goto("file://%s#7" % path)  # a link to a move opens the page there
    page.reload()
    page.wait_for_function("document.body.getAttribute('data-frame') === '7'")
    assert page.problems == [], page.problems
    assert page.requests == [], "the replay asked the network for %s" % page.requests


PHONE = {"width": 360, "height": 740}
EVIL = '<img src=x onerror="document.title=1">mcts'


@pytest.mark.parametrize("viewport", [PHONE, {"width": 1200, "height": 900}], ids=["phone", "desktop"])
def test_the_ratings_report_fits_a_phone_and_meets_wcag_21_aa(browser, tmp_path, viewport):
    """A report of a real tournament of three bots, one of them renamed in its records to markup (a record's spec
    is the file's text), with an SPRT block: on a phone the page itself never scrolls sideways (the wide tables
    scroll in their own focusable regions), the markup shows as text, the plot has a dot per bot, and axe-core
    finds no WCAG 2.1 A or AA violation."""
    result = tournament.run(tournament.plan(["random", "greedy", "mcts:10"], players=2, deals=2, seed=4), workers=1)
    games = [ratings.GameResult([EVIL if b == "mcts:10" else b for b in g.seats], g.scores, g.winners, g.deal)
             for g in result.games()]
    rated = ratings.rate(games, anchor="greedy")
    state = tournament.SPRTState(ratings.SPRT(0, 10))
    state.counts, state.games = [0, 1, 0, 2, 1], 8
    state.llr = state.test.llr(state.counts)
    path = tmp_path / "report.html"
    path.write_text(report.to_html(rated, games, ratings.all_pair_stats(games, rated.bots), title="A <b>test</b>",
                                   lines=["3 bots, 12 games"], sprt=state), encoding="utf-8")
    p = new_page(browser, viewport=viewport)
    try:
        p.goto("file://%s" % path)
        assert p.title() == "A <b>test</b>"  # the title's markup is text, and no script changed it
        assert p.evaluate("document.querySelectorAll('img, b').length") == 0
        assert EVIL in p.inner_text("#standings") and EVIL in p.inner_text("#crosstable")
        assert p.evaluate("document.querySelectorAll('#plot circle').length") == 3
        assert p.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
        for region in p.query_selector_all(".scroll"):
            assert region.get_attribute("tabindex") == "0" and region.get_attribute("role") == "region"
        assert "no decision" in p.inner_text("#sprt-verdict")
        shot(p, "ratings-report-%d" % viewport["width"], full_page=True)
        assert axe_violations(p) == []
        assert p.problems == [] and p.requests == []
    finally:
        p.context.close()
