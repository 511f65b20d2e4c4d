"""The web app's actions: what its pages' buttons post (``POST /api/...``, a JSON body).

Each action is a function ``action(call, data)``: ``call`` (a ``Call``) is what the app gives it, ``data`` the
request's JSON object.  It changes the session and answers a dict for the page's script, most often
``{"html": ...}``, the page part redrawn (``views.fragment``); a refusal is a ``forms.BadRequest``.  ``app.py``
routes them (``ACTIONS``) and runs each in a worker thread with the session's lock held.
"""

import functools
import json
import math
import secrets
from typing import NamedTuple

from .. import records
from .._errors import IllegalMoveError, StateFormatError
from . import i18n, pavilion_sheet as pvs, sessions, sheet as sheets, views
from .forms import DIGITS, BadRequest, integer, parse_records, variant_of
from .game import BOT_SPECS, BrowserGame


class Call(NamedTuple):
    """What an action or a view is given: the app's ``engine``, the client's ``session``, the page's language
    ``lang``, and ``record_seconds``, the bound of the search for a finished sheet's record."""

    engine: object
    session: sessions.Session
    lang: str
    record_seconds: float


def redrawn(call, view, **result):
    """The page part of ``view`` (views.sheet, views.play, ...) drawn anew: the answer of most actions."""
    name, context = view(call, **result)
    return {"html": views.fragment(call.lang, name, context)}


# -- score sheets ----------------------------------------------------------------------------------------------

def _sheet_change(change):
    """A score sheet's action from ``change(call, data)``: its answer is the sheet redrawn; what the sheet's rules
    refuse (sheets.SheetError) is a 422 with the refusal in the page's language, and the sheet redrawn."""

    @functools.wraps(change)
    def action(call, data):
        try:
            change(call, data)
        except sheets.SheetError as e:
            refusal = BadRequest(views.sheet_message(call.lang, e, call.session.sheet), 422)
            refusal.redraw = redrawn(call, views.sheet)["html"]
            raise refusal from None
        return redrawn(call, views.sheet)
    return action


def _sheet_of(call, pavilion=None):
    """The session's score sheet (without one: 409); ``pavilion``: whether it must be a Summer Pavilion sheet."""
    sheet = call.session.sheet
    if sheet is None:
        raise BadRequest(i18n.text(call.lang, "no_game"), 409)
    if pavilion is not None and (sheet["variant"] == "summer-pavilion") != pavilion:
        raise sheets.SheetError("this score sheet is for %s" % sheet["variant"])
    return sheet


@_sheet_change
def sheet_new(call, data):
    players = integer(data, "players", 2, 4)
    names = [data.get("name%d" % i, "") for i in range(players)]
    names = [n if isinstance(n, str) else "" for n in names]
    if data.get("variant") == "summer-pavilion":
        call.session.sheet = pvs.new_sheet(names)
    else:
        call.session.sheet = sheets.new_sheet(variant_of(data), names)


@_sheet_change
def sheet_tap(call, data):
    sheets.tap(call.engine, _sheet_of(call, False), integer(data, "player", 0, 3), integer(data, "row", 0, 4),
               integer(data, "col", 0, 4), data.get("colour"))


@_sheet_change
def sheet_floor(call, data):
    sheets.set_floor(call.engine, _sheet_of(call, False), integer(data, "player", 0, 3),
                     integer(data, "tiles", 0, 99))


@_sheet_change
def sheet_marker(call, data):
    sheet = _sheet_of(call, False)
    p = data.get("player")
    sheets.set_marker(call.engine, sheet, None if p is None else integer(data, "player", 0, 3))


@_sheet_change
def pavilion_place(call, data):
    pvs.place(call.engine, _sheet_of(call, True), integer(data, "player", 0, 3), data.get("star"),
              integer(data, "space", 1, 6), data.get("colour"), integer(data, "wilds", 0, 5))


@_sheet_change
def pavilion_token(call, data):
    sheet = _sheet_of(call, True)
    p = data.get("player")
    pvs.set_token(call.engine, sheet, None if p is None else integer(data, "player", 0, 3),
                  integer(data, "tiles", 1, 40))


@_sheet_change
def pavilion_pass(call, data):
    pvs.set_pass(call.engine, _sheet_of(call, True), integer(data, "player", 0, 3), integer(data, "kept", 0, 40),
                 integer(data, "discarded", 0, 200))


@_sheet_change
def sheet_round(call, data):
    sheet = _sheet_of(call)
    (pvs if sheet["variant"] == "summer-pavilion" else sheets).finish_round(call.engine, sheet)


@_sheet_change
def sheet_undo(call, data):
    sheet = _sheet_of(call)
    (pvs if sheet["variant"] == "summer-pavilion" else sheets).undo_round(sheet)


@_sheet_change
def sheet_reset(call, data):
    _sheet_of(call)
    call.session.sheet = None


def elapsed(seconds):
    """The seconds a search has run as the page shows them, in its JSON and in its words alike: tenths, rounded
    down (the words say the whole seconds of the same value). Rounded to the nearest tenth, 2.96 s was 3.0 in the
    JSON and 2 in the words."""
    return math.floor(seconds * 10) / 10


def record_status(call, data):
    """Start the search for the record of the session's finished sheet if it has not begun, and say where it
    stands: {"record": "searching" | "found" | "none", "text", "tries", "best", "rounds", "seconds", "limit",
    "url"} (the page's script asks again until it is found or not)."""
    session, limit = call.session, call.record_seconds
    if not session.finished_classic():
        raise BadRequest(i18n.text(call.lang, "no_record_sheet"), 409)
    sheet = session.sheet
    if "record" in sheet:
        found = sheet["record"] is not None
        return {"record": "found" if found else "none", "url": "/sheet/record",
                "text": i18n.text(call.lang, "record_found" if found else "no_record", s=limit)}
    tries, best, rounds, seconds = sessions.record_job(call.engine, session, limit).status()
    shown = elapsed(seconds)
    return {"record": "searching", "tries": tries, "best": best, "rounds": rounds, "seconds": shown,
            "limit": limit, "url": "/sheet/record",
            "text": i18n.text(call.lang, "record_progress", best=best, rounds=rounds, tries=tries, t=int(shown),
                              s=limit)}


# -- score check -----------------------------------------------------------------------------------------------

def _score_of(data, key, low):
    """``data[key]``: a score typed (ASCII digits) or sent as a number, ``low`` or more."""
    score = data.get(key, str(low))
    if isinstance(score, str) and DIGITS.match(score.strip()) and len(score.strip()) < 7:
        score = int(score.strip())
    if not isinstance(score, int) or isinstance(score, bool) or not low <= score < 10 ** 6:
        shown = score if isinstance(score, str) else json.dumps(score)
        raise BadRequest("score: %s is not a whole number %d or more" % (json.dumps(score)[:40], low), 400,
                         "bad_score", v=shown[:40], min=low)
    return score


def _checked(call, entered, check):
    """The score check's answer: the page part with ``check()``'s result (a dict of views.check's results) and the
    forms as they were sent; a refusal redraws them with no result (a result left under the error would be the
    last check's, not of what the forms now say)."""
    try:
        result = check()
    except BadRequest as e:
        e.redraw = redrawn(call, views.check, entered=entered)["html"]
        raise
    except (ValueError, StateFormatError) as e:  # the wall's or the board's, named in the page's language
        refusal = BadRequest(i18n.engine_text(call.lang, str(e)), 422)
        refusal.redraw = redrawn(call, views.check, entered=entered)["html"]
        raise refusal from None
    return redrawn(call, views.check, entered=entered, **result)


def _typed(data, key):
    value = data.get(key)
    return value[:4096] if isinstance(value, str) else ""


def check_wall(call, data):
    """A wall's end bonuses (engine.end_bonus) and the final score they give after ``score``."""
    wall, variant = data.get("wall"), data.get("variant") or None
    entered = {"wall": _typed(data, "wall"), "score": _typed(data, "score"), "variant": variant or ""}

    def check():
        if variant not in (None, "classic", "grey"):
            raise BadRequest("variant: %s is not classic or grey" % json.dumps(variant)[:40])
        score = _score_of(data, "score", 0)
        rows = records.wall_text(wall if isinstance(wall, str) else None)
        return {"bonus": call.engine.end_bonus(rows, variant=variant), "score": score}
    return _checked(call, entered, check)


def check_board(call, data):
    """A Summer Pavilion board's end (records.board_bonus): its complete stars and numbers, the kept tiles'
    penalty and the final score, after the ``score`` of round 6's passes."""
    board = data.get("board")
    entered = {"board": _typed(data, "board"), "pv_score": _typed(data, "score")}

    def check():
        kept = integer(data, "kept", 0, pvs.KEEP)
        entered["kept"] = kept
        score = _score_of(data, "score", pvs.MIN_SCORE)
        rows = records.board_text(board if isinstance(board, str) else None)
        return {"board": records.board_bonus(call.engine, rows, score, kept), "score": score}
    return _checked(call, entered, check)


def check_record(call, data):
    """The audit of an uploaded file of records (``text``), record by record."""
    items = parse_records(data.get("text"), call.lang)
    if not items:
        raise BadRequest(i18n.text(call.lang, "empty_file"))
    return redrawn(call, views.check, **views.audit(call, items))


# -- play ------------------------------------------------------------------------------------------------------

def _game_of(call):
    if call.session.game is None:
        raise BadRequest(i18n.text(call.lang, "no_game"), 409)
    return call.session.game


def play_new(call, data):
    """A new game: ``variant``, ``players``, who plays each seat (``seat0``-``seat3``), an optional ``seed``."""
    players = integer(data, "players", 2, 4)
    seats = []
    for i in range(players):
        s = data.get("seat%d" % i, "human")
        if s not in ("human", *BOT_SPECS):
            raise BadRequest("seat%d: %s is not human, random, greedy or mcts" % (i, json.dumps(s)[:40]))
        seats.append(s)
    seed = data.get("seed")
    seed = secrets.randbits(63) if seed is None else integer(data, "seed", 0, (1 << 63) - 1)
    call.session.game = BrowserGame(call.engine, players, variant_of(data), seats, seed)
    call.session.game.run_bots()
    return redrawn(call, views.play)


def play_select(call, data):
    """The person to move chooses the tiles of a ``colour`` from a ``source`` (null: chooses none)."""
    game = _game_of(call)
    src, colour = data.get("source"), data.get("colour")
    if src is None:
        game.selected = None
    else:
        # one source character and one colour letter: "1" + "" or "1B" + "1" also began a legal "1B1"
        if not (isinstance(src, str) and isinstance(colour, str) and len(src) == len(colour) == 1
                and any(m.startswith(src + colour) and len(m) == 3 for m in game.state.legal_moves())
                and game.human_to_move()):
            raise BadRequest("no legal move takes %s from %s" % (json.dumps(colour)[:20], json.dumps(src)[:20]),
                             409)
        game.selected = (src, colour)
    return redrawn(call, views.play)


def play_move(call, data):
    """The person to move plays ``move`` (notation); then the bots up to the next person."""
    game = _game_of(call)
    move = data.get("move")
    if not isinstance(move, str) or len(move) > 8:
        raise BadRequest("move: give a move in notation, like 3R4")
    before = len(game.moves)
    try:
        game.move(move)
    except BadRequest as e:
        e.redraw = redrawn(call, views.play)["html"]
        raise
    bots_moved = len(game.moves) - before > 1
    return dict(redrawn(call, views.play), **({"note": i18n.text(call.lang, "bot_thinking")} if bots_moved else {}))


def play_undo(call, data):
    _game_of(call).undo()
    return redrawn(call, views.play)


def play_hint(call, data):
    _game_of(call).suggest()
    return redrawn(call, views.play)


def play_reset(call, data):
    call.session.game = None
    return redrawn(call, views.play)


# -- replay ----------------------------------------------------------------------------------------------------

def replay_states(engine, record):
    """The positions of a record after each of its moves (the first: round 1 dealt), with the move made."""
    return [(step.state.clone(), step.move) for step in records.walk(record, engine)
            if step.kind == "move" or step.kind == "deal"]


def replay_load(call, data):
    """The record on ``line`` of an uploaded file (``text``), at its first position."""
    items = parse_records(data.get("text"), call.lang)
    if not items:
        raise BadRequest(i18n.text(call.lang, "empty_file"))
    line = integer(data, "line", 1, 10 ** 6)
    chosen = [item for number, item in items if number == line]
    if not chosen:
        raise BadRequest(i18n.text(call.lang, "no_record_line", n=line), 422)
    record = chosen[0]
    if isinstance(record, records.RecordError):
        raise BadRequest(str(record), 422)
    try:
        records.replay(record, call.engine)  # every check of a record; raises naming the first problem
        states = replay_states(call.engine, record)
    except (records.RecordError, IllegalMoveError, StateFormatError) as e:
        raise BadRequest(str(e), 422) from None
    call.session.replay = {"states": states, "index": 0}
    return redrawn(call, views.replay)


def replay_step(call, data):
    """The replay goes to position ``to``."""
    if not call.session.replay:
        raise BadRequest(i18n.text(call.lang, "no_game"), 409)
    call.session.replay["index"] = integer(data, "to", 0, len(call.session.replay["states"]) - 1)
    return redrawn(call, views.replay)


ACTIONS = {
    "/api/sheet/record": record_status, "/api/sheet/new": sheet_new, "/api/sheet/tap": sheet_tap,
    "/api/sheet/floor": sheet_floor, "/api/sheet/marker": sheet_marker, "/api/sheet/round": sheet_round,
    "/api/sheet/undo": sheet_undo, "/api/sheet/reset": sheet_reset, "/api/pavilion/place": pavilion_place,
    "/api/pavilion/token": pavilion_token, "/api/pavilion/pass": pavilion_pass, "/api/check/wall": check_wall,
    "/api/check/board": check_board,
    "/api/check/record": check_record, "/api/play/new": play_new, "/api/play/select": play_select,
    "/api/play/move": play_move, "/api/play/undo": play_undo, "/api/play/hint": play_hint,
    "/api/play/reset": play_reset, "/api/replay/load": replay_load, "/api/replay/step": replay_step,
}
