"""The table (azul_engine.table): a game being played, with seats of bots and people, wherever it is played: the
bots' turns, a person's move, undo back to a person's last move, forfeits, the record with who played, the
returns. Every test runs on both engines."""

import json
import time

import pytest

from azul_engine import bots, records
from azul_engine.table import HUMAN, Forfeit, Table


class Raises:
    def choose(self, state):
        raise RuntimeError("out of ideas")


class Slow:
    def choose(self, state):
        time.sleep(0.05)
        return state.legal_actions()[0]


def test_bots_play_up_to_the_person_and_the_person_moves(engine):
    """The bots move up to the person's turn; the person's move (notation or id) is the engine's; then the bots
    again. The moves are logged with their notation, and the same seeds give the game play_match plays."""
    table = Table(engine, 3, "classic", ["greedy", HUMAN, "random"], seed=5)
    played = table.play_bots()
    assert all(p.seat in (0, 2) for p in played) and table.moves == played
    assert table.person_to_move() and table.state.current_player == 1
    with pytest.raises(RuntimeError, match="no bot is to move: a person is"):
        table.bot_move()
    move = table.state.legal_moves()[-1]
    before = table.state.clone()
    action = before.string_to_action(move)
    done = table.person_move(move)
    before.apply(move)
    assert (done.seat, done.action, done.move) == (1, action, move)
    assert table.moves[-1] == done and table.state.to_text() == before.to_text()
    with pytest.raises(RuntimeError, match="no person is to move: a bot is"):
        table.person_move(table.state.legal_actions()[0])
    table.play_bots()
    assert table.person_to_move() or table.state.is_over


def test_an_illegal_move_of_a_person_changes_nothing(engine):
    table = Table(engine, 2, "classic", [HUMAN, "greedy"], seed=1)
    moves = table.play_bots()
    text = table.state.to_text(history=True)
    refused = table.state.clone()
    for bad in ("9Z9", 99999):
        with pytest.raises(engine.IllegalMoveError) as raised:
            table.person_move(bad)
        with pytest.raises(engine.IllegalMoveError) as direct:
            refused.apply(bad)
        assert str(raised.value) == str(direct.value)  # the engine's own words
    assert table.state.to_text(history=True) == text and not table.can_undo and table.moves == moves


def test_undo_takes_back_the_persons_move_and_the_bots_replies_and_they_answer_the_same(engine):
    table = Table(engine, 2, "classic", [HUMAN, "random"], seed=3)
    table.play_bots()
    start = table.state.to_text(history=True)
    move = table.state.legal_moves()[0]
    table.person_move(move)
    replies = [p.move for p in table.play_bots()]
    after = table.state.to_text(history=True)
    assert replies and table.undo() and table.state.to_text(history=True) == start and table.moves == []
    assert not table.undo()  # nothing more to take back
    table.person_move(move)
    assert [p.move for p in table.play_bots()] == replies and table.state.to_text(history=True) == after


def test_a_bot_that_fails_forfeits_in_one_wording_and_the_record_says_so(engine):
    table = Table(engine, 2, "classic", [HUMAN, "greedy"], seed=4)
    table.bots[1] = Raises()
    table.play_bots()
    if table.state.current_player == 0:
        table.person_move(table.state.legal_moves()[0])
    assert table.play_bots() == [] and table.stopped() and not table.person_to_move()
    assert table.forfeit.as_dict() == {"seat": 1, "reason": "raised RuntimeError: out of ideas"}
    assert str(table.forfeit) == "seat 1 (greedy) forfeits: raised RuntimeError: out of ideas"
    assert table.winners == [0] and table.returns() == [1.0, -1.0]
    record = json.loads(table.record_json())
    assert record["forfeit"] == table.forfeit.as_dict() and record["winners"] == [0]
    assert record["bots"] == [{"spec": "human"}, {"spec": "greedy"}] and records.audit(record, engine) == []
    assert table.undo() and table.forfeit is None and table.person_to_move()  # the game takes up again


def test_an_illegal_answer_and_a_slow_bot_forfeit(engine):
    table = Table(engine, 2, "classic", ["greedy", "greedy"], seed=2)
    table.bots[table.state.current_player] = type("Nonsense", (), {"choose": lambda self, s: "9Z9"})()
    assert table.bot_move() is None and table.forfeit.reason.startswith("illegal move '9Z9': ")
    table = Table(engine, 2, "classic", ["greedy", "greedy"], seed=2, time_limit=0.01)
    table.bots[table.state.current_player] = Slow()
    assert table.bot_move() is None and "over the time limit of 0.01 s" in table.forfeit.reason
    with pytest.raises(ValueError, match="time_limit must be a positive, finite number"):
        Table(engine, 2, "classic", ["greedy", "greedy"], time_limit=0)


def test_a_bot_that_cannot_be_made_forfeits_before_the_first_move(engine):
    table = Table(engine, 2, "classic", ["greedy", "bot_examples:RefusesToBeMade"], seed=1)
    assert table.forfeit is not None and table.forfeit.seat == 1 and table.moves == [] and table.stopped()
    assert table.forfeit.reason == "could not be made: ValueError: size must be even"
    with pytest.raises(bots.BotSpecError):
        Table(engine, 2, "classic", ["greedy", "no-such-bot"])
    with pytest.raises(bots.BotSpecError, match="2 players need 2 seats"):
        Table(engine, 2, "classic", ["greedy"])


def test_a_table_of_bots_is_play_match(engine):
    """play_match is a Table played out: the same record, and the engine's returns at the end."""
    match = bots.play_match(engine, 2, "grey", 6, ["greedy", "random"])
    with Table(engine, 2, "grey", ["greedy", "random"], seed=6) as table:
        table.play_bots()
    assert table.state.is_over and table.record_json() == match.record_json()
    assert table.returns() == table.state.returns() and sorted(table.returns()) in ([-1.0, 1.0], [0.0, 0.0])


def test_forfeit_reads_as_one_sentence():
    assert str(Forfeit(2, "illegal move 'Z9Z': no such move", "cmd:./bot")) == \
        "seat 2 (cmd:./bot) forfeits: illegal move 'Z9Z': no such move"


class Process:
    """Like an external engine (``cmd:``): holds what cannot be copied (a lock, as its queue and threads), and
    counts its ``close()`` calls."""

    def __init__(self):
        import threading

        self.lock, self.closed = threading.Lock(), 0

    def choose(self, state):
        with self.lock:
            return state.legal_actions()[0]

    def close(self):
        self.closed += 1


class Counted:
    """A bot that can be copied and counts its ``close()`` calls (every copy its own count)."""

    def __init__(self):
        self.closed = 0

    def choose(self, state):
        return state.legal_actions()[-1]

    def close(self):
        self.closed += 1


def test_a_bot_that_cannot_be_copied_plays_against_a_person_with_undo(engine):
    """A person's move copies the bots for an undo; a bot that cannot be copied (an external engine: the
    terminal game against cmd: raised "cannot pickle '_thread.lock' object" at the first move) is kept as it
    is. An undo stops the bots it drops (not one it keeps), and close() stops each bot once."""
    table = Table(engine, 3, "classic", [HUMAN, "greedy", "greedy"], seed=8)
    table.bots[1], table.bots[2] = Process(), Counted()
    process = table.bots[1]
    table.play_bots()
    table.person_move(table.state.legal_moves()[0])
    replies = [p.move for p in table.play_bots()]
    assert replies and table.person_to_move()
    dropped = table.bots[2]
    assert table.undo() and table.bots[1] is process and table.bots[2] is not dropped
    assert dropped.closed == 1 and process.closed == 0 and table.bots[2].closed == 0
    table.person_move(table.state.legal_moves()[0])
    assert [p.move for p in table.play_bots()] == replies
    table.close()
    assert process.closed == 1
