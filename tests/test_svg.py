"""SVG pictures of positions (azul_engine.svg): valid SVG 1.1 whose structure matches the state, the same bytes
from both engines (golden files), and the options (seat, highlight, last move, size)."""

import os
import xml.etree.ElementTree as ET

import pytest

from azul_engine import svg
from svg_positions import DOCS, DOCS_DIR, GOLDEN_DIR, POSITIONS, picture, position

NS = "{http://www.w3.org/2000/svg}"
XLINK = "{http://www.w3.org/1999/xlink}href"
# The SVG 1.1 elements the pictures use; anything else (SVG 2 only, HTML) would be a mistake.
SVG11 = {"svg", "g", "defs", "symbol", "use", "rect", "circle", "polygon", "text", "title"}


def parse(text):
    root = ET.fromstring(text)
    assert root.tag == NS + "svg"
    assert root.get("version") == "1.1"
    return root


def by_id(root, ident):
    found = [e for e in root.iter() if e.get("id") == ident]
    assert len(found) == 1, ident
    return found[0]


def tile_letters(element):
    """The letters of the tiles drawn in an element, in document order (t-X symbols; t-M is the marker)."""
    return "".join(u.get(XLINK)[3:] for u in element.iter(NS + "use") if u.get(XLINK, "").startswith("#t-"))


@pytest.mark.parametrize("filename", sorted(DOCS))
def test_readme_pictures_are_up_to_date(engine, filename):
    with open(os.path.join(DOCS_DIR, filename), encoding="utf-8", newline="") as f:
        assert picture(engine, DOCS[filename]) == f.read(), "rerun tests/svg_positions.py"


@pytest.mark.parametrize("name", sorted(set(POSITIONS) - set(DOCS.values())))
def test_golden_pictures_byte_for_byte(engine, name):
    with open(os.path.join(GOLDEN_DIR, name + ".svg"), encoding="utf-8", newline="") as f:
        golden = f.read()
    assert picture(engine, name) == golden, (
        "%s differs from tests/golden/svg/%s.svg; if the change is meant, rerun tests/svg_positions.py" % (name, name))


@pytest.mark.parametrize("name", sorted(POSITIONS))
def test_valid_svg_11_and_every_reference_defined(engine, name):
    root = parse(picture(engine, name))
    ids = [e.get("id") for e in root.iter() if e.get("id")]
    assert len(ids) == len(set(ids)), "duplicate ids"
    for e in root.iter():
        assert e.tag.startswith(NS) and e.tag[len(NS):] in SVG11, e.tag
        assert not any(k.startswith("data-") for k in e.attrib)
        if e.tag == NS + "use":
            assert e.get(XLINK)[1:] in ids
    width, height = (float(v) for v in root.get("viewBox").split()[2:])
    assert width > 0 and height > 0


def test_every_tile_symbol_carries_its_letter(engine):
    for variant, letters in (("classic", "BYRKW"), ("summer-pavilion", "PGOYBR")):
        root = parse(svg.board(engine.new_game(2, variant=variant, seed=1)))
        for letter in letters:
            symbol = by_id(root, "t-" + letter)
            assert [t.text for t in symbol.iter(NS + "text")] == [letter]
        assert [t.text for t in by_id(root, "t-M").iter(NS + "text")] == ["1"]


@pytest.mark.parametrize("players,variant,seed,moves", [
    (2, "classic", 7, 0), (3, "classic", 11, 50), (4, "classic", 5, 70), (2, "grey", 3, "tiling"),
    (4, "grey", 8, None)])
def test_classic_picture_shows_the_position(engine, players, variant, seed, moves):
    state = position(engine, players, variant, seed, moves)
    root = parse(svg.board(state))
    for i, tiles in enumerate(state.factories):
        assert tile_letters(by_id(root, "factory-%d" % (i + 1))) == tiles
    marker = "M" if state.first_player_marker == -1 and not state.is_over else ""
    assert tile_letters(by_id(root, "centre")) == marker + state.center
    for p in range(players):
        group = by_id(root, "player-%d" % p)
        wall, = [g for g in group.iter(NS + "g") if g.get("class") == "wall"]
        cells = [u.get(XLINK) for u in wall.iter(NS + "use")]
        assert len(cells) == 25
        for r in range(5):
            for c in range(5):
                cell, drawn = state.walls[p][r][c], cells[5 * r + c]
                if cell != ".":
                    assert drawn == "#t-" + cell
                elif variant == "classic":  # the colour the cell takes, faint
                    assert drawn == "#e-" + "BYRKW"[(c - r) % 5]
                else:
                    assert drawn == "#slot"
        lines, = [g for g in group.iter(NS + "g") if g.get("class") == "pattern-lines"]
        assert tile_letters(lines) == "".join(state.pattern_lines[p])
        floor, = [g for g in group.iter(NS + "g") if g.get("class") == "floor"]
        assert tile_letters(floor) == state.floors[p][:7]
        penalties = [t.text for t in floor.iter(NS + "text")][:7]
        assert penalties == ["-1", "-1", "-2", "-2", "-2", "-3", "-3"]
        score, = [t for t in group.iter(NS + "text") if t.get("class") == "score"]
        assert score.text == "score %d" % state.scores[p]


@pytest.mark.parametrize("players,seed,moves", [(2, 7, 0), (3, 4, 60), (4, 9, None), (2, 3, 35)])
def test_pavilion_picture_shows_the_position(engine, players, seed, moves):
    state = position(engine, players, "summer-pavilion", seed, moves)
    root = parse(svg.board(state))
    for i, tiles in enumerate(state.factories):
        assert tile_letters(by_id(root, "factory-%d" % (i + 1))) == tiles
    assert tile_letters(by_id(root, "supply")) == state.supply
    centre = tile_letters(by_id(root, "centre"))
    assert centre.lstrip("M") == state.center
    if not state.is_over:
        assert tile_letters(by_id(root, "wild")) == state.wild
    for p in range(players):
        group = by_id(root, "player-%d" % p)
        for s, star in enumerate("ORBYGPC"):
            covered = [e.get("class").split() for e in by_id(root, "star-%d-%s" % (p, star)).iter(NS + "polygon")
                       if "space" in e.get("class", "").split()]
            assert all(c[:2] == ["space", "covered"] for c in covered)
            drawn = {int(c[3][1:]): c[2] for c in covered}
            assert drawn == {n + 1: t for n, t in enumerate(state.boards[p][s]) if t != "."}
        hand, = [g for g in group.iter(NS + "g") if g.get("class") == "hand"]
        assert tile_letters(hand) == state.hands[p]
        ornaments = [u.get("class").split() for u in group.iter(NS + "use")
                     if u.get("class", "").startswith("ornament ")]
        assert len(ornaments) == 18
        assert sorted({c[1] for c in ornaments}) == ["pillar", "statue", "window"]
        # an ornament is done when all its spaces are covered: windows S5 S6, statues S1 S2 + next star's 3 4,
        # pillars S2 S3 + two centre spaces
        full = lambda s, n: state.boards[p][s][n - 1] != "."  # noqa: E731
        windows = [all(full(s, n) for n in (5, 6)) for s in range(6)]
        statues = [all((full(s, 1), full(s, 2), full((s + 1) % 6, 3), full((s + 1) % 6, 4))) for s in range(6)]
        pillars = [all((full(s, 2), full(s, 3), full(6, (s + 5) % 6 + 1), full(6, s + 1))) for s in range(6)]
        assert ["done" in c for c in ornaments] == windows + statues + pillars
        score, = [t for t in group.iter(NS + "text") if t.get("class") == "score"]
        assert score.text == "score %d" % state.scores[p]
    # the empty board every player shares: 7 stars of 6 spaces, each with its cost
    background = by_id(root, "sp-board")
    assert len(list(background.iter(NS + "polygon"))) == 42
    costs = [t.text for t in background.iter(NS + "text") if t.text.isdigit()]
    assert costs == [str(n) for n in range(1, 7)] * 7


def board_tops(root, players):
    return {p: float(next(by_id(root, "player-%d" % p).iter(NS + "rect")).get("y")) for p in range(players)}


@pytest.mark.parametrize("variant", ["classic", "summer-pavilion"])
def test_seat_is_seen_from_below(engine, variant):
    state = engine.new_game(3, variant=variant, seed=2)
    for seat in range(3):
        tops = board_tops(parse(svg.board(state, seat=seat)), 3)
        assert max(tops, key=tops.get) == seat
        assert sorted(tops.values())[1] < tops[seat]
    two = engine.new_game(2, variant=variant, seed=2)
    assert svg.board(two, flipped=True) == svg.board(two, seat=1)
    assert svg.board(two) == svg.board(two, seat=0) != svg.board(two, seat=1)


def outlines(root, style):
    return [e for e in root.iter() if e.get("class") == style]


def test_highlight_outlines_source_and_destination(engine):
    state = engine.new_game(2, seed=7)
    root = parse(svg.board(state, highlight="5K3"))
    factory = by_id(root, "factory-5")
    assert len(outlines(factory, "hint")) == 1 + state.factories[4].count("K")  # the factory, each black tile
    assert outlines(by_id(root, "player-0"), "hint")
    assert not outlines(by_id(root, "player-1"), "hint")
    assert svg.board(state, highlight=state.string_to_action("5K3")) == svg.board(state, highlight="5K3")
    assert "proposed 5K3 (player 0)" in svg.board(state, highlight="5K3")
    assert not outlines(parse(svg.board(state)), "hint")


def test_highlight_pavilion_space(engine):
    state = position(engine, 3, "summer-pavilion", 4, 20)
    assert state.phase == "play"
    place = next(m for m in state.legal_moves() if len(m) == 4 and m[0] != "-")
    root = parse(svg.board(state, highlight=place))
    star = by_id(root, "star-%d-%s" % (state.current_player, place[0]))
    assert len(outlines(star, "hint")) == 1


def test_last_move_is_outlined_and_named(engine):
    state = engine.new_game(2, seed=7)
    state.apply("5K3")
    text = svg.board(state)
    assert "last move 5K3 (player 0)" in text
    root = parse(text)
    assert outlines(by_id(root, "player-0"), "last") and not outlines(by_id(root, "player-1"), "last")
    assert outlines(by_id(root, "factory-5"), "last")
    assert "last move" not in svg.board(state, last_move=False)
    assert not outlines(parse(svg.board(state, last_move=False)), "last")
    assert svg.last_move(state) == ("5K3", 0)
    # a state read from text without history has no last move, and still draws
    bare = engine.from_text(state.to_text())
    assert svg.last_move(bare) is None
    parse(svg.board(bare))


def test_last_move_across_a_round_end(engine):
    state = position(engine, 2, "summer-pavilion", 3, None)
    found = svg.last_move(state)
    record = state.record()
    moves = [m for r in record["rounds"] for m in r["moves"] if m[:1] != "~"]
    assert found is not None and found[0] == moves[-1]
    classic = position(engine, 2, "classic", 3, None)
    assert svg.last_move(classic)[0] == [m for r in classic.record()["rounds"] for m in r["moves"]][-1]


def test_bad_options_are_refused(engine):
    state = engine.new_game(2, seed=7)
    with pytest.raises(ValueError, match="seat"):
        svg.board(state, seat=2)
    with pytest.raises(ValueError, match="seat"):
        svg.board(state, seat=True)
    for size in (0, -1, float("inf"), float("nan"), 1e308, svg.MAX_SIZE + 1, "400"):
        with pytest.raises(ValueError, match="^size must be a number of pixels above 0 and at most 100000, not "):
            svg.board(state, size=size)
    assert 'width="100000"' in svg.board(state, size=svg.MAX_SIZE)
    for thing in ("x", None, 7, state.to_text()):
        with pytest.raises(TypeError, match="^a picture is of a game state .GameState or PavilionState., not "):
            svg.board(thing)
    with pytest.raises(ValueError, match="not a legal move"):
        svg.board(state, highlight="CBF")  # the centre is empty
    with pytest.raises(ValueError):
        svg.board(state, highlight="xyz")


def test_size_scales_without_changing_the_drawing(engine):
    state = engine.new_game(2, seed=7)
    small, natural = parse(svg.board(state, size=300)), parse(svg.board(state))
    assert small.get("width") == "300"
    assert small.get("viewBox") == natural.get("viewBox")
    w, h = (float(v) for v in natural.get("viewBox").split()[2:])
    assert abs(float(small.get("height")) - 300 * h / w) < 0.1


def test_repr_svg_for_notebooks(engine):
    for variant in ("classic", "grey", "summer-pavilion"):
        state = engine.new_game(2, variant=variant, seed=1)
        state.apply(state.legal_actions()[0])
        assert state._repr_svg_() == svg.board(state)
        assert state._repr_svg_() == state.clone()._repr_svg_()


def run_cli(*args):
    import subprocess
    import sys
    return subprocess.run([sys.executable, "-m", "azul_engine", *args], capture_output=True, text=True, timeout=120)


@pytest.mark.slow
def test_board_command(tmp_path):
    import azul_engine
    from azul_engine import records, replay
    games = tmp_path / "g.jsonl"
    assert run_cli("record", "--variant", "grey", "--games", "1", "--seed", "2", "--bot", "greedy",
                   "-o", str(games)).returncode == 0
    record = records.read(str(games))[0]
    states = replay.frames(record)
    out = tmp_path / "b.svg"
    done = run_cli("board", str(games), "--move", "7", "--seat", "1", "--size", "400", "-o", str(out))
    assert done.returncode == 0, done.stderr
    state, move, player, _ = states[7]
    width, height, defs, fragments = svg.parts(state, 1, None, (move, player))
    assert out.read_text() == svg._open(width, height, 400, svg._title(state)) + defs + "".join(fragments) + "</svg>\n"
    end = run_cli("board", str(games), "-o", "-")
    assert end.returncode == 0 and "game over" in end.stdout
    parse(end.stdout)
    text = azul_engine.new_game(3, seed=1).to_text()
    state = azul_engine.from_text(text)
    move = state.legal_moves()[5]
    drawn = run_cli("board", "--text", text, "--highlight", move, "-o", "-")
    assert drawn.returncode == 0 and drawn.stdout == svg.board(state, highlight=move)
    assert run_cli("board", str(games), "--move", "9999", "-o", "-").returncode == 2
    assert run_cli("board", "-o", "-").returncode == 2
    bad = run_cli("board", "--text", "nonsense", "-o", "-")
    assert bad.returncode == 1 and "--text" in bad.stderr
    assert run_cli("board", str(games), "--game", "5", "-o", "-").returncode == 1
