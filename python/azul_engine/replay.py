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
import sys

from . import outputs, records, svg

__all__ = ["to_html", "frames"]

_VARIANT_NAMES = {"classic": "Azul", "grey": "Azul (grey wall)", "summer-pavilion": "Azul: Summer Pavilion"}


def _is_refill(move):
    return move[:1] == "~" and len(move) > 1 and move[1] not in "0123456789"


def frames(record, engine=None):
    """The positions of a record, one per decision: a list of ``(state, move, player, round)``, the first
    ``(start, None, None, 1)``.  Each state is the position after its move (a round's last move: after the next
    round's factories are dealt; a Summer Pavilion turn: after its supply refill).  Raises
    ``records.RecordError`` for a record that does not replay."""
    engine = records._engine(engine)
    records.replay(record, engine)  # the record is whole and legal, or RecordError names its first problem
    state = engine.new_game(players=record["players"], variant=record["variant"], seed=0, chance="explicit")
    state.apply("~%d" % record["first_player"])
    if record["variant"] == "summer-pavilion":
        state.deal_supply(record["supply"])
    rounds = record["rounds"]
    state.deal(rounds[0]["factories"])
    out = [(state.clone(), None, None, 1)]
    pending = None
    for i, rnd in enumerate(rounds, 1):
        moves = rnd["moves"]
        for j, move in enumerate(moves):
            if _is_refill(move):
                state.deal_supply(move[1:])
            elif move[:1] == "~":
                state.apply(move)
            else:
                pending = (move, state.current_player, i)
                state.apply(move)
            last_in_round = j + 1 == len(moves)
            if last_in_round and i < len(rounds) and state.is_chance_node:
                state.deal(rounds[i]["factories"])
            if pending is not None and (last_in_round or moves[j + 1][:1] != "~"):
                out.append((state.clone(),) + pending)
                pending = None
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


_STYLE = """
body{font-family:"DejaVu Sans",Arial,Helvetica,sans-serif;margin:16px;background:#fbf8f1;color:#222}
h1{font-size:20px;margin:0 0 8px} h2{font-size:16px;margin:16px 0 6px}
#controls{display:flex;gap:6px;align-items:center;flex-wrap:wrap;margin-bottom:8px}
#controls button{font-size:15px;min-width:40px;padding:4px 8px}
#slider{width:320px} #where{font-weight:bold;min-width:260px}
#main{display:flex;gap:16px;align-items:flex-start;flex-wrap:wrap}
#board svg{max-width:100%;height:auto}
#moves{max-height:640px;overflow:auto;border:1px solid #ccc;background:#fff;padding:4px 8px;min-width:190px}
#moves ol{margin:0;padding-left:34px} #moves h3{font-size:13px;margin:6px 0 2px}
#moves li{cursor:pointer;font-family:"DejaVu Sans Mono",monospace;font-size:13px}
#moves li.now{background:#d1007a;color:#fff} #moves li.now::marker{color:#222}
table{border-collapse:collapse} td,th{border:1px solid #bbb;padding:3px 8px;text-align:right;font-size:13px}
tr.final td{font-weight:bold}
"""

_SCRIPT = r"""
(function(){
var D=null,board=document.getElementById("board"),slider=document.getElementById("slider"),
    where=document.getElementById("where"),items=document.querySelectorAll("#moves li"),
    playing=null,now=-1;
function svg(i){var f=D.frames[i],w=f[0],h=f[1],out=[];
  for(var k=0;k<f[2].length;k++){out.push(D.parts[f[2][k]]);}
  return '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" version="1.1" '+
    'width="'+w+'" height="'+h+'" viewBox="0 0 '+w+' '+h+'" '+D.font+'><rect width="'+w+'" height="'+h+
    '" fill="#fbf8f1"/>'+D.defs+out.join("")+'</svg>';}
function show(i){if(!D){return;}i=Math.max(0,Math.min(D.frames.length-1,i));if(i===now){return;}now=i;
  board.innerHTML=svg(i);slider.value=i;where.textContent=D.labels[i];
  for(var k=0;k<items.length;k++){items[k].className=(k+1===i)?"now":"";}
  if(i>0&&items[i-1].scrollIntoView){items[i-1].scrollIntoView({block:"nearest"});}
  document.body.setAttribute("data-frame",String(i));
  if(history.replaceState){try{history.replaceState(null,"",i?"#"+i:location.pathname+location.search);}catch(e){}}}
function stop(){if(playing){clearInterval(playing);playing=null;document.getElementById("play").textContent="play";}}
function play(){if(playing){stop();return;}if(now>=D.frames.length-1){show(0);}
  document.getElementById("play").textContent="pause";
  playing=setInterval(function(){if(now>=D.frames.length-1){stop();}else{show(now+1);}},700);}
document.getElementById("first").onclick=function(){stop();show(0);};
document.getElementById("prev").onclick=function(){stop();show(now-1);};
document.getElementById("next").onclick=function(){stop();show(now+1);};
document.getElementById("last").onclick=function(){stop();show(D.frames.length-1);};
document.getElementById("play").onclick=play;
slider.oninput=function(){stop();show(parseInt(slider.value,10));};
for(var k=0;k<items.length;k++){(function(k){items[k].onclick=function(){stop();show(k+1);};})(k);}
document.addEventListener("keydown",function(e){
  if(e.target&&e.target.tagName==="INPUT"&&e.target.type!=="range"){return;}
  var k=e.key;
  if(k==="ArrowRight"||k==="ArrowDown"){stop();show(now+1);}
  else if(k==="ArrowLeft"||k==="ArrowUp"){stop();show(now-1);}
  else if(k==="Home"){stop();show(0);} else if(k==="End"){stop();show(D.frames.length-1);}
  else if(k===" "){play();} else {return;}
  e.preventDefault();});
function start(text){D=JSON.parse(text);slider.disabled=false;now=-1;
  var m=/^#([0-9]+)$/.exec(location.hash);show(m?parseInt(m[1],10):0);}
var packed=document.getElementById("replay-data").textContent.replace(/\s+/g,"");
if(typeof DecompressionStream==="undefined"){where.textContent="this browser cannot unpack the replay "+
  "(it lacks DecompressionStream): the first position only";return;}
var raw=atob(packed),bytes=new Uint8Array(raw.length);
for(var k=0;k<raw.length;k++){bytes[k]=raw.charCodeAt(k);}
new Response(new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"))).text().then(start,
  function(e){where.textContent="cannot unpack the replay: "+e;});
})();
"""


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


# -- command line --------------------------------------------------------------------------------------------

def add_arguments(parser, engine_help):
    parser.add_argument("file", metavar="FILE.jsonl")
    parser.add_argument("--game", type=_positive_int, default=1, help="line number of the record (default: 1)")
    parser.add_argument("-o", "--output", required=True, help="the .html file to write (one that exists: --force)")
    parser.add_argument("--force", action="store_true", help="replace the output file if it exists")
    parser.add_argument("--seat", type=int, default=0, help="the player seen from below (default: 0)")
    parser.add_argument("--backend", choices=["cpp", "python"], help=engine_help)


def _positive_int(text):
    import argparse
    value = int(text)
    if value <= 0:
        raise argparse.ArgumentTypeError("must be positive: %s" % text)
    return value


_positive_int.__name__ = "int"


def command(args):
    """``azul-engine replay``: exit status 0, 1 for a record that does not replay, 2 for a bad argument."""
    from . import load_backend, BACKEND
    import os

    def fail(message, status):
        print("azul-engine replay: %s" % message, file=sys.stderr)
        return status

    if os.path.isdir(args.file):
        return fail("cannot read %s: it is a directory" % args.file, 2)
    try:
        engine = load_backend(args.backend or BACKEND)
    except ImportError as e:
        return fail(str(e), 2)
    try:
        item = records.read_line(args.file, args.game)
    except OSError as e:
        return fail("cannot read %s: %s" % (args.file, e.strerror), 2)
    if item is None:
        return fail("%s: %s" % (args.file, records.no_record(args.file, args.game)), 1)
    if isinstance(item, records.RecordError):
        return fail("%s: %s" % (args.file, item), 1)
    try:
        page = to_html(item, engine, seat=args.seat)
    except records.RecordError as e:
        return fail("%s: line %d: %s" % (args.file, args.game, e), 1)
    except ValueError as e:
        return fail(str(e), 2)
    try:
        outputs.write_text(args.output, page, "replace" if args.force else "new")
    except OSError as e:
        return fail("cannot write %s: %s" % (args.output, e.strerror), 2)
    return 0
