"""Hardening (issue 10, engine inputs): no input aborts the interpreter or reaches it as a foreign
error, and both engines answer every bad input with the same exception type and message.

Each test runs once per engine (the ``engine`` fixture) and pins the exact type and text, so
passing on both means the engines agree; the tests that mix the engines (``==``) take both.
"""

import copy
import os
import pickle
import random
import subprocess
import sys
import textwrap
import traceback

import numpy as np
import pytest

import azul_engine
from helpers import load_both

VARIANTS = ("classic", "grey", "summer-pavilion")
PROTOCOLS = range(pickle.HIGHEST_PROTOCOL + 1)


def refused(call, kind, message):
    """``call()`` raises exactly ``kind`` (not a subclass) with exactly ``message``."""
    with pytest.raises(Exception) as info:
        call()
    assert type(info.value) is kind, (type(info.value), str(info.value))
    assert str(info.value) == message


def both_engines():
    return list(load_both())


def played(engine, variant, plies, players=2, seed=3):
    """A game of ``variant`` after ``plies`` moves (first legal move each time)."""
    game = engine.new_game(players, variant, seed)
    for _ in range(plies):
        if game.is_over:
            break
        game.apply(game.legal_actions()[len(game.legal_actions()) // 2])
    return game


# -- 1. pickling: every protocol, every type ---------------------------------------------------

@pytest.mark.parametrize("protocol", PROTOCOLS)
@pytest.mark.parametrize("variant", VARIANTS)
def test_states_pickle_with_every_protocol(engine, variant, protocol):
    for plies in (0, 7, 40):
        state = played(engine, variant, plies)
        back = pickle.loads(pickle.dumps(state, protocol))
        assert type(back) is type(state)
        assert back == state
        assert back.to_text(history=True) == state.to_text(history=True)
        assert back.record() == state.record()


@pytest.mark.parametrize("protocol", PROTOCOLS)
@pytest.mark.parametrize("variant", VARIANTS)
def test_vector_game_pickles_with_every_protocol(engine, variant, protocol):
    vec = engine.VectorGame(3, players=3, variant=variant, seed=11)
    for _ in range(5):
        vec.step(vec.legal_actions[:, 0])
    vec.reset([1])
    back = pickle.loads(pickle.dumps(vec, protocol))
    assert type(back) is type(vec)
    assert (back.n, back.players, back.variant) == (3, 3, variant)
    for name in ("legal_mask", "legal_actions", "num_legal", "current_player", "scores", "done"):
        assert (getattr(back, name) == getattr(vec, name)).all(), name
    assert [back.state(i) for i in range(3)] == [vec.state(i) for i in range(3)]
    # the copy goes on as the original: the same moves, and the same new games on reset
    for _ in range(6):
        vec.step(vec.legal_actions[:, 0])
        back.step(back.legal_actions[:, 0])
    vec.reset([0, 2])
    back.reset([0, 2])
    assert [back.state(i) for i in range(3)] == [vec.state(i) for i in range(3)]
    assert (back.scores == vec.scores).all()
    assert (back.observation_tensors() == vec.observation_tensors()).all()


def test_vector_game_unpickling_checks_the_games(engine):
    vec = engine.VectorGame(2, seed=1)
    func, args = vec.__reduce__()
    n, players, variant, seed, started, games, auto_reset = args
    assert auto_reset is False
    refused(lambda: func(n, players, variant, seed, started, games[:1]), ValueError,
            "VectorGame pickle: 1 games for a vector of 2")
    other = engine.new_game(3, "classic", 5).to_text()
    refused(lambda: func(n, players, variant, seed, started, [games[0], other]), ValueError,
            "VectorGame pickle: game 1 is not a 2-player classic game")
    grey = engine.new_game(2, "grey", 5).to_text()
    refused(lambda: func(n, players, variant, seed, started, [grey, games[1]]), ValueError,
            "VectorGame pickle: game 0 is not a 2-player classic game")
    refused(lambda: func(n, players, variant, seed, -1, games), ValueError,
            "seed must be in 0..2**64-1, got -1")


@pytest.mark.slow
def test_pickle_of_the_cpp_state_runs_in_a_fresh_interpreter():
    # Protocols 0 and 1 used to abort the C++ interpreter (SIGABRT): run them out of process.
    engines = [e.__name__ for e in both_engines()]
    code = textwrap.dedent("""
        import pickle, sys, importlib
        engine = importlib.import_module(sys.argv[1])
        for variant in ("classic", "grey", "summer-pavilion"):
            state = engine.new_game(2, variant, 1)
            vec = engine.VectorGame(2, variant=variant)
            for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
                assert pickle.loads(pickle.dumps(state, protocol)) == state
                assert pickle.loads(pickle.dumps(vec, protocol)).n == 2
        print("ok")
    """)
    for name in engines:
        out = subprocess.run([sys.executable, "-c", code, name], capture_output=True, text=True,
                             timeout=120)
        assert (out.returncode, out.stdout.strip()) == (0, "ok"), out.stderr


# -- 2. no object over uninitialised memory ----------------------------------------------------

def test_states_cannot_be_made_half_way(engine):
    hint = "use azul_engine.new_game(...) or GameState.from_text(text)"
    refused(lambda: engine.GameState.__new__(engine.GameState), TypeError, hint)
    refused(lambda: engine.GameState(), TypeError, hint)
    refused(lambda: engine.GameState(1, x=2), TypeError, hint)
    hint = "use azul_engine.new_game(..., variant='summer-pavilion') or from_text(text)"
    refused(lambda: engine.PavilionState.__new__(engine.PavilionState), TypeError, hint)
    refused(lambda: engine.PavilionState(), TypeError, hint)
    refused(lambda: engine.PavilionState(1), TypeError, hint)
    # nor through a base class's __new__ (the C++ classes' pybind11 base would allocate one)
    for cls in (engine.GameState, engine.PavilionState, engine.VectorGame):
        for base in cls.__mro__[1:-1]:
            with pytest.raises(TypeError, match="is not safe"):
                base.__new__(cls)
            with pytest.raises(TypeError, match="is not safe"):
                base.__new__(cls, 2)


def test_vector_game_new_builds_a_whole_vector(engine):
    V = engine.VectorGame
    refused(lambda: V.__new__(V), TypeError, "VectorGame() missing required argument 'n'")
    refused(lambda: V(), TypeError, "VectorGame() missing required argument 'n'")
    refused(lambda: V(1, 2, "classic", 0, False, 5), TypeError,
            "VectorGame() takes at most 5 arguments (6 given)")
    refused(lambda: V(1, auto_reset=1), TypeError, "auto_reset must be True, False or 'next_step', not int")
    refused(lambda: V(1, auto_reset="same_step"), ValueError, "auto_reset must be True, False or 'next_step', not 'same_step'")
    refused(lambda: V(1, colour=2), TypeError,
            "VectorGame() got an unexpected keyword argument 'colour'")
    refused(lambda: V(1, **{"\ud800": 2}), TypeError,
            "VectorGame() got an unexpected keyword argument '\\ud800'")
    refused(lambda: V(1, 2, players=3), TypeError,
            "VectorGame() got multiple values for argument 'players'")
    assert V(seed=3, n=2, variant="grey", players=3).variant == "grey"
    vec = engine.VectorGame.__new__(engine.VectorGame, 2, seed=4)
    # a whole, working vector: the same as VectorGame(2, seed=4), before and after a step
    ref = engine.VectorGame(2, seed=4)
    assert (vec.legal_mask == ref.legal_mask).all()
    vec.step(vec.legal_actions[:, 0])
    ref.step(ref.legal_actions[:, 0])
    assert [vec.state(i) for i in range(2)] == [ref.state(i) for i in range(2)]
    refused(lambda: engine.VectorGame.__new__(int, 2), TypeError,
            "VectorGame.__new__(X): X is not a subtype of VectorGame")
    # a second __init__ changes nothing
    vec.__init__(5, seed=9)
    assert vec.n == 2 and vec.state(0) == ref.state(0)


# -- 3. limits ---------------------------------------------------------------------------------

def test_playout_limits_are_checked_before_any_work(engine):
    state = engine.new_game(2, "classic", 1)
    for call in (lambda n, t: engine.random_playouts(n, threads=t),
                 lambda n, t: engine.playouts_from(state, n, threads=t)):
        refused(lambda: call(10 ** 12, 1), ValueError,
                "n is too large: 1000000000000 (at most 2**30)")
        refused(lambda: call(2 ** 30 + 1, 1), ValueError,
                "n is too large: 1073741825 (at most 2**30)")
        refused(lambda: call(1, 1025), ValueError, "threads is too large: 1025 (at most 1024)")
        refused(lambda: call(1, 10 ** 30), ValueError,
                "threads is too large: 1000000000000000000000000000000 (at most 1024)")
        refused(lambda: call(-10 ** 30, 1), ValueError,
                "n must be 0 or more, got -1000000000000000000000000000000")
        assert call(2, 1024).shape == (2, 2)  # the limit itself is allowed


def test_vector_game_limit(engine):
    refused(lambda: engine.VectorGame(10 ** 8), ValueError,
            "n is too large: 100000000 (at most 2**18 games)")
    refused(lambda: engine.VectorGame(2 ** 18 + 1, variant="summer-pavilion"), ValueError,
            "n is too large: 262145 (at most 2**18 games)")


# -- 4. every string is safe -------------------------------------------------------------------

BAD_CHARS = ["é", "\ud800", "\udfff", "\U0001f600", "\x00", "\u00a0x"]


@pytest.mark.parametrize("variant", VARIANTS)
def test_non_ascii_in_state_text_names_the_field(engine, variant):
    text = engine.new_game(2, variant, 1).to_text(history=True)
    refused(lambda: engine.from_text(text.replace("center=-", "center=é")), engine.StateFormatError,
            "field center: non-ASCII character 'é' in 'é' (state text is ASCII)")
    refused(lambda: engine.from_text(text.replace("center=-", "center=B\ud800")),
            engine.StateFormatError,
            "field center: non-ASCII character '\\ud800' in 'B\\ud800' (state text is ASCII)")
    refused(lambda: engine.from_text(text.replace("moves=0", "moves=\U0001f600")),
            engine.StateFormatError,
            "field moves: non-ASCII character '\U0001f600' in '\U0001f600' (state text is ASCII)")
    refused(lambda: engine.from_text(text + " caf\xe9=1"), engine.StateFormatError,
            "token 'caf\xe9=1': non-ASCII character '\xe9' (state text is ASCII)")
    refused(lambda: engine.from_text(text + " \udc80"), engine.StateFormatError,
            "token '\\udc80': non-ASCII character '\\udc80' (state text is ASCII)")
    refused(lambda: engine.GameState.from_text(text.replace("rng=", "rng=\ud800")),
            engine.StateFormatError,
            "field rng: non-ASCII character '\\ud800' in %r (state text is ASCII)"
            % ("\ud800" + text.split("rng=")[1].split()[0]))
    # the history's rounds are state text too
    hist = played(engine, variant, 3).to_text(history=True)
    moves_field = [tok for tok in hist.split() if tok.startswith("r1=")][0]
    bad = moves_field[:-1] + "\ud800"
    refused(lambda: engine.from_text(hist.replace(moves_field, bad)), engine.StateFormatError,
            "field r1: non-ASCII character '\\ud800' in %r (state text is ASCII)" % bad[3:])
    refused(lambda: engine.from_text(text.replace("azul-state/1", "azul-state/\ud800")),
            engine.StateFormatError,
            "unsupported state text version 'azul-state/\\ud800' (this engine reads azul-state/1)")


@pytest.mark.parametrize("variant", VARIANTS)
def test_state_text_is_split_on_ascii_white_space_only(engine, variant):
    """Tokens are separated by ASCII white space; a non-ASCII space (which str.split() took as a separator) is a
    non-ASCII character of a token, refused by name as any other."""
    g = played(engine, variant, 5)
    text = g.to_text(history=True)
    for sep in ("\t", "\n", "\r\n", "\x0b", "\x0c", "  \t "):
        assert engine.from_text(text.replace(" ", sep)) == g
    refused(lambda: engine.from_text(text.replace(" seed=", "\u00a0seed=")), engine.StateFormatError,
            "field chance: non-ASCII character '\\xa0' in %r (state text is ASCII)"
            % (text.split("chance=")[1].split()[0] + "\xa0seed=" + text.split("seed=")[1].split()[0]))
    for sep in ("\u00a0", "\u2003", "\u3000", "\u2028", "\x85"):
        with pytest.raises(engine.StateFormatError) as info:
            engine.from_text(text.replace(" ", sep))
        assert str(info.value).startswith("token 'azul-state/1") and "non-ASCII character" in str(info.value)
    for sep in ("\x1c", "\x1f"):  # ASCII, but no white space here
        with pytest.raises(engine.StateFormatError, match="^unsupported state text version 'azul-state/1"):
            engine.from_text(text.replace(" ", sep))


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_nul_or_odd_field_name_is_shown_whole(engine, variant):
    text = engine.new_game(2, variant, 1).to_text()
    refused(lambda: engine.from_text(text + " a\x00b=1"), engine.StateFormatError,
            "unknown field 'a\\x00b'")
    refused(lambda: engine.from_text(text + " =1"), engine.StateFormatError,
            "unknown field ''")
    refused(lambda: engine.from_text(text + " \x01=1 \x01=2"), engine.StateFormatError,
            "field '\\x01' appears twice")
    refused(lambda: engine.from_text(text + " colour=blue"), engine.StateFormatError,
            "unknown field colour")  # a plain name as before


@pytest.mark.parametrize("move", ["1B\ud8001", "1B\ud800", "\ud800", "é", "1\x00B1", "~\udfff",
                                  "\U0001f600"])
@pytest.mark.parametrize("variant", VARIANTS)
def test_non_ascii_moves_are_illegal_moves(engine, variant, move):
    state = engine.new_game(2, variant, 1)
    before = state.to_text(history=True)
    message = "%r is not a move: move notation is ASCII" % move
    if move == "1\x00B1":
        message = ("'1\\x00B1' is not a move: a draft is 3 characters: source (1-9 or C), "
                   "colour (B Y R K W), destination (1-5 or F), as in 3R4")
        if variant == "summer-pavilion":
            with pytest.raises(engine.IllegalMoveError) as info:
                state.apply(move)
            assert str(info.value).startswith("'1\\x00B1' is not a move: ")
            assert state.to_text(history=True) == before
            return
    refused(lambda: state.apply(move), engine.IllegalMoveError, message)
    refused(lambda: state.string_to_action(move), engine.IllegalMoveError, message)
    assert state.to_text(history=True) == before


@pytest.mark.parametrize("variant", VARIANTS)
def test_non_ascii_factories_in_deal(engine, variant):
    state = engine.new_game(2, variant, 1)  # dealt, before the round's first move
    letters = "P G O Y B R" if variant == "summer-pavilion" else "B Y R K W"
    before = state.to_text(history=True)
    for bad, shown in [("é", "'é'"), ("\ud800", "'\\ud800'"), ("\x00", "'\\x00'"),
                       ("\U0001f600", "'\U0001f600'")]:
        factories = ["B" + bad] + [""] * 4
        message = "deal: factory 1: unknown colour %s in %s (colours are %s)" % (
            shown, "'B" + shown[1:], letters)
        if variant == "summer-pavilion":
            factories[0] = "P" + bad
            message = message.replace("'B", "'P")
        refused(lambda: state.deal(factories), engine.IllegalMoveError, message)
        assert state.to_text(history=True) == before
    if variant == "summer-pavilion":
        state = engine.new_game(2, variant, 1, chance="explicit")
        refused(lambda: state.deal_supply("P\ud800"), engine.IllegalMoveError,
                "deal_supply: unknown colour '\\ud800' in 'P\\ud800' (colours are P G O Y B R)")


def test_non_ascii_walls_in_end_bonus(engine):
    rows = ["BYRKW", "WBYRK", "KWBYR", "RKWBY", "YRKW."]
    refused(lambda: engine.end_bonus(rows[:4] + ["YRKW\ud800"]), engine.StateFormatError,
            "wall: wall row 5 has '\\ud800', not a colour or '.'")
    refused(lambda: engine.end_bonus(rows[:4] + ["YRKWé"]), engine.StateFormatError,
            "wall: wall row 5 has 'é', not a colour or '.'")
    refused(lambda: engine.end_bonus(["\U0001f600" + rows[0][1:]] + rows[1:]),
            engine.StateFormatError, "wall: wall row 1 has '\U0001f600', not a colour or '.'")
    # 5 characters are 5 cells, however many bytes their UTF-8 takes
    refused(lambda: engine.end_bonus(rows[:4] + ["YRKééé"[:5]]), engine.StateFormatError,
            "wall: wall row 5 has 'é', not a colour or '.'")
    refused(lambda: engine.end_bonus(rows[:4] + ["YRKé"]), engine.StateFormatError,
            "wall: not 5 rows of 5 cells (colour letters or '.')")
    refused(lambda: engine.end_bonus("/".join(rows[:4]) + "/YRK\x00."), engine.StateFormatError,
            "wall: wall row 5 has '\\x00', not a colour or '.'")
    # str.split(): Unicode white space separates rows as ASCII white space does
    assert engine.end_bonus("\u3000".join(rows)) == engine.end_bonus(rows)
    assert engine.end_bonus("\x1c".join(rows)) == engine.end_bonus(rows)
    refused(lambda: engine.end_bonus(rows, variant="\ud800"), ValueError,
            "unknown variant '\\ud800' (variants with a wall: classic, grey)")


@pytest.mark.parametrize("bad", ["\ud800", "cl\x00assic", "é", "\U0001f600"])
def test_string_arguments(engine, bad):
    shown = repr(bad)
    refused(lambda: engine.new_game(2, bad), ValueError,
            "unknown variant %s (variants: classic, grey, summer-pavilion)" % shown)
    refused(lambda: engine.new_game(2, "classic", 1, bad), ValueError,
            "chance must be 'sampled' or 'explicit', got %s" % shown)
    refused(lambda: engine.observation_shape(2, bad), ValueError,
            "unknown variant %s (variants: classic, grey, summer-pavilion)" % shown)
    refused(lambda: engine.random_playouts(1, 2, bad), ValueError,
            "unknown variant %s (variants: classic, grey, summer-pavilion)" % shown)
    refused(lambda: engine.VectorGame(1, 2, bad), ValueError,
            "unknown variant %s (variants: classic, grey, summer-pavilion)" % shown)


# -- 5. history rounds need the history field --------------------------------------------------

@pytest.mark.parametrize("variant", VARIANTS)
def test_rounds_without_history_are_refused(engine, variant):
    state = played(engine, variant, 3)
    full = state.to_text(history=True)
    rounds = [tok for tok in full.split() if tok.startswith("r1=")]
    assert rounds
    refused(lambda: engine.from_text(state.to_text() + " " + rounds[0]), engine.StateFormatError,
            "field r1: a history round needs the history field")
    refused(lambda: engine.from_text(state.to_text() + " r2=-|-|"), engine.StateFormatError,
            "field r2: a history round needs the history field")
    assert engine.from_text(full) == state  # with the history field they are read as before


# -- 6. uint64 actions keep their value --------------------------------------------------------

@pytest.mark.parametrize("variant", VARIANTS)
def test_big_uint64_actions_are_reported_as_they_are(engine, variant):
    state = engine.new_game(2, variant, 1)
    top = 313 if variant != "summer-pavilion" else 1797
    for value in (2 ** 63, 2 ** 64 - 1, 2 ** 63 + 5):
        refused(lambda: state.apply(np.uint64(value)), engine.IllegalMoveError,
                "action %d is out of range 0-%d" % (value, top))
    vec = engine.VectorGame(3, variant=variant, seed=2)
    before = vec.legal_actions.copy()
    actions = vec.legal_actions[:, 0].astype(np.uint64)
    actions[1] = 2 ** 63
    actions[2] = 2 ** 64 - 1
    refused(lambda: vec.step(actions), engine.IllegalMoveError,
            "game 1: action 9223372036854775808 is out of range 0-%d" % top)
    # a refused move in an earlier game is reported first, as always
    actions[0] = top + 1
    refused(lambda: vec.step(actions), engine.IllegalMoveError,
            "game 0: action %d is out of range 0-%d" % (top + 1, top))
    assert (vec.legal_actions == before).all()  # nothing moved


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_numpy_array_as_a_move_is_named_as_the_engine_names_a_wrong_type(engine, variant):
    """A numpy array of one action has __index__ but refuses it: the engine's TypeError, not numpy's "only
    integer scalar arrays can be converted to a scalar index"; a 0-d array is one action."""
    state = engine.new_game(2, variant, 1)
    action = state.legal_actions()[0]
    for move in (np.array([action]), np.array([[action]]), np.array([], dtype=np.int64)):
        for call in (state.apply, state.action_to_string):
            refused(lambda: call(move), TypeError, "a move is an action id (int) or a notation string, not ndarray")
    assert state.action_to_string(np.array(action)) == state.action_to_string(action)
    move = state.action_to_string(action)  # notation to action_to_string: not "... or a notation string, not str"
    refused(lambda: state.action_to_string(move), TypeError,
            "action_to_string takes an action id (int), not str: string_to_action reads notation")


# -- 7. VectorGame indices ---------------------------------------------------------------------

def test_vector_game_indices(engine):
    vec = engine.VectorGame(2, seed=1)
    state = vec.state(1)
    for bad in (2 ** 40, -2 ** 70, 2, -1):
        refused(lambda: vec.reset([0, bad]), IndexError, "game %d is out of range 0-1" % bad)
        refused(lambda: vec.state(bad), IndexError, "game %d is out of range 0-1" % bad)
    refused(lambda: vec.state("1"), TypeError, "a game index is an int, not str")
    refused(lambda: vec.state(1.0), TypeError, "a game index is an int, not float")
    refused(lambda: vec.state(True), TypeError, "a game index is an int, not bool")
    refused(lambda: vec.state(np.array([1])), TypeError, "a game index is an int, not ndarray")
    assert vec.state(np.int64(1)) == state
    assert vec.state(1) == state  # nothing was reset by the refused calls
    vec.reset([np.int8(1)])
    assert vec.state(1) != state


def test_vector_game_reset_takes_ints_or_a_bool_mask(engine):
    """reset() reads its indices as state(i) reads one (int() turned True into game 1 and "2" into game 2), and
    a numpy bool array of n entries is a mask: reset(vec.done) starts exactly the finished games."""
    vec = engine.VectorGame(3, seed=11)
    before = [vec.state(i) for i in range(3)]
    for bad, name in ((np.array([1.9]), "float64"), ([np.array([1])], "ndarray"), ([1.9], "float"), (["2"], "str"), ("12", "str"),
                      ([True], "bool"), ([np.True_], "bool"), ([0, None], "NoneType")):
        refused(lambda: vec.reset(bad), TypeError, "a game index is an int, not %s" % name)
    for mask, shape in ((np.array([True, False]), "(2,)"), (np.zeros((3, 1), dtype=bool), "(3, 1)"),
                        (np.array(True), "()")):
        refused(lambda: vec.reset(mask), ValueError,
                "a mask of the games to reset is 3 bools (shape (3,)), not shape %s" % shape)
    assert [vec.state(i) for i in range(3)] == before  # the refused calls reset nothing
    vec.reset(np.array([False, False, True]))
    after = [vec.state(i) for i in range(3)]
    assert after[:2] == before[:2] and after[2] != before[2]
    vec.reset(np.array([True, False, False])[::-1])  # any bool array: here a strided view
    assert vec.state(2) != after[2] and vec.state(0) == before[0]


def test_vector_game_arrays_and_attributes_cannot_be_written(engine):
    """The arrays are read-only views of the games' own: their WRITEABLE flag cannot be set back (in the pure
    engine it could, and writing done[0] made step() skip game 0); the attributes are read-only properties."""
    vec = engine.VectorGame(2, seed=1, auto_reset=True)
    for name in ("legal_mask", "legal_actions", "num_legal", "current_player", "scores", "done",
                 "final_scores", "final_returns"):
        array = getattr(vec, name)
        refused(lambda: setattr(array.flags, "writeable", True), ValueError,
                "cannot set WRITEABLE flag to True of this array")
        with pytest.raises(ValueError):
            array[...] = 0
    Probe = type("Probe", (), {})  # what this Python says of a property with no setter nor name (3.10: "can't ...")
    Probe.p = property(lambda self: 0)
    with pytest.raises(AttributeError) as info:
        Probe().p = 1
    # (3.13 names the getter, "property '<lambda>' of ...": the engines' getters are named "".)
    words = str(info.value).replace("Probe", "VectorGame").replace("'<lambda>'", "''")
    for name in ("n", "players", "variant", "auto_reset", "stepped", "done", "scores", "final_scores"):
        refused(lambda: setattr(vec, name, None), AttributeError, words)
    before = vec.scores.copy()
    vec.step(vec.legal_actions[:, 0])
    assert vec.stepped == 2 and vec.scores.shape == before.shape  # the views follow the games
    assert [list(vec.scores[i]) for i in range(2)] == [vec.state(i).scores for i in range(2)]


# -- 8. == is symmetric ------------------------------------------------------------------------

def test_equality_is_symmetric_across_engines_and_types():
    objects = []
    for engine in both_engines():
        objects += [engine.new_game(2, "classic", 1), engine.new_game(2, "summer-pavilion", 1),
                    engine.VectorGame(1, seed=1)]
    objects += [None, 1, "x", object()]
    for a in objects:
        for b in objects:
            assert (a == b) == (b == a), (a, b)
            assert (a != b) == (b != a), (a, b)
            assert (a == b) == (a is b), (a, b)  # no two of these are of one type
    for engine in both_engines():
        for state in (engine.new_game(2, "classic", 1), engine.new_game(2, "summer-pavilion", 1)):
            assert state.__eq__(1) is NotImplemented
            assert state.__eq__(copy.copy(state)) is True
            other = [e for e in both_engines() if e is not engine][0]
            assert state.__eq__(other.from_text(state.to_text())) is NotImplemented
            assert hash(state) == hash(other.from_text(state.to_text())) == hash(state.key())


def test_python_messages_name_the_classes_alike(engine):
    # Python's own messages use the short class name in both engines (C++: not the dotted one).
    for state in (engine.new_game(2, "classic", 1), engine.new_game(2, "summer-pavilion", 1)):
        name = type(state).__name__
        refused(lambda: state < state, TypeError,
                "'<' not supported between instances of '%s' and '%s'" % (name, name))
        refused(lambda: state.no_such_thing, AttributeError,
                "'%s' object has no attribute 'no_such_thing'" % name)
        assert type(state).__module__.startswith("azul_engine._")  # repr keeps the module
        assert repr(type(state)) == "<class '%s.%s'>" % (type(state).__module__, name)


# -- 9. deal() argument types ------------------------------------------------------------------

@pytest.mark.parametrize("variant", VARIANTS)
def test_deal_argument_types(engine, variant):
    state = engine.new_game(2, variant, 1)  # dealt, before the round's first move
    before = state.to_text(history=True)
    for bad, name in [(None, "NoneType"), (5, "int"), (1.5, "float"), (object(), "object")]:
        refused(lambda: state.deal(bad), engine.IllegalMoveError,
                "deal: factories are a list of 5 factory strings, not %s" % name)
    refused(lambda: state.deal("BBBB"), engine.IllegalMoveError,
            "deal: 2 players need 5 factory strings")
    refused(lambda: state.deal([None] * 5), engine.IllegalMoveError,
            "deal: factory 1 is not a string")
    refused(lambda: state.deal(iter(["", "", "", "", 7])), engine.IllegalMoveError,
            "deal: factory 5 is not a string")
    assert state.to_text(history=True) == before
    # the phase is checked first, whatever the argument
    started = engine.new_game(2, variant, 1)
    started.apply(started.legal_actions()[0])
    refused(lambda: started.deal(None), engine.IllegalMoveError,
            "deal: factories can only be dealt before the round's first move")
    if variant == "summer-pavilion":
        refused(lambda: state.deal_supply(None), engine.IllegalMoveError,
                "deal_supply: tiles are a string of colour letters, not NoneType")


# -- 10. public error names --------------------------------------------------------------------

def test_errors_have_the_public_module_name(engine):
    for cls in (azul_engine.AzulError, azul_engine.IllegalMoveError, azul_engine.StateFormatError):
        assert cls.__module__ == "azul_engine"
        assert repr(cls) == "<class 'azul_engine.%s'>" % cls.__name__
    assert engine.IllegalMoveError is azul_engine.IllegalMoveError
    assert engine.StateFormatError is azul_engine.StateFormatError
    with pytest.raises(azul_engine.IllegalMoveError) as info:
        engine.new_game(2, "classic", 7).apply("9B1")
    error = info.value
    back = pickle.loads(pickle.dumps(error))
    assert type(back) is azul_engine.IllegalMoveError and str(back) == str(error)
    assert "azul_engine.IllegalMoveError: " in "".join(
        traceback.format_exception_only(type(error), error))


def test_errors_print_their_public_name_in_a_traceback():
    code = "import azul_engine as az; az.new_game(2, 'classic', 7).apply('9B1')"
    for backend in ["python", "cpp"][:len(both_engines())]:
        env = dict(os.environ, AZUL_BACKEND=backend)
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                             env=env, timeout=60)
        assert out.returncode == 1
        assert out.stderr.strip().splitlines()[-1].startswith("azul_engine.IllegalMoveError: ")


# -- the same answer to odd text, both engines -------------------------------------------------

ODD = ["é", "\ud800", "\udfff", "\x00", "\U0001f600", "\u3000", "\xa0", "\x1c", "\x85", "\u2028",
       "=", ":", "/", ",", "|", "-", " ", "\n", "B", "P", "1"]


def outcome(call):
    try:
        result = call()
    except Exception as error:  # the type and message are what must agree
        return type(error), str(error)
    return "ok", result.to_text(history=True) if hasattr(result, "to_text") else repr(result)


def test_odd_characters_get_the_same_answer_from_both_engines():
    # A small mutation fuzz of state text, moves, deals and walls with the characters that broke
    # the C++ engine (non-ASCII, lone surrogates, NUL, Unicode white space): same type, same text.
    py, cpp = both_engines()
    rng = random.Random(10)
    texts = []
    for variant in VARIANTS:
        texts.append(played(py, variant, 12, seed=5).to_text(history=True))
    for _ in range(300):
        chars = list(rng.choice(texts))
        for _ in range(rng.randint(1, 3)):
            i = rng.randrange(len(chars))
            if rng.random() < 0.6:
                chars.insert(i, rng.choice(ODD))
            else:
                chars[i] = rng.choice(ODD)
        text = "".join(chars)
        assert outcome(lambda: py.from_text(text)) == outcome(lambda: cpp.from_text(text)), text
        move = "".join(rng.choice(ODD + list("CW~RKF5+G")) for _ in range(rng.randint(0, 5)))
        factories = ["".join(rng.choice(ODD) for _ in range(rng.randint(0, 3))) for _ in range(5)]
        for variant in ("classic", "summer-pavilion"):
            for method in ("apply", "string_to_action"):
                assert (outcome(lambda: getattr(py.new_game(2, variant, 1), method)(move))
                        == outcome(lambda: getattr(cpp.new_game(2, variant, 1), method)(move))), move
            assert (outcome(lambda: py.new_game(2, variant, 1).deal(factories))
                    == outcome(lambda: cpp.new_game(2, variant, 1).deal(factories))), factories
        wall = "".join(rng.choice(ODD + list("YRKW.") * 3) for _ in range(rng.randint(20, 32)))
        assert outcome(lambda: py.end_bonus(wall)) == outcome(lambda: cpp.end_bonus(wall)), wall
