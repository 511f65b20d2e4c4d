"""The score sheet checks each round against the tiles in play (issue 23): a round deals 4 tiles a factory,
each colour has 20 tiles, and placing exactly the 20 tiles of a colour is allowed."""

import pytest

pytest.importorskip("starlette")

from azul_engine.web import i18n, sheet as sheets  # noqa: E402


def blue_col(row):
    return row  # classic wall: blue on the diagonal


def test_twenty_blue_tiles_in_round_one_are_allowed_and_scored(engine):
    s = sheets.new_sheet("classic", ["Anna", "Boris"])
    for row in range(5):  # Anna: every line blue, 15 tiles
        sheets.tap(engine, s, 0, row, blue_col(row))
    sheets.tap(engine, s, 1, 4, blue_col(4))  # Boris: line 5 blue, 5 tiles: the 20 of the game, the 20 dealt
    sheets.set_marker(engine, s, 1)
    result = sheets.finish_round(engine, s)
    assert [len(t) for t in result["tiles"]] == [5, 1]
    assert s["walls"][0] == ["B....", ".B...", "..B..", "...B.", "....B"]


def test_more_tiles_than_a_round_deals_are_refused(engine):
    s = sheets.new_sheet("classic", ["Anna", "Boris"])
    for row in (4, 3, 2):  # 5 + 4 + 3 = 12
        sheets.tap(engine, s, 0, row, 0)
    sheets.tap(engine, s, 1, 4, 0)  # 5 more: 17
    sheets.tap(engine, s, 1, 2, 0)  # 3 more: 20, still possible
    with pytest.raises(sheets.SheetError) as refused:
        sheets.tap(engine, s, 1, 1, 0)  # 2 more: 22 tiles, a 2-player round deals 20
    assert str(refused.value) == ("22 tiles entered this round (the completed lines and the floors), but a round "
                                  "of 2 players deals only 20")
    assert refused.value.key == "round_too_many"
    assert i18n.text("ru", refused.value.key, **refused.value.fields).startswith("в этом раунде введено плиток: 22")
    assert len(s["pending"]["tiles"][1]) == 2  # the refused tap changed nothing
    with pytest.raises(sheets.SheetError):
        sheets.set_floor(engine, s, 0, 1)  # 21 with one tile on a floor


def test_later_rounds_count_at_least_a_tile_a_line(engine):
    s = sheets.new_sheet("classic", ["Anna", "Boris"])
    sheets.tap(engine, s, 0, 0, 0)
    sheets.set_marker(engine, s, 0)
    sheets.finish_round(engine, s)
    for row in range(1, 5):  # lines may have been begun in round 1: at least 4 tiles drafted now
        sheets.tap(engine, s, 0, row, 1)
    sheets.set_floor(engine, s, 1, 7)
    sheets.set_floor(engine, s, 0, 7)  # 4 + 14 = 18: possible
    with pytest.raises(sheets.SheetError) as refused:
        for row in range(1, 5):
            sheets.tap(engine, s, 1, row, 2)  # the third of these is the 21st tile
    assert refused.value.key == "round_too_many_later" and refused.value.fields["n"] == 21
