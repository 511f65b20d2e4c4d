"""The web app's sessions under abuse (issue 23): requests without cookies make no session and wipe none,
cross-site requests change nothing, and a session whose bots think (its lock held) holds up no one else."""

import http.client
import threading

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

from starlette.testclient import TestClient  # noqa: E402

from azul_engine.web.app import create_app  # noqa: E402

from web_support import Server  # noqa: E402

NEW_SHEET = {"variant": "classic", "players": "2", "name0": "Anna", "name1": "Boris"}


@pytest.fixture
def app(engine):
    return create_app(engine, max_sessions=50)


def test_requests_without_cookies_make_no_session_and_drop_no_sheet(app):
    with TestClient(app) as user, TestClient(app) as crowd:
        assert user.post("/api/sheet/new", json=NEW_SHEET).status_code == 200
        token = user.cookies.get("azul_session")
        assert token and list(app.state.sessions.items) == [token]
        for i in range(120):  # more than the 50 sessions kept, as any web page could make a browser send
            crowd.cookies.clear()
            r = crowd.get(("/", "/sheet", "/check", "/play", "/replay")[i % 5])
            assert r.status_code == 200 and "azul_session" not in r.cookies
        assert list(app.state.sessions.items) == [token]
        assert app.state.sessions.items[token].sheet["names"] == ["Anna", "Boris"]
        assert "Anna" in user.get("/sheet").text


@pytest.mark.slow
@pytest.mark.parametrize("headers", [{"sec-fetch-site": "cross-site"}, {"sec-fetch-site": "same-site"},
                                     {"referer": "https://evil.example/page.html"},
                                     {"origin": "https://evil.example"}])
def test_requests_from_another_site_make_no_session_and_drop_no_sheet(app, headers):
    """What an <img src="http://127.0.0.1:8000/?lang=fr"> on any web page makes a browser send (issue 38): more of
    them than the sessions kept neither make a session nor push a person's live sheet out, and they change
    nothing of the sessions there are; the page itself still comes in the language asked for."""
    with TestClient(app) as user, TestClient(app) as crowd:
        assert user.post("/api/sheet/new", json=NEW_SHEET).status_code == 200
        token = user.cookies.get("azul_session")
        for i in range(51):  # one more than the 50 sessions kept
            crowd.cookies.clear()
            r = crowd.get("/?lang=fr", headers=headers)
            assert r.status_code == 200 and "azul_session" not in r.cookies and 'lang="fr"' in r.text
        assert list(app.state.sessions.items) == [token]
        assert app.state.sessions.items[token].lang is None
        assert "Anna" in user.get("/sheet").text


def test_a_chosen_language_or_a_sheet_keeps_a_session(app):
    with TestClient(app) as c:
        r = c.get("/?lang=ru")
        assert "azul_session" in r.cookies and 'lang="ru"' in c.get("/").text
    for headers in ({"sec-fetch-site": "same-origin", "referer": "http://testserver/check"},
                    {"sec-fetch-site": "none"}):  # a link of the app's own pages; an address typed
        with TestClient(app) as c:
            r = c.get("/?lang=uk", headers=headers)
            assert "azul_session" in r.cookies and 'lang="uk"' in c.get("/").text


@pytest.mark.parametrize("headers", [{"origin": "https://evil.example"}, {"origin": "null"},
                                     {"sec-fetch-site": "cross-site"}, {"sec-fetch-site": "same-site"},
                                     {"origin": "http://testserver.evil.example"}])
def test_a_cross_site_request_changes_nothing(app, headers):
    with TestClient(app) as c:
        assert c.post("/api/sheet/new", json=NEW_SHEET).status_code == 200
        r = c.post("/api/sheet/reset", json={}, headers=headers)
        assert r.status_code == 403 and r.json()["error"] == "refused: the request came from another site"
        session = app.state.sessions.items[c.cookies.get("azul_session")]
        assert session.sheet is not None and session.sheet["names"] == ["Anna", "Boris"]


@pytest.mark.parametrize("headers", [{}, {"origin": "http://testserver"}, {"sec-fetch-site": "same-origin"}])
def test_a_same_site_or_scripted_request_is_served(app, headers):
    with TestClient(app) as c:
        assert c.post("/api/sheet/new", json=NEW_SHEET, headers=headers).status_code == 200


@pytest.mark.slow
def test_a_session_that_holds_its_lock_holds_up_no_one_else(app):
    """As when a session reloads /play while its bots think: its own request waits for its lock, on a worker
    thread; every other client is answered meanwhile (the lock is released only after they are)."""
    server = Server(app)
    try:
        conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=60)
        conn.request("POST", "/api/sheet/new", body=b'{"variant": "classic", "players": 2}',
                     headers={"content-type": "application/json"})
        resp = conn.getresponse()
        resp.read()
        assert resp.status == 200
        cookie = resp.getheader("set-cookie").split(";")[0]
        session = app.state.sessions.items[cookie.split("=", 1)[1]]
        session.lock.acquire()  # its bots are thinking
        try:
            waiting = {}

            def reload():
                c = http.client.HTTPConnection("127.0.0.1", server.port, timeout=60)
                c.request("GET", "/play", headers={"cookie": cookie})
                waiting["status"] = c.getresponse().status

            blocked = threading.Thread(target=reload, daemon=True)
            blocked.start()
            blocked.join(0.5)
            assert blocked.is_alive()  # it waits for the session's lock
            for path in ("/", "/check", "/sheet"):
                other = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
                other.request("GET", path)  # would wait behind the blocked request on a blocked event loop
                assert other.getresponse().status == 200
            assert blocked.is_alive()
        finally:
            session.lock.release()
        blocked.join(30)
        assert waiting.get("status") == 200
    finally:
        server.stop()


@pytest.mark.slow
def test_a_client_that_goes_mid_body_leaves_no_traceback(app):
    import logging
    import socket
    import time

    seen = []

    class Keep(logging.Handler):
        def emit(self, record):
            seen.append(record)

    keep = Keep(logging.DEBUG)
    loggers = [logging.getLogger(name) for name in ("uvicorn.error", "uvicorn", "starlette", "")]
    server = Server(app)
    for logger in loggers:
        logger.addHandler(keep)
    try:
        sock = socket.create_connection(("127.0.0.1", server.port), timeout=10)
        sock.sendall(b"POST /api/sheet/new HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                     b"Content-Length: 1000\r\n\r\n{\"variant\": ")
        time.sleep(0.3)  # the app is reading the body
        sock.close()
        time.sleep(0.5)
        conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
        conn.request("GET", "/")
        assert conn.getresponse().status == 200
        assert not [r for r in seen if r.exc_info or "Exception" in r.getMessage()], [r.getMessage() for r in seen]
    finally:
        for logger in loggers:
            logger.removeHandler(keep)
        server.stop()


@pytest.mark.parametrize("lang", ["en", "ru", "uk", "fr", "cs"])
def test_every_page_says_it_needs_javascript_and_has_an_icon(app, lang):
    from azul_engine.web import i18n

    with TestClient(app) as c:
        for path in ("/", "/sheet", "/check", "/play", "/replay"):
            page = c.get(path + "?lang=" + lang).text
            assert "<noscript>" in page and i18n.text(lang, "needs_js").split(":")[0] in page
            assert 'rel="icon" href="/static/favicon.svg"' in page
        for icon in ("/favicon.ico", "/static/favicon.svg"):
            r = c.get(icon)
            assert r.status_code == 200 and r.headers["content-type"].startswith("image/svg+xml")
            assert r.content.startswith(b"<svg")


def test_the_floor_limit_speaks_the_pages_language(app):
    with TestClient(app) as c:
        c.get("/?lang=ru")
        assert c.post("/api/sheet/new", json=NEW_SHEET).status_code == 200
        r = c.post("/api/sheet/floor", json={"player": 0, "tiles": 8})
        assert r.status_code == 422 and r.json()["error"] == "Anna: на полу больше 7 предметов не помещается"


@pytest.mark.parametrize("lang", ["en", "ru", "uk", "fr", "cs"])
def test_the_grey_sheet_says_what_to_enter_for_a_line_that_fits_nowhere(app, lang):
    from azul_engine.web import i18n

    with TestClient(app) as c:
        c.get("/?lang=" + lang)
        assert c.post("/api/sheet/new", json=dict(NEW_SHEET, variant="grey")).status_code == 200
        page = c.get("/sheet").text
        assert 'id="grey-help"' in page and i18n.text(lang, "grey_help")[:40] in page
        assert c.post("/api/sheet/reset", json={}).status_code == 200
        assert c.post("/api/sheet/new", json=NEW_SHEET).status_code == 200
        assert 'id="grey-help"' not in c.get("/sheet").text  # classic: nothing of the kind


def test_a_summer_pavilion_replay_draws_the_board(app, engine):
    from azul_engine import bots

    game = bots.play(engine, 2, "summer-pavilion", 4, "greedy")
    with TestClient(app) as c:
        r = c.post("/api/replay/load", json={"text": game.record_json(), "line": 1})
        assert r.status_code == 200, r.text
        html = r.json()["html"]
        assert '<div class="pvboard"><svg' in html and "azul-state/1" not in html
        r = c.post("/api/replay/step", json={"to": 5})
        assert '<div class="pvboard"><svg' in r.json()["html"]


BAD_WALLS = ["BYRKW\nWBYRK\nKWBYR\nRKWBY\nYRKWZ", "BYRK\n", "BYRK\nWBYRK\n.....\n.....\n.....",
             "BBRKW\nWBYRK\n.....\n.....\n.....", "BYRKW\nBYRKW\n.....\n.....\n.....",
             "YBRKW\n.....\n.....\n.....\n.....", "BBRKW\nWBYRK\n.....\n.....\n....."]
BAD_BOARDS = ["OOOOOO\n", "OOXOOO\n......\n......\n......\n......\n......\n......",
              "OOOOO\n......\n......\n......\n......\n......\n......",
              "ROOOOO\n......\n......\n......\n......\n......\n......",
              "......\n......\n......\n......\n......\n......\nPGOYBG"]


@pytest.mark.parametrize("lang", ["ru", "uk", "fr", "cs"])
def test_the_score_checks_wall_errors_speak_the_pages_language(app, lang):
    from azul_engine.web import i18n

    with TestClient(app) as c:
        c.get("/?lang=" + lang)
        assert i18n.text(lang, "colour_legend") in c.get("/check").text
        for wall in BAD_WALLS:
            r = c.post("/api/check/wall", json={"wall": wall, "score": "0", "variant": "classic"})
            english = TestClient(app).post("/api/check/wall", json={"wall": wall, "score": "0",
                                                                    "variant": "classic"}).json()["error"]
            assert r.status_code == 422 and r.json()["error"] != english, (wall, english)
            assert not r.json()["error"].startswith("wall:"), r.json()["error"]
        for board in BAD_BOARDS:  # the Summer Pavilion check's (issue 38)
            r = c.post("/api/check/board", json={"board": board, "score": "9", "kept": "0"})
            english = TestClient(app).post("/api/check/board", json={"board": board, "score": "9",
                                                                     "kept": "0"}).json()["error"]
            assert r.status_code == 422 and english.startswith("board:"), (board, english)
            assert r.json()["error"] != english and not r.json()["error"].startswith("board:"), r.json()["error"]
        for url, body in (("/api/check/wall", {"wall": BAD_WALLS[0], "score": "-3"}),
                          ("/api/check/board", {"board": BAD_BOARDS[0], "score": "0", "kept": "0"})):
            r = c.post(url, json=body)  # (the score is read first: it is refused, not the wall)
            assert r.status_code == 400 and r.json()["error"] == i18n.text(
                lang, "bad_score", v=body["score"], min=1 if "board" in url else 0), r.json()["error"]
