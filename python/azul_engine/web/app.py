"""The web app (Starlette): pages, the JSON actions behind them, sessions.

Every page is HTML made here, in the session's language; the browser's script only posts what was tapped to
``/api/...`` and shows the HTML that comes back (``{"html": ..., "error": ...}``).  Every rule (legal moves,
scores, refusals) comes from the engine.

Sessions: a random token in the cookie ``azul_session`` keys a server-side session (in memory, the least recently
used dropped past ``max_sessions``) holding the score sheet, the game in play and the replay, so a page reload
keeps them; a restart of the server forgets them (download the sheet or the record to keep it).
"""

import html
import json
import re
import secrets
from pathlib import Path

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import ClientDisconnect
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.exceptions import HTTPException
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

import azul_engine
from .. import IllegalMoveError, StateFormatError, records, svg
from . import i18n, pavilion_sheet as pvs, sessions as sessions_, sheet as sheets
from .forms import DIGITS, MAX_BODY, BadRequest, integer, parse_records, read_json, variant_of
from .game import BOT_SPECS, Game

STATIC = Path(__file__).parent / "static"
FAVICON = (STATIC / "favicon.svg").read_bytes()
COOKIE = "azul_session"
RECORD_SECONDS = 20  # the search for a record of a finished score sheet (synth.py) gives up after this


def esc(x):
    return html.escape(str(x), quote=True)


def attr_json(obj):
    return esc(json.dumps(obj, separators=(",", ":")))


def same_origin(request):
    """False for a request a browser sent from another site: its ``Sec-Fetch-Site`` says cross-site or same-site,
    or its ``Origin`` is not this app's own (scheme and host as the request reached us). A request with neither
    header (a script, curl) is not a browser's cross-site request."""
    site = request.headers.get("sec-fetch-site")
    if site is not None and site not in ("same-origin", "none"):
        return False
    origin = request.headers.get("origin")
    if origin is None:
        return True
    host = request.headers.get("host")
    return host is not None and origin in ("http://" + host, "https://" + host)


# -- page parts ------------------------------------------------------------------------------------------------

def tile(colour, extra="", label=""):
    return '<span class="tile t-%s%s">%s</span>' % (colour, extra, esc(label))


def colour_name(lang, c):
    return i18n.text(lang, i18n.COLOUR_KEYS[c]) if c in i18n.COLOUR_KEYS else c


def wall_cells(lang, variant, wall, pick=None, new=(), extra_json=None, form=None):
    """A 5 x 5 wall; ``pick(row, col)`` -> (url, json) makes a cell a button; ``new``: cells placed now."""
    out = ['<div class="wall">']
    for r in range(5):
        for c in range(5):
            ch = wall[r][c]
            hint = sheets.cell_colour(variant, r, c) if variant == "classic" else None
            cls = ("t-" + ch) if ch != "." else ("e-" + (hint or "C"))
            if (r, c) in new:
                cls += " new"
            label = colour_name(lang, ch if ch != "." else hint) if (ch != "." or hint) else ""
            title = i18n.text(lang, "row_n", n=r + 1) + ", %d" % (c + 1) + (": " + label if label else "")
            target = pick(r, c) if pick else None
            if target:
                url, body = target
                out.append('<button class="cell pick %s" data-post="%s" data-json="%s"%s title="%s" '
                           'data-cell="%d%d"></button>' % (cls, url, attr_json(body),
                                                           ' data-form="%s"' % form if form else "", esc(title),
                                                           r + 1, c + 1))
            else:
                out.append('<span class="cell %s" title="%s" data-cell="%d%d"></span>' % (cls, esc(title), r + 1,
                                                                                          c + 1))
    out.append("</div>")
    return "".join(out)


def layout(lang, title, body, active):
    nav = [("/", "home"), ("/sheet", "nav_sheet"), ("/check", "nav_check"), ("/play", "nav_play"),
           ("/replay", "nav_replay")]
    links = "".join('<a href="%s"%s>%s</a>' % (u, ' aria-current="page"' if k == active else "",
                                              esc(i18n.text(lang, k))) for u, k in nav)
    options = "".join('<option value="%s"%s>%s</option>' % (code, " selected" if code == lang else "",
                                                          esc(i18n.NAMES[code])) for code in i18n.LANGUAGES)
    return ("<!doctype html><html lang=\"%s\"><head><meta charset=\"utf-8\">"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
            "<title>%s</title><link rel=\"icon\" href=\"/static/favicon.svg\" type=\"image/svg+xml\">"
            "<link rel=\"stylesheet\" href=\"/static/app.css\"></head><body data-busy=\"0\">"
            "<header><h1>%s</h1><nav>%s</nav><label>%s <select id=\"lang\">%s</select></label></header>"
            "<noscript><p class=\"msg error\">%s</p></noscript>"
            "<div id=\"msg\" class=\"msg\" hidden role=\"status\"></div><main id=\"main\" tabindex=\"-1\">%s</main>"
            "<script src=\"/static/app.js\"></script></body></html>"
            % (lang, esc(title), esc(i18n.text(lang, "title")), links, esc(i18n.text(lang, "language")),
               options, esc(i18n.text(lang, "needs_js")), body))


def home_body(lang):
    t = lambda k: esc(i18n.text(lang, k))
    return ("<p>%s</p><ul><li><a href=\"/sheet\">%s</a></li><li><a href=\"/check\">%s</a></li>"
            "<li><a href=\"/play\">%s</a></li><li><a href=\"/replay\">%s</a></li></ul><p class=\"small\">%s</p>"
            % (t("intro"), t("nav_sheet"), t("nav_check"), t("nav_play"), t("nav_replay"), t("reload_note")))


def setup_form(lang, url, with_seats):
    t = lambda k, **f: esc(i18n.text(lang, k, **f))
    pavilion = "" if with_seats else '<option value="summer-pavilion">%s</option>' % t("pavilion")
    rows = []
    for i in range(4):
        seat = ""
        if with_seats:
            choices = [("human", "human"), ("random", "bot_random"), ("greedy", "bot_greedy"), ("mcts", "bot_mcts")]
            default = "human" if i == 0 else "greedy"
            seat = '<select name="seat%d">%s</select>' % (i, "".join(
                '<option value="%s"%s>%s</option>' % (v, " selected" if v == default else "", t(k))
                for v, k in choices))
        else:
            seat = '<input name="name%d" value="%s" maxlength="30" size="12">' % (i, t("player_n", n=i + 1))
        rows.append("<div class=\"row\"><label>%s %s</label></div>" % (t("seat_n", n=i + 1), seat))
    return ('<form id="setup" onsubmit="return false"><fieldset><label>%s <select name="variant">'
            '<option value="classic">%s</option><option value="grey">%s</option>%s</select></label> '
            '<label>%s <select name="players"><option value="2">2</option><option value="3">3</option><option value="4">4</option></select>'
            '</label>%s</fieldset></form><button class="primary" id="start" data-post="%s" data-form="setup">%s'
            "</button>" % (t("variant"), t("classic"), t("grey"), pavilion, t("players"), "".join(rows), url,
                           t("start")))


# -- score sheet pages -----------------------------------------------------------------------------------------

def sheet_body(lang, engine, sheet):
    t = lambda k, **f: esc(i18n.text(lang, k, **f))
    if sheet is None:
        return "<h2>%s</h2>%s" % (t("new_sheet"), setup_form(lang, "/api/sheet/new", False))
    if sheet["variant"] == "summer-pavilion":
        return pavilion_body(lang, engine, sheet)
    names = sheet["names"]
    out = ["<h2>%s &middot; %s</h2>" % (t("nav_sheet"), t(sheet["variant"]))]
    pending = sheet["pending"]
    if not sheet["over"]:
        out.append("<h3>%s</h3><p class=\"small\">%s</p>" % (t("round_n", n=len(sheet["rounds"]) + 1),
                                                              t("sheet_help")))
        if sheet["variant"] == "grey":
            out.append('<p class="small" id="grey-help">%s</p>' % t("grey_help"))
        form = None
        if sheet["variant"] == "grey":
            form = "colourpick"
            out.append('<form id="colourpick" class="picker" onsubmit="return false"><b>%s</b><br>%s</form>'
                       % (t("grey_colour"), "".join(
                           '<label><input type="radio" name="colour" value="%s"%s>%s %s</label>'
                           % (c, " checked" if c == "B" else "", tile(c), esc(colour_name(lang, c)))
                           for c in sheets.COLOURS)))
        out.append('<div class="players">')
        for p, name in enumerate(names):
            new = {(x["row"], x["col"]) for x in pending["tiles"][p]}
            wall = [list(row) for row in sheet["walls"][p]]
            for x in pending["tiles"][p]:
                wall[x["row"]][x["col"]] = x["colour"]
            wall = ["".join(row) for row in wall]

            def pick(r, c, p=p, new=new):
                if sheet["walls"][p][r][c] != "." and (r, c) not in new:
                    return None
                return "/api/sheet/tap", {"player": p, "row": r, "col": c}

            n = pending["floors"][p]
            marker = pending["marker"] == p
            out.append('<div class="board" data-player="%d"><h3>%s &middot; %s %d</h3>%s'
                       '<div class="row"><b>%s:</b> <button data-post="/api/sheet/floor" data-json="%s" '
                       'data-step="-" aria-label="%s">&minus;</button><span class="floorn">%d</span> %s '
                       '<button data-post="/api/sheet/floor" data-json="%s" data-step="+" aria-label="%s">+</button>'
                       '</div>'
                       '<div class="row small">%s</div><div class="row"><button class="markerb%s" '
                       'data-post="/api/sheet/marker" data-json="%s">%s %s</button></div></div>'
                       % (p, esc(name), t("score"), sheet["scores"][p],
                          wall_cells(lang, sheet["variant"], wall, pick, new, form=form),
                          t("floor"), attr_json({"player": p, "tiles": max(0, n - 1)}),
                          t("one_fewer", what="%s, %s" % (name, i18n.text(lang, "floor_tiles"))), n,
                          t("floor_tiles"), attr_json({"player": p, "tiles": n + 1}),
                          t("one_more", what="%s, %s" % (name, i18n.text(lang, "floor_tiles"))),
                          t("items", n=sheets.floor_items(pending, p)), " primary" if marker else "",
                          attr_json({"player": None if marker else p}), tile("M", label="1"), t("marker")))
        out.append("</div>")
        if pending["marker"] is None:
            out.append("<p class=\"small\">%s</p>" % t("choose_marker"))
        else:
            try:
                preview = sheets.evaluate(engine, sheet)
                out.append("<h3>%s</h3>%s" % (t("preview"), round_table(lang, sheet, [preview], start=len(
                    sheet["rounds"]))))
            except sheets.SheetError as e:
                out.append('<p class="msg error">%s</p>' % esc(sheet_message(lang, e)))
        out.append('<button class="primary" id="score-round" data-post="/api/sheet/round">%s</button>'
                   % t("score_round"))
    if sheet["rounds"]:
        out.append("<h3>%s</h3>%s" % (t("score"), round_table(lang, sheet, sheet["rounds"])))
        out.append('<button data-post="/api/sheet/undo">%s</button>' % t("undo_round"))
    if sheet["over"]:
        out.append(final_block(lang, names, sheet["rounds"][-1]["after"], sheet["final"]["bonuses"],
                               sheet["final"]["scores"], sheet["final"]["winners"]))
    # With the page's script the link asks /api/sheet/record where the search stands until it is done (a
    # progress bar and a line in #msg), then downloads; without it the download itself waits for the search.
    record = ('<a class="button" id="sheet-record" href="/sheet/record" data-progress="/api/sheet/record">%s</a> '
              '<progress id="record-progress" hidden max="%d" value="0" aria-label="%s"></progress> '
              % (t("download"), RECORD_SECONDS, t("record_wait", s=RECORD_SECONDS)) if sheet["over"] else "")
    out.append('<p class="actions">%s<a class="button" href="/sheet/download">%s</a> <button data-post="/api/sheet/'
               'reset" data-confirm="%s">%s</button></p>' % (record, t("download_sheet"), t("confirm_new_sheet"),
                                                            t("new_sheet")))
    if sheet["over"]:
        out.append('<p class="small">%s</p>' % t("record_note"))
    return "".join(out)


def sheet_message(lang, e):
    """A refusal in the page's language: the app's own by its key, the engine's by i18n.engine_text (English
    where the catalogue does not know it)."""
    if getattr(e, "key", None):
        fields = dict(e.fields)
        if "colour" in fields:
            key = fields["colour"]
            fields["colour"] = i18n.text(lang, key) if key in i18n.T else key
        return i18n.text(lang, e.key, **fields)
    return i18n.engine_text(lang, str(e))


def pv_colour(lang, c):
    return i18n.text(lang, i18n.PAVILION_COLOUR_KEYS[c])


def pv_star(lang, star):
    return i18n.text(lang, "centre_star") if star == "C" else i18n.text(lang, "star_of", c=pv_colour(lang, star))


def stepper(url, body_minus, body_plus, value, label, lang, name):
    """A count with a − and a + button, each named for a screen reader ("Anna, kept tiles: one fewer")."""
    what = "%s, %s" % (name, html.unescape(label))  # escaped once, below
    return ('<button data-post="%s" data-json="%s" data-step="-" aria-label="%s">&minus;</button><span class="num">'
            '%d</span> %s <button data-post="%s" data-json="%s" data-step="+" aria-label="%s">+</button>'
            % (url, attr_json(body_minus), esc(i18n.text(lang, "one_fewer", what=what)), value, label, url,
               attr_json(body_plus), esc(i18n.text(lang, "one_more", what=what))))


def pavilion_body(lang, engine, sheet):
    t = lambda k, **f: esc(i18n.text(lang, k, **f))
    names, pending = sheet["names"], sheet["pending"]
    rnd = pvs.round_number(sheet)
    out = ["<h2>%s &middot; %s</h2>" % (t("nav_sheet"), t("pavilion"))]
    if not sheet["over"]:
        out.append("<h3>%s &middot; %s</h3><p class=\"small\">%s</p>" % (
            t("round_n", n=rnd), t("wild_is", c=pv_colour(lang, pvs.wild(rnd))), t("pv_help")))
        out.append('<div class="players">')
        for p, name in enumerate(names):
            # Each board has its own pickers, beside the spaces they act on; the page's script keeps what they
            # show when the page part is redrawn after a tap (data-keep).
            picker = ('<form id="pvform-%d" class="picker" data-keep onsubmit="return false"><b>%s</b><br>%s<br>'
                      '<label>%s <select name="wilds">%s</select></label></form>'
                      % (p, t("centre_colour"), "".join(
                          '<label><input type="radio" name="colour" value="%s"%s>%s %s</label>'
                          % (c, " checked" if c == "P" else "", tile(c), esc(pv_colour(lang, c)))
                          for c in pvs.COLOURS),
                         t("wild_tiles"), "".join('<option value="%d">%d</option>' % (n, n) for n in range(6))))
            mine = {(x["star"], x["space"]): x for x in pending["places"][p]}
            order = {(x["star"], x["space"]): k + 1 for k, x in enumerate(pending["places"][p])}
            rows = []
            for si, star in enumerate(pvs.STARS):
                cells = []
                for space in range(1, 7):
                    have = sheet["boards"][p][si][space - 1]
                    new = mine.get((star, space))
                    colour = new["colour"] if new else (have if have != "." else None)
                    cls = ("t-" + colour) if colour else ("e-" + star)
                    if have == "." or new:
                        # A tile placed this round shows its place in the round's order: its score counts the
                        # tiles already joined to it, so the order is part of what is entered.
                        nth = order.get((star, space))
                        label = "%s %d" % (pv_star(lang, star), space)
                        if nth:
                            label += ", " + i18n.text(lang, "placed_nth", n=nth)
                        cells.append('<button class="cell pick %s%s" data-post="/api/pavilion/place" data-json="%s" '
                                     'data-form="pvform-%d" data-space="%s%d" title="%s" aria-label="%s">%d%s'
                                     '</button>'
                                     % (cls, " new" if new else "", attr_json({"player": p, "star": star,
                                                                              "space": space}),
                                        p, star, space, esc(label), esc(label), space,
                                        '<span class="nth" data-nth="%d">%d</span>' % (nth, nth) if nth else ""))
                    else:
                        cells.append('<span class="cell %s" data-space="%s%d">%d</span>' % (cls, star, space, space))
                rows.append('<div class="row"><span class="small" style="width:18px">%s</span>%s</div>'
                            % (star, "".join(cells)))
            token = pending["token"] == p
            out.append('<div class="board" data-player="%d"><h3>%s &middot; %s %d</h3>' % (
                p, esc(name), t("score"), sheet["scores"][p]) + picker + '%s'
                       '<div class="row"><button class="tokenb%s" data-post="/api/pavilion/token" data-json="%s">%s'
                       '</button>%s</div><div class="row"><b>%s:</b> %s</div><div class="row">%s</div></div>'
                       % ("".join(rows), " primary" if token else "",
                          attr_json({"player": None if token else p, "tiles": pending["token_tiles"]}),
                          t("start_token"),
                          (" " + stepper("/api/pavilion/token",
                                         {"player": p, "tiles": max(1, pending["token_tiles"] - 1)},
                                         {"player": p, "tiles": pending["token_tiles"] + 1},
                                         pending["token_tiles"], t("token_tiles"), lang, name)) if token else "",
                          t("pass"),
                          stepper("/api/pavilion/pass",
                                  {"player": p, "kept": max(0, pending["kept"][p] - 1),
                                   "discarded": pending["discarded"][p]},
                                  {"player": p, "kept": pending["kept"][p] + 1, "discarded": pending["discarded"][p]},
                                  pending["kept"][p], t("kept"), lang, name),
                          stepper("/api/pavilion/pass",
                                  {"player": p, "kept": pending["kept"][p],
                                   "discarded": max(0, pending["discarded"][p] - 1)},
                                  {"player": p, "kept": pending["kept"][p], "discarded": pending["discarded"][p] + 1},
                                  pending["discarded"][p], t("discarded"), lang, name)))
        out.append("</div>")
        try:
            preview = pvs.evaluate(engine, sheet)
            out.append("<h3>%s</h3>%s" % (t("preview"), pavilion_table(lang, sheet, [preview], len(sheet["rounds"]))))
        except sheets.SheetError as e:
            out.append('<p class="msg error">%s</p>' % esc(sheet_message(lang, e)))
        out.append('<button class="primary" id="score-round" data-post="/api/sheet/round">%s</button>'
                   % t("score_round"))
    if sheet["rounds"]:
        out.append("<h3>%s</h3>%s" % (t("score"), pavilion_table(lang, sheet, sheet["rounds"])))
        out.append('<button data-post="/api/sheet/undo">%s</button>' % t("undo_round"))
    if sheet["over"]:
        final = sheet["final"]
        rows = "".join('<tr><td>%s</td><td data-final="%d"><b>%d</b></td><td>%d</td><td>+%d</td><td>%d &rarr; '
                       "&minus;%d</td></tr>" % (esc(names[p]), final["scores"][p], final["scores"][p],
                                                sheet["scores"][p], e["bonus"], e["kept"], e["penalty"])
                       for p, e in enumerate(final["end"]))
        note = " (%s)" % t("shared") if len(final["winners"]) > 1 else ""
        out.append('<h3>%s</h3><div class="scroll"><table class="final"><tr><th></th><th>%s</th><th>%s</th><th>%s'
                   '</th><th>%s</th></tr>%s</table></div><p class="winner" id="winners">%s: %s%s</p>'
                   % (t("game_over"), t("final"), t("before_bonus"), t("end_bonus"), t("kept_penalty"), rows,
                      t("winners"), esc(", ".join(names[w] for w in final["winners"])), note))
    out.append('<p class="actions"><a class="button" href="/sheet/download">%s</a> <button data-post="/api/sheet/'
               'reset" data-confirm="%s">%s</button></p>' % (t("download_sheet"), t("confirm_new_sheet"),
                                                            t("new_sheet")))
    return "".join(out)


def pavilion_table(lang, sheet, rounds, start=0):
    t = lambda k, **f: esc(i18n.text(lang, k, **f))
    names = sheet["names"]
    head = "<tr><th>%s</th>%s</tr>" % (t("round"), "".join("<th>%s</th>" % esc(n) for n in names))
    body = []
    for i, r in enumerate(rounds):
        cells = []
        for p in range(len(names)):
            parts = []
            for e in r["events"][p]:
                delta = e["after"] - e["before"]
                if e["event"] == "start-token":
                    parts.append("%s, %d &rarr; %+d" % (t("start_token"), e["tiles"], delta))
                elif e["event"] == "place":
                    wilds = (" " + t("with_wilds", n=e["wilds"])) if e["wilds"] and e["colour"] != pvs.wild(
                        start + i + 1) else ""
                    bonus = (" &middot; " + t("bonus_tiles", n=e["bonus_tiles"])) if e["bonus_tiles"] else ""
                    parts.append("%s %d %s%s %+d%s" % (esc(pv_star(lang, e["star"])), e["space"],
                                                       esc(pv_colour(lang, e["colour"])), wilds, delta, bonus))
                else:
                    parts.append("%s: %s %d, %s %d &rarr; %+d" % (t("pass"), t("kept"), e["kept"], t("discarded"),
                                                                  e["discarded"], delta))
            total = r["after"][p]
            parts.append("<b>%s %+d &middot; %s %d</b>" % (t("round"), total - r["before"][p], t("total"), total))
            cells.append('<td data-score="%d">%s</td>' % (total, "<br>".join(parts)))
        body.append("<tr><th>%d</th>%s</tr>" % (start + i + 1, "".join(cells)))
    return '<div class="scroll"><table class="rounds">%s%s</table></div>' % (head, "".join(body))


def round_table(lang, sheet, rounds, start=0):
    t = lambda k, **f: esc(i18n.text(lang, k, **f))
    names = sheet["names"]
    head = "<tr><th>%s</th>%s</tr>" % (t("round"), "".join("<th>%s</th>" % esc(n) for n in names))
    body = []
    for i, r in enumerate(rounds):
        cells = []
        for p in range(len(names)):
            parts = ['<span class="tilepts">%s %s +%d (%s)</span>' % (
                t("row_n", n=x["row"] + 1), esc(colour_name(lang, x["colour"])), x["points"], runs(lang, x))
                for x in r["tiles"][p]]
            gained = sum(x["points"] for x in r["tiles"][p])
            parts.append("%s: %d &rarr; &minus;%d" % (t("floor"), r["floors"][p] + (
                1 if r["marker"] == p and r["floors"][p] < 7 else 0), r["penalty"][p]))
            if r["clamped"][p]:
                parts.append("<i>%s</i>" % t("clamped"))
            delta = r["after"][p] - r["before"][p]
            parts.append("<b>%s %+d &middot; %s %d</b>" % (t("round"), delta, t("total"), r["after"][p]))
            cells.append('<td data-score="%d" data-gain="%d">%s</td>' % (r["after"][p], gained,
                                                                          "<br>".join(parts)))
        body.append("<tr><th>%d</th>%s</tr>" % (start + i + 1, "".join(cells)))
    return '<div class="scroll"><table class="rounds">%s%s</table></div>' % (head, "".join(body))


def runs(lang, x):
    if x["across"] == 1 and x["down"] == 1:
        return esc(i18n.text(lang, "alone"))
    return ", ".join(esc(i18n.text(lang, k, n=x[k])) for k in ("across", "down") if x[k] > 1)


def final_block(lang, names, before, bonuses, final, winners):
    t = lambda k, **f: esc(i18n.text(lang, k, **f))
    rows = []
    for p, name in enumerate(names):
        b = bonuses[p]
        # the total first: on a phone the columns after it may need a scroll
        rows.append("<tr><td>%s</td><td data-final=\"%d\"><b>%d</b></td><td>%d</td><td>%d &times; 2</td>"
                    "<td>%d &times; 7</td><td>%d &times; 10</td><td>+%d</td></tr>"
                    % (esc(name), final[p], final[p], before[p], b["rows"], b["columns"], b["colours"], b["points"]))
    best = max(final)
    tied = [p for p in range(len(final)) if final[p] == best]
    note = ""
    if len(tied) > 1:
        note = " (%s%s)" % (t("tiebreak"), "; " + t("shared") if len(winners) > 1 else "")
    return ('<h3>%s</h3><div class="scroll"><table class="final"><tr><th></th><th>%s</th><th>%s</th><th>%s</th>'
            "<th>%s</th><th>%s</th><th>%s</th></tr>%s</table></div><p class=\"winner\" id=\"winners\">%s: %s%s</p>"
            % (t("game_over"), t("final"), t("before_bonus"), t("rows"), t("columns"), t("colours"), t("bonuses"),
               "".join(rows), t("winners"), esc(", ".join(names[w] for w in winners)), note))


# -- score check -----------------------------------------------------------------------------------------------

# The score check's example: a classic wall with its first two rows full (game_info's pattern).
_EXAMPLE_WALL = "\n".join(azul_engine.game_info("classic").wall_pattern[:2] + (".....",) * 3)


def check_body(lang, result=""):
    t = lambda k, **f: esc(i18n.text(lang, k, **f))
    return ('<h2>%s</h2><form id="wallform" onsubmit="return false"><fieldset><label>%s<br><textarea name="wall" '
            'rows="5" cols="12" spellcheck="false">%s</textarea></label><br>'
            '<span class="small" id="legend">%s</span><br>'
            '<label>%s <input name="score" inputmode="numeric" size="5" value="0"></label> <label>%s <select '
            'name="variant"><option value="classic">%s</option><option value="grey">%s</option>'
            '<option value="">%s</option></select></label></fieldset></form>'
            '<button class="primary" id="check-wall" data-post="/api/check/wall" data-form="wallform">%s</button>'
            '<fieldset><label>%s <input type="file" id="recordfile" accept=".jsonl,.json,application/json"></label>'
            '<button id="check-record" data-post="/api/check/record" data-file="recordfile">%s</button></fieldset>'
            '<div id="result">%s</div>'
            % (t("nav_check"), t("check_wall"), esc(_EXAMPLE_WALL), t("colour_legend"), t("check_score"), t("variant"),
               t("classic"),
               t("grey"), t("any_wall"), t("check"), t("upload_record"), t("upload"), result))


def bonus_table(lang, b, score):
    t = lambda k, **f: esc(i18n.text(lang, k, **f))
    return ('<table class="bonus"><tr><td>%s</td><td>%d &times; 2 = %d</td></tr><tr><td>%s</td><td>%d &times; 7 = '
            '%d</td></tr><tr><td>%s</td><td>%d &times; 10 = %d</td></tr><tr><th>%s</th><th>%d</th></tr><tr><th>%s'
            '</th><th id="final-score">%d + %d = %d</th></tr></table>'
            % (t("rows"), b["rows"], 2 * b["rows"], t("columns"), b["columns"], 7 * b["columns"], t("colours"),
               b["colours"], 10 * b["colours"], t("bonuses"), b["points"], t("final"), score, b["points"],
               score + b["points"]))


_SEAT_WORD = re.compile(r"\b(?:player|seat) (\d)\b")


def finding_text(lang, text):
    """An audit finding's English, for a person: its seats counted from 1 and named as the page's tables name
    them ("player 0" is "Игрок 1" beside a table of "Игрок 1, Игрок 2")."""
    return _SEAT_WORD.sub(lambda m: i18n.text(lang, "player_n", n=int(m.group(1)) + 1), text)


def _seats_text(lang, seats):
    return ", ".join(i18n.text(lang, "player_n", n=p + 1) for p in seats) if isinstance(seats, list) else str(seats)


def finding_html(lang, finding):
    """An audit finding (records.Finding, or the text of a record that could not be read) for a person, as HTML:
    where it is and what disagrees in the page's language, seats counted from 1; then the audit's own
    explanation (the points it counted), in English and marked so (lang="en"), for the findings about scores and
    winners; for the others (a record the audit could not follow) that explanation is the finding."""
    if isinstance(finding, str):
        return '<span lang="en">%s</span>' % esc(finding_text(lang, finding))
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
                         who=i18n.text(lang, "player_n", n=finding.player + 1), rec=finding.recorded,
                         ok=finding.correct)
    elif finding.field == "winners" and finding.correct is not None:
        head = i18n.text(lang, "f_winners", rec=_seats_text(lang, finding.recorded),
                         ok=_seats_text(lang, finding.correct))
    prefix = ", ".join(where) + ": " if where else ""
    prefix = esc(prefix[:1].upper() + prefix[1:])
    why = finding.why
    if head is not None and finding.player is not None:
        why = re.sub(r"^player \d+: ", "", why)  # the head names the player already
    detail = esc(finding_text(lang, why))
    if head is None:
        return '%s<span lang="en">%s</span>' % (prefix, detail)
    return '%s%s <span class="small" lang="en">(%s)</span>' % (prefix, esc(head), detail)


def check_record_result(lang, engine, text):
    t = lambda k, **f: esc(i18n.text(lang, k, **f))
    items = parse_records(text, lang)
    if not items:
        raise BadRequest(i18n.text(lang, "empty_file"))
    out, agree, disagree = [], 0, 0
    for number, item in items:
        if isinstance(item, records.RecordError):
            findings = [str(item)]
        else:
            findings = list(records.audit(item, engine, line=number))
        block = ["<h3>%s</h3>" % t("record_n", n=number)]
        if findings:
            disagree += 1
            block.append("<p><b>%s</b></p><ul class=\"findings\">%s</ul>" % (t("findings"), "".join(
                "<li>%s</li>" % finding_html(lang, f) for f in findings)))
        else:
            agree += 1
            block.append('<p class="agrees">&#10004; %s</p>' % t("agrees"))
            state = records.replay(item, engine)
            if item["variant"] in ("classic", "grey"):
                names = [i18n.text(lang, "player_n", n=p + 1) for p in range(state.players)]
                bonuses = [engine.end_bonus(w, variant=item["variant"]) for w in state.walls]
                before = [s - b["points"] for s, b in zip(state.scores, bonuses)]
                block.append(final_block(lang, names, before, bonuses, state.scores, state.winners))
            else:
                block.append("<p>%s: %s</p>" % (t("final"), esc(", ".join(map(str, state.scores)))))
        out.append("".join(block))
    return '<p id="summary"><b>%s</b></p>%s' % (t("summary", a=agree, d=disagree), "".join(out))


# -- play ------------------------------------------------------------------------------------------------------

def _notation_source(i):
    return "C" if i == 9 else str(i + 1)


def play_body(lang, game):
    t = lambda k, **f: esc(i18n.text(lang, k, **f))
    if game is None:
        return "<h2>%s</h2>%s" % (t("new_game"), setup_form(lang, "/api/play/new", True))
    s = game.state
    human = game.human_to_move()
    legal = s.legal_moves() if human else []
    out = ["<h2>%s &middot; %s</h2>" % (t("nav_play"), t(s.variant))]
    if s.is_over:
        names = [seat_name(lang, game, p) for p in range(s.players)]
        bonuses = [game.engine.end_bonus(w, variant=s.variant) for w in s.walls]
        before = [x - b["points"] for x, b in zip(s.scores, bonuses)]
        out.append(final_block(lang, names, before, bonuses, s.scores, s.winners))
    elif human:
        if s.phase == "tiling":
            out.append('<p id="prompt">%s</p>' % t("pick_cell", n=s.pending_row + 1))
        elif game.selected:
            out.append('<p id="prompt">%s <button data-post="/api/play/select" data-json="%s">%s</button></p>'
                       % (t("pick_line"), attr_json({"source": None}), t("cancel")))
        else:
            out.append('<p id="prompt">%s</p>' % t("pick_tiles"))
    # factories and centre
    sel = game.selected
    out.append('<div class="factories">')
    sources = [(i, f) for i, f in enumerate(s.factories)] + [(9, s.center)]
    for i, tiles in sources:
        name = t("centre") if i == 9 else t("factory_n", n=i + 1)
        cells = []
        if i == 9 and s.first_player_marker < 0 and s.phase != "over":
            cells.append(tile("M", label="1"))
        for c in tiles:
            src = _notation_source(i)
            takeable = human and s.phase != "tiling" and any(m.startswith(src + c) for m in legal)
            cls = " sel" if sel and sel[0] == src and sel[1] == c else ""
            if takeable:
                cells.append('<button class="tile t-%s%s" data-post="/api/play/select" data-json="%s" '
                             'title="%s" data-take="%s"></button>' % (c, cls, attr_json({"source": src, "colour": c}),
                                                                      esc(colour_name(lang, c)), src + c))
            else:
                cells.append(tile(c))
        out.append('<div class="factory%s" title="%s" data-source="%s">%s</div>'
                   % (" centre" if i == 9 else "", name, _notation_source(i), "".join(cells)))
    out.append("</div>")
    out.append('<div class="players">')
    for p in range(s.players):
        active = not s.is_over and s.current_player == p
        out.append('<div class="board%s" data-player="%d"><h3>%s &middot; %s %d%s</h3><div class="boardgrid">'
                   % (" active" if active else "", p, esc(seat_name(lang, game, p)), t("score"), s.scores[p],
                      " &middot; " + t("to_move") if active else ""))
        lines = ['<div class="lines">']
        for r in range(5):
            content = s.pattern_lines[p][r]
            slots = "".join('<span class="slot"></span>' for _ in range(r + 1 - len(content)))
            slots += "".join(tile(c) for c in content)
            move = sel and "%s%s%d" % (sel[0], sel[1], r + 1)
            if active and human and move and move in legal:
                lines.append('<div class="row"><button class="lineb pick" data-post="/api/play/move" '
                             'data-json="%s" data-line="%d">%s</button></div>' % (attr_json({"move": move}), r + 1,
                                                                                 slots))
            else:
                lines.append('<div class="row"><span class="lineb">%s</span></div>' % slots)
        lines.append("</div>")
        out.append("".join(lines))

        def pick(r, c, p=p, active=active):
            move = "W%d%d" % (r + 1, c + 1)
            if active and human and s.phase == "tiling" and move in legal:
                return "/api/play/move", {"move": move}
            return None

        out.append(wall_cells(lang, s.variant, s.walls[p], pick))
        out.append("</div>")
        floor = "".join(tile(c) for c in s.floors[p]) or "&ndash;"
        fmove = sel and "%s%sF" % (sel[0], sel[1])
        if active and human and fmove and fmove in legal:
            out.append('<div class="row"><b>%s:</b> <button class="lineb pick" data-post="/api/play/move" '
                       'data-json="%s" data-line="F">%s&nbsp;</button></div>' % (t("floor"), attr_json({"move": fmove}),
                                                                                floor))
        else:
            out.append('<div class="row"><b>%s:</b> %s</div>' % (t("floor"), floor))
        out.append("</div>")
    out.append("</div>")
    buttons = []
    if human:
        buttons.append('<button id="hint" data-post="/api/play/hint">%s</button>' % t("hint"))
    if game.history:
        buttons.append('<button id="undo" data-post="/api/play/undo">%s</button>' % t("undo"))
    buttons.append('<button data-post="/api/play/reset">%s</button>' % t("new_game"))
    if s.is_over:
        buttons.append('<a class="button" href="/play/download">%s</a>' % t("download"))
    out.append('<p>%s</p>' % " ".join(buttons))
    if game.hint:
        rows = "".join("<li>%s</li>" % t("hint_row", m=h.move, share="%.0f%%" % (100 * h.share),
                                          value="%.2f" % h.value) for h in game.hint)
        out.append('<div id="hint-text" class="msg note"><p>%s</p><ol class="hints">%s</ol><p class="small">%s</p>'
                   '</div>' % (t("hint_is", m=game.hint[0].move), rows, t("hint_value")))
    if game.log:
        out.append('<p class="small">%s: %s</p>' % (t("last_moves"), esc(", ".join(
            "%d:%s" % (p + 1, m) for p, m in game.log[-12:]))))
    return "".join(out)


def seat_name(lang, game, p):
    kind = game.seats[p]
    label = i18n.text(lang, "human" if kind == "human" else "bot_" + kind).split(" (")[0]
    return "%s (%s)" % (i18n.text(lang, "seat_n", n=p + 1), label)


# -- replay ----------------------------------------------------------------------------------------------------

def replay_states(engine, record):
    """The positions of a record after each of its moves (the first: round 1 dealt), with the move made."""
    return [(step.state.clone(), step.move) for step in records.walk(record, engine)
            if step.kind == "move" or step.kind == "deal"]


def replay_body(lang, session):
    t = lambda k, **f: esc(i18n.text(lang, k, **f))
    out = ['<h2>%s</h2><p class="small">%s</p><fieldset><label>%s <input type="file" id="replayfile" accept=".jsonl,.json"></label>'
           ' <form id="replayform" style="display:inline" onsubmit="return false"><label>%s <input name="line" '
           'value="1" size="3" inputmode="numeric"></label></form> <button id="replay-load" data-post='
           '"/api/replay/load" data-file="replayfile" data-form="replayform">%s</button></fieldset>'
           % (t("nav_replay"), t("replay_help"), t("record_file"), t("game_line"), t("upload"))]
    rp = session.replay
    if rp:
        states = rp["states"]
        i = rp["index"]
        state, move = states[i]
        nav = "".join('<button data-post="/api/replay/step" data-json="%s" id="rp-%s"%s>%s</button>'
                      % (attr_json({"to": to}), key, " disabled" if to == i or not 0 <= to < len(states) else "",
                         t(key)) for key, to in (("first", 0), ("prev", i - 1), ("next", i + 1),
                                                ("last", len(states) - 1)))
        out.append('<p id="rp-pos">%s%s</p><p>%s</p>' % (t("move_i", i=i, n=len(states) - 1),
                                                        " &middot; <b>%s</b>" % esc(move) if move else "", nav))
        if state.variant in ("classic", "grey"):
            out.append('<div class="players">')
            for p in range(state.players):
                lines = "".join('<div class="row">%s</div>' % "".join(tile(c) for c in state.pattern_lines[p][r])
                                for r in range(5))
                out.append('<div class="board"><h3>%s &middot; %s %d</h3><div class="boardgrid"><div class="lines">'
                           '%s</div>%s</div><div class="row"><b>%s:</b> %s</div></div>'
                           % (t("player_n", n=p + 1), t("score"), state.scores[p], lines,
                              wall_cells(lang, state.variant, state.walls[p]), t("floor"),
                              "".join(tile(c) for c in state.floors[p]) or "&ndash;"))
            out.append("</div>")
        else:  # Summer Pavilion: the same picture as `azul-engine board` draws
            out.append('<div class="pvboard">%s</div>' % svg.board(state, last_move=False))
    return "".join(out)


# -- the app ---------------------------------------------------------------------------------------------------

def create_app(engine=None, max_sessions=500, allowed_hosts=None):
    """The ASGI app; ``engine``: an engine module or backend name (default: the active engine).
    ``allowed_hosts``: the Host headers served (others get 400), e.g. ``["127.0.0.1", "localhost"]`` so that no
    other web site can reach the app through a name of its own (DNS rebinding); None serves any."""
    if engine is None:
        engine = azul_engine.load_backend(azul_engine.BACKEND)
    elif isinstance(engine, str):
        engine = azul_engine.load_backend(engine)
    sessions = sessions_.Sessions(max_sessions)

    def language(request, session):
        asked = request.query_params.get("lang")
        if asked in i18n.LANGUAGES:
            session.lang = asked
        return session.lang or i18n.choose(request.headers.get("accept-language"))

    def with_cookie(response, token, session):
        """The response, with the session's cookie if the session is new and now holds something."""
        if token is None and session.live():
            token = sessions.keep(session)
            response.set_cookie(COOKIE, token, httponly=True, samesite="strict", max_age=30 * 24 * 3600)
        return response

    def page(active, body_of):
        async def handler(request):
            token, session = sessions.get(request.cookies.get(COOKIE))

            def render():  # in a worker thread: the session's lock may be held while its bots think
                with session.lock:
                    lang = language(request, session)
                    return lang, body_of(lang, session)

            lang, body = await run_in_threadpool(render)
            title = i18n.text(lang, active) if active != "home" else i18n.text(lang, "title")
            return with_cookie(HTMLResponse(layout(lang, title, body, active)), token, session)
        return handler

    def action(handler):
        async def endpoint(request):
            token, session = sessions.get(request.cookies.get(COOKIE))
            if not same_origin(request):  # a cross-site request changes nothing (CSRF)
                return JSONResponse({"error": "refused: the request came from another site"}, status_code=403)
            try:
                data = await read_json(request)

                def run():
                    with session.lock:  # one action of a session at a time; bots think in a worker thread
                        return handler(data, session, language(request, session))

                response = JSONResponse(await run_in_threadpool(run))
            except ClientDisconnect:  # gone in the middle of its body: no one to answer, nothing to log
                return Response(status_code=400)
            except BadRequest as e:
                def words():
                    with session.lock:
                        return language(request, session), getattr(e, "redraw", None)

                lang, redraw = await run_in_threadpool(words)
                message = i18n.text(lang, e.key, **e.fields) if e.key else e.message
                response = JSONResponse({"error": message, **({"html": redraw} if redraw else {})},
                                        status_code=e.status)
            return with_cookie(response, token, session)
        return endpoint

    # score sheet
    def sheet_action(change):
        def handler(data, session, lang):
            if session.sheet is None and change is not sheet_new:
                raise BadRequest(i18n.text(lang, "no_game"), 409)
            try:
                change(data, session)
            except sheets.SheetError as e:
                err = BadRequest(sheet_message(lang, e), 422)
                err.redraw = sheet_body(lang, engine, session.sheet)
                raise err from None
            return {"html": sheet_body(lang, engine, session.sheet)}
        return handler

    def sheet_new(data, session):
        players = integer(data, "players", 2, 4)
        names = [data.get("name%d" % i, "") for i in range(players)]
        names = [n if isinstance(n, str) else "" for n in names]
        if data.get("variant") == "summer-pavilion":
            session.sheet = pvs.new_sheet(names)
        else:
            session.sheet = sheets.new_sheet(variant_of(data), names)

    def kind(session, want_pavilion):
        if (session.sheet["variant"] == "summer-pavilion") != want_pavilion:
            raise sheets.SheetError("this score sheet is for %s" % session.sheet["variant"])

    def pv_place(data, session):
        kind(session, True)
        pvs.place(engine, session.sheet, integer(data, "player", 0, 3), data.get("star"),
                  integer(data, "space", 1, 6), data.get("colour"), integer(data, "wilds", 0, 5))

    def pv_token(data, session):
        kind(session, True)
        p = data.get("player")
        pvs.set_token(engine, session.sheet, None if p is None else integer(data, "player", 0, 3),
                      integer(data, "tiles", 1, 40))

    def pv_pass(data, session):
        kind(session, True)
        pvs.set_pass(engine, session.sheet, integer(data, "player", 0, 3), integer(data, "kept", 0, 40),
                     integer(data, "discarded", 0, 200))

    def sheet_tap(data, session):
        kind(session, False)
        sheets.tap(engine, session.sheet, integer(data, "player", 0, 3), integer(data, "row", 0, 4),
                   integer(data, "col", 0, 4), data.get("colour"))

    def sheet_floor(data, session):
        kind(session, False)
        sheets.set_floor(engine, session.sheet, integer(data, "player", 0, 3), integer(data, "tiles", 0, 99))

    def sheet_marker(data, session):
        kind(session, False)
        p = data.get("player")
        sheets.set_marker(engine, session.sheet, None if p is None else integer(data, "player", 0, 3))

    def sheet_round(data, session):
        (pvs if session.sheet["variant"] == "summer-pavilion" else sheets).finish_round(engine, session.sheet)

    def sheet_undo(data, session):
        (pvs if session.sheet["variant"] == "summer-pavilion" else sheets).undo_round(session.sheet)

    def sheet_reset(data, session):
        session.sheet = None

    async def sheet_download(request):
        token, session = sessions.get(request.cookies.get(COOKIE))
        if session.sheet is None:
            raise HTTPException(404, "no score sheet in this session")
        body = json.dumps({"format": "azul-score-sheet", "version": 1, **{k: session.sheet[k] for k in (
            "variant", "names", "rounds", "scores", "over", "final")}}, indent=1, default=str)
        return with_cookie(Response(body, media_type="application/json", headers={
            "Content-Disposition": 'attachment; filename="azul-score-sheet.json"'}), token, session)

    def record_status(data, session, lang):
        """``POST /api/sheet/record``: start the search for the sheet's record if it has not begun, and say where
        it stands: {"record": "searching" | "found" | "none", "text", "tries", "best", "rounds", "seconds",
        "limit", "url"} (the page's script asks again until it is found or not)."""
        if not session.finished_classic():
            raise BadRequest(i18n.text(lang, "no_record_sheet"), 409)
        sheet = session.sheet
        if "record" in sheet:
            found = sheet["record"] is not None
            return {"record": "found" if found else "none", "url": "/sheet/record",
                    "text": i18n.text(lang, "record_found" if found else "no_record", s=RECORD_SECONDS)}
        job = sessions_.record_job(engine, session, RECORD_SECONDS)
        tries, best, rounds, seconds = job.status()
        return {"record": "searching", "tries": tries, "best": best, "rounds": rounds, "seconds": round(seconds, 1),
                "limit": RECORD_SECONDS, "url": "/sheet/record",
                "text": i18n.text(lang, "record_progress", best=best, rounds=rounds, tries=tries,
                                  t=int(seconds), s=RECORD_SECONDS)}

    async def sheet_record(request):
        token, session = sessions.get(request.cookies.get(COOKIE))
        lang = language(request, session)
        if not session.finished_classic():
            raise HTTPException(404, "no finished classic or grey score sheet in this session")

        def find():  # without the page's script: the download waits for the search (at most RECORD_SECONDS)
            with session.lock:
                sheet = session.sheet
                if "record" in sheet:
                    return sheet["record"]
                job = sessions_.record_job(engine, session, RECORD_SECONDS)
            job.done.wait(RECORD_SECONDS + 10)
            with session.lock:
                return sheet.get("record")

        record = await run_in_threadpool(find)
        if record is None:
            body = layout(lang, i18n.text(lang, "nav_sheet"), '<p class="msg error">%s</p><p><a href="/sheet">%s</a>'
                          "</p>" % (esc(i18n.text(lang, "no_record", s=RECORD_SECONDS)),
                                    esc(i18n.text(lang, "nav_sheet"))), "nav_sheet")
            return with_cookie(HTMLResponse(body, status_code=422), token, session)
        return with_cookie(Response(records.dumps(record) + "\n", media_type="application/x-ndjson", headers={
            "Content-Disposition": 'attachment; filename="azul-game.jsonl"'}), token, session)

    # score check
    def check_wall(data, session, lang):
        wall, score = data.get("wall"), data.get("score", "0")
        variant = data.get("variant") or None
        if variant not in (None, "classic", "grey"):
            raise BadRequest("variant: %s is not classic or grey" % json.dumps(variant)[:40])
        if isinstance(score, str) and DIGITS.match(score.strip()) and len(score.strip()) < 7:
            score = int(score.strip())
        if not isinstance(score, int) or isinstance(score, bool) or not 0 <= score < 10 ** 6:
            raise BadRequest("score: %s is not a whole number 0 or more" % json.dumps(score)[:40])
        try:
            rows = records.wall_text(wall if isinstance(wall, str) else None)
            b = engine.end_bonus(rows, variant=variant)
        except (ValueError, StateFormatError) as e:
            raise BadRequest(i18n.engine_text(lang, str(e)), 422) from None
        return {"html": check_body(lang, bonus_table(lang, b, score))}

    def check_record(data, session, lang):
        return {"html": check_body(lang, check_record_result(lang, engine, data.get("text")))}

    # play
    def play_new(data, session, lang):
        players = integer(data, "players", 2, 4)
        seats = []
        for i in range(players):
            s = data.get("seat%d" % i, "human")
            if s not in ("human", *BOT_SPECS):
                raise BadRequest("seat%d: %s is not human, random, greedy or mcts" % (i, json.dumps(s)[:40]))
            seats.append(s)
        seed = data.get("seed")
        seed = secrets.randbits(63) if seed is None else integer(data, "seed", 0, (1 << 63) - 1)
        session.game = Game(engine, players, variant_of(data), seats, seed)
        session.game.run_bots()
        return {"html": play_body(lang, session.game)}

    def need_game(session, lang):
        if session.game is None:
            raise BadRequest(i18n.text(lang, "no_game"), 409)
        return session.game

    def play_select(data, session, lang):
        game = need_game(session, lang)
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
        return {"html": play_body(lang, game)}

    def play_move(data, session, lang):
        game = need_game(session, lang)
        move = data.get("move")
        if not isinstance(move, str) or len(move) > 8:
            raise BadRequest("move: give a move in notation, like 3R4")
        before = len(game.log)
        try:
            game.move(move)
        except BadRequest as e:
            e.redraw = play_body(lang, game)
            raise
        bots_moved = len(game.log) - before > 1
        return {"html": play_body(lang, game), **({"note": i18n.text(lang, "bot_thinking")} if bots_moved else {})}

    def play_undo(data, session, lang):
        game = need_game(session, lang)
        game.undo()
        return {"html": play_body(lang, game)}

    def play_hint(data, session, lang):
        game = need_game(session, lang)
        game.suggest()
        return {"html": play_body(lang, game)}

    def play_reset(data, session, lang):
        session.game = None
        return {"html": play_body(lang, None)}

    async def favicon(request):  # what browsers ask for before they read the page's icon link
        return Response(FAVICON, media_type="image/svg+xml", headers={"Cache-Control": "max-age=86400"})

    async def play_download(request):
        token, session = sessions.get(request.cookies.get(COOKIE))
        if session.game is None:
            raise HTTPException(404, "no game in this session")
        return with_cookie(Response(session.game.state.record_json() + "\n", media_type="application/x-ndjson",
                                    headers={"Content-Disposition": 'attachment; filename="azul-game.jsonl"'}),
                           token, session)

    # replay
    def replay_load(data, session, lang):
        items = parse_records(data.get("text"), lang)
        if not items:
            raise BadRequest(i18n.text(lang, "empty_file"))
        line = integer(data, "line", 1, 10 ** 6)
        chosen = [item for number, item in items if number == line]
        if not chosen:
            raise BadRequest(i18n.text(lang, "no_record_line", n=line), 422)
        record = chosen[0]
        if isinstance(record, records.RecordError):
            raise BadRequest(str(record), 422)
        try:
            records.replay(record, engine)  # every check of a record; raises naming the first problem
            states = replay_states(engine, record)
        except (records.RecordError, IllegalMoveError, StateFormatError) as e:
            raise BadRequest(str(e), 422) from None
        session.replay = {"states": states, "index": 0}
        return {"html": replay_body(lang, session)}

    def replay_step(data, session, lang):
        if not session.replay:
            raise BadRequest(i18n.text(lang, "no_game"), 409)
        session.replay["index"] = integer(data, "to", 0, len(session.replay["states"]) - 1)
        return {"html": replay_body(lang, session)}

    async def not_found(request, exc):
        status = getattr(exc, "status_code", 404)
        detail = getattr(exc, "detail", None) or "not found"
        if request.url.path.startswith("/api/"):
            return JSONResponse({"error": detail}, status_code=status)
        return Response("%d %s\n" % (status, detail), status_code=status, media_type="text/plain")

    async def server_error(request, exc):
        return JSONResponse({"error": "internal error: %s" % type(exc).__name__}, status_code=500)

    routes = [
        Route("/", page("home", lambda lang, s: home_body(lang))),
        Route("/sheet", page("nav_sheet", lambda lang, s: sheet_body(lang, engine, s.sheet))),
        Route("/check", page("nav_check", lambda lang, s: check_body(lang))),
        Route("/play", page("nav_play", lambda lang, s: play_body(lang, s.game))),
        Route("/replay", page("nav_replay", lambda lang, s: replay_body(lang, s))),
        Route("/favicon.ico", favicon),
        Route("/sheet/download", sheet_download),
        Route("/play/download", play_download),
        Route("/sheet/record", sheet_record),
        Route("/api/sheet/record", action(record_status), methods=["POST"]),
        Route("/api/sheet/new", action(sheet_action(sheet_new)), methods=["POST"]),
        Route("/api/sheet/tap", action(sheet_action(sheet_tap)), methods=["POST"]),
        Route("/api/sheet/floor", action(sheet_action(sheet_floor)), methods=["POST"]),
        Route("/api/sheet/marker", action(sheet_action(sheet_marker)), methods=["POST"]),
        Route("/api/sheet/round", action(sheet_action(sheet_round)), methods=["POST"]),
        Route("/api/sheet/undo", action(sheet_action(sheet_undo)), methods=["POST"]),
        Route("/api/sheet/reset", action(sheet_action(sheet_reset)), methods=["POST"]),
        Route("/api/pavilion/place", action(sheet_action(pv_place)), methods=["POST"]),
        Route("/api/pavilion/token", action(sheet_action(pv_token)), methods=["POST"]),
        Route("/api/pavilion/pass", action(sheet_action(pv_pass)), methods=["POST"]),
        Route("/api/check/wall", action(check_wall), methods=["POST"]),
        Route("/api/check/record", action(check_record), methods=["POST"]),
        Route("/api/play/new", action(play_new), methods=["POST"]),
        Route("/api/play/select", action(play_select), methods=["POST"]),
        Route("/api/play/move", action(play_move), methods=["POST"]),
        Route("/api/play/undo", action(play_undo), methods=["POST"]),
        Route("/api/play/hint", action(play_hint), methods=["POST"]),
        Route("/api/play/reset", action(play_reset), methods=["POST"]),
        Route("/api/replay/load", action(replay_load), methods=["POST"]),
        Route("/api/replay/step", action(replay_step), methods=["POST"]),
        Mount("/static", app=StaticFiles(directory=str(STATIC)), name="static"),
    ]
    middleware = [Middleware(TrustedHostMiddleware, allowed_hosts=allowed_hosts)] if allowed_hosts else []
    app = Starlette(routes=routes, middleware=middleware, exception_handlers={HTTPException: not_found, 404: not_found, 405: not_found,
                                                       Exception: server_error})
    app.state.sessions = sessions
    app.state.engine = engine
    return app
