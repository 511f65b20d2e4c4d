"""Game records ("azul-record" version 1, records.md): write, read, replay, audit, explain.

A record replays from its recorded factory contents (``deal``), never from the generator, so a record of a
game played at a real table audits as well as one the engine wrote.  Every rule is the engine's: this module
only compares what a record says with what the engine computes, and says why they differ.

>>> import azul_engine
>>> from azul_engine import bots, records
>>> game = bots.play(azul_engine, 2, "classic", seed=3, bots="greedy")
>>> record = game.record()
>>> records.audit(record)
[]
>>> records.replay(record).scores == game.scores
True
"""

from __future__ import annotations

import json
from typing import (TYPE_CHECKING, Any, Callable, Dict, Iterable, Iterator, List, Optional, Protocol, Sequence, TextIO,
                    Tuple, Union, cast)

from ._backends import engine_named, game_info
from ._errors import AzulError, IllegalMoveError, StateFormatError
from ._types import Engine, EngineLike, Record, State
from .outputs import LineWriter  # records.LineWriter, as before
from .outputs import _Path

if TYPE_CHECKING:
    from ._types import GameInfo, PavilionState

__all__ = ["RecordError", "Finding", "Step", "walk", "is_refill", "LineWriter", "dumps", "write", "read", "iter_file", "read_line", "parse_line",
           "no_record", "replay", "audit", "explain", "wall_text", "wall_bonus_text", "board_text", "board_bonus",
           "board_bonus_text", "end_bonus_events", "end_bonus_text"]

FORMAT, VERSION = "azul-record", 1
_VARIANTS = ("classic", "grey", "summer-pavilion")
_PAVILION = "summer-pavilion"
# The game facts (start score, score floor, colours, rounds, bonuses) are the engines' game_info, the same in
# both engines (tests/test_parity.py); the pure engine's is read here, which imports no compiled code.
_INFO: Dict[str, GameInfo] = {v: game_info(v) for v in _VARIANTS}
_PAVILION_ROUNDS = cast(int, _INFO[_PAVILION].rounds)
_SEPARATORS = (", ", ": ")  # the engines' record_json() uses the same
# The characters a record's strings may hold, checked before any string reaches an engine: tile strings are
# colour letters; moves are notation (records.md), whose characters are all among these. The engine then
# judges the notation itself.
_TILES = {v: _INFO[v].colours for v in _VARIANTS}
_MOVE_CHARS = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ~+-"
# A score sheet's event (state.score_sheet()): a dict from JSON-like values.
_Event = Dict[str, Any]
_SHOWN = 40  # characters of a bad string shown in a finding


class RecordError(AzulError, ValueError):
    """A record that cannot be read or replayed; the message names the line and the field."""


class Finding:
    """One disagreement between a record and the rules.

    ``line`` (1-based line of the file, or None), ``round`` (1-based, or None), ``move`` (the notation, or
    None), ``field`` (the record's field), ``recorded`` and ``correct`` values (None where not applicable),
    ``player`` (the seat, from 0, of a finding about one player's score, else None) and ``why``, a sentence.
    ``str(finding)`` is the line the audit prints.
    """

    __slots__ = ("line", "round", "move", "field", "recorded", "correct", "why", "player")

    def __init__(self, why: str, field: Optional[str] = None, round: Optional[int] = None, move: Optional[str] = None,
                 recorded: Any = None, correct: Any = None, line: Optional[int] = None,
                 player: Optional[int] = None) -> None:
        self.why, self.field, self.round, self.move = why, field, round, move
        self.recorded, self.correct, self.line, self.player = recorded, correct, line, player

    def __str__(self) -> str:
        where = []
        if self.line is not None:
            where.append("line %d" % self.line)
        if self.round is not None:
            where.append("round %d" % self.round)
        if self.move is not None:
            where.append("move %s" % self.move)
        if self.field is not None and self.round is None and not self.why.startswith("field %s:" % self.field):
            where.append("field %s" % self.field)
        return (", ".join(where) + ": " if where else "") + self.why

    def __repr__(self) -> str:
        return "Finding(%r)" % str(self)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Finding) and all(
            getattr(self, k) == getattr(other, k) for k in self.__slots__)


# -- files ---------------------------------------------------------------------------------------------------

class _Recorded(Protocol):
    """What writes its own record: a game state, a ``table.Table``."""

    def record_json(self) -> str: ...


def dumps(record: Union[Record, _Recorded]) -> str:
    """One record (a dict, or a game state) as its line of JSON, byte for byte as the engines write it."""
    if hasattr(record, "record_json"):
        return cast(_Recorded, record).record_json()
    return json.dumps(record, separators=_SEPARATORS)


def write(path: _Path, records: Iterable[Union[Record, _Recorded]], mode: str = "new") -> None:
    """Write records (dicts or game states) to ``path``, one JSON object per line. ``mode``: ``"new"`` (an
    existing file is an ``outputs.OutputExists``), ``"replace"`` or ``"append"`` (``outputs.LineWriter``)."""
    with LineWriter(path, mode) as f:
        for record in records:
            f.write_line(dumps(record))


def parse_line(number: int, text: str) -> Union[Record, RecordError]:
    """Line ``number`` of a .jsonl file: the parsed record, or a RecordError naming the line (not JSON, nested
    too deeply, null)."""
    try:
        value = json.loads(text)
    except ValueError as e:
        return RecordError("line %d: not JSON (%s)" % (number, e))
    except RecursionError:
        return RecordError("line %d: not JSON that can be read (nested too deeply)" % number)
    if value is None:  # (None is read_line's "no record here")
        return RecordError("line %d: null is not a record (a record is a JSON object)" % number)
    record: Record = value  # or another JSON value, which audit reports ("a record is a JSON object")
    return record


MAX_LINE = 1 << 24  # characters in one line of a record file (a record is some tens of kilobytes)


def _lines(f: TextIO) -> Iterator[Tuple[int, Optional[str]]]:
    """``(number, text)`` of a text file's lines, each read in bounded memory: a line of more than MAX_LINE
    characters is ``(number, None)`` and ends the reading (the rest of the file has no known line to read)."""
    number = 0
    while True:
        text = f.readline(MAX_LINE + 1)
        if not text:
            return
        number += 1
        if len(text) > MAX_LINE:
            yield number, None
            return
        yield number, text


def _too_long(number: int) -> RecordError:
    return RecordError("line %d: more than %d characters without a line end: not a record (the rest of the file "
                       "is not read)" % (number, MAX_LINE))


def iter_file(path: _Path) -> Iterator[Tuple[int, Union[Record, RecordError]]]:
    """Yield ``(line_number, record_or_error)`` for each non-blank line of a .jsonl file: the parsed object,
    or a RecordError naming the line where it is not JSON (or nested too deeply to read, or longer than
    MAX_LINE characters: then the file's reading stops there)."""
    with open(path, "r", encoding="utf-8", errors="replace") as f:
        for number, text in _lines(f):
            if text is None:
                yield number, _too_long(number)
            elif text.strip():
                yield number, parse_line(number, text)


def read_line(path: _Path, number: int) -> Union[Record, RecordError, None]:
    """The record on line ``number`` (1-based) of a .jsonl file, parsed (or a RecordError, as ``iter_file``);
    None if that line is blank or past the end.  Lines before it are not parsed."""
    with open(path, "r", encoding="utf-8", errors="replace") as f:
        for n, text in _lines(f):
            if text is None:
                return _too_long(n)
            if n == number:
                return parse_line(n, text) if text.strip() else None
    return None


def no_record(path: _Path, number: int) -> str:
    """What to say when ``read_line(path, number)`` found no record: "no record on line N", and where the next
    one is when a record follows (a file that starts with blank lines, say)."""
    try:
        with open(path, "r", encoding="utf-8", errors="replace") as f:
            for n, text in _lines(f):
                if n > number and (text is None or text.strip()):
                    return "no record on line %d (the next one is on line %d)" % (number, n)
    except OSError:
        pass
    return "no record on line %d" % number


def read(path: _Path) -> List[Record]:
    """All records of a .jsonl file as dicts; raises RecordError naming the first line that is not JSON."""
    out = []
    for _, item in iter_file(path):
        if isinstance(item, RecordError):
            raise item
        out.append(item)
    return out


# -- checking a record's shape -------------------------------------------------------------------------------

def _is_int(x: object) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _show(text: str) -> str:
    """A string from a record as a finding shows it: quoted, escaped to ASCII, cut to ``_SHOWN`` characters."""
    return ascii(text[:_SHOWN]) + ("... (%d characters)" % len(text) if len(text) > _SHOWN else "")


def _bad_chars(text: str, alphabet: str, what: str) -> Optional[str]:
    """Why ``text`` is not made of the characters of ``alphabet`` (described as ``what``), or None."""
    for i, ch in enumerate(text, 1):
        if ch not in alphabet:
            kind = "not ASCII, " if ord(ch) > 127 else ""
            return "%s: character %d (U+%04X, %s%s) is not %s" % (_show(text), i, ord(ch), kind,
                                                                 ascii(ch), what)
    return None


def _check_shape(record: object) -> Optional[Finding]:
    """The first problem with the record's structure, as a Finding, or None."""
    if not isinstance(record, dict):
        return Finding("a record is a JSON object, not %s" % type(record).__name__)

    def bad(field: str, why: str) -> Finding:
        return Finding("field %s: %s" % (field, why), field=field)

    for key in ("format", "version", "variant", "players", "first_player", "rounds"):
        if key not in record:
            return bad(key, "missing")
    if record["format"] != FORMAT:
        return bad("format", "%s is not %r" % (_brief(record["format"]), FORMAT))
    if record["version"] != VERSION or not _is_int(record["version"]):
        return bad("version", "%s is not %d (this engine reads version 1)" % (_brief(record["version"]),
                                                                            VERSION))
    if record["variant"] not in _VARIANTS:
        return bad("variant", "unknown variant %s (variants: %s)" % (_brief(record["variant"]),
                                                                      ", ".join(_VARIANTS)))
    tiles = _TILES[record["variant"]]
    colours = "a colour letter (%s)" % " ".join(tiles)
    players = record["players"]
    if not _is_int(players) or not 2 <= players <= 4:
        return bad("players", "%s is not 2, 3 or 4" % (_brief(players),))
    seed = record.get("seed")
    if seed is not None and (not _is_int(seed) or not 0 <= seed < 1 << 64):
        return bad("seed", "%s is neither null nor an integer in 0..2**64-1" % (_brief(seed),))
    first = record["first_player"]
    if not _is_int(first) or not 0 <= first < players:
        return bad("first_player", "%s is not a seat 0-%d" % (_brief(first), players - 1))
    if record["variant"] == _PAVILION:
        supply = record.get("supply")
        if supply is None:
            return bad("supply", "missing (a Summer Pavilion record carries the 10 setup tiles)")
        if not isinstance(supply, str):
            return bad("supply", "%s is not a string of colour letters" % (_brief(supply),))
        why = _bad_chars(supply, tiles, colours)
        if why:
            return bad("supply", why)
    who = _check_who_played(record, players, bad)
    if who is not None:
        return who
    forfeit = record.get("forfeit")
    rounds = record["rounds"]
    if not isinstance(rounds, list) or not rounds:
        return bad("rounds", "not a non-empty list")
    if record["variant"] == _PAVILION and len(rounds) > _PAVILION_ROUNDS:
        return bad("rounds", "%d rounds: Summer Pavilion has exactly %d" % (len(rounds), _PAVILION_ROUNDS))
    for i, rnd in enumerate(rounds, 1):
        where = "rounds[%d]" % (i - 1)
        if not isinstance(rnd, dict):
            return Finding("field %s: not an object" % where, field=where, round=i)
        for key in ("factories", "moves", "scores"):
            if key not in rnd:
                return Finding("field %s.%s: missing" % (where, key), field=key, round=i)
        if not isinstance(rnd["factories"], list) or not all(isinstance(f, str) for f in rnd["factories"]):
            return Finding("field factories: not a list of strings", field="factories", round=i)
        for k, factory in enumerate(rnd["factories"], 1):
            why = _bad_chars(factory, tiles, colours)
            if why:
                return Finding("field factories: factory %d is %s" % (k, why), field="factories", round=i)
        if not isinstance(rnd["moves"], list) or not all(isinstance(m, str) for m in rnd["moves"]):
            return Finding("field moves: not a list of strings", field="moves", round=i)
        for k, move in enumerate(rnd["moves"], 1):
            why = _bad_chars(move, _MOVE_CHARS, "a character of move notation (0-9, A-Z, ~ + -)")
            if why:
                return Finding("field moves: move %d of the round is %s" % (k, why), field="moves", round=i)
        scores = rnd["scores"]
        if scores is None and i == len(rounds) and (forfeit is not None or in_progress(record)):
            continue  # the round the forfeit stopped, or the round being played
        if not (isinstance(scores, list) and len(scores) == players and all(_is_int(s) for s in scores)):
            return Finding("field scores: %s is not %d whole numbers" % (_brief(scores), players), field="scores",
                           round=i)
    ended = [key for key in ("final_scores", "winners") if record.get(key) is not None]
    if not ended:
        if in_progress(record):
            return None
        return bad("final_scores", "missing: the record stops before the game's end")
    if len(ended) == 1:
        missing = "winners" if ended == ["final_scores"] else "final_scores"
        return bad(missing, "missing (the record has %s, so the game ended)" % ended[0])
    final = record["final_scores"]
    if not (isinstance(final, list) and len(final) == players and all(_is_int(s) for s in final)):
        return bad("final_scores", "%s is not %d whole numbers" % (_brief(final), players))
    winners = record["winners"]
    if not (isinstance(winners, list) and winners and all(_is_int(w) and 0 <= w < players for w in winners)):
        return bad("winners", "%s is not a list of seats" % (_brief(winners),))
    return None


def in_progress(record: object) -> bool:
    """True for a record of a game still being played (records.md section 1): no forfeit, and ``final_scores``
    and ``winners`` both there and ``null``. Its last round may have ``"scores": null``."""
    return (isinstance(record, dict) and record.get("forfeit") is None and "final_scores" in record
            and "winners" in record and record["final_scores"] is None and record["winners"] is None)


def _check_who_played(record: Record, players: int, bad: Callable[[str, str], Finding]) -> Optional[Finding]:
    """The optional fields saying who played (records.md section 5): ``bots`` (one object a seat, with a string
    ``spec`` and optionally a string ``name``), ``event`` and ``date`` (strings) and ``forfeit`` (``seat`` and
    ``reason``).  The first problem, as a Finding, or None."""
    seats = record.get("bots")
    if seats is not None:
        if not isinstance(seats, list) or len(seats) != players:
            return bad("bots", "%s is not a list of %d objects, one a seat" % (_brief(seats), players))
        for seat, bot in enumerate(seats):
            if not isinstance(bot, dict) or not isinstance(bot.get("spec"), str):
                return bad("bots", "seat %d: %s is not an object with a string spec" % (seat, _brief(bot)))
            if not isinstance(bot.get("name", ""), str):
                return bad("bots", "seat %d: name %s is not a string" % (seat, _brief(bot["name"])))
    for key in ("event", "date"):
        if record.get(key) is not None and not isinstance(record[key], str):
            return bad(key, "%s is not a string" % _brief(record[key]))
    forfeit = record.get("forfeit")
    if forfeit is not None:
        if not isinstance(forfeit, dict):
            return bad("forfeit", "%s is not an object with seat and reason" % _brief(forfeit))
        forfeit_seat: Any = forfeit.get("seat")
        if not _is_int(forfeit_seat) or not 0 <= forfeit_seat < players:
            return bad("forfeit", "seat %s is not a seat 0-%d" % (_brief(forfeit_seat), players - 1))
        if not isinstance(forfeit.get("reason"), str):
            return bad("forfeit", "reason %s is not a string" % _brief(forfeit.get("reason")))
    return None


def forfeit_winners(scores: Sequence[int], seat: int) -> List[int]:
    """The winners of a game that ``seat`` forfeited: the other seats with the highest score so far."""
    others = [p for p in range(len(scores)) if p != seat]
    top = max(scores[p] for p in others)
    return [p for p in others if scores[p] == top]


def _brief(value: object) -> str:
    """A value from a record as a finding shows it: as the file says it (``null``, ``true``, ``[1, null]``; a
    string as its repr), escaped to ASCII, cut after ``_SHOWN`` characters."""
    try:
        if isinstance(value, str):
            text = ascii(value)
        else:
            try:
                text = json.dumps(value, ensure_ascii=True, separators=_SEPARATORS)
            except TypeError:  # not from a JSON file (a tuple key, an object): Python's own words
                text = ascii(value)
    except (RecursionError, ValueError):  # nested too deeply, or an int too long to print
        return "a %s too large to show" % type(value).__name__
    return text if len(text) <= _SHOWN else text[:_SHOWN] + "..."


# -- replay --------------------------------------------------------------------------------------------------

def _engine(engine: EngineLike) -> Engine:
    """The engine module that ``engine`` names: an engine module, a backend name or None (the active one)."""
    return cast(Engine, engine_named(engine))


class Step:
    """One step of :func:`walk`: ``kind`` is ``"start"`` (the first player drawn; in Summer Pavilion the setup
    supply dealt), ``"deal"`` (a round's factories dealt) or ``"move"`` (an entry of a round's ``moves``: a decision,
    a chance move, or a Summer Pavilion supply refill ``~`` + tiles, dealt as one); ``round`` counts from 1 (0 for
    the start); ``index`` is the move's place in its round's ``moves`` (from 0; None but for moves); ``move`` its
    notation; ``player`` the seat that made a decision (None for chance moves and refills); ``refill`` whether the
    move is a supply refill; ``state`` the game after the step: the walk's own, changed by the next step (clone it
    to keep it)."""

    __slots__ = ("kind", "round", "index", "move", "player", "refill", "state")

    def __init__(self, kind: str, round: int, state: State, index: Optional[int] = None, move: Optional[str] = None,
                 player: Optional[int] = None, refill: bool = False) -> None:
        self.kind, self.round, self.state, self.index = kind, round, state, index
        self.move, self.player, self.refill = move, player, refill

    def __repr__(self) -> str:
        return "Step(%r, round=%d%s)" % (self.kind, self.round, "" if self.move is None else ", move=%r" % self.move)


class _Stop(RecordError):
    """A record that stops being a game at some step: the Finding, and the state reached."""

    def __init__(self, finding: Finding, state: State) -> None:
        super().__init__(str(finding))
        self.finding, self.state = finding, state


def is_refill(record: Record, move: str) -> bool:
    """Whether ``move`` of ``record`` is a Summer Pavilion supply refill written as one move (``~`` and the tiles
    drawn, ``~BR``), which :func:`walk` deals with ``deal_supply``; the one place that reads that notation."""
    return (record["variant"] == _PAVILION and move[:1] == "~" and len(move) > 1
            and move[1] not in "0123456789")


def walk(record: Record, engine: EngineLike = None, stop: Optional[int] = None) -> Iterator[Step]:
    """Replay ``record`` step by step, yielding a :class:`Step` after each (the start, each round's deal, each
    entry of its moves), in explicit chance mode: the record's draws are dealt. Every tool that reads a record's
    moves reads them here (replay, audit, explain, the HTML replay, pictures, the web app).

    The record's shape is not checked (:func:`replay` does that first); where its moves stop being a game (a move
    the game refuses, a round that ends early or is cut short, a missing refill, rounds after the end) a
    RecordError names the problem (its ``finding`` and the ``state`` reached). ``stop``: end after that many
    entries of the rounds' moves (and the deal of the next round, when they end one)."""
    rounds = record["rounds"]
    pavilion = record["variant"] == _PAVILION
    state = _engine(engine).new_game(players=record["players"], variant=record["variant"], seed=0, chance="explicit")
    state.apply("~%d" % record["first_player"])
    if pavilion:
        try:
            cast("PavilionState", state).deal_supply(record["supply"])
        except IllegalMoveError as e:
            raise _Stop(Finding("field supply: %s" % str(e).replace("deal_supply: ", "", 1), field="supply",
                                recorded=record["supply"]), state) from None
    yield Step("start", 0, state)
    count = 0
    for i, rnd in enumerate(rounds, 1):
        if state.is_over:
            raise _Stop(Finding("the game ended after round %d, yet the record has %d rounds"
                                % (i - 1, len(rounds)), field="rounds", round=i), state)
        try:
            state.deal(rnd["factories"])
        except IllegalMoveError as e:
            raise _Stop(Finding("field factories: %s" % str(e).replace("deal: ", "", 1),
                                field="factories", round=i, recorded=rnd["factories"]), state) from None
        yield Step("deal", i, state)
        for j, move in enumerate(rnd["moves"]):
            if stop is not None and count >= stop:
                return
            if state.is_over or state.round != i:
                raise _Stop(Finding("the round is over after move %d; %d more moves are recorded"
                                    % (j, len(rnd["moves"]) - j), field="moves", round=i, move=move), state)
            if pavilion and state.is_chance_node and move[:1] != "~":
                raise _Stop(Finding("move %d of the round: the supply refill after the previous turn (~ and the "
                                    "tiles drawn) is missing" % (j + 1), field="moves", round=i, move=move), state)
            refill = is_refill(record, move)
            player = None if move[:1] == "~" else state.current_player
            try:
                if refill:
                    # one move per refill, all its tiles in colour order
                    cast("PavilionState", state).deal_supply(move[1:])
                else:
                    state.apply(move)
            except IllegalMoveError as e:
                raise _Stop(Finding("illegal move %d of the round (player %d): %s"
                                    % (j + 1, state.current_player, str(e).replace("deal_supply: ", "refill: ", 1)),
                                    field="moves", round=i, move=move), state) from None
            count += 1
            yield Step("move", i, state, j, move, player, refill)
        if stop is not None and count >= stop and i < len(rounds) and state.is_chance_node:
            continue  # the next round's deal comes with the move that ended this one
        if not state.is_over and state.round == i:
            if i == len(rounds) and (record.get("forfeit") is not None or in_progress(record)):
                return  # the game stopped where a bot forfeited, or is still being played
            raise _Stop(Finding("the moves stop before the round ends: the record is cut short",
                                field="moves", round=i), state)
        if stop is not None and count >= stop:
            return
    if record.get("forfeit") is not None:
        if state.is_over:
            raise _Stop(Finding("the record says seat %d forfeited, but its moves play the game to its end"
                                % record["forfeit"]["seat"], field="forfeit"), state)
        return
    if not state.is_over and not in_progress(record):
        raise _Stop(Finding("the record ends after round %d, but the game goes on" % len(rounds),
                            field="rounds"), state)


def _replay(record: Record, engine: Engine, findings: List[Finding]) -> State:
    """Replay ``record`` (whose shape is checked) as far as its moves are a game: appends a Finding for the
    problem that stops or shortens the replay, if any; returns the state reached."""
    state = None
    try:
        for step in walk(record, engine):
            state = step.state
    except _Stop as e:
        findings.append(e.finding)
        return e.state
    return cast(State, state)  # walk yields its start, or stops with the state reached


def replay(record: Record, engine: EngineLike = None) -> State:
    """The final state of a record, replayed from its factories; ``engine`` is an engine module or a backend
    name (default: the active one).  Raises RecordError naming the first problem."""
    module = _engine(engine)
    problem = _check_shape(record)
    if problem is not None:
        if problem.field not in ("final_scores", "winners"):
            raise RecordError(str(problem))
    findings: List[Finding] = []
    state = _replay(record, module, findings)
    if findings:
        raise RecordError(str(findings[0]))
    return state


def replay_states(record: Record, engine: EngineLike = None) -> Iterator[State]:
    """The state after every move of a record, in order: an iterator of one state per entry of its rounds'
    ``moves`` lists (Summer Pavilion's supply refills, ``~`` and the tiles, included), each an independent copy; the
    last equals ``replay(record)``, except after a forfeit at a round's first move (that round has no moves:
    ``replay`` has dealt its factories, the last state here is before the deal; a forfeit at the game's first
    move gives no state). ``engine`` is as for :func:`replay`. The record is checked first, as by
    :func:`replay`: a RecordError naming the first problem is raised by this call, before any state. The states
    are in explicit chance mode: the record's draws are dealt, as in :func:`replay`."""
    module = _engine(engine)
    replay(record, module)
    return (step.state.clone() for step in walk(record, module) if step.kind == "move")


# -- audit ---------------------------------------------------------------------------------------------------

def _seats(players: int) -> range:
    return range(players)


def _tile_words(event: _Event) -> str:
    parts = []
    if event["across"] > 1:
        parts.append("%d across" % event["across"])
    if event["down"] > 1:
        parts.append("%d down" % event["down"])
    return ", ".join(parts) or "alone"


def _round_items(events: List[_Event], player: int) -> Tuple[List[_Event], Optional[_Event], List[_Event]]:
    """This round's scoring of one player: (tile events, floor event or None, line-to-floor events)."""
    tiles = [e for e in events if e["player"] == player and e["event"] == "tile"]
    floor = next((e for e in events if e["player"] == player and e["event"] == "floor"), None)
    lost = [e for e in events if e["player"] == player and e["event"] == "line-to-floor"]
    return tiles, floor, lost


def _round_sentence(tiles: List[_Event], floor: Optional[_Event], lost: List[_Event]) -> str:
    parts = ["row %d tile +%d (%s)" % (e["row"] + 1, e["points"], _tile_words(e)) for e in tiles]
    parts += ["line %d to the floor (no allowed cell)" % (e["row"] + 1) for e in lost]
    if floor and floor["items"]:
        parts.append("floor %d item%s -%d" % (floor["items"], "s" if floor["items"] > 1 else "", floor["penalty"]))
    return ", ".join(parts) or "nothing scored"


def _check_rounds(record: Record, sheet: List[List[_Event]], correct_rounds: List[Any],
                  findings: List[Finding]) -> List[int]:
    players = record["players"]
    info = _INFO[record["variant"]]
    previous = [info.start_score] * players  # the record's own previous scores
    for i, (rnd, events, correct) in enumerate(zip(record["rounds"], sheet, correct_rounds), 1):
        recorded = rnd["scores"]
        if recorded is None:  # the round being played
            break
        for p in _seats(players):
            tiles, floor, lost = _round_items(events, p)
            gained = sum(e["points"] for e in tiles)
            penalty = floor["penalty"] if floor else 0
            # What the record should say, counting from its own previous score, so that one mistake is
            # reported once and not again in every later round that carries it forward.
            expected = max(info.min_score, previous[p] + gained - penalty)
            if recorded[p] == correct[p] or recorded[p] == expected:
                continue
            sentence = _round_sentence(tiles, floor, lost)
            clamped = previous[p] + gained - penalty < info.min_score
            if recorded[p] < info.min_score:
                why = ("player %d: record says %d, but a score never drops below %d; the rules give %d (from %d: %s)"
                       % (p, recorded[p], info.min_score, expected, previous[p], sentence))
            elif len(tiles) == 1 and not penalty and not lost:
                # One tile and nothing else scored this round: the difference is that tile's.
                e = tiles[0]
                why = ("player %d: the tile on row %d scores %d (%s), record says %d"
                       % (p, e["row"] + 1, e["points"], _tile_words(e), recorded[p] - previous[p]))
            else:
                why = ("player %d: score %d%s, record says %d (from %d: %s)"
                       % (p, expected, " (clamped at %d)" % info.min_score if clamped else "", recorded[p],
                          previous[p], sentence))
            findings.append(Finding(why, field="scores", round=i, recorded=recorded[p], correct=expected, player=p))
        previous = list(recorded)
    return previous


def end_bonus_events(state: State) -> List[_Event]:
    """The end bonuses of a finished game, one event a player from its score sheet (classic and grey: "bonus", with
    rows, columns and colours; Summer Pavilion: "end", with stars, numbers and kept tiles); none before the end."""
    if not state.is_over:
        return []
    return [e for e in state.score_sheet()[-1] if e["event"] in ("bonus", "end")]


def end_bonus_text(variant: str, e: _Event) -> str:
    """One player's end bonuses (an event of :func:`end_bonus_events`) in words, with the points each is worth in
    ``variant`` (``game_info``): "rows 1 x 2, columns 2 x 7, colours 0 x 10"; in Summer Pavilion "stars O R +31,
    all 1s, 2s +12, 2 kept tiles -2" (or "no bonus"). The one wording of the terminal game, the replay, audit and
    explain."""
    points = _INFO[variant].end_bonuses
    if e["event"] == "bonus":
        return "rows %d x %d, columns %d x %d, colours %d x %d" % (
            e["rows"], points["row"], e["columns"], points["column"], e["colours"], points["colour"])
    parts = []
    if e["stars"]:
        parts.append("stars %s +%d" % (" ".join(e["stars"]), e["star_points"]))
    if e["numbers"]:
        parts.append("all %s +%d" % (", ".join("%ds" % n for n in e["numbers"]), e["number_points"]))
    if e["kept"]:
        parts.append("%d kept tile%s -%d" % (e["kept"], "" if e["kept"] == 1 else "s", e["kept"]))
    return ", ".join(parts) or "no bonus"


def audit(record: Record, engine: EngineLike = None, line: Optional[int] = None) -> List[Finding]:
    """Check one record against the rules: its shape, every move's legality, every round's scores, the final
    scores and the winners.  Returns a list of Findings (empty when the record agrees), never raises for bad
    input; ``line`` is put in each finding."""
    findings = _audit(record, _engine(engine))
    for f in findings:
        f.line = line
    return findings


def _audit(record: Record, engine: Engine) -> List[Finding]:
    problem = _check_shape(record)
    if problem is not None:
        return [problem]
    findings: List[Finding] = []
    state = _replay(record, engine, findings)
    if record["variant"] == _PAVILION and record.get("seed") is not None and findings:
        # A tampered refill may only break the replay rounds later: the seed names the move at fault.
        seeded: List[Finding] = []
        _check_seed(record, engine, seeded)

        def where(f: Finding) -> Tuple[Optional[int], Optional[str], Optional[str]]:
            return f.round, f.field, f.move
        if seeded and where(seeded[0]) != where(findings[0]):
            findings[:0] = seeded
    if findings and not state.is_over:
        return findings
    if record.get("seed") is not None and not findings:
        _check_seed(record, engine, findings)
    if record.get("forfeit") is not None:
        return _audit_forfeit(record, state, findings)
    if in_progress(record):
        return _audit_in_progress(record, state, findings)
    if record["variant"] == _PAVILION:
        return _audit_pavilion(record, state, findings)
    sheet = state.score_sheet()
    correct_rounds = [r["scores"] for r in state.record()["rounds"]]
    last = _check_rounds(record, sheet, correct_rounds, findings)
    players = record["players"]
    bonuses = {e["player"]: e for e in sheet[-1] if e["event"] == "bonus"}
    final, correct_final = record["final_scores"], state.scores
    for p in _seats(players):
        b = bonuses[p]
        expected = last[p] + b["points"]
        if final[p] in (correct_final[p], expected):
            continue
        if final[p] == last[p] and b["points"]:
            why = "player %d: end bonuses missing: +%d (%s)" % (p, b["points"], end_bonus_text(record["variant"], b))
        elif final[p] == last[p] + 2 * b["points"] and b["points"]:
            why = "player %d: end bonuses counted twice: +%d, not +%d (%s)" % (
                p, 2 * b["points"], b["points"], end_bonus_text(record["variant"], b))
        else:
            why = "player %d: final score %d, record says %d (last round %d + bonuses %d: %s)" % (
                p, expected, final[p], last[p], b["points"], end_bonus_text(record["variant"], b))
        findings.append(Finding(why, field="final_scores", recorded=final[p], correct=expected, player=p))
    _check_winners(record, state, findings)
    return findings


def _audit_in_progress(record: Record, state: State, findings: List[Finding]) -> List[Finding]:
    """A game still being played: every scored round's scores, as for a finished game; a last round whose
    scores are null though it is over, and a game that is over though its final scores are null, are findings."""
    sheet = state.score_sheet()
    correct_rounds = [r["scores"] for r in state.record()["rounds"]]
    if record["variant"] == _PAVILION:
        _check_pavilion_rounds(record, state, sheet, correct_rounds, findings)
    else:
        _check_rounds(record, sheet, correct_rounds, findings)
    n = len(record["rounds"])
    if record["rounds"][-1]["scores"] is None and n <= len(correct_rounds) and correct_rounds[n - 1] is not None:
        findings.append(Finding("scores: null, but the round is over: the rules give %s" % correct_rounds[n - 1],
                                field="scores", round=n, correct=correct_rounds[n - 1]))
    if state.is_over:
        findings.append(Finding("field final_scores: null (and winners), but the game is over: the rules "
                                "give final scores %s, winners %s" % (list(state.scores), state.winners),
                                field="final_scores", correct=list(state.scores)))
    return findings


def _audit_forfeit(record: Record, state: State, findings: List[Finding]) -> List[Finding]:
    """A game stopped by a forfeit: every finished round's scores, the scores at the forfeit (``final_scores``)
    and the winners (the other seats with the highest score so far)."""
    if findings:
        return findings
    correct = state.record()["rounds"]
    for i, (rnd, right) in enumerate(zip(record["rounds"], correct), 1):
        if right["scores"] is not None and rnd["scores"] != right["scores"]:
            findings.append(Finding("scores: record says %s, the rules give %s" % (rnd["scores"], right["scores"]),
                                    field="scores", round=i, recorded=rnd["scores"], correct=right["scores"]))
    scores = list(state.scores)
    if record["final_scores"] != scores:
        findings.append(Finding("final_scores: record says %s; when seat %d forfeited the scores were %s"
                                % (record["final_scores"], record["forfeit"]["seat"], scores),
                                field="final_scores", recorded=record["final_scores"], correct=scores))
    winners = forfeit_winners(scores, record["forfeit"]["seat"])
    if sorted(record["winners"]) != winners:
        findings.append(Finding("winners: record says %s; seat %d forfeited, so the rules give %s (scores %s)"
                                % (record["winners"], record["forfeit"]["seat"], winners, scores),
                                field="winners", recorded=record["winners"], correct=winners))
    return findings


def _check_winners(record: Record, state: State, findings: List[Finding]) -> None:
    if sorted(record["winners"]) != state.winners:
        findings.append(Finding("winners: record says %s, the rules give %s (final scores %s)"
                                % (record["winners"], state.winners, state.scores),
                                field="winners", recorded=record["winners"], correct=state.winners))


def _check_seed(record: Record, engine: Engine, findings: List[Finding]) -> None:
    """A record with a seed must deal what that seed deals: same first player, same factories each round (and in
    Summer Pavilion the same setup supply and refills)."""
    seed = record["seed"]
    game = engine.new_game(players=record["players"], variant=record["variant"], seed=seed)
    if game.starting_player != record["first_player"]:
        findings.append(Finding("seed %d starts with player %d, the record with player %d"
                                % (seed, game.starting_player, record["first_player"]), field="first_player"))
        return
    pavilion = record["variant"] == _PAVILION
    supply = cast("PavilionState", game).supply if pavilion else None
    if pavilion and supply != record["supply"]:
        findings.append(Finding("field supply: seed %d draws %r, the record says %r" % (seed, supply, record["supply"]),
                                field="supply"))
        return
    for i, rnd in enumerate(record["rounds"], 1):
        if game.is_over:
            return
        if game.factories != rnd["factories"]:
            findings.append(Finding("field factories: seed %d deals %s, the record says %s"
                                    % (seed, game.factories, rnd["factories"]), field="factories", round=i))
            return
        for j, move in enumerate(rnd["moves"], 1):
            if pavilion:
                # The seeded game refills by itself: its own moves so far, refills included, must be the
                # record's.
                mine = game.record()["rounds"][i - 1]["moves"]
                if move.startswith("~") or (len(mine) >= j and mine[j - 1].startswith("~")):
                    if len(mine) < j or mine[j - 1] != move:
                        findings.append(Finding("seed %d refills the supply with %s at move %d, the record says %s"
                                                % (seed, mine[j - 1] if len(mine) >= j else "nothing", j, move),
                                                field="moves", round=i, move=move))
                        return
                    continue
            try:
                game.apply(move)
            except IllegalMoveError:
                return  # the replay reports it


# -- explain -------------------------------------------------------------------------------------------------

def explain(record: Record, engine: EngineLike = None) -> str:
    """The score sheet of one record as text: round by round and player by player, each wall tile with its
    runs and points, the floor and its penalty, the clamp at 0, and the end bonuses line by line."""
    module = _engine(engine)
    problem = _check_shape(record)
    if problem is not None and problem.field not in ("final_scores", "winners"):
        raise RecordError(str(problem))
    findings: List[Finding] = []
    state = _replay(record, module, findings)
    if record["variant"] == _PAVILION:
        return _explain_pavilion(record, state, findings) + _stop_words(record, state)
    return _explain_classic(record, state, findings) + _stop_words(record, state)


def where_now(state: State) -> str:
    """Where a game in progress stands, in words: "round 2, player 1 to move" (seats from 0, as in records)."""
    if state.is_chance_node:
        return "round %d, before the tiles are drawn" % state.round
    return "round %d, player %d to move" % (state.round, state.current_player)


def _stop_words(record: Record, state: State) -> str:
    """The explanation's last line for a game stopped by a forfeit or still being played (or nothing)."""
    if in_progress(record) and not state.is_over:
        return "\nThe game is still being played: %s; scores so far %s" % (where_now(state), list(state.scores))
    return _forfeit_words(record, state)


def _forfeit_words(record: Record, state: State) -> str:
    """The explanation's last line for a game stopped by a forfeit (or nothing)."""
    forfeit = record.get("forfeit")
    if forfeit is None:
        return ""
    scores = list(state.scores)
    return ("\nSeat %d forfeited in round %d: %s\nScores when the game stopped %s, winners %s"
            % (forfeit["seat"], state.round, forfeit["reason"], scores, forfeit_winners(scores, forfeit["seat"])))


def _explain_classic(record: Record, state: State, findings: List[Finding]) -> str:
    out = ["%s Azul, %d players, seed %s, player %d starts" % (
        record["variant"].capitalize(), record["players"], record.get("seed"), record["first_player"])]
    sheet = state.score_sheet()
    rounds = state.record()["rounds"]
    score = [_INFO[record["variant"]].start_score] * record["players"]
    for i, events in enumerate(sheet, 1):
        out.append("Round %d" % i)
        for p in _seats(record["players"]):
            mine = [e for e in events if e["player"] == p and e["event"] != "bonus"]
            out.append("  player %d (from %d)" % (p, score[p]))
            for e in mine:
                if e["event"] == "tile":
                    out.append("    row %d, column %d, %s: %s = %d" % (
                        e["row"] + 1, e["column"] + 1, e["colour"], _tile_words(e), e["points"]))
                elif e["event"] == "line-to-floor":
                    out.append("    line %d: no allowed cell for %s, %d tiles to the floor (%d to the lid)"
                               % (e["row"] + 1, e["colour"], e["tiles"], e["to_lid"]))
                elif e["event"] == "floor" and e["items"]:
                    items = "%d item%s%s" % (e["items"], "" if e["items"] == 1 else "s",
                                             ", marker included" if e["marker"] else "")
                    floor_score = _INFO[record["variant"]].min_score
                    clamp = " (clamped at %d)" % floor_score if e["before"] - e["penalty"] < floor_score else ""
                    out.append("    floor: %s = -%d: %d -> %d%s" % (items, e["penalty"], e["before"],
                                                                    e["after"], clamp))
            if i <= len(rounds) and rounds[i - 1]["scores"] is not None:
                score[p] = rounds[i - 1]["scores"][p]
            out.append("    score %d" % score[p])
    if state.is_over:
        out.append("End bonuses")
        for e in sheet[-1]:
            if e["event"] == "bonus":
                out.append("  player %d: %s = %d: %d + %d = %d" % (e["player"], end_bonus_text(record["variant"], e),
                                                                 e["points"], e["before"], e["points"], e["after"]))
        out.append("Final scores %s, winners %s" % (state.scores, state.winners))
    for f in findings:
        out.append("Note: " + str(f))
    return "\n".join(out)


# -- Summer Pavilion ------------------------------------------------------------------------------------------

def _loss(score: int, points: int) -> int:
    """A loss of ``points``: every loss stops at ``min_score``, 1 (rules section 3)."""
    return max(_INFO[_PAVILION].min_score, score - points)


def _pavilion_items(events: List[_Event], player: int) -> List[_Event]:
    """One player's scoring events of a round, in play order."""
    return [e for e in events if e.get("player") == player
            and e["event"] in ("start-token", "place", "bonus-tile", "pass")]


def _pavilion_fold(score: int, items: List[_Event]) -> int:
    """The score after ``items`` (place, start-token, pass events) counted from ``score``."""
    for e in items:
        if e["event"] == "place":
            score += e["points"]
        elif e["event"] == "start-token":
            score = _loss(score, e["tiles"])
        elif e["event"] == "pass":
            score = _loss(score, e["discarded"])
    return score


def _pavilion_words(e: _Event) -> str:
    if e["event"] == "bonus-tile":
        return "bonus tile %s" % e["colour"]
    if e["event"] == "place":
        wild = " with %d wild" % e["wilds"] if e["wilds"] else ""
        orn = "; completes %s (+%d tile%s)" % (", ".join(e["ornaments"]), e["bonus_tiles"],
                                                 "" if e["bonus_tiles"] == 1 else "s") if e["ornaments"] else ""
        return "%s%d %s%s +%d (run %d)%s" % (e["star"], e["space"], e["colour"], wild, e["points"], e["run"], orn)
    if e["event"] == "start-token":
        return "start token, %d tile%s taken -%d" % (e["tiles"], "" if e["tiles"] == 1 else "s", e["tiles"])
    if e["discarded"]:
        return "pass keeping %s, %d discarded -%d" % (e["kept"] or "nothing", e["discarded"], e["discarded"])
    return "pass keeping %s" % (e["kept"] or "nothing")


def _check_pavilion_rounds(record: Record, state: State, sheet: List[List[_Event]], correct_rounds: List[Any],
                           findings: List[Finding]) -> List[int]:
    """Each scored round's scores (Summer Pavilion); returns the record's scores after the last of them."""
    players = record["players"]
    info = _INFO[_PAVILION]
    previous = [info.start_score] * players  # the record's own previous scores; every game starts at 5
    for i, (rnd, events, correct) in enumerate(zip(record["rounds"], sheet, correct_rounds), 1):
        recorded = rnd["scores"]
        if recorded is None:  # the round being played
            break
        for p in _seats(players):
            items = _pavilion_items(events, p)
            expected = _pavilion_fold(previous[p], items)
            if recorded[p] == correct[p] or recorded[p] == expected:
                continue
            sentence = "; ".join(_pavilion_words(e) for e in items if e["event"] != "bonus-tile") or "nothing scored"
            if recorded[p] < info.min_score:
                why = ("player %d: record says %d, but a score never drops below %d; the rules give %d (from %d: %s)"
                       % (p, recorded[p], info.min_score, expected, previous[p], sentence))
            elif i == _PAVILION_ROUNDS and state.is_over and recorded[p] == state.scores[p]:
                why = ("player %d: round %d's score is taken before the end bonuses and the kept-tile penalty: %d, "
                       "record says %d (the final score)" % (p, _PAVILION_ROUNDS, expected, recorded[p]))
            else:
                why = "player %d: score %d, record says %d (from %d: %s)" % (p, expected, recorded[p], previous[p],
                                                                            sentence)
            findings.append(Finding(why, field="scores", round=i, recorded=recorded[p], correct=expected, player=p))
        previous = list(recorded)
    return previous


def _audit_pavilion(record: Record, state: State, findings: List[Finding]) -> List[Finding]:
    sheet = state.score_sheet()
    correct_rounds = [r["scores"] for r in state.record()["rounds"]]
    players = record["players"]
    previous = _check_pavilion_rounds(record, state, sheet, correct_rounds, findings)
    ends = {e["player"]: e for e in sheet[-1] if e["event"] == "end"}
    final, correct_final = record["final_scores"], state.scores
    for p in _seats(players):
        e = ends[p]
        gain = e["star_points"] + e["number_points"]
        expected = _loss(previous[p] + gain, e["kept"]) if e["kept"] else previous[p] + gain
        if final[p] in (correct_final[p], expected):
            continue
        if final[p] == _loss(previous[p], e["kept"]) and gain:
            why = "player %d: end bonuses missing: +%d (%s)" % (p, gain, end_bonus_text(_PAVILION, e))
        elif final[p] == previous[p] + gain and e["kept"]:
            why = "player %d: the %d tile%s still kept %s not subtracted (%s)" % (
                p, e["kept"], "" if e["kept"] == 1 else "s", "is" if e["kept"] == 1 else "are",
                end_bonus_text(_PAVILION, e))
        else:
            why = "player %d: final score %d, record says %d (round %d %d: %s)" % (
                p, expected, final[p], _PAVILION_ROUNDS, previous[p], end_bonus_text(_PAVILION, e))
        findings.append(Finding(why, field="final_scores", recorded=final[p], correct=expected, player=p))
    _check_winners(record, state, findings)
    return findings


def _explain_pavilion(record: Record, state: State, findings: List[Finding]) -> str:
    out = ["Summer Pavilion, %d players, seed %s, player %d starts, supply %s" % (
        record["players"], record.get("seed"), record["first_player"], record.get("supply"))]
    sheet = state.score_sheet()
    rounds = state.record()["rounds"]
    info = _INFO[_PAVILION]
    score = [info.start_score] * record["players"]
    for i, events in enumerate(sheet, 1):
        out.append("Round %d (wild %s)" % (i, cast(str, info.wild_colours)[i - 1]))
        for p in _seats(record["players"]):
            out.append("  player %d (from %d)" % (p, score[p]))
            for e in _pavilion_items(events, p):
                if e["event"] == "bonus-tile":
                    out.append("    %s" % _pavilion_words(e))
                    continue
                out.append("    %s: %d -> %d" % (_pavilion_words(e), e["before"], e["after"]))
                score[p] = e["after"]  # a round cut short has no recorded scores
            if i <= len(rounds) and rounds[i - 1]["scores"] is not None:
                score[p] = rounds[i - 1]["scores"][p]
            out.append("    score %d" % score[p])
    if state.is_over:
        out.append("End of the game")
        for e in sheet[-1]:
            if e["event"] == "end":
                out.append("  player %d: %s: %d -> %d" % (e["player"], end_bonus_text(_PAVILION, e), e["before"], e["after"]))
        out.append("Final scores %s, winners %s" % (state.scores, state.winners))
    for f in findings:
        out.append("Note: " + str(f))
    return "\n".join(out)


_WALL_CELLS = _INFO["classic"].colours + "."


def wall_text(text: str) -> List[str]:
    """A wall as typed at the table, as the five rows of five cells that ``end_bonus`` reads.

    One row per line (or rows separated by ``/``, or five words on one line); spaces between cells and lower-case
    letters are allowed (``b y r k w``).  Raises ValueError naming the row that is not five cells of colour
    letters (B Y R K W) or dots.
    """
    if not isinstance(text, str):
        raise ValueError("wall: not text")
    lines = [line for line in text.replace("/", "\n").splitlines() if line.strip()]
    if len(lines) == 1 and len(lines[0].split()) == 5:
        lines = lines[0].split()  # BYRKW WBYRK ... on one line
    if len(lines) != 5:
        raise ValueError("wall: %d rows, not 5 (one row per line, or rows separated by '/')" % len(lines))
    rows = []
    for number, line in enumerate(lines, 1):
        row = "".join(line.split())
        for ch in row:
            if not (ch.isascii() and ch.upper() in _WALL_CELLS):
                raise ValueError("wall: row %d: %s is not a colour letter (B Y R K W) or '.' for an empty cell"
                                 % (number, ascii(ch)))
        if len(row) != 5:
            raise ValueError("wall: row %d has %d cells, not 5: %s" % (number, len(row), _show(line.strip())))
        rows.append(row.upper())
    return rows


def wall_bonus_text(engine: Engine, wall: Union[str, Sequence[str]], score: int, variant: Optional[str] = None) -> str:
    """check-score for a wall at the table: the bonus lines and the final total, as text.  ``wall`` is text
    (``wall_text``) or a list of five rows; ``score``, the score before the bonuses, is 0 or more."""
    if not _is_int(score) or score < 0:
        raise ValueError("score: %s is not a whole number 0 or more" % _brief(score))
    if isinstance(wall, str):
        wall = wall_text(wall)
    b = engine.end_bonus(wall, variant=variant)
    points = _INFO[variant or "classic"].end_bonuses
    return "\n".join([
        "complete rows:    %d x %d = %d" % (b["rows"], points["row"], points["row"] * b["rows"]),
        "complete columns: %d x %d = %d" % (b["columns"], points["column"], points["column"] * b["columns"]),
        "complete colours: %d x %d = %d" % (b["colours"], points["colour"], points["colour"] * b["colours"]),
        "bonuses: %d" % b["points"],
        "final score: %d + %d = %d" % (score, b["points"], score + b["points"]),
    ])


_STARS = cast(str, _INFO[_PAVILION].stars)  # O R B Y G P C: the rows of a board as typed
_STAR_WORDS = {"O": "orange", "R": "red", "B": "blue", "Y": "yellow", "G": "green", "P": "purple", "C": "centre"}
_BOARD_CELLS = _INFO[_PAVILION].colours + "."
_KEEP = 4  # tiles a pass keeps at most (rules section 3)


def board_text(text: str) -> List[str]:
    """A Summer Pavilion board as typed at the table: seven rows, one a star in the order O R B Y G P C (the outer
    stars clockwise from the upper left, then the centre), each the six spaces 1-6 as colour letters (P G O Y B R)
    or '.' for an empty space.  One row per line (or rows separated by ``/``, or seven words on one line); spaces
    between cells and lower-case letters are allowed.  Raises ValueError naming the row that is not six spaces.
    """
    if not isinstance(text, str):
        raise ValueError("board: not text")
    lines = [line for line in text.replace("/", "\n").splitlines() if line.strip()]
    if len(lines) == 1 and len(lines[0].split()) == 7:
        lines = lines[0].split()
    if len(lines) != 7:
        raise ValueError("board: %d rows, not 7 (one row per star, O R B Y G P C, each its six spaces; or rows "
                         "separated by '/')" % len(lines))
    rows = []
    for number, (line, star) in enumerate(zip(lines, _STARS), 1):
        row = "".join(line.split())
        for ch in row:
            if not (ch.isascii() and ch.upper() in _BOARD_CELLS):
                raise ValueError("board: row %d (%s star): %s is not a colour letter (P G O Y B R) or '.' for an "
                                 "empty space" % (number, _STAR_WORDS[star], ascii(ch)))
        if len(row) != 6:
            raise ValueError("board: row %d (%s star) has %d spaces, not 6: %s"
                             % (number, _STAR_WORDS[star], len(row), _show(line.strip())))
        rows.append(row.upper())
    return rows


def _board_end(engine: Engine, board: Sequence[str], score: int, kept: int) -> int:
    """The final score the engine gives a Summer Pavilion board after round 6: seat 0 with ``board`` and
    ``score`` passes last, keeping ``kept`` tiles (the other seat has passed with nothing)."""
    colours = _INFO[_PAVILION].colours
    used = [sum(row.count(c) for row in board) for c in colours]
    hand = ""
    for _ in range(kept):  # any colours: a kept tile costs 1 whatever its colour
        c = min(range(len(colours)), key=lambda k: used[k])
        used[c] += 1
        hand += colours[c]
    hand = "".join(sorted(hand, key=colours.index))
    per_colour = _INFO[_PAVILION].tiles_per_colour
    bag = ",".join(str(per_colour - u) for u in used)
    text = ("azul-state/1 variant=summer-pavilion players=2 chance=sampled seed=0 rng=0000000000000001 round=%d "
            "phase=play fill=- turn=0 start=0 marker=0 moves=1 next=-1 owed=0 factories=-,-,-,-,- center=- supply=- "
            "refill=- bag=%s tower=0,0,0,0,0,0 prefill=%s/0,0,0,0,0,0 p0=%d:%s:%s:0 p1=%d:-:%s:1"
            % (_PAVILION_ROUNDS, bag, bag, score, hand or "-", "/".join(board), score, "/".join(["......"] * 7)))
    try:
        state = engine.from_text(text)
    except StateFormatError as e:  # "field p0: the orange star cannot hold red": the board is seat 0's
        message = str(e)
        raise StateFormatError("board: " + (message[10:] if message.startswith("field p0: ") else message)) from None
    state.apply("-" + hand)
    if not state.is_over:
        raise ValueError("board: the engine did not end the game after round %d" % _PAVILION_ROUNDS)
    return state.scores[0]


def board_bonus(engine: Engine, board: Sequence[str], score: int, kept: int = 0) -> Dict[str, Any]:
    """The end of a Summer Pavilion game for a board at the table: ``board`` (``board_text``'s seven rows),
    ``score`` after round 6's passes and ``kept``, the tiles still kept (0-4).  Returns ``{"stars": {star: points}
    for each complete star, "numbers": {n: points} for each number whose seven spaces are covered, "bonus",
    "kept", "penalty", "final"}``: every figure the engine's (its end scoring of the board, then of the board
    with one star, or one number's spaces, alone).  Raises ValueError (StateFormatError for a board the rules
    forbid) naming the problem."""
    floor = _INFO[_PAVILION].min_score
    if not _is_int(score) or score < floor:
        raise ValueError("score: %s is not a whole number %d or more (a Summer Pavilion score never drops below %d)"
                         % (_brief(score), floor, floor))
    if not _is_int(kept) or not 0 <= kept <= _KEEP:
        raise ValueError("kept: %s is not 0 to %d (a pass keeps at most %d tiles)" % (_brief(kept), _KEEP, _KEEP))
    rows = list(board)
    bonus = _board_end(engine, rows, score, 0) - score
    stars: Dict[str, int] = {}
    numbers: Dict[int, int] = {}
    for i, star in enumerate(_STARS):
        alone = [row if k == i else "......" for k, row in enumerate(rows)]
        points = _board_end(engine, alone, score, 0) - score
        if points:
            stars[star] = points
    for n in range(1, 7):
        alone = ["." * (n - 1) + row[n - 1] + "." * (6 - n) for row in rows]
        points = _board_end(engine, alone, score, 0) - score
        if points:
            numbers[n] = points
    final = _board_end(engine, rows, score, kept)
    return {"stars": stars, "numbers": numbers, "bonus": bonus, "kept": kept, "penalty": score + bonus - final,
            "final": final}


def board_bonus_text(engine: Engine, board: Union[str, Sequence[str]], score: int, kept: int = 0) -> str:
    """check-score for a Summer Pavilion board at the table: the bonus lines, the kept tiles' penalty and the
    final total, as text (``board_bonus``)."""
    b = board_bonus(engine, board_text(board) if isinstance(board, str) else board, score, kept)
    stars = ", ".join("%s %d" % (_STAR_WORDS[s], p) for s, p in b["stars"].items())
    numbers = ", ".join("%d (%d)" % (n, p) for n, p in b["numbers"].items())
    return "\n".join([
        "complete stars:   %s = %d" % (stars or "none", sum(b["stars"].values())),
        "numbers covered:  %s = %d" % (numbers or "none", sum(b["numbers"].values())),
        "bonuses: %d" % b["bonus"],
        "kept tiles:       %d, -%d" % (b["kept"], b["penalty"]),
        "final score: %d + %d - %d = %d" % (score, b["bonus"], b["penalty"], b["final"]),
    ])
