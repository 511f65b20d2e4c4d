"""The web app's pages: its Jinja2 templates (``web/templates/``, autoescaped: the environment of
``azul_engine._markup``, through Starlette's ``Jinja2Templates``) and what each page's template is given.

Each page of the menu has a view, ``view(call) -> (template, context)``: the template of the page's part (what
``<main>`` holds) and the values it shows, computed here from the session (every figure of the rules from the
engine).  ``page`` draws the whole page around a part (``templates/page.html``); ``fragment`` draws the part
alone, which the JSON actions send back for the page's script to show.  The templates speak the page's language,
``lang``, through ``t`` (the catalogue of ``i18n``) and the other functions of the environment's globals.
"""

import json
import re

import jinja2
from starlette.templating import Jinja2Templates

from .. import _markup, records, svg
from .._backends import game_info
from . import i18n, pavilion_sheet as pvs, sheet as sheets

NAV = (("/", "home"), ("/sheet", "nav_sheet"), ("/check", "nav_check"), ("/play", "nav_play"),
       ("/replay", "nav_replay"))
SEAT_CHOICES = (("human", "human"), ("random", "bot_random"), ("greedy", "bot_greedy"), ("mcts", "bot_mcts"))
# The score check's examples: a classic wall with its first two rows full (game_info's pattern); a Summer
# Pavilion board with its orange and centre stars complete.
EXAMPLE_WALL = "\n".join((game_info("classic").wall_pattern or ())[:2] + (".....",) * 3)
EXAMPLE_BOARD = "\n".join(("OOOOOO", "RRR...") + ("......",) * 4 + (game_info("summer-pavilion").colours,))
_SEAT_WORD = re.compile(r"\b(?:player|seat) (\d)\b")


def colour_name(lang, c):
    """A classic tile colour's name, from its letter (anything else: as it is)."""
    return i18n.text(lang, i18n.COLOUR_KEYS[c]) if c in i18n.COLOUR_KEYS else c


def pv_colour(lang, c):
    """A Summer Pavilion colour's name."""
    return i18n.text(lang, i18n.PAVILION_COLOUR_KEYS[c])


def pv_star(lang, star):
    """A Summer Pavilion star's name ("centre star", "purple star")."""
    return i18n.text(lang, "star_" + star)


def move_words(lang, variant, move):
    """A move in words of the page's language ("Factory 3, red → pattern line 4"; Summer Pavilion: "Blue star,
    space 3: blue, with 1 wild"), from its notation (records.md sections 2 and 3); notation it does not know, as
    it is."""
    if not isinstance(move, str) or not move:
        return move
    if variant != "summer-pavilion":
        if len(move) == 3 and move[0] == "W" and move[1:].isdigit():  # a grey wall's tiling
            return i18n.text(lang, "mv_tile", row=move[1], col=move[2])
        if len(move) == 3 and move[1] in i18n.COLOUR_KEYS:
            to = i18n.text(lang, "mv_floor") if move[2] == "F" else i18n.text(lang, "line_n", n=move[2])
            return i18n.text(lang, "mv_draft", src=_source(lang, move[0]), colour=colour_name(lang, move[1]), to=to)
        return move
    colours = i18n.PAVILION_COLOUR_KEYS
    if move[0] == "-" and all(c in colours for c in move[1:]):
        kept = ", ".join(pv_colour(lang, c) for c in move[1:])
        return i18n.text(lang, "mv_pass", kept=kept) if kept else i18n.text(lang, "mv_pass_none")
    if len(move) > 1 and move[0] == "~" and all(c in colours for c in move[1:]):  # a refill of the supply
        return i18n.text(lang, "mv_refill", tiles=", ".join(pv_colour(lang, c) for c in move[1:]))
    if len(move) == 2 and move[0] == "+" and move[1] in colours:
        return i18n.text(lang, "mv_bonus", colour=pv_colour(lang, move[1]))
    if len(move) == 2 and move[1] in colours:
        return i18n.text(lang, "mv_take", src=_source(lang, move[0]), colour=pv_colour(lang, move[1]))
    if len(move) == 4 and move[0] in i18n.STAR_LETTERS.values() and move[2] in colours and move[3].isdigit():
        text = i18n.text(lang, "mv_place", star=pv_star(lang, move[0]), space=move[1], colour=pv_colour(lang, move[2]))
        return text + (" " + i18n.text(lang, "with_wilds", n=move[3]) if move[3] != "0" else "")
    return move


def _source(lang, ch):
    return i18n.text(lang, "centre") if ch == "C" else i18n.text(lang, "factory_n", n=ch)


def sheet_names(lang, sheet):
    """The players' names on a score sheet as a page shows them: a seat left unnamed is "Player N" in ``lang``."""
    return [name or i18n.text(lang, "player_n", n=p) for p, name in enumerate(sheet["names"])]


def _in_language(function):
    """``function(lang, ...)`` as a function of the templates: ``lang`` is the page's (the template's ``lang``)."""
    return jinja2.pass_context(lambda context, *args, **fields: function(context["lang"], *args, **fields))


templates = Jinja2Templates(env=_markup.environment("azul_engine.web", "templates"))
templates.env.globals.update(
    t=_in_language(i18n.text), colour_name=_in_language(colour_name), pv_colour=_in_language(pv_colour),
    pv_star=_in_language(pv_star), move_words=_in_language(move_words), wild=pvs.wild,
    floor_items=sheets.floor_items, NAV=NAV,
    SEAT_CHOICES=SEAT_CHOICES, LANGUAGES=[(code, i18n.NAMES[code]) for code in i18n.LANGUAGES])
# A value as compact JSON, for a data-json attribute (escaped there as any text).
templates.env.filters["json"] = lambda value: json.dumps(value, separators=(",", ":"))


def fragment(lang, name, context):
    """The page part ``name`` (a template) showing ``context``, in ``lang``: its HTML."""
    return templates.get_template(name).render(context, lang=lang)


def page(request, lang, active, name, context, status_code=200):
    """The whole page of the menu's item ``active`` (its i18n key; "home": the home page) around the part
    ``name`` showing ``context``, in ``lang``: the response."""
    return templates.TemplateResponse(request, "page.html", dict(context, lang=lang, active=active, body=name),
                                      status_code=status_code)


def wall_cells(variant, wall, taps=None, new=()):
    """The 25 cells of a wall (five rows of colour letters, "." empty) for the ``wall`` macro: each one's CSS
    class, the colour it shows or waits for (classic: the printed pattern's), and for a cell in ``taps``
    ({(row, col): (url, body)}) the action a tap on it posts; ``new``: the cells placed this round."""
    cells = []
    for r in range(5):
        for c in range(5):
            ch = wall[r][c]
            hint = sheets.cell_colour(variant, r, c) if variant == "classic" else None
            cls = ("t-" + ch) if ch != "." else ("e-%s empty" % (hint or "C"))
            post, body = (taps or {}).get((r, c), (None, None))
            cells.append({"row": r + 1, "col": c + 1, "cls": cls + (" new" if (r, c) in new else ""),
                          "new": (r, c) in new, "colour": ch if ch != "." else hint, "post": post, "body": body})
    return cells


def home(call):
    """The home page: what the app does, and its pages."""
    return "home.html", {}


# -- score sheets ----------------------------------------------------------------------------------------------

def sheet(call):
    """The score sheet of the session: a new one's setup, or the sheet (sheet.html, pavilion.html) with the
    round being entered scored by the engine (``preview``), or what the rules refuse in it (``problem``)."""
    s = call.session.sheet
    if s is None:
        return "setup.html", {"heading": "new_sheet", "url": "/api/sheet/new", "with_seats": False}
    pavilion = s["variant"] == "summer-pavilion"
    context = {"sheet": s, "names": sheet_names(call.lang, s), "preview": None, "problem": None}
    if not s["over"]:
        context["boards"] = [(_pavilion_board if pavilion else _sheet_board)(s, p) for p in range(len(s["names"]))]
        if pavilion or s["pending"]["marker"] is not None:
            try:
                context["preview"] = (pvs if pavilion else sheets).evaluate(call.engine, s)
            except sheets.SheetError as e:
                context["problem"] = sheet_message(call.lang, e, s)
    if pavilion:
        return "pavilion.html", dict(context, colours=pvs.COLOURS, round_number=pvs.round_number(s))
    return "sheet.html", dict(context, colours=sheets.COLOURS, record_seconds=call.record_seconds)


def _sheet_board(sheet, p):
    """Player ``p``'s board on a classic or grey sheet: the wall with this round's tiles (a free cell or a tile of
    this round: a tap), the floor tiles and the marker."""
    pending = sheet["pending"]
    placed = {(x["row"], x["col"]): x["colour"] for x in pending["tiles"][p]}
    walls = sheet["walls"][p]
    taps = {(r, c): ("/api/sheet/tap", {"player": p, "row": r, "col": c})
            for r in range(5) for c in range(5) if walls[r][c] == "." or (r, c) in placed}
    wall = [[placed.get((r, c), ch) for c, ch in enumerate(row)] for r, row in enumerate(walls)]
    return {"player": p, "wall": wall_cells(sheet["variant"], wall, taps, placed), "floor": pending["floors"][p],
            "floor_items": sheets.floor_items(pending, p), "marker": pending["marker"] == p}


def _pavilion_board(sheet, p):
    """Player ``p``'s board on a Summer Pavilion sheet: each star's six spaces (a free one or a tile of this round:
    a tap; a tile of this round with its place in the round's order)."""
    placed = sheet["pending"]["places"][p]
    mine = {(x["star"], x["space"]): x for x in placed}
    order = {(x["star"], x["space"]): k + 1 for k, x in enumerate(placed)}
    stars = []
    for si, star in enumerate(pvs.STARS):
        cells = []
        for space in range(1, 7):
            have = sheet["boards"][p][si][space - 1]
            new = mine.get((star, space))
            colour = new["colour"] if new else (have if have != "." else None)
            cells.append({"space": space, "cls": ("t-" + colour) if colour else ("e-%s empty" % star),
                          "new": bool(new), "colour": colour, "pick": have == "." or bool(new),
                          "nth": order.get((star, space))})
        stars.append((star, cells))
    return {"player": p, "stars": stars}


def sheet_message(lang, e, sheet=None):
    """A refusal in the page's language: the app's own by its key, the engine's by i18n.engine_text (English
    where the catalogue does not know it); the seats of ``sheet`` left unnamed named in that language too."""
    message = str(e)
    fields = dict(getattr(e, "fields", {}))
    for p, name in enumerate(sheet["names"] if sheet else ()):
        if not name:  # (sheet.name_of's "Player N")
            default, shown = "Player %d" % p, i18n.text(lang, "player_n", n=p)
            if fields.get("name") == default:
                fields["name"] = shown
            if message.startswith(default + ": "):
                message = shown + message[len(default):]
    if getattr(e, "key", None):
        for field in ("colour", "star"):  # their words, by their keys
            if field in fields:
                key = fields[field]
                fields[field] = i18n.text(lang, key) if key in i18n.T else key
        return i18n.text(lang, e.key, **fields)
    return i18n.engine_text(lang, message)


# -- score check -----------------------------------------------------------------------------------------------

def check(call, entered=None, **result):
    """The score check; ``entered``: what its forms were sent with (the wall, the score and the variant; the
    board, its score and the tiles kept), shown again in them; ``result``: what it shows under them, a wall's
    ``bonus`` (engine.end_bonus) with the ``score`` before it, a board's ``board`` (records.board_bonus) with its
    ``score``, or ``audit``'s (none after a refusal: a result above an error would be the last one's)."""
    forms = {"wall": EXAMPLE_WALL, "score": "0", "variant": "classic", "board": EXAMPLE_BOARD, "pv_score": "5",
             "kept": 0}
    forms.update(entered or {})
    return "check.html", dict({"forms": forms, "stars": pvs.STARS, "rounds": pvs.ROUNDS, "bonus": None, "board": None,
                               "audited": None}, **result)


def audit(call, items):
    """The audit of uploaded records (forms.parse_records' items) for check.html: per record its findings, or,
    when it agrees with the rules, its final scores (and classic or grey: its end bonuses and winners)."""
    audited = []
    for number, item in items:
        if isinstance(item, records.RecordError):
            findings = [str(item)]
        else:
            findings = list(records.audit(item, call.engine, line=number))
        entry = {"line": number, "findings": [finding(call.lang, f) for f in findings], "bonuses": None}
        if not findings:
            state = records.replay(item, call.engine)
            entry["scores"] = state.scores
            if item["variant"] in ("classic", "grey"):
                bonuses = [call.engine.end_bonus(w, variant=item["variant"]) for w in state.walls]
                entry.update(bonuses=bonuses, before=[s - b["points"] for s, b in zip(state.scores, bonuses)],
                             names=[i18n.text(call.lang, "player_n", n=p) for p in range(state.players)],
                             winners=state.winners)
        audited.append(entry)
    agree = sum(not entry["findings"] for entry in audited)
    return {"audited": audited, "agree": agree, "disagree": len(audited) - agree}


def finding_text(lang, text):
    """An audit finding's English, for a person: its seats named as the page's tables name them ("player 0" is
    "Игрок 0" beside a table of "Игрок 0, Игрок 1"; seats count from 0 everywhere: docs/game-api.md)."""
    return _SEAT_WORD.sub(lambda m: i18n.text(lang, "player_n", n=int(m.group(1))), text)


def _seats_text(lang, seats):
    return ", ".join(i18n.text(lang, "player_n", n=p) for p in seats) if isinstance(seats, list) else str(seats)


def finding(lang, finding):
    """An audit finding (records.Finding, or the text of a record that could not be read) for a person, for the
    ``finding`` macro: ``prefix`` (where it is) and ``head`` (what disagrees, or None) in the page's language,
    seats counted from 1; ``detail``, the audit's own explanation in English (the points it counted), which for
    the findings that are not about scores and winners (a record the audit could not follow) is the finding."""
    if isinstance(finding, str):
        return {"prefix": "", "head": None, "detail": finding_text(lang, finding)}
    where = []
    if finding.line is not None:
        where.append(i18n.text(lang, "f_line", n=finding.line))
    if finding.round is not None:
        where.append(i18n.text(lang, "f_round", n=finding.round))
    if finding.move is not None:
        where.append(i18n.text(lang, "f_move", m=finding.move))
    head = None
    if finding.field in ("scores", "final_scores") and finding.player is not None and finding.correct is not None:
        head = i18n.text(lang, "f_score" if finding.field == "scores" else "f_final",
                         who=i18n.text(lang, "player_n", n=finding.player), rec=finding.recorded,
                         ok=finding.correct)
    elif finding.field == "winners" and finding.correct is not None:
        head = i18n.text(lang, "f_winners", rec=_seats_text(lang, finding.recorded),
                         ok=_seats_text(lang, finding.correct))
    prefix = ", ".join(where) + ": " if where else ""
    why = finding.why
    if head is not None and finding.player is not None:
        why = re.sub(r"^player \d+: ", "", why)  # the head names the player already
    return {"prefix": prefix[:1].upper() + prefix[1:], "head": head, "detail": finding_text(lang, why)}


# -- play ------------------------------------------------------------------------------------------------------

def play(call):
    """The game in play (game.BrowserGame): for the person to move, the tiles a tap can take (their legal moves begin so)
    and, once tiles are chosen, the lines or, tiling a grey wall, the cells a tap fills; the end."""
    game = call.session.game
    if game is None:
        return "setup.html", {"heading": "new_game", "url": "/api/play/new", "with_seats": True}
    s = game.state
    human = game.human_to_move()
    legal = s.legal_moves() if human else []
    sel = game.selected
    sources = []
    for i, tiles in list(enumerate(s.factories)) + [(9, s.center)]:
        name = "C" if i == 9 else str(i + 1)  # the source in notation
        sources.append({"name": name, "centre": i == 9,
                        "marker": i == 9 and s.first_player_marker < 0 and s.phase != "over",
                        "tiles": [{"colour": c, "selected": sel == (name, c),
                                   "takeable": human and s.phase != "tiling"
                                   and any(m.startswith(name + c) for m in legal)} for c in tiles]})
    boards = []
    for p in range(s.players):
        active = not s.is_over and s.current_player == p
        yours = active and human  # a tap on this board is a move
        lines = []
        for r, content in enumerate(s.pattern_lines[p]):
            move = sel and "%s%s%d" % (sel[0], sel[1], r + 1)
            lines.append({"empty": r + 1 - len(content), "tiles": content,
                          "move": move if yours and move in legal else None})
        taps = {}
        if yours and s.phase == "tiling":  # a grey wall: the cell for the line being tiled
            taps = {(r, c): ("/api/play/move", {"move": "W%d%d" % (r + 1, c + 1)}) for r in range(5)
                    for c in range(5) if "W%d%d" % (r + 1, c + 1) in legal}
        floor_move = sel and "%s%sF" % sel
        boards.append({"active": active, "lines": lines, "wall": wall_cells(s.variant, s.walls[p], taps),
                       "floor": s.floors[p], "floor_move": floor_move if yours and floor_move in legal else None})
    context = {"game": game, "state": s, "human": human, "sources": sources, "boards": boards,
               "names": [seat_name(call.lang, game, p) for p in range(s.players)]}
    if s.is_over:
        bonuses = [game.engine.end_bonus(w, variant=s.variant) for w in s.walls]
        context.update(bonuses=bonuses, before=[x - b["points"] for x, b in zip(s.scores, bonuses)])
    return "play.html", context


def seat_name(lang, game, p):
    """Seat ``p`` of a game and who plays it: "Seat 2 (greedy bot)"."""
    kind = game.seats[p]
    label = i18n.text(lang, "human" if kind == "human" else "bot_" + kind).split(" (")[0]
    return "%s (%s)" % (i18n.text(lang, "seat_n", n=p), label)


# -- replay ----------------------------------------------------------------------------------------------------

def replay(call):
    """The replay viewer: the position of the loaded record it stands at, with the move that led there."""
    rp = call.session.replay
    if not rp:
        return "replay.html", {"state": None}
    states, index = rp["states"], rp["index"]
    state, move = states[index]
    context = {"state": state, "move": move, "index": index, "last": len(states) - 1, "picture": None}
    if state.variant in ("classic", "grey"):
        context["walls"] = [wall_cells(state.variant, wall) for wall in state.walls]
    else:  # Summer Pavilion: the same picture as `azul-engine board` draws (svg.py's markup, its text escaped)
        context["picture"] = _markup.Markup(svg.board(state, last_move=False))
    return "replay.html", context
