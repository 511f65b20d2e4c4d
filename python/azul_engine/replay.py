"""HTML replays of recorded games: one self-contained file that steps through a game move by move.

``to_html(record)`` (also ``records.to_html``) returns the page as a string; ``python -m azul_engine replay
FILE.jsonl --game N -o game.html`` writes it.  The page needs no network: the pictures are ``svg.board``'s,
kept once per distinct part (the heading, the table, each player's board) and put together by a short inline
script, with buttons, the arrow keys (Home and End: first and last position, space: play and pause) and a slider.
Beside the board: every move in notation (click one to go there), the scores after each round, the final
scores and the end bonuses.  The address ends in ``#N`` at move N, so a link can open the page there.

>>> import azul_engine
>>> from azul_engine import bots, replay
>>> game = bots.play(azul_engine, 2, "classic", seed=3, bots="greedy")
>>> page = replay.to_html(game.record())
>>> page.startswith("<!DOCTYPE html>") and "http" not in page.replace("http://www.w3.org/", "")
True
"""

import base64
import gzip
import html
import json
import os

from . import records, svg

__all__ = ["to_html", "frames"]

_VARIANT_NAMES = {"classic": "Azul", "grey": "Azul (grey wall)", "summer-pavilion": "Azul: Summer Pavilion"}


def frames(record, engine=None):
    """The positions of a record, one per decision: a list of ``(state, move, player, round)``, the first
    ``(start, None, None, 1)``.  Each state is the position after its move (a round's last move: after the next
    round's factories are dealt; a Summer Pavilion turn: after its supply refill).  Raises
    ``records.RecordError`` for a record that does not replay."""
    engine = records._engine(engine)
    records.replay(record, engine)  # the record is whole and legal, or RecordError names its first problem
    out, pending = [], None
    for step in records.walk(record, engine):
        if step.kind == "start":
            continue
        if step.player is not None:  # a decision
            if pending is not None:  # the decision before, with its refill or the next deal
                out.append(pending)
            pending = (None, step.move, step.player, step.round)
        elif step.kind == "deal" and step.round == 1:
            out.append((step.state.clone(), None, None, 1))
            continue
        if pending is not None:
            pending = (step.state.clone(),) + pending[1:]
    if pending is not None:
        out.append(pending)
    return out


def _score_table(record, final):
    players = record["players"]
    head = "".join("<th>player %d</th>" % p for p in range(players))
    rows = []
    for i, rnd in enumerate(record["rounds"], 1):
        scores = rnd.get("scores") or []
        rows.append("<tr><th>round %d</th>%s</tr>" % (i, "".join("<td>%d</td>" % s for s in scores)))
    bonus = _bonuses(record, final)
    if bonus:
        rows.append('<tr class="bonus"><th>end bonuses</th>%s</tr>' % "".join(
            "<td>%s</td>" % html.escape(b) for b in bonus))
    if records.in_progress(record):  # a game still being played: the scores so far, no winner
        rows.append('<tr class="final"><th>so far</th>%s</tr>' % "".join(
            "<td>%d</td>" % s for s in final.scores))
    else:
        rows.append('<tr class="final"><th>final</th>%s</tr>' % "".join(
            "<td>%d%s</td>" % (s, " &#9733;" if p in record["winners"] else "")
            for p, s in enumerate(record["final_scores"])))
    return '<table id="scores"><tr><th></th>%s</tr>%s</table>' % (head, "".join(rows))


def _bonuses(record, final):
    """Per player, the end-of-game bonuses as words, from the final state's score sheet."""
    events = [e for rnd in final.score_sheet() for e in rnd if e["event"] in ("bonus", "end")]
    out = [""] * record["players"]
    for e in events:
        p = e["player"]
        if e["event"] == "bonus":  # classic and grey
            out[p] = "+%d: rows %d x 2, columns %d x 7, colours %d x 10" % (
                e["points"], e["rows"], e["columns"], e["colours"])
        else:  # Summer Pavilion
            parts = []
            if e["stars"]:
                parts.append("stars %s +%d" % (e["stars"], e["star_points"]))
            if e["numbers"]:
                parts.append("all %s +%d" % (", ".join("%ds" % n for n in e["numbers"]), e["number_points"]))
            if e["kept"]:
                parts.append("%d kept tile%s -%d" % (e["kept"], "" if e["kept"] == 1 else "s", e["kept"]))
            out[p] = "%+d: %s" % (e["after"] - e["before"], "; ".join(parts) or "none")
    return out if any(out) else []


def _who_played(record):
    """The optional fields of a record that say who played (records.md section 5: bots, event, date, forfeit)."""
    out = []
    seats = record.get("bots")
    if isinstance(seats, list) and all(isinstance(b, dict) for b in seats):
        out.append("Players: " + ", ".join(
            "%d %s" % (p, html.escape(str(b.get("name") or b.get("spec") or "?"))) for p, b in enumerate(seats)))
    for key in ("event", "date"):
        if isinstance(record.get(key), str):
            out.append("%s: %s" % (key.capitalize(), html.escape(record[key])))
    forfeit = record.get("forfeit")
    if isinstance(forfeit, dict):
        out.append("Player %s forfeited: %s" % (html.escape(str(forfeit.get("seat"))),
                                                html.escape(str(forfeit.get("reason")))))
    return "<p>%s.</p>" % ". ".join(out) if out else ""


def _asset(name):
    """A file of the page's own (its style and script: package data in azul_engine/data/), as text."""
    with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", name), encoding="utf-8") as f:
        return f.read()


_STYLE = _asset("replay.css")
_SCRIPT = _asset("replay.js")


def _packed(value):
    """``value`` as JSON, gzip-compressed (mtime 0, so the same game gives the same bytes) and in base64 lines:
    the pictures of a game repeat themselves, and compress about 20 times."""
    data = gzip.compress(json.dumps(value, separators=(",", ":"), sort_keys=True).encode("utf-8"), 9, mtime=0)
    text = base64.b64encode(data).decode("ascii")
    return "\n".join(text[i:i + 100] for i in range(0, len(text), 100))


def to_html(record, engine=None, seat=0, title=None):
    """A self-contained HTML page that replays ``record`` (a dict, as ``records.read`` gives): every position
    as a picture (``svg.board``, ``seat`` seen from below, the last move outlined), stepped by buttons, the
    arrow keys and a slider, with every move's notation, the scores after each round and the end bonuses.
    ``engine``: an engine module or backend name (default: the active one).  Raises ``records.RecordError``
    for a record that does not replay."""
    if isinstance(record, str):
        try:
            record = json.loads(record)
        except (ValueError, RecursionError) as e:
            raise records.RecordError("not a record: the text is not JSON (%s)" % e) from None
    problem = records._check_shape(record)  # the page shows final_scores and winners too
    if problem is not None:
        raise records.RecordError(str(problem))
    states = frames(record, engine)
    final = states[-1][0]
    players = record["players"]
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players:
        raise ValueError("seat must be a player of this game, 0-%d, not %r" % (players - 1, seat))
    part_index, parts, data_frames, labels = {}, [], [], []
    defs = None
    for k, (state, move, player, rnd) in enumerate(states):
        width, height, defs, fragments = svg.parts(state, seat, None, (move, player) if move else None)
        ids = []
        for fragment in fragments:
            if fragment not in part_index:
                part_index[fragment] = len(parts)
                parts.append(fragment)
            ids.append(part_index[fragment])
        data_frames.append([svg._n(width), svg._n(height), ids])
        if move is None:
            labels.append("start: round 1, before the first move")
        else:
            label = "move %d of %d: round %d, player %d plays %s" % (k, len(states) - 1, rnd, player, move)
            labels.append(label + (" (game over)" if state.is_over else ""))
    name = _VARIANT_NAMES[record["variant"]]
    heading = title or "%s, %d players%s" % (name, players,
                                             "" if record.get("seed") is None else ", seed %d" % record["seed"])
    moves_html = []
    current = None
    for k, (state, move, player, rnd) in enumerate(states[1:], 1):
        if rnd != current:
            if current is not None:
                moves_html.append("</ol>")
            moves_html.append('<h3>round %d</h3><ol start="%d">' % (rnd, k))
            current = rnd
        moves_html.append('<li title="%s">P%d %s</li>' % (html.escape(labels[k]), player, html.escape(move)))
    if current is not None:
        moves_html.append("</ol>")
    data = {"defs": defs, "parts": parts, "frames": data_frames, "labels": labels,
            "font": 'font-family="DejaVu Sans, Arial, Helvetica, sans-serif"'}
    if records.in_progress(record):
        outcome = "The game is still being played: %s." % records.where_now(final)
    else:
        outcome = "Winner%s: %s." % ("s" if len(record["winners"]) > 1 else "",
                                     ", ".join("player %d" % w for w in record["winners"]))
    first_svg = svg._open(float(data_frames[0][0]), float(data_frames[0][1]), None, heading) + defs + "".join(
        parts[i] for i in data_frames[0][2]) + "</svg>"
    return "".join([
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        "<title>%s</title><style>%s</style></head><body>" % (html.escape(heading), _STYLE),
        "<h1>%s</h1>" % html.escape(heading),
        '<div id="controls"><button id="first" title="first position (Home)">&#124;&lt;</button>',
        '<button id="prev" title="previous move (left arrow)">&lt;</button>',
        '<button id="play" title="play / pause (space)">play</button>',
        '<button id="next" title="next move (right arrow)">&gt;</button>',
        '<button id="last" title="last position (End)">&gt;&#124;</button>',
        '<input id="slider" type="range" min="0" max="%d" value="0" disabled aria-label="position">'
        % (len(states) - 1),
        '<span id="where">%s</span></div>' % html.escape(labels[0]),
        '<div id="main"><div id="board">%s</div>' % first_svg,
        '<div id="moves"><strong>moves</strong>%s</div></div>' % "".join(moves_html),
        "<h2>Scores after each round</h2>%s" % _score_table(record, final),
        _who_played(record),
        "<p>%s Keys: left and right arrows step, Home and End jump, space plays.</p>" % html.escape(outcome),
        '<script type="application/octet-stream" id="replay-data">\n%s\n</script>' % _packed(data),
        "<script>%s</script></body></html>\n" % _SCRIPT,
    ])
