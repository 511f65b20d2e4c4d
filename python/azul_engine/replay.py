"""HTML replays of recorded games: one self-contained file that steps through a game move by move.

``to_html(record)`` returns the page as a string; ``python -m azul_engine replay FILE.jsonl --game N -o game.html``
writes it.  The page needs no network: the pictures are ``svg.board``'s, kept once per distinct part (the
heading, the table, each player's board) and put together by a short inline script, with buttons, the arrow keys
(Home and End: first and last position, space: play and pause) and a slider.  Beside the board: every move in
notation (click one to go there), the scores after each round, the final scores and the end bonuses.  The address
ends in ``#N`` at move N, so a link can open the page there.  The page is a Jinja2 template, ``data/replay.html``;
its style and script are ``data/replay.css`` and ``replay.js`` (package data, read with importlib.resources).

>>> import azul_engine
>>> from azul_engine import bots, replay
>>> game = bots.play(azul_engine, 2, "classic", seed=3, bots="greedy")
>>> page = replay.to_html(game.record())
>>> page.startswith("<!DOCTYPE html>") and "http" not in page.replace("http://www.w3.org/", "")
True
"""

from __future__ import annotations

import base64
import functools
import gzip
import importlib.resources
import json
from typing import TYPE_CHECKING, Any, Dict, List, Optional, Tuple, Union, cast


from . import records, svg
from ._markup import Markup
from ._types import EngineLike, Record, State

if TYPE_CHECKING:
    from jinja2 import Template

# One position of a replay (frames): the state after the move, the move (notation), who made it, its round.
Frame = Tuple[State, Optional[str], Optional[int], int]

__all__ = ["to_html", "frames"]

_VARIANT_NAMES = {"classic": "Azul", "grey": "Azul (grey wall)", "summer-pavilion": "Azul: Summer Pavilion"}


def frames(record: Record, engine: EngineLike = None) -> List[Frame]:
    """The positions of a record, one per decision: a list of ``(state, move, player, round)``, the first
    ``(start, None, None, 1)``.  Each state is the position after its move (a round's last move: after the next
    round's factories are dealt; a Summer Pavilion turn: after its supply refill).  Raises
    ``records.RecordError`` for a record that does not replay."""
    engine = records._engine(engine)
    records.replay(record, engine)  # the record is whole and legal, or RecordError names its first problem
    out: List[Frame] = []
    # The decision being followed: its state is filled in by the steps after it (its refill, the next deal).
    pending: Optional[Tuple[Optional[State], Optional[str], Optional[int], int]] = None
    for step in records.walk(record, engine):
        if step.kind == "start":
            continue
        if step.player is not None:  # a decision
            if pending is not None:  # the decision before, with its refill or the next deal
                out.append(cast(Frame, pending))
            pending = (None, step.move, step.player, step.round)
        elif step.kind == "deal" and step.round == 1:
            out.append((step.state.clone(), None, None, 1))
            continue
        if pending is not None:
            pending = (step.state.clone(),) + pending[1:]
    if pending is not None:
        out.append(cast(Frame, pending))
    return out


def _bonuses(record: Record, final: State) -> List[str]:
    """Per player, the end-of-game bonuses as words, from the final state's score sheet."""
    out: List[str] = [""] * record["players"]
    for e in records.end_bonus_events(final):
        out[e["player"]] = "%+d: %s" % (e["after"] - e["before"], records.end_bonus_text(final.variant, e))
    return out if any(out) else []


def _who_played(record: Record) -> List[str]:
    """The optional fields of a record that say who played (records.md section 5: bots, event, date, forfeit), as
    sentences."""
    out = []
    seats = record.get("bots")
    if isinstance(seats, list) and all(isinstance(b, dict) for b in seats):
        out.append("Players: " + ", ".join(
            "%d %s" % (p, b.get("name") or b.get("spec") or "?") for p, b in enumerate(seats)))
    for key in ("event", "date"):
        if isinstance(record.get(key), str):
            out.append("%s: %s" % (key.capitalize(), record[key]))
    forfeit = record.get("forfeit")
    if isinstance(forfeit, dict):
        out.append("Player %s forfeited: %s" % (forfeit.get("seat"), forfeit.get("reason")))
    return out


@functools.lru_cache(maxsize=None)
def _page() -> Tuple[Template, Markup, Markup]:
    """The page's template (package data: azul_engine/data/replay.html), and its own style and script
    (replay.css, replay.js beside it), as markup to write into it as they are."""
    from ._markup import environment

    data = importlib.resources.files("azul_engine") / "data"
    style, script = ((data / name).read_text(encoding="utf-8") for name in ("replay.css", "replay.js"))
    return environment("azul_engine", "data").get_template("replay.html"), Markup(style), Markup(script)


def _packed(value: Any) -> str:
    """``value`` as JSON, gzip-compressed (mtime 0, so the same game gives the same bytes) and in base64 lines:
    the pictures of a game repeat themselves, and compress about 20 times."""
    data = gzip.compress(json.dumps(value, separators=(",", ":"), sort_keys=True).encode("utf-8"), 9, mtime=0)
    text = base64.b64encode(data).decode("ascii")
    return "\n".join(text[i:i + 100] for i in range(0, len(text), 100))


def to_html(record: Union[Record, str], engine: EngineLike = None, seat: int = 0,
            title: Optional[str] = None) -> str:
    """A self-contained HTML page that replays ``record`` (a dict, as ``records.read`` gives): every position
    as a picture (``svg.board``, ``seat`` seen from below, the last move outlined), stepped by buttons, the
    arrow keys and a slider, with every move's notation, the scores after each round and the end bonuses.
    ``engine``: an engine module or backend name (default: the active one).  Raises ``records.RecordError``
    for a record that does not replay."""
    if isinstance(record, str):
        try:
            record = cast(Record, json.loads(record))
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
    part_index: Dict[str, int] = {}
    parts: List[str] = []
    data_frames: List[Any] = []
    labels: List[str] = []
    defs: Optional[str] = None
    first: Optional[Tuple[float, float, List[str]]] = None
    for k, (state, move, player, rnd) in enumerate(states):
        last = None if not move else (move, cast(int, player))  # a move's frame says who made it
        width, height, defs, fragments = svg.parts(state, seat, None, last)
        if first is None:
            first = width, height, fragments
        ids: List[int] = []
        for fragment in fragments:
            if fragment not in part_index:
                part_index[fragment] = len(parts)
                parts.append(fragment)
            ids.append(part_index[fragment])
        data_frames.append([svg._n(width), svg._n(height), ids])
        if move is None:
            labels.append("start: round 1, before the first move")
        else:
            label = "move %d of %d: round %d, player %d plays %s" % (k, len(states) - 1, rnd, cast(int, player),
                                                                     move)
            labels.append(label + (" (game over)" if state.is_over else ""))
    name = _VARIANT_NAMES[record["variant"]]
    heading = title or "%s, %d players%s" % (name, players,
                                             "" if record.get("seed") is None else ", seed %d" % record["seed"])
    rounds: List[Dict[str, Any]] = []  # the moves by round: {"round", "start" (the number of its first move), "moves"}
    for k, (state, move, player, rnd) in enumerate(states[1:], 1):
        if not rounds or rounds[-1]["round"] != rnd:
            rounds.append({"round": rnd, "start": k, "moves": []})
        rounds[-1]["moves"].append((labels[k], player, move))
    data = {"defs": defs, "parts": parts, "frames": data_frames, "labels": labels,
            "font": 'font-family="DejaVu Sans, Arial, Helvetica, sans-serif"'}
    in_progress = records.in_progress(record)
    if in_progress:
        outcome = "The game is still being played: %s." % records.where_now(final)
    else:
        outcome = "Winner%s: %s." % ("s" if len(record["winners"]) > 1 else "",
                                     ", ".join("player %d" % w for w in record["winners"]))
    template, style, script = _page()
    return template.render(
        heading=heading, style=style, script=script, last=len(states) - 1, where=labels[0],
        first_picture=Markup(svg.document(*cast(Tuple[float, float, List[str]], first)[:2], cast(str, defs),
                                          cast(Tuple[float, float, List[str]], first)[2], heading)),  # svg's markup
        rounds=rounds, players=players, round_scores=[rnd.get("scores") or [] for rnd in record["rounds"]],
        bonuses=_bonuses(record, final), winners=None if in_progress else record["winners"],
        final_scores=final.scores if in_progress else record["final_scores"], who_played=_who_played(record),
        outcome=outcome, packed=_packed(data))

