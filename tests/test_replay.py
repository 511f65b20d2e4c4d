"""HTML replays (azul_engine.replay.to_html, ``azul-engine replay``): one self-contained page per
record, with every position, every move, the round scores and the end bonuses, the same bytes from both
engines."""

import base64
import gzip
import html.parser
import json
import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest

from azul_engine import bots, records, replay, svg

GAMES = [(2, "classic", 3), (3, "grey", 4), (4, "classic", 8), (2, "summer-pavilion", 5),
         (3, "summer-pavilion", 6)]


class Page(html.parser.HTMLParser):
    """The tags, attributes and script texts of a page."""

    def __init__(self):
        super().__init__()
        self.tags, self.scripts, self.items, self._in = [], [], [], None

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))
        if tag in ("script", "li"):
            self._in = [tag, dict(attrs), ""]

    def handle_data(self, data):
        if self._in is not None:
            self._in[2] += data

    def handle_endtag(self, tag):
        if self._in is not None and tag == self._in[0]:
            (self.scripts if tag == "script" else self.items).append((self._in[1], self._in[2]))
            self._in = None


def parse(page):
    p = Page()
    p.feed(page)
    return p


def unpack(page):
    data, = [text for attrs, text in parse(page).scripts if attrs.get("id") == "replay-data"]
    return json.loads(gzip.decompress(base64.b64decode("".join(data.split()))))


def game_record(engine, players, variant, seed):
    """A greedy game's record; played by the active engine (records are the same from either, and the C++ one
    is quick), replayed by the engine under test."""
    import azul_engine
    return bots.play(azul_engine.load_backend(azul_engine.BACKEND), players, variant, seed, "greedy").record()


@pytest.mark.slow
@pytest.mark.parametrize("players,variant,seed", GAMES)
def test_replay_page_holds_every_position_and_move(engine, players, variant, seed):
    record = game_record(engine, players, variant, seed)
    page = replay.to_html(record, engine)
    assert page == replay.to_html(record, engine)
    decisions = [m for r in record["rounds"] for m in r["moves"] if not m.startswith("~")]
    parsed = parse(page)
    assert [text.split()[1] for _, text in parsed.items] == decisions
    assert [text.split()[0] for _, text in parsed.items] == [
        "P%d" % p for _, _, p, _ in replay.frames(record, engine)[1:]]
    data = unpack(page)
    assert len(data["frames"]) == len(decisions) + 1 == len(data["labels"])
    states = replay.frames(record, engine)
    for k in (0, 1, len(states) // 2, len(states) - 1):  # each frame is the picture of its position
        state, move, player, _ = states[k]
        width, height, defs, fragments = svg.parts(state, 0, None, (move, player) if move else None)
        assert [data["parts"][i] for i in data["frames"][k][2]] == fragments
        assert data["defs"] == defs
    assert states[-1][0].scores == record["final_scores"]
    assert states[-1][0].is_over
    # every distinct part is well-formed SVG inside the page's <svg>
    for part in data["parts"]:
        ET.fromstring('<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink">'
                      + data["defs"] + part + "</svg>")
    # scores after each round, end bonuses, final scores
    for rnd in record["rounds"]:
        row = "".join("<td>%d</td>" % s for s in rnd["scores"])
        assert row in page
    assert "end bonuses" in page
    assert "final</th>" in page


@pytest.mark.slow
def test_replay_is_the_same_page_in_both_engines():
    import azul_engine
    pages = set()
    for name in azul_engine.available_backends():
        engine = azul_engine.load_backend(name)
        pages.add(replay.to_html(bots.play(engine, 3, "summer-pavilion", 2, "greedy").record(), engine))
    assert len(pages) == 1


def test_replay_page_is_self_contained(engine):
    page = replay.to_html(game_record(engine, 2, "classic", 1), engine)
    parsed = parse(page)
    for tag, attrs in parsed.tags:
        assert "src" not in attrs, tag  # no external script, image or frame
        assert tag not in ("link", "iframe", "img", "object", "embed"), tag
        for key in ("href", "xlink:href"):
            assert attrs.get(key, "#").startswith("#")
    assert not re.search(r"url\(|@import|@font-face", page)
    urls = set(re.findall(r"https?://[^\"' ]+", page))
    assert urls <= {"http://www.w3.org/2000/svg", "http://www.w3.org/1999/xlink"}
    ids = [attrs["id"] for tag, attrs in parsed.tags if "id" in attrs and tag in ("button", "input")]
    assert ids == ["first", "prev", "play", "next", "last", "slider"]
    slider, = [attrs for tag, attrs in parsed.tags if attrs.get("id") == "slider"]
    assert slider["type"] == "range" and int(slider["max"]) == len(unpack(page)["frames"]) - 1


def test_end_bonuses_are_shown(engine):
    record = game_record(engine, 2, "classic", 3)
    final = records.replay(record, engine)
    bonus = [e for r in final.score_sheet() for e in r if e["event"] == "bonus"]
    page = replay.to_html(record, engine)
    for e in bonus:
        assert "+%d: rows %d x 2, columns %d x 7, colours %d x 10" % (
            e["points"], e["rows"], e["columns"], e["colours"]) in page
    sp = game_record(engine, 2, "summer-pavilion", 3)
    ends = [e for r in records.replay(sp, engine).score_sheet() for e in r if e["event"] == "end"]
    page = replay.to_html(sp, engine)
    for e in ends:
        assert "%+d: " % (e["after"] - e["before"]) in page


def test_a_bad_record_is_refused(engine):
    record = game_record(engine, 2, "classic", 3)
    record["rounds"][0]["moves"][0] = "9Z9"
    with pytest.raises(records.RecordError):
        replay.to_html(record, engine)
    with pytest.raises(ValueError, match="seat"):
        replay.to_html(game_record(engine, 2, "classic", 3), engine, seat=2)


def test_a_record_with_bad_final_fields_or_text_is_a_record_error(engine):
    """The page shows final_scores and winners: a record whose end fields are missing or of the wrong kind is a
    RecordError naming the field (was: KeyError, TypeError or OverflowError from the page's formatting)."""
    good = game_record(engine, 2, "classic", 3)
    for field, value, words in (("final_scores", None, "field final_scores: missing"),
                                ("final_scores", [float("inf"), 0], "field final_scores: "),
                                ("final_scores", [float("nan"), 0], "field final_scores: "),
                                ("winners", "0", "field winners: "),
                                ("winners", None, "field winners: missing")):
        record = json.loads(json.dumps(good))
        record[field] = value
        with pytest.raises(records.RecordError) as info:
            replay.to_html(record, engine)
        assert str(info.value).startswith(words), str(info.value)
    for text in ("x", "{", "[" * 100000):
        with pytest.raises(records.RecordError, match="^not a record: the text is not JSON"):
            replay.to_html(text, engine)
    assert replay.to_html(json.dumps(good), engine) == replay.to_html(good, engine)


def run_cli(*args):
    return subprocess.run([sys.executable, "-m", "azul_engine", *args], capture_output=True, text=True,
                          timeout=120)


@pytest.mark.slow
def test_replay_command(tmp_path):
    games = tmp_path / "games.jsonl"
    assert run_cli("record", "--players", "2", "--variant", "summer-pavilion", "--games", "2", "--seed", "4",
                   "--bot", "greedy", "-o", str(games)).returncode == 0
    out = tmp_path / "game.html"
    done = run_cli("replay", str(games), "--game", "2", "-o", str(out), "--seat", "1")
    assert done.returncode == 0, done.stderr
    page = out.read_text(encoding="utf-8")
    assert page == replay.to_html(records.read(str(games))[1], seat=1)
    missing = run_cli("replay", str(games), "--game", "3", "-o", str(out))
    assert missing.returncode == 1 and "no record on line 3" in missing.stderr
    bad = tmp_path / "bad.jsonl"
    lines = games.read_text(encoding="utf-8").splitlines()
    broken = json.loads(lines[0])
    broken["final_scores"] = [1e400, 0]  # JSON's Infinity
    bad.write_text("\n\n" + json.dumps(broken) + "\nnull\n", encoding="utf-8")
    for game, words in ((1, "no record on line 1 (the next one is on line 3)"),
                        (3, "line 3: field final_scores: "), (4, "line 4: null is not a record")):
        done = run_cli("replay", str(bad), "--game", str(game), "-o", str(out))
        assert done.returncode == 1 and "Traceback" not in done.stderr, done.stderr
        assert done.stderr.startswith("azul-engine replay: %s: %s" % (bad, words)), done.stderr
        assert len(done.stderr.splitlines()) == 1
    absent = run_cli("replay", str(tmp_path / "nope.jsonl"), "-o", str(out))
    assert absent.returncode == 2 and "cannot read" in absent.stderr
    bad_out = run_cli("replay", str(games), "-o", str(tmp_path / "no" / "dir.html"))
    assert bad_out.returncode == 2 and "cannot write" in bad_out.stderr
    assert os.path.exists(out)


def test_who_played_is_shown(engine):
    record = game_record(engine, 2, "classic", 3)
    record["bots"] = [{"spec": "greedy"}, {"spec": "cmd:./flat", "name": "Flat <1.0>"}]
    record["event"] = "Club night"
    page = replay.to_html(record, engine)
    assert "Players: 0 greedy, 1 Flat &lt;1.0&gt;. Event: Club night." in page


def test_the_page_is_a_template_that_escapes_what_the_record_says(engine):
    """The page is a Jinja2 template with autoescaping on (azul_engine/data/replay.html): what a record says in
    words (who played, the event, a forfeit's reason) and a title are text on the page, never markup."""
    import azul_engine

    template, style, script = replay._page()
    assert template.environment.autoescape is True and "function" in script and "{" in style
    hostile = '<script>alert("x")</script>'
    shown = "&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt;"
    record = game_record(engine, 2, "classic", 3)
    record["bots"] = [{"spec": "greedy", "name": hostile}, {"spec": "random"}]
    record["event"] = hostile
    page = replay.to_html(record, engine, title=hostile)
    assert "<script>alert" not in page
    assert page.count(shown) == 5  # <title>, <h1>, the first picture's title, who played, the event
    state = azul_engine.load_backend(azul_engine.BACKEND).new_game(players=2, seed=9)
    for _ in range(30):
        state.apply(state.legal_moves()[0])
    forfeit = json.loads(state.record_json())
    forfeit.update(forfeit={"seat": 1, "reason": hostile}, final_scores=list(state.scores), winners=[0])
    page = replay.to_html(forfeit, engine)
    assert "<script>alert" not in page and "Player 1 forfeited: " + shown in page
