"""The web app (azul_engine.web) through its HTTP interface and its score-sheet module, on both engines."""

import http.client
import json
import subprocess
import sys
import threading
import time

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

from starlette.testclient import TestClient  # noqa: E402

import azul_engine  # noqa: E402
from azul_engine import bots, records  # noqa: E402
from azul_engine.web import i18n, sheet as sheets, views  # noqa: E402
from azul_engine.web.app import create_app  # noqa: E402
from azul_engine.web.forms import MAX_BODY  # noqa: E402
from azul_engine.web.views import sheet_message  # noqa: E402

from web_support import Server, finished_game, free_port, table_rounds  # noqa: E402


def enter_round(engine, sheet, entry):
    for p, tiles in enumerate(entry["tiles"]):
        for t in tiles:
            sheets.tap(engine, sheet, p, t["row"], t["col"], t["colour"])
        sheets.set_floor(engine, sheet, p, entry["floors"][p])
    sheets.set_marker(engine, sheet, entry["marker"])
    return sheets.finish_round(engine, sheet)


@pytest.mark.slow
@pytest.mark.parametrize("variant", ["classic", "grey"])
@pytest.mark.parametrize("players,seed", [(2, 1), (3, 4), (4, 2)])
def test_sheet_scores_a_whole_game_as_the_engine_did(engine, variant, players, seed):
    """A bot game's table entries, typed into the sheet round by round, give the engine's own tile points,
    floor penalties, round scores, final scores and winners."""
    game = finished_game(engine, players, variant, seed)
    rounds = table_rounds(game)
    assert rounds is not None
    sheet = sheets.new_sheet(variant, ["P%d" % p for p in range(players)])
    for entry in rounds:
        assert not sheet["over"]
        result = enter_round(engine, sheet, entry)
        assert [[t["points"] for t in tiles] for tiles in result["tiles"]] == entry["points"]
        assert [[(t["across"], t["down"]) for t in tiles] for tiles in result["tiles"]] == entry["runs"]
        assert result["penalty"] == entry["penalties"]
        assert result["after"] == entry["scores"]
    assert sheet["over"]
    assert sheet["final"]["scores"] == game.scores
    assert sheet["final"]["winners"] == game.winners
    assert sheet["walls"] == game.walls


def test_a_finished_sheet_downloads_as_a_record_that_audit_accepts(client, engine):
    """The record of a score sheet: deals and drafts found by a search (synth.py) that give, by the engine's
    rules, the sheet's walls and scores; audit accepts it."""
    game = finished_game(engine, 2, "classic", 2)
    client.post("/api/sheet/new", json={"variant": "classic", "players": 2})
    sheet = session_of(client).sheet
    for entry in table_rounds(game):
        enter_round(engine, sheet, entry)
    page = client.get("/sheet").text
    assert sheet["over"] and "/sheet/record" in page
    # the search can take a while: with the page's script the link asks where it stands until it is done
    assert 'data-progress="/api/sheet/record"' in page and '<progress id="record-progress"' in page
    seen = []
    for _ in range(200):
        status = client.post("/api/sheet/record", json={}).json()
        seen.append(status["record"])
        if status["record"] != "searching":
            break
        assert status["limit"] == 20 and 0 <= status["best"] <= status["rounds"] == len(sheet["rounds"])
        assert status["text"] == i18n.text("en", "record_progress", best=status["best"], rounds=status["rounds"],
                                           tries=status["tries"], t=int(status["seconds"]), s=20)
        time.sleep(0.1)
    assert seen[-1] == "found" and status["url"] == "/sheet/record", seen
    assert status["text"] == i18n.text("en", "record_found")
    r = client.get("/sheet/record")
    assert r.status_code == 200, r.text[:300]
    record = json.loads(r.text)
    assert records.audit(record, engine) == []
    assert record["final_scores"] == game.scores and record["winners"] == game.winners
    assert [rnd["scores"] for rnd in record["rounds"]] == [rnd["scores"] for rnd in game.record()["rounds"]]
    assert records.replay(record, engine).walls == game.walls
    sheets.undo_round(sheet)
    assert "record" not in sheet and client.get("/sheet/record").status_code == 404


@pytest.mark.parametrize("seconds", [0.0, 0.04, 1.949, 2.95, 2.96, 2.9999, 19.99])
def test_the_search_status_says_the_same_seconds_in_its_json_and_its_words(client, engine, monkeypatch, seconds):
    """The elapsed time of a record search is rounded one way (handlers.elapsed: tenths, down) for the JSON and the
    words: from n.95 s on, the words said n and the JSON n + 1 (the flaky test above compared them)."""
    from azul_engine.web import handlers

    class Job:
        def status(self):
            return 3, 1, 2, seconds

    game = finished_game(engine, 2, "classic", 2)
    client.post("/api/sheet/new", json={"variant": "classic", "players": 2})
    sheet = session_of(client).sheet
    for entry in table_rounds(game):
        enter_round(engine, sheet, entry)
    monkeypatch.setattr(handlers.sessions, "record_job", lambda *args: Job())
    status = client.post("/api/sheet/record", json={}).json()
    assert status["seconds"] <= seconds < status["seconds"] + 0.1 and status["seconds"] == round(status["seconds"], 1)
    assert status["text"] == i18n.text("en", "record_progress", best=1, rounds=2, tries=3, t=int(seconds), s=20)
    assert int(status["seconds"]) == int(seconds)


def test_a_record_search_that_finds_nothing_says_so_plainly(client, engine, monkeypatch):
    """Bounded: past RECORD_SECONDS the search stops and the status says, in the page's language, that no game
    was found (the download then answers the same, not an error page after a long wait)."""
    from azul_engine.web import app as web_app

    monkeypatch.setattr(web_app, "RECORD_SECONDS", 0)
    game = finished_game(engine, 2, "classic", 2)
    client.post("/api/sheet/new", json={"variant": "classic", "players": 2})
    sheet = session_of(client).sheet
    for entry in table_rounds(game):
        enter_round(engine, sheet, entry)
    for _ in range(100):
        status = client.post("/api/sheet/record?lang=ru", json={}).json()
        if status["record"] != "searching":
            break
        time.sleep(0.05)
    assert status == {"record": "none", "url": "/sheet/record", "text": i18n.text("ru", "no_record", s=0)}
    r = client.get("/sheet/record?lang=en")
    assert r.status_code == 422 and "No game was found in 0 s" in r.text
    client.post("/api/sheet/new", json={"variant": "classic", "players": 2})  # not finished: nothing to search
    r = client.post("/api/sheet/record", json={})
    assert r.status_code == 409 and r.json()["error"] == i18n.text("en", "no_record_sheet")


def test_sheet_refuses_what_the_rules_forbid(engine):
    sheet = sheets.new_sheet("classic", ["Anna", "Boris"])
    sheets.tap(engine, sheet, 0, 1, 1)
    with pytest.raises(sheets.SheetError, match=r"^Anna: wall row 2 already has a tile this round"):
        sheets.tap(engine, sheet, 0, 1, 3)
    with pytest.raises(sheets.SheetError, match=r"^Boris: the floor holds more than 7 items$"):
        sheets.set_floor(engine, sheet, 1, 8)
    sheets.tap(engine, sheet, 1, 0, 0)
    for tiles in (30, 99):  # with tiles on the wall, the engine's tile counts spoke first ("more blue tiles ...")
        with pytest.raises(sheets.SheetError, match=r"^Boris: the floor holds more than 7 items$"):
            sheets.set_floor(engine, sheet, 1, tiles)
    sheets.tap(engine, sheet, 1, 0, 0)  # taken back
    sheets.set_floor(engine, sheet, 1, 7)
    sheets.set_marker(engine, sheet, 1)  # a full floor keeps the marker aside: still 7 items
    assert sheets.floor_items(sheet["pending"], 1) == 7
    result = sheets.finish_round(engine, sheet)
    assert result["penalty"] == [0, 14] and result["clamped"] == [False, True] and sheet["scores"] == [1, 0]
    with pytest.raises(sheets.SheetError, match=r"^Anna: wall row 2, column 2 is already taken$"):
        sheets.tap(engine, sheet, 0, 1, 1)
    # refusals change nothing
    assert sheet["pending"]["tiles"] == [[], []] and sheet["pending"]["floors"] == [0, 0]


def test_grey_sheet_refuses_a_colour_twice_in_a_column_with_the_engines_message(engine):
    sheet = sheets.new_sheet("grey", ["A", "B"])
    sheets.tap(engine, sheet, 0, 0, 3, "R")
    with pytest.raises(sheets.SheetError, match=r"^A: wall column 4 already has red$"):
        sheets.tap(engine, sheet, 0, 2, 3, "R")
    with pytest.raises(sheets.SheetError, match=r"colour: choose one of B Y R K W"):
        sheets.tap(engine, sheet, 0, 2, 2, "X")
    sheets.tap(engine, sheet, 0, 1, 3, "B")
    sheets.set_marker(engine, sheet, 1)
    result = sheets.finish_round(engine, sheet)
    assert [t["points"] for t in result["tiles"][0]] == [1, 2]  # the second tile touches the first: 2 down
    with pytest.raises(sheets.SheetError, match=r"^A: pattern line 3 holds red, which wall row 3 already has|"
                                                r"^A: wall column 4"):
        sheets.tap(engine, sheet, 0, 2, 3, "R")


def _sheet_refusals(engine, seed, trials):
    """Every refusal a seeded run of random taps on the three score sheets meets: (SheetError, its sheet module)."""
    import random

    from azul_engine.web import pavilion_sheet

    rng = random.Random(seed)
    out = []

    def attempt(module, call):
        try:
            call()
        except module.SheetError as e:
            out.append(e)

    for _ in range(trials):
        variant = rng.choice(["classic", "grey"])
        sheet = sheets.new_sheet(variant, ["Anna", "Bob: two"])
        for _ in range(40):
            p, row, col = rng.randrange(2), rng.randrange(5), rng.randrange(5)
            colour = rng.choice("BYRKW") if variant == "grey" else None
            attempt(sheets, lambda: sheets.tap(engine, sheet, p, row, col, colour) if rng.random() < 0.85
                    else sheets.finish_round(engine, sheet))
        pv = pavilion_sheet.new_sheet(["Anna", "Bob"])
        for _ in range(40):
            p, star, space = rng.randrange(2), rng.choice("ORBYGPC"), rng.randrange(1, 7)
            colour, wilds = rng.choice("PGOYBR"), rng.randrange(4)
            attempt(pavilion_sheet, lambda: pavilion_sheet.place(engine, pv, p, star, space, colour, wilds)
                    if rng.random() < 0.85 else pavilion_sheet.finish_round(engine, pv))
    return out


@pytest.mark.slow
def test_the_engines_refusals_on_a_sheet_come_in_the_pages_language(engine):
    """Every engine message that random taps on the score sheets meet is in i18n.ENGINE's catalogue (so it is
    shown translated: a changed wording in the engine fails here), and the app's own have keys."""

    refusals = _sheet_refusals(engine, 7, 25)
    engine_words = [e for e in refusals if not e.key]
    assert len(engine_words) > 100 and len({str(e).split(": ", 1)[-1][:12] for e in engine_words}) >= 5
    for e in refusals:
        if not e.key:
            assert sheet_message("en", e) == str(e)  # English: the engine's words, unchanged
        for lang in ("ru", "uk", "fr", "cs"):
            shown = sheet_message(lang, e)
            assert shown != str(e), (lang, str(e))
            assert not any(word in shown for word in ("already", "wall", "star space", " tiles")), (lang, shown)
            if str(e).startswith(("Anna: ", "Bob: two: ")):  # the player's name stays in front, as typed
                assert shown.startswith(str(e).split(": ")[0])


@pytest.mark.parametrize("pattern,key", i18n.ENGINE)
def test_each_engine_message_of_the_catalogue_reads_back_in_every_language(pattern, key):
    """The English template of each catalogue entry is the engine's wording its pattern matches, and every
    language fills in the same fields (numbers kept, colours and stars named in that language)."""
    fields = {"row": 2, "col": 3, "line": 4, "space": 5, "n": 5, "m": 4, "colour": "blue", "star": "blue",
              "ch": "Z", "cells": "BYRK"}
    english = i18n.text("en", key, **dict(fields, star="blue star"))
    assert english == i18n.engine_text("en", english)
    for lang in ("ru", "uk", "fr", "cs"):
        shown = i18n.engine_text(lang, "Anna: " + english)
        named = "Anna : " if lang == "fr" else "Anna: "  # (French: a space before the colon, as its own messages)
        assert shown.startswith(named) and shown[len(named):] != english, (lang, english)
        for name, value in fields.items():
            if "{%s}" % name in i18n.T[key][0] and name not in ("colour", "star"):
                assert str(value) in shown
        if "{colour}" in i18n.T[key][0]:
            assert i18n.text(lang, "blue") in shown


def test_undo_round_restores_the_sheet(engine):
    sheet = sheets.new_sheet("classic", ["A", "B"])
    sheets.tap(engine, sheet, 0, 0, 0)
    sheets.set_marker(engine, sheet, 0)
    before = json.loads(json.dumps(sheet))
    sheets.finish_round(engine, sheet)
    sheets.undo_round(sheet)
    assert sheet["walls"] == before["walls"] and sheet["scores"] == before["scores"]
    assert sheet["pending"]["tiles"] == before["pending"]["tiles"] and sheet["pending"]["marker"] == 0


# -- the HTTP side ---------------------------------------------------------------------------------------------

@pytest.fixture
def client(engine):
    app = create_app(engine)
    with TestClient(app, raise_server_exceptions=False) as c:
        c.app_state = app.state
        yield c


def session_of(client):
    return client.app_state.sessions.items[client.cookies.get("azul_session")]


def test_sheet_over_http_keeps_the_game_across_a_reload(client):
    r = client.post("/api/sheet/new", json={"variant": "classic", "players": "2", "name0": "Anna", "name1": "Boris"})
    assert r.status_code == 200
    assert client.post("/api/sheet/tap", json={"player": 0, "row": 0, "col": 0}).status_code == 200
    r = client.post("/api/sheet/tap", json={"player": 0, "row": 0, "col": 1})
    assert r.status_code == 422
    assert r.json()["error"].startswith("Anna: wall row 1 already has a tile this round")
    client.get("/?lang=ru")  # the app's own refusals come in the page's language
    r = client.post("/api/sheet/tap", json={"player": 0, "row": 0, "col": 1})
    assert r.json()["error"] == "Anna: в ряду стены 1 уже есть плитка этого раунда: одна плитка на ряд за раунд"
    client.get("/?lang=en")
    assert client.post("/api/sheet/marker", json={"player": 1}).status_code == 200
    page = client.get("/sheet").text  # a reload: the round being entered is still there
    assert 'data-cell="11"' in page and "cell pick t-B new" in page
    assert client.post("/api/sheet/round", json={}).status_code == 200
    assert session_of(client).sheet["scores"] == [1, 0]
    r = client.get("/sheet/download")
    assert r.status_code == 200 and r.json()["format"] == "azul-score-sheet"


def test_score_check_of_a_wall(client, engine):
    wall = "BYRKW\nWBYRK\n..B..\n...B.\n....B"
    r = client.post("/api/check/wall", json={"wall": wall, "score": "48", "variant": "classic"})
    b = engine.end_bonus(records.wall_text(wall), variant="classic")
    assert r.status_code == 200 and b["points"] == 14
    assert "48 + 14 = 62" in r.json()["html"]
    r = client.post("/api/check/wall", json={"wall": "BYRKW\nBYRKW\n.....\n.....\n.....", "score": 1,
                                             "variant": "classic"})
    assert r.status_code == 422 and "impossible wall" in r.json()["error"]
    r = client.post("/api/check/wall", json={"wall": "BYRKW", "score": "x"})
    assert r.status_code == 400 and r.json()["error"].startswith("score:")


def _form_values(html):
    """What the score check's forms show: the textareas' text, the inputs' values, the selects' chosen values, by
    form and name."""
    import html as markup
    import re

    forms = {}
    for form_id, body in re.findall(r'<form id="(\w+)".*?>(.*?)</form>', html, re.S):
        values = {name: markup.unescape(text) for name, text in re.findall(
            r'<textarea name="(\w+)"[^>]*>(.*?)</textarea>', body, re.S)}
        values.update(re.findall(r'<input name="(\w+)"[^>]* value="([^"]*)"', body))
        for name, options in re.findall(r'<select name="(\w+)">(.*?)</select>', body, re.S):
            values[name] = re.search(r'<option value="([^"]*)" selected>', options).group(1)
        forms[form_id] = values
    return forms


def test_score_check_keeps_what_was_entered_and_drops_a_stale_result(client, engine):
    """After Check the forms show what was checked (they went back to the example wall, 0 and Classic beside a
    result of what was entered); after a refusal no result is left from the check before."""
    grey = "BYRKW\nYRKWB\nKWBYR\n.....\n....."
    r = client.post("/api/check/wall", json={"wall": grey, "score": "31", "variant": "grey"})
    html = r.json()["html"]
    assert r.status_code == 200 and 'id="final-score"' in html
    assert _form_values(html)["wallform"] == {"wall": grey, "score": "31", "variant": "grey"}
    b = engine.end_bonus(records.wall_text(grey), variant="grey")
    assert "31 + %d = %d" % (b["points"], 31 + b["points"]) in html
    for bad in ({"wall": "BYRK\n.....\n.....\n.....\n.....", "score": "31", "variant": "grey"},
                {"wall": grey, "score": "abc", "variant": "grey"}):
        r = client.post("/api/check/wall", json=bad)
        assert r.status_code in (400, 422) and r.json()["error"]
        html = r.json()["html"]
        assert 'id="final-score"' not in html and _form_values(html)["wallform"] == bad
    board = "OOOOOO\nRRR...\n......\n......\n......\n......\nPGOYBR"
    r = client.post("/api/check/board", json={"board": board, "score": "47", "kept": "2"})
    html = r.json()["html"]
    assert _form_values(html)["boardform"] == {"board": board, "score": "47", "kept": "2"}
    assert "47 + 29 &minus; 2 = 74" in html and "orange star +17, centre star +12" in html


def test_score_check_of_a_summer_pavilion_board_gives_the_engines_end(client, engine):
    """The web app's Summer Pavilion score check (it had a sheet but no check): the boards of a finished game with
    their scores after round 6's passes and their kept tiles give the engine's final scores."""
    game = finished_game(engine, 3, "summer-pavilion", 1)
    ends = [e for e in game.score_sheet()[-1] if e["event"] == "end"]
    for p, end in enumerate(ends):
        r = client.post("/api/check/board", json={"board": "/".join(game.boards[p]), "score": end["before"],
                                                  "kept": end["kept"]})
        assert r.status_code == 200, r.text
        assert r.json()["html"].count(" = %d</th>" % end["after"]) == 1


def test_score_check_of_a_record_shows_the_audits_findings(client, engine):
    good = finished_game(engine, 2, "classic", 3).record()
    bad = json.loads(json.dumps(good))
    bad["final_scores"][0] += 5
    text = json.dumps(good) + "\n" + json.dumps(bad) + "\n{not json\n"
    r = client.post("/api/check/record", json={"text": text})
    assert r.status_code == 200
    page = r.json()["html"]
    assert "1 records agree, 2 disagree" in page
    found = records.audit(bad, engine, line=2)
    assert [f.field for f in found] == ["final_scores"] and found[0].player == 0
    right = good["final_scores"][0]
    assert ("Line 2: Player 0: the record says a final score of %d, the rules give %d <span class=\"small\" "
            "lang=\"en\">(" % (right + 5, right)) in page
    assert "player 0" not in page  # the seat in the page's words, counted from 0 as everywhere
    client.get("/?lang=ru")
    ru = client.post("/api/check/record", json={"text": text}).json()["html"]
    assert "Строка 2: Игрок 0: в записи итоговый счёт %d, по правилам %d" % (right + 5, right) in ru
    assert '<span lang="en">line 3: not JSON' in page  # a record the audit could not read: its own words
    assert 'data-final="%d"' % good["final_scores"][0] in page


def test_an_upload_is_cut_into_lines_as_a_file_is(client, engine, tmp_path):
    """A record may hold U+2028, U+2029 or U+0085 as they are in a string (json.dumps(..., ensure_ascii=False));
    str.splitlines() cut such a line in two, so the page found two broken records where audit finds one good one;
    CR LF and CR end lines as in a file; a null line is not a record."""
    good = finished_game(engine, 2, "classic", 3).record()
    good["event"] = "club\u2028night\u2029\u0085"
    line = json.dumps(good, ensure_ascii=False)
    path = tmp_path / "games.jsonl"
    path.write_text(line + "\n", encoding="utf-8")
    assert [item for _, item in records.iter_file(str(path))] == [good]
    r = client.post("/api/check/record", json={"text": line + "\r\n" + line + "\rnull\n"})
    assert r.status_code == 200
    page = r.json()["html"]
    assert "2 records agree, 1 disagree" in page and "line 3: null is not a record" in page, page[:500]
    r = client.post("/api/replay/load", json={"text": line, "line": 1})
    assert r.status_code == 200, r.text[:300]


@pytest.mark.slow
def test_play_against_a_bot_to_the_end_with_undo_and_hint(client, engine):
    r = client.post("/api/play/new", json={"variant": "grey", "players": 2, "seat0": "human", "seat1": "greedy",
                                           "seed": 11})
    assert r.status_code == 200
    game = session_of(client).game
    # hint: the search's top moves, with their share of the search and their value, in the page
    r = client.post("/api/play/hint", json={})
    assert r.status_code == 200
    assert len(game.hint) == 3 and all(h.move in game.state.legal_moves() for h in game.hint)
    expected = bots.hint(game.state, bot=game.hint_bot, top=3, seed=0)
    assert [h.as_dict() for h in game.hint] == [h.as_dict() for h in expected]
    for h in game.hint:  # the move in words, its notation in the tooltip
        words = views.move_words("en", "grey", h.move)
        assert '<li title="%s">%s: %.0f%% of the search, value %.2f</li>' % (
            h.move, words, 100 * h.share, h.value) in r.json()["html"]
    assert sum(h.share for h in game.hint) <= 1 and game.hint[0].visits >= game.hint[1].visits
    # an illegal move is refused with the engine's message and changes nothing
    before = game.state.to_text()
    r = client.post("/api/play/move", json={"move": "9B1"})
    assert r.status_code == 409 and r.json()["error"] == "factory 9 does not exist with 2 players (factories 1-5)"
    assert game.state.to_text() == before
    # undo returns to the person's last decision
    move = game.state.legal_moves()[0]
    assert client.post("/api/play/move", json={"move": move}).status_code == 200
    assert client.post("/api/play/undo", json={}).status_code == 200
    assert game.state.to_text() == before
    moves = 0
    while not game.state.is_over:
        legal = game.state.legal_moves()
        assert client.post("/api/play/move", json={"move": legal[moves % len(legal)]}).status_code == 200
        moves += 1
        assert moves < 400
    record = client.get("/play/download").text
    assert records.audit(json.loads(record), engine) == []
    assert "id=\"winners\"" in client.get("/play").text


class _Failing:
    """A bot that raises: the web game's bots never do, but a game must say what the terminal game says if one
    did."""

    def choose(self, state):
        raise RuntimeError("out of ideas")


def test_the_record_of_a_game_in_play_says_who_played_and_a_forfeit(client, engine):
    """The downloaded record carries "bots" (a person is "human") as the terminal game's does, and when a bot fails,
    "forfeit" with the scores and winners at it (records.md section 5), which audit accepts; an undo takes the
    game up again. (A failing bot was a 500, "the bot of seat 2 failed", and the record had neither field.)"""
    from azul_engine.play import TerminalGame

    r = client.post("/api/play/new", json={"variant": "classic", "players": 3, "seat0": "human", "seat1": "greedy",
                                           "seat2": "mcts", "seed": 4})
    assert r.status_code == 200
    game = session_of(client).game
    terminal = TerminalGame(engine, 3, "classic", ["greedy", game.hint_bot], seat=0, seed=4)
    record = json.loads(client.get("/play/download").text)
    assert record["bots"] == json.loads(terminal.record_json())["bots"]
    assert record["bots"] == [{"spec": "human"}, {"spec": "greedy"}, {"spec": game.hint_bot, "name": "mcts"}]
    game.bots[1] = _Failing()
    move = game.state.legal_moves()[0]
    r = client.post("/api/play/move", json={"move": move})
    assert r.status_code == 200 and 'id="forfeit"' in r.json()["html"] and "out of ideas" in r.json()["html"]
    assert game.forfeit is not None and not game.human_to_move()
    record = json.loads(client.get("/play/download").text)
    assert record["forfeit"] == {"seat": 1, "reason": "raised RuntimeError: out of ideas"}
    assert record["final_scores"] == game.state.scores and record["winners"] == [0, 2]
    assert records.audit(record, engine) == []
    assert client.post("/api/play/move", json={"move": game.state.legal_moves()[0]}).status_code == 400
    assert client.post("/api/play/undo", json={}).status_code == 200
    assert game.forfeit is None and game.human_to_move() and "forfeit" not in client.get("/play/download").text


@pytest.mark.parametrize("variant", ["classic", "grey"])  # the page plays these two
def test_the_web_record_equals_the_terminal_games_for_the_same_moves(client, engine, variant):
    """The same game, the same moves and undos, played on the web app's play page and in the terminal game, downloads
    and saves the same record line, byte for byte: who played each seat, the moves, the scores and the winners (both
    are a table.Table)."""
    import io

    from rich.console import Console

    from azul_engine.play import TerminalGame

    r = client.post("/api/play/new", json={"variant": variant, "players": 3, "seat0": "greedy", "seat1": "human",
                                           "seat2": "random", "seed": 8})
    assert r.status_code == 200
    game = session_of(client).game
    terminal = TerminalGame(engine, 3, variant, ["greedy", "random"], seat=1, seed=8,
                            console=Console(file=io.StringIO(), width=200))
    terminal.start()
    turns = 0
    while not game.state.is_over:
        assert terminal.state.to_text() == game.state.to_text()
        moves = game.state.legal_moves()
        move = moves[(7 * turns) % len(moves)]
        assert client.post("/api/play/move", json={"move": move}).status_code == 200
        assert terminal.handle(move)
        turns += 1
        if turns in (3, 10):  # an undo, then the same move again
            assert client.post("/api/play/undo", json={}).status_code == 200
            assert terminal.handle("undo")
            assert terminal.state.to_text() == game.state.to_text()
            assert client.post("/api/play/move", json={"move": move}).status_code == 200
            assert terminal.handle(move)
    assert terminal.state.is_over and turns > 5
    saved = io.StringIO()
    saved.write(terminal.record_json() + "\n")
    downloaded = client.get("/play/download").text
    assert downloaded == saved.getvalue()
    record = json.loads(downloaded)
    assert record["bots"] == [{"spec": "greedy"}, {"spec": "human"}, {"spec": "random"}]
    assert record["final_scores"] == game.state.scores and records.audit(record, engine) == []


def test_replay_viewer_steps_through_a_record(client, engine):
    game = finished_game(engine, 2, "classic", 5)
    text = "\n" + game.record_json() + "\n"
    r = client.post("/api/replay/load", json={"text": text, "line": "2"})
    assert r.status_code == 200
    n = len(session_of(client).replay["states"]) - 1
    r = client.post("/api/replay/step", json={"to": n})
    assert r.status_code == 200 and ("Move %d of %d" % (n, n)) in r.json()["html"]
    assert session_of(client).replay["states"][n][0].scores == game.scores
    bad = game.record()
    bad["rounds"][0]["moves"][0] = "9B1"
    r = client.post("/api/replay/load", json={"text": json.dumps(bad), "line": 1})
    assert r.status_code == 422 and "illegal move 1" in r.json()["error"]


def test_languages_every_string_and_the_choice(client):
    for key, texts in i18n.T.items():
        assert len(texts) == len(i18n.LANGUAGES) and all(t.strip() for t in texts), key
    assert i18n.choose("ru-RU,ru;q=0.9,en;q=0.8") == "ru"
    assert i18n.choose("de-DE, fr;q=0.5, cs;q=0.7") == "cs"
    assert i18n.choose("de, ja") == "en" and i18n.choose(None) == "en" and i18n.choose("x;q=abc,,") == "en"
    r = client.get("/", headers={"accept-language": "uk,en;q=0.5"})
    assert "Рахунок партії" in r.text and '<html lang="uk">' in r.text
    client.get("/?lang=fr")
    for path in ("/", "/sheet", "/check", "/play", "/replay"):
        page = client.get(path, headers={"accept-language": "ru"}).text  # the menu's choice wins
        assert '<html lang="fr">' in page and "Feuille de score" in page, path


BAD_BODIES = [b"", b"{", b"[]", b"null", b"\xff\xfe", b'{"player": "x"}', b'{"player": 1e99}',
              b'{"player": true, "row": -1}', b'{"move": 5}', b'{"move": "' + b"A" * 5000 + b'"}',
              b'{"text": 7}', b'{"wall": ["x"], "score": -1}', b'{"to": 99999}', b'{"variant": "nope"}',
              b'{"players": 9}', b'[' * 100000]

ACTIONS = ["/api/sheet/new", "/api/sheet/tap", "/api/sheet/floor", "/api/sheet/marker", "/api/sheet/round",
           "/api/sheet/undo", "/api/check/wall", "/api/check/record", "/api/play/new", "/api/play/select",
           "/api/play/move", "/api/play/undo", "/api/play/hint", "/api/replay/load", "/api/replay/step"]


def test_numbers_in_text_that_int_refuses_are_a_400(client):
    """A whole number sent as text is ASCII digits: "²" passes str.isdigit() and "--2" lstrip("-"), yet int()
    refuses both; every integer field answers 400 with its name (was: 500, a ValueError)."""
    client.post("/api/sheet/new", json={"variant": "classic", "players": 2})
    client.post("/api/play/new", json={"variant": "classic", "players": 2, "seat0": "human", "seat1": "human"})
    fields = {"/api/sheet/new": ["players"], "/api/sheet/tap": ["player", "row", "col"],
              "/api/sheet/floor": ["player", "tiles"], "/api/sheet/marker": ["player"],
              "/api/check/wall": ["score"]}
    for url, keys in fields.items():
        for key in keys:
            for bad in ("\u00b2", "--2", "\u0661", "1\u00b2"):
                body = {"variant": "classic", "players": 2, "player": 0, "row": 0, "col": 0, "tiles": 1,
                        "wall": "BYRKW", "score": 1, key: bad}
                r = client.post(url, json=body)
                assert r.status_code == 400, (url, key, bad, r.status_code, r.text[:200])
                assert r.json()["error"].startswith(key + ":"), (url, key, r.json()["error"])
    r = client.post("/api/sheet/new", json={"variant": "classic", "players": " 3 "})
    assert r.status_code == 200  # ASCII digits with spaces around still read


@pytest.mark.slow
def test_bad_requests_get_a_4xx_with_a_message(client):
    for url in ACTIONS:
        for body in BAD_BODIES:
            r = client.post(url, content=body, headers={"content-type": "application/json"})
            assert 400 <= r.status_code < 500, (url, body[:40], r.status_code, r.text[:200])
            assert r.json()["error"] and "Traceback" not in r.text
    # with a sheet and a game in the session too
    client.post("/api/sheet/new", json={"variant": "grey", "players": 3})
    client.post("/api/play/new", json={"variant": "classic", "players": 2, "seat0": "human", "seat1": "human"})
    for url in ACTIONS[1:6] + ACTIONS[9:13]:
        for body in BAD_BODIES[1:]:
            r = client.post(url, content=body, headers={"content-type": "application/json"})
            assert r.status_code < 500, (url, body[:40], r.status_code, r.text[:200])
    r = client.post("/api/play/new", json={"seat0": "../../etc/passwd", "players": 2, "variant": "classic"})
    assert r.status_code == 400 and r.json()["error"].startswith("seat0:")
    r = client.post("/api/check/record", content=b"x" * (MAX_BODY + 1))
    assert r.status_code == 413 and "too large" in r.json()["error"]
    assert client.get("/api/sheet/tap").status_code == 405
    for path in ("/static/../app.py", "/static/%2e%2e/app.py", "/static/..%2fapp.py", "/etc/passwd",
                 "/static//etc/passwd", "/sheet/download/../../x"):
        r = client.get(path)
        assert r.status_code == 404, path
        assert "import" not in r.text
    assert client.get("/static/app.js").status_code == 200


@pytest.mark.slow
def test_a_burst_of_requests_on_loopback(engine):
    """A few thousand requests from 8 threads to a real uvicorn server on 127.0.0.1; bounded in count and time."""
    server = Server(create_app(engine, max_sessions=100))
    codes, errors = [], []
    stop_at = time.monotonic() + 120

    def worker(n):
        conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
        try:
            for i in range(n):
                if time.monotonic() > stop_at:
                    break
                if i % 3 == 0:
                    conn.request("GET", "/check")
                elif i % 3 == 1:
                    conn.request("POST", "/api/check/wall", body=json.dumps({"wall": "BYRKW/...../...../...../.....",
                                                                             "score": i}),
                                 headers={"content-type": "application/json"})
                else:
                    conn.request("POST", "/api/sheet/tap", body=b"{bad", headers={"content-type": "application/json"})
                resp = conn.getresponse()
                resp.read()
                codes.append(resp.status)
        except Exception as e:  # noqa: BLE001 - reported below
            errors.append(repr(e))
        finally:
            conn.close()

    threads = [threading.Thread(target=worker, args=(300,)) for _ in range(8)]
    try:
        for t in threads:
            t.start()
        for t in threads:
            t.join(150)
        assert not errors
        assert len(codes) == 2400
        assert set(codes) == {200, 400}
        assert len(server.server.config.app.state.sessions.items) <= 100
        conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
        conn.request("GET", "/")
        assert conn.getresponse().status == 200
    finally:
        server.stop()


@pytest.mark.slow
def test_serve_command_binds_to_loopback_by_default():
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "azul_engine", "serve", "--port", str(port)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = proc.stdout.readline()
        assert line.startswith("azul-engine serve: http://127.0.0.1:%d/" % port)
        deadline = time.monotonic() + 20
        while True:
            try:
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
                conn.request("GET", "/")
                assert conn.getresponse().status == 200
                break
            except ConnectionRefusedError:
                assert time.monotonic() < deadline
                time.sleep(0.1)
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
        conn.request("GET", "/", headers={"Host": "attacker.example"})  # DNS rebinding: refused
        assert conn.getresponse().status == 400
    finally:
        proc.terminate()
        proc.wait(10)
    out = subprocess.run([sys.executable, "-m", "azul_engine", "serve", "--port", "70000"], capture_output=True,
                         text=True)
    assert out.returncode == 2 and "--port must be 0 to 65535" in out.stderr


# -- Summer Pavilion -------------------------------------------------------------------------------------------

@pytest.mark.slow
@pytest.mark.parametrize("players,seed", [(2, 3), (3, 1), (4, 5)])
def test_pavilion_sheet_scores_a_whole_game_as_the_engine_did(engine, players, seed):
    """A bot game's events (placements with their wild tiles, the start token, the passes), typed into the
    Summer Pavilion sheet, give the engine's points, bonus tiles owed, round scores, final scores and winners."""
    from azul_engine.web import pavilion_sheet as pvs

    game = finished_game(engine, players, "summer-pavilion", seed)
    record = game.record()
    sheet = pvs.new_sheet(["P%d" % p for p in range(players)])
    for i, events in enumerate(game.score_sheet()):
        for e in events:
            if e["event"] == "start-token":
                pvs.set_token(engine, sheet, e["player"], e["tiles"])
            elif e["event"] == "place":
                pvs.place(engine, sheet, e["player"], e["star"], e["space"], e["colour"], e["wilds"])
            elif e["event"] == "pass":
                pvs.set_pass(engine, sheet, e["player"], len(e["kept"]), e["discarded"])
        result = pvs.finish_round(engine, sheet)
        assert result["after"] == record["rounds"][i]["scores"]
        for p in range(players):
            mine = [(x["points"], x["bonus_tiles"]) for x in result["events"][p] if x["event"] == "place"]
            assert mine == [(e["points"], e["bonus_tiles"]) for e in events
                            if e["event"] == "place" and e["player"] == p]
    assert sheet["over"]
    assert sheet["final"]["scores"] == game.scores and sheet["final"]["winners"] == game.winners
    ends = {e["player"]: e for e in game.score_sheet()[-1] if e["event"] == "end"}
    for p, end in enumerate(sheet["final"]["end"]):
        assert end["bonus"] == ends[p]["star_points"] + ends[p]["number_points"]


def test_pavilion_sheet_refuses_what_the_rules_forbid(engine):
    from azul_engine.web import pavilion_sheet as pvs

    sheet = pvs.new_sheet(["Anna", "Boris"])
    pvs.place(engine, sheet, 0, "C", 2, "B", 0)
    with pytest.raises(sheets.SheetError, match=r"^Anna: "):
        pvs.place(engine, sheet, 0, "C", 4, "B", 0)  # the centre star's six tiles all differ
    with pytest.raises(sheets.SheetError, match=r"^Anna: "):
        pvs.place(engine, sheet, 0, "R", 2, "R", 2)  # space 2 cannot be paid with 2 wild tiles
    with pytest.raises(sheets.SheetError, match=r"^star: 'X' is not one of"):
        pvs.place(engine, sheet, 0, "X", 2, "R", 0)
    before = json.dumps(sheet)
    with pytest.raises(sheets.SheetError, match=r"^Boris: a pass keeps at most 4 tiles$") as info:
        pvs.set_pass(engine, sheet, 1, 5, 0)  # (the engine's words named a pass '-PGOYB' the sheet made up)
    assert sheet_message("cs", info.value) == "Boris: při pasu zůstanou nejvýš 4 dlaždice"
    assert json.dumps(sheet) == before  # refusals change nothing
    with pytest.raises(sheets.SheetError, match=r"^the start token came with at most 20 tiles: a 2-player round "
                                                r"deals 20$"):
        pvs.set_token(engine, sheet, 1, 21)  # (the engine's words named a made-up colour: "more green tiles ...")
    assert json.dumps(sheet) == before
    pvs.set_token(engine, sheet, 1, 6)
    pvs.set_pass(engine, sheet, 1, 0, 9)
    result = pvs.finish_round(engine, sheet)
    assert result["after"] == [6, 1]  # a lone tile scores 1; every loss stops at 1: 5 - 6 - 9


def test_pavilion_sheet_over_http(client):
    r = client.post("/api/sheet/new", json={"variant": "summer-pavilion", "players": 2, "name0": "Anna"})
    assert r.status_code == 200 and "Summer Pavilion" in r.json()["html"]
    assert client.post("/api/pavilion/place", json={"player": 0, "star": "R", "space": 3, "wilds": "1"}
                       ).status_code == 200
    r = client.post("/api/pavilion/place", json={"player": 0, "star": "C", "space": 2, "colour": "B", "wilds": 0})
    assert r.status_code == 200
    r = client.post("/api/pavilion/place", json={"player": 0, "star": "C", "space": 4, "colour": "B", "wilds": 0})
    assert r.status_code == 422
    assert r.json()["error"] == "Anna: the centre star already holds blue: its six tiles must all differ"
    assert client.post("/api/pavilion/token", json={"player": 1, "tiles": 3}).status_code == 200
    assert client.post("/api/pavilion/pass", json={"player": 1, "kept": 2, "discarded": 1}).status_code == 200
    r = client.post("/api/sheet/tap", json={"player": 0, "row": 0, "col": 0})  # a classic action: refused
    assert r.status_code == 422 and "summer-pavilion" in r.json()["error"]
    assert client.post("/api/sheet/round", json={}).status_code == 200
    sheet = session_of(client).sheet
    assert sheet["scores"] == [5 + 1 + 1, 1]  # two lone tiles, 1 each; 5 - 3 (token) - 1 (discarded)
    assert sheet["boards"][0][1] == "..R..." and sheet["boards"][0][6] == ".B...."
    assert client.post("/api/sheet/undo", json={}).status_code == 200
    assert session_of(client).sheet["scores"] == [5, 5]


def test_pavilion_sheet_order_of_the_tiles_is_shown_and_scored_in_that_order(client, engine):
    """O1, O2, O3 scores 1 + 2 + 3; O1, O3, O2 scores 1 + 1 + 3 (the rules: a tile scores what it joins when it is
    placed). The sheet cannot make the order irrelevant, so it shows it: each new tile's number in the round, and
    each board its own pickers."""
    import re

    def round_points(order):
        client.post("/api/sheet/new", json={"variant": "summer-pavilion", "players": 3})
        for space in order:
            r = client.post("/api/pavilion/place", json={"player": 2, "star": "O", "space": space, "wilds": 0})
            assert r.status_code == 200, r.text
        html = r.json()["html"]
        numbers = {m.group(1): int(m.group(2)) for m in re.finditer(
            r'data-space="(O\d)"[^>]*><span class="spacen">\d</span>O<span class="nth" data-nth="(\d)"', html)}
        assert numbers == {"O%d" % s: k + 1 for k, s in enumerate(order)}
        assert all('id="pvform-%d"' % p in html and 'data-form="pvform-%d"' % p in html for p in range(3))
        from azul_engine.web import pavilion_sheet as pvs

        events = pvs.evaluate(engine, session_of(client).sheet)["events"][2]
        return [e["points"] for e in events if e["event"] == "place"]

    assert round_points([1, 2, 3]) == [1, 2, 3]
    assert round_points([1, 3, 2]) == [1, 1, 3]


def test_a_finished_sheet_refuses_every_change_over_http(client):
    """Six Summer Pavilion rounds end the game; then the start token with no player (the one change that skipped
    the seat check) was a 500 (IndexError: round 7's wild colour), and a classic sheet's marker set to nobody
    after the end was accepted."""
    assert client.post("/api/sheet/new", json={"variant": "summer-pavilion", "players": 2}).status_code == 200
    for _ in range(6):
        assert client.post("/api/sheet/round", json={}).status_code == 200
    for url, body in (("/api/pavilion/token", {"player": None, "tiles": 1}),
                      ("/api/pavilion/token", {"player": 0, "tiles": 1}),
                      ("/api/pavilion/pass", {"player": 0, "kept": 0, "discarded": 0}),
                      ("/api/sheet/round", {})):
        r = client.post(url, json=body)
        assert r.status_code == 422 and r.json()["error"] == "Game over", (url, r.status_code, r.text[:200])
    finished = finished_game(azul_engine.load_backend("python"), 2, "classic", 2)
    client.post("/api/sheet/new", json={"variant": "classic", "players": 2})
    for entry in table_rounds(finished):
        enter_round(azul_engine.load_backend("python"), session_of(client).sheet, entry)
    for body in ({"player": None}, {"player": 1}):
        r = client.post("/api/sheet/marker", json=body)
        assert r.status_code == 422 and r.json()["error"] == "Game over", r.text[:200]


def test_a_selection_is_one_source_and_one_colour(client):
    client.post("/api/play/new", json={"variant": "classic", "players": 2, "seat0": "human", "seat1": "human",
                                       "seed": 3})
    move = session_of(client).game.state.legal_moves()[0]  # like 1B1: source, colour, line
    for source, colour in ((move[0], ""), (move[:2], move[2]), ("", move[:2]), (move[0], move[1] + move[2])):
        r = client.post("/api/play/select", json={"source": source, "colour": colour})
        assert r.status_code == 409, (source, colour, r.status_code)
        assert session_of(client).game.selected is None
    assert client.post("/api/play/select", json={"source": move[0], "colour": move[1]}).status_code == 200
    assert session_of(client).game.selected == (move[0], move[1])


# -- the pages are templates -----------------------------------------------------------------------------------

HOSTILE = '<script>alert("x")</script>'
SHOWN = "&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt;"


def test_pages_are_jinja2_templates_with_autoescape():
    """The pages are Jinja2 templates through Starlette's Jinja2Templates, every one autoescaped, and a name a
    template does not know is an error (not an empty string on the page)."""
    import jinja2
    from starlette.templating import Jinja2Templates

    from azul_engine.web import views

    assert isinstance(views.templates, Jinja2Templates)
    env = views.templates.env
    assert env.autoescape is True and env.undefined is jinja2.StrictUndefined
    names = env.list_templates()
    assert {"page.html", "parts.html", "sheet.html", "pavilion.html", "check.html", "play.html",
            "replay.html"} <= set(names)
    for name in names:
        env.get_template(name)  # each one parses
    with pytest.raises(jinja2.UndefinedError):
        env.from_string("{{ nothing }}").render()
    assert env.from_string("{{ value }}").render(value=HOSTILE) == SHOWN


@pytest.mark.parametrize("variant", ["classic", "grey", "summer-pavilion"])
def test_a_hostile_player_name_is_text_on_the_page(client, variant):
    """A name typed into a score sheet is shown as text everywhere the sheet shows it (its board, the round's
    table, the buttons' labels for a screen reader), never as markup."""
    r = client.post("/api/sheet/new", json={"variant": variant, "players": 2, "name0": HOSTILE, "name1": "B"})
    assert r.status_code == 200
    if variant == "summer-pavilion":
        client.post("/api/pavilion/place", json={"player": 0, "star": "C", "space": 1, "colour": "B", "wilds": 0})
    else:
        client.post("/api/sheet/marker", json={"player": 0})
    for html in (client.post("/api/sheet/round", json={}).json()["html"], client.get("/sheet").text):
        assert "<script>alert" not in html
        assert html.count(SHOWN) >= 3, html.count(SHOWN)  # the board, the table, the steppers' labels
        assert html.count(SHOWN + ", ") >= 2  # "NAME, floor tiles: one more" (aria-label)


def test_what_an_uploaded_record_says_is_text_on_the_page(client, engine):
    """The score check shows the audit's findings, which quote what the record says: as text, never markup."""
    record = finished_game(engine, 2, "classic", 3).record()
    record["variant"] = HOSTILE
    r = client.post("/api/check/record", json={"text": json.dumps(record) + "\n" + HOSTILE + "\n"})
    assert r.status_code == 200
    html = r.json()["html"]
    assert "<script>alert" not in html and "&lt;script&gt;alert(" in html
    assert html.count('<span lang="en">') == 2  # both lines: a finding in English, marked so


def test_the_bots_of_a_game_in_play_answer_for_a_copy_of_the_position(client):
    """The app's bots take their turns as every game does (bots.ask and bots.play_answer, never choose() on the
    game's own state): a bot that plays on in the position it is given changes nothing of the game's, and a bot
    that fails stops the game with its reason, the position as it was."""
    client.post("/api/play/new", json={"variant": "classic", "players": 2, "seat0": "human", "seat1": "greedy",
                                       "seed": 4})
    game = session_of(client).game

    class PlaysOn:
        def choose(self, state):
            answer = state.legal_moves()[0]
            for _ in range(3):
                state.apply(state.legal_moves()[0])
            return answer

    class Fails:
        def choose(self, state):
            raise RuntimeError("out of ideas")

    game.bots[1] = PlaysOn()
    expected = game.state.clone()
    move = expected.legal_moves()[0]
    expected.apply(move)
    expected.apply(expected.legal_moves()[0])
    assert client.post("/api/play/move", json={"move": move}).status_code == 200
    assert game.state.to_text() == expected.to_text() and len(game.moves) == 2
    game.bots[1] = Fails()
    before = game.state.clone()
    move = before.legal_moves()[0]
    r = client.post("/api/play/move", json={"move": move})  # a forfeit, as in the terminal game (was a 500)
    assert r.status_code == 200 and game.forfeit.as_dict() == {"seat": 1,
                                                               "reason": "raised RuntimeError: out of ideas"}
    before.apply(move)
    assert game.state.to_text() == before.to_text() and game.state.current_player == 1


# -- rounds that cannot happen (issue 38) ----------------------------------------------------------------------

def _refused(call, key):
    """The SheetError of ``call()``, which must refuse with the catalogue's ``key``."""
    with pytest.raises(sheets.SheetError) as info:
        call()
    assert info.value.key == key, str(info.value)
    return info.value


def _blue_lines(engine, sheet, rows):
    """Seat p completes the pattern line of wall row rows[p] in blue (the classic wall's blue cell of that row)."""
    for p, row in enumerate(rows):
        if row is not None:
            sheets.tap(engine, sheet, p, row, row)


def test_a_classic_sheet_counts_the_tiles_of_a_colour_the_bag_and_the_lid_can_have_dealt(engine):
    """At 4 players the bag's 100 tiles last two rounds of 36: until round 3 no tile comes back from the lid, and
    round 3 has the bag's last 28 tiles and 8 from the lid. The sheet counted only walls plus this round's lines."""
    sheet = sheets.new_sheet("classic", ["A", "B", "C", "D"])
    _blue_lines(engine, sheet, [4, 4, 4, 4])  # exactly the game's 20 blue tiles in round 1: a possible round
    sheets.set_marker(engine, sheet, 0)
    preview = sheets.evaluate(engine, sheet)
    assert [len(t) for t in preview["tiles"]] == [1, 1, 1, 1]
    sheets.tap(engine, sheet, 0, 4, 4)  # taken back: 15
    sheets.tap(engine, sheet, 0, 3, 3)  # A's line 4 instead: 19
    e = _refused(lambda: sheets.tap(engine, sheet, 0, 2, 2), "colour_lid")  # and line 3: 22
    assert str(e) == ("blue: 22 blue tiles in the pattern lines completed up to round 1, but the game has 20, and "
                      "none comes back from the lid before round 3 (4 players)")
    assert sheet_message("ru", e).startswith("«синий»: ") and "22" in sheet_message("ru", e)

    # The game: 16 blue in the lines 4 of round 1, then a line 5 in blue in round 2 (the bag holds 4).
    sheet = sheets.new_sheet("classic", ["A", "B", "C", "D"])
    _blue_lines(engine, sheet, [3, 3, 3, 3])
    sheets.set_marker(engine, sheet, 0)
    sheets.finish_round(engine, sheet)
    before = json.dumps(sheet)
    e = _refused(lambda: sheets.tap(engine, sheet, 0, 4, 4), "colour_lid")
    assert e.fields == {"colour": "blue", "n": 21, "k": 2, "total": 20, "back": 3, "players": 4}
    assert json.dumps(sheet) == before  # a refusal changes nothing
    sheets.tap(engine, sheet, 0, 4, 0)  # white is there to take
    sheets.tap(engine, sheet, 0, 4, 0)
    sheets.set_marker(engine, sheet, 1)
    sheets.finish_round(engine, sheet)
    # Round 3: the bag's last 28 tiles hold at most 20 - 16 = 4 blue, the 8 from the lid at most 8 of its 12.
    _blue_lines(engine, sheet, [4, 4])  # 5 + 5 blue; C's line 3 would be 13
    e = _refused(lambda: sheets.tap(engine, sheet, 2, 2, 2), "colour_pour")
    assert e.fields == {"colour": "blue", "n": 13, "m": 12, "k": 3, "d": 8}
    sheets.tap(engine, sheet, 2, 1, 1)  # line 2 instead: 12, which the game can have
    sheets.set_marker(engine, sheet, 2)
    assert sheets.finish_round(engine, sheet)["after"] == sheet["scores"]
    for lang in ("ru", "uk", "fr", "cs"):  # every language names the colour and keeps the figures
        shown = sheet_message(lang, e)
        assert i18n.text(lang, "blue") in shown and all(str(v) in shown for v in (13, 12, 3, 8)), shown


def test_a_pavilion_sheet_counts_the_tiles_of_the_round_and_of_a_colour(engine):
    """The issue's rounds: both players paying 21 red tiles in round 1 (the game has 22), a player paying 21 in a
    round that deals 20, a pass discarding 30 with nothing placed; and the rounds next to them that a game can
    have: the tiles kept from the last round, and bonus tiles that arrive before the placements they pay."""
    from azul_engine.web import pavilion_sheet as pvs

    def place(sheet, p, spaces, star="R"):
        for space in spaces:
            pvs.place(engine, sheet, p, star, space, star, 0)

    sheet = pvs.new_sheet(["Anna", "Boris"])
    place(sheet, 0, [5, 6, 1, 2, 3, 4])  # the window's 3 bonus tiles after space 6 pay for 1-4: 18 from the deal
    assert sum(x["bonus_tiles"] for x in pvs.evaluate(engine, sheet)["events"][0] if x["event"] == "place") == 3
    e = _refused(lambda: place(sheet, 1, [5]), "pv_colour_tower")
    assert str(e) == "red: 26 red tiles paid up to round 1, but the game has 22, and none comes back from the " \
                     "tower by then"
    assert sheet_message("fr", e).startswith("« rouge » : 26 tuiles")
    pvs.set_pass(engine, sheet, 0, 0, 2)  # 18 + 2 = 20: the whole deal
    e = _refused(lambda: pvs.set_pass(engine, sheet, 0, 0, 3), "pv_round_deals")
    assert e.fields == {"n": 21, "players": 2, "m": 20}

    sheet = pvs.new_sheet(["Anna", "Boris"])
    place(sheet, 0, [1, 2, 3, 4, 5])
    before = json.dumps(sheet)
    e = _refused(lambda: place(sheet, 0, [6]), "pv_round_deals")  # 21 tiles: the window's come after them
    assert e.fields["n"] == 21 and json.dumps(sheet) == before

    sheet = pvs.new_sheet(["Anna", "Boris"])
    _refused(lambda: pvs.set_pass(engine, sheet, 1, 0, 30), "pv_round_deals")
    pvs.set_pass(engine, sheet, 1, 4, 16)  # keeps 4 of the deal's 20
    pvs.finish_round(engine, sheet)
    pvs.set_pass(engine, sheet, 1, 0, 24)  # the 4 kept and the next 20
    _refused(lambda: pvs.set_pass(engine, sheet, 1, 0, 25), "pv_round_deals")
    _refused(lambda: pvs.set_token(engine, sheet, 0, 1), "pv_round_deals")  # the token's tile is one more


def test_a_pavilion_sheet_counts_a_colour_after_the_tower_may_have_come_back(engine):
    """At 4 players the bag's 132 tiles are gone by round 4 (10 + 4 x 36): tiles paid before may be back, but no
    more of a colour can be paid in one round than the game has less those on the boards (plus the round's bonus
    tiles, which may be tiles paid earlier in the round)."""
    from azul_engine.web import pavilion_sheet as pvs

    sheet = pvs.new_sheet(["A", "B", "C", "D"])
    for _ in range(3):
        pvs.finish_round(engine, sheet)
    for space in (5, 6, 1, 2, 3, 4):
        pvs.place(engine, sheet, 0, "R", space, "R", 0)  # 21 red, 3 bonus tiles
    pvs.place(engine, sheet, 1, "C", 4, "R", 0)  # 25 = 22 + 3: a round a game can have
    pvs.place(engine, sheet, 1, "C", 4, "R", 0)  # taken back
    e = _refused(lambda: pvs.place(engine, sheet, 1, "C", 5, "R", 0), "pv_colour_round")
    assert e.fields == {"colour": "red", "n": 26, "b": 0, "total": 22, "s": 3}


def test_a_pavilion_sheet_refuses_wild_tiles_named_for_the_wild_colour(engine):
    """The wild colour placed with "wild tiles used" set was taken as real tiles, silently: the engine refuses it
    (all its tiles are that colour). A wild tile on a space 1 is refused in words that count right."""
    from azul_engine.web import pavilion_sheet as pvs

    sheet = pvs.new_sheet(["Anna", "Boris"])
    for star, colour in (("P", "P"), ("C", "P")):  # purple: round 1's wild colour
        e = _refused(lambda: pvs.place(engine, sheet, 0, star, 3, colour, 2), None)
        assert str(e) == "Anna: purple is this round's wild colour: placing it pays all 3 tiles in purple, written " \
                         "with 0 wild tiles"
        assert sheet_message("uk", e).startswith("Anna: «фіолетовий» — джокер")
    assert sheet["pending"]["places"] == [[], []]
    pvs.place(engine, sheet, 0, "P", 3, "P", 0)
    e = _refused(lambda: pvs.place(engine, sheet, 1, "O", 1, "O", 1), "no_wild_on_1")
    assert str(e) == "Boris: orange star space 1 costs one tile, a real orange one: no wild tile can stand in for it"
    assert sheet_message("fr", e) == ("Boris : étoile orange, case 1, coûte une seule tuile, une vraie tuile "
                                      "« orange » : aucun joker ne peut la remplacer")


@pytest.mark.slow
@pytest.mark.parametrize("variant", ["classic", "grey", "summer-pavilion"])
def test_every_round_of_real_games_is_accepted(engine, variant):
    """The tile counts refuse only what no game has: games of the random bot and games that take one colour
    whenever they can (tiles of that colour up to the game's whole set in one pass of the bag), 2-4 players,
    entered round by round, give the engine's final scores."""
    from azul_engine.web import pavilion_sheet as pvs

    from web_support import hungry_game

    for players in (2, 3, 4):
        for seed in range(3):
            for game in (finished_game(engine, players, variant, 100 + seed, bot="random"),
                         hungry_game(engine, players, variant, seed)):
                names = ["P%d" % p for p in range(players)]
                if variant == "summer-pavilion":
                    sheet = pvs.new_sheet(names)
                    for events in game.score_sheet():
                        for e in events:
                            if e["event"] == "start-token":
                                pvs.set_token(engine, sheet, e["player"], e["tiles"])
                            elif e["event"] == "place":
                                pvs.place(engine, sheet, e["player"], e["star"], e["space"], e["colour"], e["wilds"])
                            elif e["event"] == "pass":
                                pvs.set_pass(engine, sheet, e["player"], len(e["kept"]), e["discarded"])
                        pvs.finish_round(engine, sheet)
                else:
                    rounds = table_rounds(game)
                    if rounds is None:  # nobody took from the centre in some round: the marker is unknown
                        continue
                    sheet = sheets.new_sheet(variant, names)
                    for entry in rounds:
                        enter_round(engine, sheet, entry)
                assert sheet["over"] and sheet["final"]["scores"] == game.scores, (players, seed)


# -- words, not codes, for a person (issue 38) ------------------------------------------------------------------

def _visible_text(html):
    """What a page shows as text: its markup's text, without the tags and their attributes (tooltips included)."""
    import html as markup
    import re

    return markup.unescape(re.sub(r"<[^>]*>", " ", html))


NOTATION = (r"(?<![\w-])(?:[1-9C][BYRKW][1-5F]|W[1-5][1-5]|[ORBYGPC][1-6][PGOYBR][0-5]|[1-9C][PGOYBR]|\+[PGOYBR])"
            r"(?![\w-])")


@pytest.mark.slow
@pytest.mark.parametrize("lang", ["ru", "uk", "fr", "cs"])
def test_moves_are_words_of_the_pages_language(client, engine, lang):
    """The play page's hint and last moves and the replay's move were engine notation ("1W2", "2:CYF", "CR5"): they
    are words of the page's language, the notation in a tooltip."""
    import re

    client.get("/?lang=" + lang)
    client.post("/api/play/new", json={"variant": "grey", "players": 2, "seat0": "human", "seat1": "greedy",
                                       "seed": 3})
    game = session_of(client).game
    for _ in range(4):
        client.post("/api/play/move", json={"move": game.state.legal_moves()[-1]})
    html = client.post("/api/play/hint", json={}).json()["html"]
    shown = _visible_text(html)
    assert not re.findall(NOTATION, shown), re.findall(NOTATION, shown)
    for move in [h.move for h in game.hint] + [played.move for played in game.moves[-6:]]:
        assert views.move_words(lang, "grey", move) in shown and 'title="%s"' % move in html
    for variant, seed in (("classic", 5), ("summer-pavilion", 2)):
        record = finished_game(engine, 2, variant, seed).record_json()
        client.post("/api/replay/load", json={"text": record, "line": 1})
        for to in range(1, len(session_of(client).replay["states"]), 3):  # (Summer Pavilion's refills included)
            html = client.post("/api/replay/step", json={"to": to}).json()["html"]
            position = re.search(r'<p id="rp-pos">(.*?)</p>', html, re.S).group(1)
            move = session_of(client).replay["states"][to][1]
            if move is None:  # a round's deal
                continue
            assert 'title="%s"' % move in position
            assert _visible_text(position).split("·")[-1].strip() == views.move_words(lang, variant, move) != move


def test_move_words_name_every_kind_of_move():
    words = views.move_words
    assert words("en", "classic", "3R4") == "Factory 3, red → pattern line 4"
    assert words("fr", "classic", "CYF") == "Centre, jaune → plancher"
    assert words("en", "grey", "W24") == "line 2's tile to the wall, column 4"
    assert words("cs", "summer-pavilion", "3R") == "Továrna 3: červená"
    assert words("fr", "summer-pavilion", "B3B1") == "étoile bleue, case 3 : bleu avec 1 joker(s)"
    assert words("en", "summer-pavilion", "C5P0") == "centre star, space 5: purple"
    assert words("ru", "summer-pavilion", "+G") == "бонусная плитка: зелёный"
    assert words("en", "summer-pavilion", "-GRR") == "pass, keeping green, red, red"
    assert words("uk", "summer-pavilion", "-") == "пас, нічого не залишено"
    assert words("en", "summer-pavilion", "~BR") == "the supply refilled from the bag: blue, red"


def test_a_sheet_speaks_the_pages_language_wherever_it_was_begun(client, engine):
    """Seats left unnamed are "Player N" in the language of the page showing them (the names were written into
    the sheet in the language it was made in); the Summer Pavilion's stars are named, not lettered O R B Y G P C;
    French puts a space before its colons everywhere ("Joueur 0:" and "Joueur 0 :" were both shown); a floor
    without penalty says no "→ −0"; no text shows a command between backticks."""
    import re

    client.get("/?lang=fr")
    client.post("/api/sheet/new", json={"variant": "classic", "players": 2, "name0": "", "name1": "Boris"})
    client.post("/api/sheet/tap", json={"player": 0, "row": 0, "col": 0})
    r = client.post("/api/sheet/tap", json={"player": 0, "row": 0, "col": 1})
    assert r.json()["error"].startswith("Joueur 0 : la ligne 1 du mur a déjà une tuile cette manche")
    client.post("/api/sheet/marker", json={"player": 1})
    client.post("/api/sheet/round", json={})
    page = client.get("/sheet").text
    assert "Joueur 0" in page and "Plancher : 0<" in page.replace("\n", "") and "&rarr; &minus;0" not in page
    assert not re.search(r"\w:(?!//)[ <]", _visible_text(page).replace("http:", "")), "a colon without its space"
    r = client.post("/api/sheet/tap", json={"player": 0, "row": 0, "col": 0})
    assert r.json()["error"] == "Joueur 0 : la case du mur ligne 1, colonne 1 est déjà prise"
    client.get("/?lang=cs")
    page = client.get("/sheet").text
    assert "Hráč 0" in page and "Joueur" not in page and "Boris" in page
    r = client.post("/api/sheet/tap", json={"player": 0, "row": 0, "col": 0})
    assert r.json()["error"] == "Hráč 0: políčko zdi v řadě 1, sloupci 1 je už obsazené"
    sheet = json.loads(client.get("/sheet/download").text)
    assert sheet["names"] == ["Hráč 0", "Boris"]
    client.post("/api/sheet/reset", json={})
    client.get("/?lang=fr")
    html = client.post("/api/sheet/new", json={"variant": "summer-pavilion", "players": 2}).json()["html"]
    assert html.count('<span class="starname">étoile bleue</span>') == 2
    assert not re.search(r'<span(?! class="tile)[^>]*>[ORBYGPC]</span>', html)  # (a tile carries its letter)
    assert all("`" not in text for texts in i18n.T.values() for text in texts)


def test_the_replays_first_player_marker_says_1(client, engine):
    record = finished_game(engine, 2, "classic", 5).record()
    client.post("/api/replay/load", json={"text": json.dumps(record), "line": 1})
    state = next(k for k, (s, _) in enumerate(
        __import__("azul_engine.web.handlers", fromlist=["x"]).replay_states(engine, record))
        if any("M" in f for f in s.floors))
    html = client.post("/api/replay/step", json={"to": state}).json()["html"]
    assert '<span class="tile t-M">1</span>' in html


def test_a_refusal_to_the_pages_own_script_is_an_answer_not_a_failed_request(client):
    """The page's script says it is the page's (X-Azul-Page): a refusal comes with 200, its status in the answer
    (a 422 was logged by the browser as a failed request, for every refused tap); other clients get the 4xx."""
    client.post("/api/sheet/new", json={"variant": "classic", "players": 2, "name0": "Anna"})
    client.post("/api/sheet/tap", json={"player": 0, "row": 0, "col": 0})
    second = {"player": 0, "row": 0, "col": 1}
    plain = client.post("/api/sheet/tap", json=second)
    page = client.post("/api/sheet/tap", json=second, headers={"X-Azul-Page": "1"})
    assert plain.status_code == 422 and page.status_code == 200
    assert page.json() == dict(plain.json(), status=422) and page.json()["error"].startswith("Anna: wall row 1")
    r = client.post("/api/check/wall", json={"wall": "BYRKW", "score": "abc"}, headers={"X-Azul-Page": "1"})
    assert r.status_code == 200 and r.json()["status"] == 400 and r.json()["error"].startswith("score:")


def test_the_score_check_names_the_last_round_from_game_info(client, engine, monkeypatch):
    """The Summer Pavilion check asks for the score after the last round's passes: the round is game_info's (an
    engine with another round count would be asked so), in every language."""
    from azul_engine.web import pavilion_sheet

    rounds = engine.game_info("summer-pavilion").rounds
    assert "Score after round %d&#39;s passes" % rounds in client.get("/check?lang=en").text
    assert "Счёт после пасов %d-го раунда" % rounds in client.get("/check?lang=ru").text
    monkeypatch.setattr(pavilion_sheet, "ROUNDS", rounds + 1)
    assert "Score after round %d&#39;s passes" % (rounds + 1) in client.get("/check?lang=en").text
