"""The web app in a real browser: Debian's headless chromium through Selenium (tests/browser_support.py).

Skipped with a reason outside CI when chromium, chromium-driver or Selenium is missing; in CI that fails.
Screenshots go to screenshots/ (browser_support.SCREENSHOTS, gitignored).
"""

import os
import time

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")

import browser_support  # noqa: E402
from web_support import Server, finished_game, table_rounds  # noqa: E402

from azul_engine.web.app import create_app  # noqa: E402

TIMEOUT = 30


@pytest.fixture(scope="module")
def driver():
    d = browser_support.browser()
    yield d
    d.quit()


@pytest.fixture
def server(engine):
    s = Server(create_app(engine))
    yield s
    s.stop()


def css(d, selector):
    from selenium.webdriver.common.by import By

    return d.find_elements(By.CSS_SELECTOR, selector)


def idle(d):
    deadline = time.monotonic() + TIMEOUT
    while d.execute_script("return document.body.dataset.busy") != "0":
        assert time.monotonic() < deadline, "the page did not answer"
        time.sleep(0.02)


def click(d, selector):
    found = css(d, selector)
    assert found, selector
    found[0].click()
    idle(d)


def message(d):
    shown = css(d, "#msg")
    return shown[0].text if shown and shown[0].is_displayed() else ""


def fresh(d, url):
    d.delete_all_cookies()
    d.get(url)
    idle(d)


def start_sheet(d, server, variant, players):
    from selenium.webdriver.support.ui import Select

    fresh(d, server.url + "/sheet?lang=en")
    Select(css(d, "select[name=variant]")[0]).select_by_value(variant)
    Select(css(d, "select[name=players]")[0]).select_by_value(str(players))
    click(d, "#start")


def enter_round(d, variant, entry, refuse_second_tile=False):
    for p, tiles in enumerate(entry["tiles"]):
        for t in tiles:
            if variant == "grey":
                click(d, 'input[name=colour][value="%s"]' % t["colour"])
            click(d, '.board[data-player="%d"] [data-cell="%d%d"]' % (p, t["row"] + 1, t["col"] + 1))
            assert message(d) == "", message(d)
            if refuse_second_tile:
                refuse_second_tile = False
                other = next(c for c in range(5) if c != t["col"])
                click(d, '.board[data-player="%d"] [data-cell="%d%d"]' % (p, t["row"] + 1, other + 1))
                assert "already has a tile this round" in message(d)
                assert len(css(d, ".board[data-player=\"%d\"] .cell.new" % p)) == len(
                    [x for x in tiles if tiles.index(x) <= tiles.index(t)])
        for _ in range(entry["floors"][p]):
            click(d, '.board[data-player="%d"] button[aria-label="+"]' % p)
    click(d, '.board[data-player="%d"] .markerb' % entry["marker"])
    click(d, "#score-round")
    assert message(d) == "", message(d)


def last_scores(d):
    rows = css(d, "table.rounds tr")
    return [int(td.get_attribute("data-score")) for td in rows[-1].find_elements("css selector", "td")]


def test_a_whole_classic_game_scored_round_by_round(driver, server, engine):
    game = finished_game(engine, 2, "classic", 1)
    rounds = table_rounds(game)
    start_sheet(driver, server, "classic", 2)
    for i, entry in enumerate(rounds):
        enter_round(driver, "classic", entry, refuse_second_tile=(i == 0))
        assert last_scores(driver) == entry["scores"]
        if i == 0:
            browser_support.screenshot(driver, "sheet-classic-round-1")
    winners = css(driver, "#winners")[0].text
    assert all(("Seat %d" % (w + 1)) in winners or ("Player %d" % (w + 1)) in winners for w in game.winners)
    finals = [int(td.get_attribute("data-final")) for td in css(driver, "table.final td[data-final]")]
    assert finals == game.scores
    browser_support.screenshot(driver, "sheet-classic-final")
    if os.environ.get("AZUL_DOCS_SCREENSHOT"):  # the README's picture: AZUL_DOCS_SCREENSHOT=1 pytest -k whole
        browser_support.screenshot(driver, "web-sheet", browser_support.SCREENSHOTS.parent / "docs")


def test_a_grey_wall_round(driver, server, engine):
    game = finished_game(engine, 3, "grey", 4)
    entry = table_rounds(game)[0]
    start_sheet(driver, server, "grey", 3)
    enter_round(driver, "grey", entry)
    assert last_scores(driver) == entry["scores"]
    browser_support.screenshot(driver, "sheet-grey-round-1")


def test_a_score_check(driver, server):
    fresh(driver, server.url + "/check?lang=en")
    area = css(driver, "textarea[name=wall]")[0]
    area.clear()
    area.send_keys("BYRKW\nWBYRK\n..B..\n...B.\n....B")
    score = css(driver, "input[name=score]")[0]
    score.clear()
    score.send_keys("48")
    click(driver, "#check-wall")
    assert css(driver, "#final-score")[0].text == "48 + 14 = 62"
    browser_support.screenshot(driver, "score-check")


def test_a_language_switch(driver, server):
    from selenium.webdriver.support.ui import Select

    fresh(driver, server.url + "/?lang=en")
    assert css(driver, "header h1")[0].text == "Azul at the table"
    Select(css(driver, "#lang")[0]).select_by_value("ru")
    deadline = time.monotonic() + TIMEOUT
    while css(driver, "header h1")[0].text != "Азул за столом":
        assert time.monotonic() < deadline
        time.sleep(0.05)
    driver.get(server.url + "/check")  # the choice stays with the session
    assert "Проверка счёта" in css(driver, "main h2")[0].text
    browser_support.screenshot(driver, "language-ru")


def test_a_game_against_a_bot_on_a_phone(driver, server):
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": 375, "height": 812, "deviceScaleFactor": 1, "mobile": True})
    driver.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": True})
    try:
        fresh(driver, server.url + "/play?lang=en")
        click(driver, "#start")  # seat 1 a person, seat 2 the greedy bot
        assert driver.execute_script("return document.documentElement.scrollWidth") <= 375
        click(driver, "#hint")
        assert "Suggested move" in css(driver, "#hint-text")[0].text
        for step in range(800):
            if css(driver, "#winners"):
                break
            for selector in (".cell.pick", ".lineb.pick", "[data-take]"):
                if css(driver, selector):
                    click(driver, selector)
                    break
            else:
                pytest.fail("nothing to tap and no winner: " + driver.page_source[:500])
            assert message(driver) in ("", "The bots have moved."), message(driver)
            if step == 2:
                browser_support.screenshot(driver, "play-phone")
        assert css(driver, "#winners")
        assert driver.execute_script("return document.documentElement.scrollWidth") <= 375
        browser_support.screenshot(driver, "play-phone-final")
    finally:
        driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
        driver.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": False})


def test_pages_fit_a_phone(driver, server):
    """At 375 px every page, the score sheets with a round entered included, needs no sideways scrolling."""
    from selenium.webdriver.support.ui import Select

    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": 375, "height": 812, "deviceScaleFactor": 1, "mobile": True})
    try:
        for variant in ("classic", "summer-pavilion"):
            fresh(driver, server.url + "/sheet?lang=cs")
            Select(css(driver, "select[name=variant]")[0]).select_by_value(variant)
            Select(css(driver, "select[name=players]")[0]).select_by_value("4")
            click(driver, "#start")
            if variant == "classic":
                click(driver, '.board[data-player="3"] [data-cell="11"]')
                click(driver, '.board[data-player="2"] .markerb')
            else:
                click(driver, '.board[data-player="3"] [data-space="C1"]')
                click(driver, '.board[data-player="2"] .tokenb')
            click(driver, "#score-round")
            assert message(driver) == "", message(driver)
            assert driver.execute_script("return document.documentElement.scrollWidth") <= 375, variant
            browser_support.screenshot(driver, "sheet-phone-" + variant)
        for path in ("/", "/check", "/replay"):
            fresh(driver, server.url + path + "?lang=uk")
            assert driver.execute_script("return document.documentElement.scrollWidth") <= 375, path
    finally:
        driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def test_the_replay_viewer(driver, server, engine, tmp_path):
    game = finished_game(engine, 2, "grey", 8)
    path = tmp_path / "games.jsonl"
    path.write_text(game.record_json() + "\n")
    fresh(driver, server.url + "/replay?lang=en")
    css(driver, "#replayfile")[0].send_keys(str(path))
    click(driver, "#replay-load")
    assert message(driver) == "", message(driver)
    click(driver, "#rp-last")
    assert css(driver, "#rp-pos")[0].text.startswith("Move ")
    scores = [int(h.text.split()[-1]) for h in css(driver, ".board h3")]
    assert scores == game.scores
    click(driver, "#rp-prev")
    assert css(driver, "#rp-pos")[0].text != ""
    browser_support.screenshot(driver, "replay")
