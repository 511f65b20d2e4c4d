"""The web app in a real browser: Debian's headless chromium through Playwright (tests/browser_playwright.py),
the same browser and driver as the SVG and replay tests.

Skipped with a reason outside CI when chromium or Playwright is missing; in CI that fails. The pages may reach
the test's own server of the app on the loopback address and nothing else; a console error or a script error fails the
test. Screenshots go to tests/artifacts/ (browser_playwright.ARTIFACTS, gitignored).
"""

import json
import os
import re

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")

from browser_playwright import ARTIFACTS, axe_violations, new_page  # noqa: E402  (the browser fixture is conftest's)
from web_support import Server, finished_game, table_rounds  # noqa: E402

from azul_engine.web import i18n  # noqa: E402
from azul_engine.web.app import create_app  # noqa: E402

TIMEOUT_MS = 30000
PHONE = dict(viewport={"width": 375, "height": 812}, device_scale_factor=1, is_mobile=True, has_touch=True)
DOCS = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "docs")


@pytest.fixture
def server(engine):
    s = Server(create_app(engine))
    yield s
    s.stop()


# The app refuses a move with 400, 409 or 422 and its message (shown on the page); the browser logs each such
# answer as a console error, which is no problem of the page's. Any other failed load (a 404 for one of the app's
# files, a 5xx) is.
REFUSAL = re.compile(r"^console error: Failed to load resource: the server responded with a status of (400|409|422) ")


def _page(browser, server, **options):
    p = new_page(browser, allow=(server.url + "/",), **options)
    try:
        yield p
    finally:
        problems, requests = [x for x in p.problems if not REFUSAL.match(x)], p.requests
        p.context.close()
    assert problems == [], problems
    assert requests == [], "the page asked the network for %s" % requests


@pytest.fixture
def page(browser, server):
    yield from _page(browser, server, viewport={"width": 1100, "height": 900})


@pytest.fixture
def phone(browser, server):
    """A 375 px wide touch screen."""
    yield from _page(browser, server, **PHONE)


def screenshot(p, name, folder=ARTIFACTS):
    os.makedirs(folder, exist_ok=True)
    return p.screenshot(path=os.path.join(folder, name + ".png"), full_page=True)


def idle(p):
    """Waits until the page's script has its answer from the server (body data-busy back to 0)."""
    p.wait_for_function("document.body.dataset.busy === '0'", timeout=TIMEOUT_MS)


def click(p, selector, tap=False):
    found = p.locator(selector).first
    assert found.count(), selector
    found.tap() if tap else found.click()
    idle(p)


def message(p):
    shown = p.locator("#msg")
    return shown.inner_text().strip() if shown.count() and shown.is_visible() else ""


def fresh(p, url):
    """The page at url with a new session (no cookie)."""
    p.context.clear_cookies()
    p.goto(url)
    idle(p)


def width(p):
    return p.evaluate("document.documentElement.scrollWidth")


def start_sheet(p, server, variant, players, lang="en"):
    fresh(p, server.url + "/sheet?lang=" + lang)
    p.select_option("select[name=variant]", variant)
    p.select_option("select[name=players]", str(players))
    click(p, "#start")


def enter_round(p, variant, entry, refuse_second_tile=False):
    for seat, tiles in enumerate(entry["tiles"]):
        for t in tiles:
            if variant == "grey":
                click(p, 'input[name=colour][value="%s"]' % t["colour"])
            click(p, '.board[data-player="%d"] [data-cell="%d%d"]' % (seat, t["row"] + 1, t["col"] + 1))
            assert message(p) == "", message(p)
            if refuse_second_tile:
                refuse_second_tile = False
                other = next(c for c in range(5) if c != t["col"])
                click(p, '.board[data-player="%d"] [data-cell="%d%d"]' % (seat, t["row"] + 1, other + 1))
                assert "already has a tile this round" in message(p)
                placed = [x for x in tiles if tiles.index(x) <= tiles.index(t)]
                assert p.locator('.board[data-player="%d"] .cell.new' % seat).count() == len(placed)
        for _ in range(entry["floors"][seat]):
            click(p, '.board[data-player="%d"] button[data-post="/api/sheet/floor"][data-step="+"]' % seat)
    click(p, '.board[data-player="%d"] .markerb' % entry["marker"])
    click(p, "#score-round")
    assert message(p) == "", message(p)


def last_scores(p):
    cells = p.locator("table.rounds tr").last.locator("td")
    return [int(cells.nth(i).get_attribute("data-score")) for i in range(cells.count())]


def test_a_whole_classic_game_scored_round_by_round(page, server, engine):
    game = finished_game(engine, 2, "classic", 1)
    rounds = table_rounds(game)
    start_sheet(page, server, "classic", 2)
    for i, entry in enumerate(rounds):
        enter_round(page, "classic", entry, refuse_second_tile=(i == 0))
        assert last_scores(page) == entry["scores"]
        if i == 0:
            screenshot(page, "sheet-classic-round-1")
    winners = page.inner_text("#winners")
    assert all(("Seat %d" % (w + 1)) in winners or ("Player %d" % (w + 1)) in winners for w in game.winners)
    finals = page.locator("table.final td[data-final]")
    assert [int(finals.nth(i).get_attribute("data-final")) for i in range(finals.count())] == game.scores
    screenshot(page, "sheet-classic-final")
    if os.environ.get("AZUL_DOCS_SCREENSHOT"):  # the README's picture: AZUL_DOCS_SCREENSHOT=1 pytest -k whole
        screenshot(page, "web-sheet", DOCS)


def test_a_grey_wall_round(page, server, engine):
    game = finished_game(engine, 3, "grey", 4)
    entry = table_rounds(game)[0]
    start_sheet(page, server, "grey", 3)
    enter_round(page, "grey", entry)
    assert last_scores(page) == entry["scores"]
    screenshot(page, "sheet-grey-round-1")


def test_a_score_check(page, server):
    fresh(page, server.url + "/check?lang=en")
    page.fill("textarea[name=wall]", "BYRKW\nWBYRK\n..B..\n...B.\n....B")
    page.fill("input[name=score]", "48")
    click(page, "#check-wall")
    assert page.inner_text("#final-score").strip() == "48 + 14 = 62"
    screenshot(page, "score-check")


def test_a_language_switch(page, server):
    fresh(page, server.url + "/?lang=en")
    assert page.inner_text("header h1").strip() == "Azul at the table"
    page.select_option("#lang", "ru")
    # (The choice reloads the page: the heading may be missing for a moment.)
    page.wait_for_function("document.querySelector('header h1')?.innerText.trim() === 'Азул за столом'",
                           timeout=TIMEOUT_MS)
    page.goto(server.url + "/check")  # the choice stays with the session
    assert "Проверка счёта" in page.inner_text("main h2")
    screenshot(page, "language-ru")


def test_a_game_against_a_bot_on_a_phone(phone, server):
    """A whole game against the greedy bot at 375 px, every move a tap."""
    fresh(phone, server.url + "/play?lang=en")
    click(phone, "#start", tap=True)  # seat 1 a person, seat 2 the greedy bot
    assert width(phone) <= 375
    click(phone, "#hint", tap=True)
    assert "Suggested move" in phone.inner_text("#hint-text")
    for step in range(800):
        if phone.locator("#winners").count():
            break
        for selector in (".cell.pick", ".lineb.pick", "[data-take]"):
            if phone.locator(selector).count():
                click(phone, selector, tap=True)
                break
        else:
            pytest.fail("nothing to tap and no winner: " + phone.content()[:500])
        assert message(phone) in ("", "The bots have moved."), message(phone)
        if step == 2:
            screenshot(phone, "play-phone")
    assert phone.locator("#winners").count()
    assert width(phone) <= 375
    screenshot(phone, "play-phone-final")


def test_pages_fit_a_phone(phone, server):
    """At 375 px every page, the score sheets with a round entered included, needs no sideways scrolling."""
    for variant in ("classic", "summer-pavilion"):
        start_sheet(phone, server, variant, 4, lang="cs")
        if variant == "classic":
            click(phone, '.board[data-player="3"] [data-cell="11"]', tap=True)
            click(phone, '.board[data-player="2"] .markerb', tap=True)
        else:
            click(phone, '.board[data-player="3"] [data-space="C1"]', tap=True)
            click(phone, '.board[data-player="2"] .tokenb', tap=True)
        click(phone, "#score-round", tap=True)
        assert message(phone) == "", message(phone)
        assert width(phone) <= 375, variant
        screenshot(phone, "sheet-phone-" + variant)
    for path in ("/", "/check", "/replay"):
        fresh(phone, server.url + path + "?lang=uk")
        assert width(phone) <= 375, path


def test_the_replay_viewer(page, server, engine, tmp_path):
    game = finished_game(engine, 2, "grey", 8)
    path = tmp_path / "games.jsonl"
    path.write_text(game.record_json() + "\n")
    fresh(page, server.url + "/replay?lang=en")
    page.set_input_files("#replayfile", str(path))
    click(page, "#replay-load")
    assert message(page) == "", message(page)
    click(page, "#rp-last")
    assert page.inner_text("#rp-pos").startswith("Move ")
    heads = page.locator(".board h3")
    assert [int(heads.nth(i).inner_text().split()[-1]) for i in range(heads.count())] == game.scores
    click(page, "#rp-prev")
    assert page.inner_text("#rp-pos").strip() != ""
    screenshot(page, "replay")


def _box(p, selector):
    return p.locator(selector).first.bounding_box()


def test_the_end_of_a_sheet_on_a_phone(phone, server, engine):
    """At 375 px: the final totals are on screen (first after the names), the buttons do not overlap, and a new
    sheet asks first (dismissed: the sheet stays; accepted: a new one)."""
    game = finished_game(engine, 2, "classic", 1)
    start_sheet(phone, server, "classic", 2)
    for entry in table_rounds(game):
        enter_round(phone, "classic", entry)
    total = _box(phone, "table.final td[data-final]")
    assert total is not None and total["x"] + total["width"] <= PHONE["viewport"]["width"], total
    buttons = phone.locator("p.actions > *:visible")  # the record search's progress bar is hidden until used
    boxes = [buttons.nth(i).bounding_box() for i in range(buttons.count())]
    assert len(boxes) >= 2
    for i, a in enumerate(boxes):
        for b in boxes[i + 1:]:
            apart = (a["x"] + a["width"] <= b["x"] or b["x"] + b["width"] <= a["x"] or
                     a["y"] + a["height"] <= b["y"] or b["y"] + b["height"] <= a["y"])
            assert apart, (a, b)
    asked = []
    phone.once("dialog", lambda d: (asked.append(d.message), d.dismiss()))
    click(phone, 'button[data-post="/api/sheet/reset"]')
    assert asked and "new score sheet" in asked[0].lower()
    assert phone.locator("table.final").count() == 1  # kept
    phone.once("dialog", lambda d: d.accept())
    click(phone, 'button[data-post="/api/sheet/reset"]')
    assert phone.locator("table.final").count() == 0 and phone.locator("#start").count() == 1
    screenshot(phone, "sheet-phone-new")


def test_the_keyboard_keeps_its_place_after_an_action(page, server):
    """Enter on a wall cell (a button): the page part is redrawn and the focus is on the same cell again, not at
    the top of the page; then Tab goes on from there."""
    start_sheet(page, server, "classic", 2)
    cell = '.board[data-player="1"] [data-cell="32"]'
    page.locator(cell).first.focus()
    page.keyboard.press("Enter")
    idle(page)
    assert page.locator('.board[data-player="1"] .cell.new').count() == 1
    assert page.evaluate("document.activeElement.matches(%r)" % cell)
    page.keyboard.press("Enter")  # the same cell again: the tile is taken back
    idle(page)
    assert page.locator('.board[data-player="1"] .cell.new').count() == 0
    assert page.evaluate("document.activeElement.matches(%r)" % cell)


def test_the_arrow_keys_step_through_a_replay(page, server, engine):
    game = finished_game(engine, 2, "classic", 3)
    fresh(page, server.url + "/replay")
    page.set_input_files("#replayfile", files=[{"name": "g.jsonl", "mimeType": "application/json",
                                                "buffer": (game.record_json() + "\n").encode()}])
    click(page, "#replay-load")
    where = lambda: page.inner_text("#rp-pos")  # noqa: E731
    start = where()
    page.keyboard.press("ArrowRight")
    idle(page)
    assert where() != start and "1" in where()
    page.keyboard.press("End")
    idle(page)
    assert page.locator("#rp-next").is_disabled() and page.locator("#rp-last").is_disabled()
    page.keyboard.press("Home")
    idle(page)
    assert where() == start


@pytest.mark.parametrize("lang", ["en", "ru", "uk", "fr", "cs"])
def test_every_page_meets_wcag_21_aa(page, server, engine, lang):
    """axe-core in chromium, on each page empty and in use: a sheet of each kind being entered and finished, a
    game against the bots, a loaded replay."""
    problems = {}

    def check(name):
        problems.update({name + ": " + v: 1 for v in axe_violations(page)})

    for path in ("/", "/sheet", "/check", "/play", "/replay"):
        fresh(page, server.url + path + "?lang=" + lang)
        check(path)
    for variant in ("classic", "grey", "summer-pavilion"):
        start_sheet(page, server, variant, 3, lang)
        check("sheet " + variant)
    game = finished_game(engine, 2, "classic", 1)
    start_sheet(page, server, "classic", 2, lang)
    for entry in table_rounds(game):
        enter_round(page, "classic", entry)
    check("finished sheet")
    fresh(page, server.url + "/play?lang=" + lang)
    click(page, "#start")
    check("play")
    fresh(page, server.url + "/replay?lang=" + lang)
    page.set_input_files("#replayfile", files=[{"name": "g.jsonl", "mimeType": "application/json",
                                                "buffer": (game.record_json() + "\n").encode()}])
    click(page, "#replay-load")
    check("replay")
    assert not problems, "\n".join(problems)


def _luminance(rgb):
    def channel(v):
        v /= 255
        return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4
    r, g, b = (channel(int(x)) for x in re.findall(r"\d+", rgb)[:3])
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def test_the_first_player_marker_is_legible(page, server):
    """The "1" on the marker against its tile: at least WCAG AA's 4.5:1 (it was 2.33:1)."""
    start_sheet(page, server, "classic", 2)
    colours = page.evaluate("(() => { const s = getComputedStyle(document.querySelector('.tile.t-M'));"
                            " return [s.color, s.backgroundColor]; })()")
    fg, bg = sorted((_luminance(c) for c in colours), reverse=True)
    assert (fg + 0.05) / (bg + 0.05) >= 4.5, colours


def test_the_summer_pavilion_pickers_sit_by_their_board_and_keep_their_choice(phone, server):
    """At 375 px the colour and wild-tile pickers of player 4 are on one screen with player 4's board (they were
    one form at the top, ~1,100 px away), they keep their choice after a tap (they went back to purple and 0),
    and each tile of the round shows its place in the order, which the round's score depends on."""
    start_sheet(phone, server, "summer-pavilion", 4)
    board = '.board[data-player="3"]'
    picker, cell = _box(phone, "#pvform-3"), _box(phone, board + ' [data-space="C1"]')
    assert picker is not None and 0 < cell["y"] - picker["y"] < PHONE["viewport"]["height"] / 2, (picker, cell)
    click(phone, '#pvform-3 input[name=colour][value="B"]', tap=True)
    phone.select_option("#pvform-3 select[name=wilds]", "1")
    click(phone, board + ' [data-space="C3"]', tap=True)  # blue, paid with 2 blue and 1 wild
    assert message(phone) == "", message(phone)
    assert phone.locator('#pvform-3 input[name=colour][value="B"]').is_checked()
    assert phone.locator("#pvform-3 select[name=wilds]").input_value() == "1"
    assert phone.locator('#pvform-0 input[name=colour][value="P"]').is_checked()  # the others' are their own
    for space in ("O1", "O3", "O2"):
        click(phone, '.board[data-player="0"] [data-space="%s"]' % space, tap=True)
        assert message(phone) == "", message(phone)
    nth = [phone.locator('.board[data-player="0"] [data-space="%s"] .nth' % s).inner_text() for s in ("O1", "O3", "O2")]
    assert nth == ["1", "2", "3"]
    label = phone.locator('.board[data-player="0"] [data-space="O2"]').get_attribute("aria-label")
    assert label.endswith("placed this round as number 3"), label
    assert width(phone) <= 375
    screenshot(phone, "sheet-phone-pavilion-pickers")


def test_the_record_of_a_finished_sheet_downloads_after_its_search(page, server, engine):
    """The link asks the server where the search stands (a progress bar meanwhile), then downloads the record."""
    game = finished_game(engine, 2, "classic", 2)
    start_sheet(page, server, "classic", 2)
    for entry in table_rounds(game):
        enter_round(page, "classic", entry)
    with page.expect_download(timeout=TIMEOUT_MS) as download:
        page.locator("#sheet-record").click()
    path = download.value.path()
    record = json.loads(open(path).read())
    assert record["final_scores"] == game.scores
    idle(page)
    assert message(page) == i18n.text("en", "record_found")
