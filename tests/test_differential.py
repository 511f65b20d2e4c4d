"""Differential property-based test: the pure-Python and the C++ engine stepped in lockstep by hypothesis.

A ``RuleBasedStateMachine`` starts the same game in both engines (every variant, 2-4 players, sampled or explicit
chance) and applies the same random inputs to both: legal moves (ids and notation, and long runs of the moves a
player would choose, which reach the game's end and Summer Pavilion's bonus phase), illegal ids (negative, huge,
numpy integers of every width), notation strings (legal ones mangled, random text with non-ASCII characters, NUL
and lone surrogates, other variants' notation), wrong types, moves after the end, explicit chance outcomes,
``deal()`` / ``deal_supply()`` with good and bad factories, ``reseed()``, queries, and clone / copy / deepcopy /
pickle (every protocol) / ``to_text`` / ``from_text`` round trips (also across the engines). Every call must give
the same result in both engines, or the same exception type with the same message; a refused call must leave the
state unchanged (``to_text(history=True)`` and ``==``); after every step both states must be equal.

Runs: the default is a bounded, derandomized run (about 20 s here). A long run, with fresh random examples:

    AZUL_FUZZ_EXAMPLES=100000 .venv/bin/python -m pytest tests/test_differential.py -q

(``AZUL_FUZZ_STEPS`` sets the steps per example, default 30.) A failure prints the shortest sequence of steps
that reproduces it. Symptoms of the defects listed in fuzz_support.KNOWN_DEFECTS are tolerated until those
are fixed.
"""

import copy
import os
import pickle

import numpy as np
import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from fuzz_support import VARIANTS, compare, load_both, norm, run
from helpers import Picker

# The whole module is long (pytest -m 'not slow' leaves it out; CI runs it).
pytestmark = pytest.mark.slow

PY, CPP = load_both()

_LONG = int(os.environ.get("AZUL_FUZZ_EXAMPLES", "0") or 0)
settings.register_profile(
    "azul-default", max_examples=60, stateful_step_count=int(os.environ.get("AZUL_FUZZ_STEPS", "30")),
    deadline=None, derandomize=True, database=None, suppress_health_check=list(HealthCheck))
settings.register_profile(
    "azul-long", max_examples=max(_LONG, 1), stateful_step_count=int(os.environ.get("AZUL_FUZZ_STEPS", "30")),
    deadline=None, suppress_health_check=list(HealthCheck))
PROFILE = settings.get_profile("azul-long" if _LONG else "azul-default")

# Characters that notation never uses next to the ones it does: non-ASCII, full-width, NUL, lone surrogates.
ODD_CHARS = ["\x00", "\x7f", " ", "\t", "é", "ß", "\u00a0", "\u2603", "\uff22", "\U0001f600", "\ud800", "\udfff",
             "\ufeff", "٣"]
NOTATION_CHARS = list("0123456789CFWBYRKWPGO~+-")
CHARS = st.sampled_from(NOTATION_CHARS + ODD_CHARS)
OTHER_NOTATION = ["1B1", "CBF", "W24", "W11", "~B", "~0", "~4", "~P", "~BR", "1R", "CG", "R3R1", "O1P0", "+G",
                  "-", "-GRR", "-PPPPP", "C", "", "10B1", "0B1", "1B6", "1BFF", "9W5", "CMF"]
NUMPY_INTS = (np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64)


def numpy_int(draw_value, dtype):
    info = np.iinfo(dtype)
    return dtype(min(max(draw_value, info.min), info.max))


ACTION_IDS = st.one_of(
    st.integers(-20, 1820),
    st.integers(-2 ** 70, 2 ** 70),
    st.sampled_from([2 ** 31 - 1, 2 ** 31, 2 ** 32, 2 ** 63 - 1, 2 ** 63, 2 ** 64 - 1, 2 ** 64, -2 ** 63 - 1]),
    st.builds(numpy_int, st.integers(-2 ** 64, 2 ** 64), st.sampled_from(NUMPY_INTS)),
)
WRONG_TYPES = st.one_of(
    st.sampled_from([None, True, False, b"1B1", bytearray(b"1B1"), [0], (0,), {0: 1}, {0}, 1j, object(),
                     np.float64(3.0), np.array([3]), np.bool_(True), "1B1".encode("utf-16")]),
    st.floats(allow_nan=True, allow_infinity=True),
)
SEEDS = st.one_of(st.integers(0, 2 ** 64 - 1), st.integers(-2 ** 70, 2 ** 70),
                  st.builds(numpy_int, st.integers(0, 2 ** 64), st.sampled_from(NUMPY_INTS)),
                  st.sampled_from([None, 1.5, "7", True]))


def mangle(data, text):
    """``text`` with one random edit: a character replaced, inserted, deleted or duplicated."""
    chars = list(text)
    kind = data.draw(st.sampled_from(["replace", "insert", "delete", "double", "case"]))
    at = data.draw(st.integers(0, max(len(chars) - 1, 0)))
    if kind == "insert" or not chars:
        chars.insert(at, data.draw(CHARS))
    elif kind == "replace":
        chars[at] = data.draw(CHARS)
    elif kind == "delete":
        del chars[at]
    elif kind == "double":
        chars.insert(at, chars[at])
    else:
        chars[at] = chars[at].swapcase()
    return "".join(chars)


PHASES_SEEN = set()  # (variant, phase) pairs the machine reached: a coverage check below


class Differential(RuleBasedStateMachine):
    """Both engines in lockstep; ``self.a`` is pure Python, ``self.b`` C++."""

    VARIANTS = VARIANTS

    @initialize(data=st.data(), players=st.integers(2, 4), seed=st.integers(0, 2 ** 64 - 1),
                explicit=st.booleans(), warm_up=st.integers(0, 150))
    def start(self, data, players, seed, explicit, warm_up):
        """The same game in both engines, ``warm_up`` moves into it (so that examples start anywhere from
        the first move to after the end)."""
        variant = data.draw(st.sampled_from(self.VARIANTS), label="variant")
        chance = "explicit" if explicit else "sampled"
        self.a = PY.new_game(players, variant, seed, chance)
        self.b = CPP.new_game(players, variant, seed, chance)
        PHASES_SEEN.add((variant, self.a.phase))
        if warm_up:
            self.play_like_a_player(seed % 2 ** 32, warm_up)

    # -- calling both ----------------------------------------------------------------------------------------

    def both(self, method, *args, mutates=False):
        """Call ``method(*args)`` on both states: the same outcome, and a refusal changes nothing."""
        before = [(s.to_text(history=True), s.clone()) for s in (self.a, self.b)] if mutates else None
        outcomes = [run(lambda s=s: getattr(s, method)(*args)) for s in (self.a, self.b)]
        compare(method, args, *outcomes)
        if mutates:
            for state, outcome, (text, clone) in zip((self.a, self.b), outcomes, before):
                if outcome[0] == "raise":
                    assert state.to_text(history=True) == text, "refused %s%r changed the state" % (method, args)
                    assert state == clone
        return outcomes[0]

    def both_fn(self, what, fn):
        outcomes = [run(lambda s=s: fn(s)) for s in (self.a, self.b)]
        compare(what, (), *outcomes)
        return outcomes[0]

    def apply_both(self, move):
        self.a.apply(move)
        self.b.apply(move)

    @invariant()
    def same_state(self):
        if not hasattr(self, "a"):
            return
        PHASES_SEEN.add((self.a.variant, self.a.phase))
        text = self.a.to_text(history=True)
        assert text == self.b.to_text(history=True)
        assert self.a.legal_actions() == self.b.legal_actions(), text
        assert (self.a == self.b) == (self.b == self.a)

    # -- legal play ------------------------------------------------------------------------------------------

    @precondition(lambda self: not self.a.is_over)
    @rule(index=st.integers(0, 10 ** 6), as_text=st.booleans())
    def play_legal(self, index, as_text):
        actions = self.a.legal_actions()
        move = actions[index % len(actions)]
        if as_text:
            move = self.both("action_to_string", move)[1]
        outcome = self.both("apply", move)
        assert outcome[0] == "ok", "legal move %r refused: %r" % (move, outcome)

    @precondition(lambda self: not self.a.is_over)
    @rule(seed=st.integers(0, 2 ** 32), steps=st.integers(1, 120))
    def play_on(self, seed, steps):
        self.play_like_a_player(seed, steps)

    def play_like_a_player(self, seed, steps):
        """A run of moves a player might choose (placements and pattern lines preferred): reaches the end of
        the game, completed ornaments and so Summer Pavilion's bonus phase."""
        pick = Picker(seed)
        for _ in range(steps):
            if self.a.is_over:
                break
            PHASES_SEEN.add((self.a.variant, self.a.phase))
            moves = self.a.legal_moves()
            assert moves == self.b.legal_moves()
            self.apply_both(pick.likely_move(moves))
            assert self.a.to_text() == self.b.to_text()

    @rule(index=st.integers(0, 10 ** 6))
    def chance(self, index):
        outcome = self.both("chance_outcomes")
        if outcome[0] == "ok":
            outcomes = self.a.chance_outcomes()
            assert abs(sum(p for _, p in outcomes) - 1.0) < 1e-9
            outcome = self.both("apply", outcomes[index % len(outcomes)][0])
            assert outcome[0] == "ok", "chance outcome refused: %r" % (outcome,)
        else:
            assert not self.a.is_chance_node

    # -- illegal and odd input -------------------------------------------------------------------------------

    @rule(action=ACTION_IDS)
    def apply_id(self, action):
        self.both("apply", action, mutates=True)

    @rule(data=st.data())
    def apply_text(self, data):
        moves = self.a.legal_moves()
        text = data.draw(st.one_of(
            st.sampled_from(moves) if moves else st.just("1B1"),
            st.sampled_from(OTHER_NOTATION),
            st.text(CHARS, max_size=8),
        ))
        for _ in range(data.draw(st.integers(0, 3))):
            text = mangle(data, text)
        self.both("apply", text, mutates=True)
        self.both("string_to_action", text)

    @rule(value=WRONG_TYPES)
    def apply_wrong_type(self, value):
        self.both("apply", value, mutates=True)
        self.both("action_to_string", value)
        self.both("string_to_action", value)

    @rule(action=ACTION_IDS)
    def action_to_string(self, action):
        self.both("action_to_string", action)

    @rule(player=st.one_of(st.integers(-3, 6), st.sampled_from([None, 2 ** 64, "0", 1.0, np.int64(1)])))
    def queries(self, player):
        for name in ("legal_moves", "legal_action_mask", "score_sheet", "record_json", "record", "__str__",
                     "__repr__"):
            self.both(name)
        if self.a.variant != "summer-pavilion":
            self.both("score_if_round_ended")
        self.both("observation_tensor", player)
        self.both_fn("properties", lambda s: {k: getattr(s, k) for k in (
            "players", "variant", "seed", "round", "phase", "current_player", "starting_player", "is_over",
            "is_chance_node", "scores", "winners", "factories", "center", "bag", "lid", "first_player_marker",
            "moves_this_round")})

    @rule(seed=SEEDS)
    def reseed(self, seed):
        self.both("reseed", seed, mutates=True)

    @rule(data=st.data())
    def deal(self, data):
        factories = list(self.a.factories)
        arg = data.draw(st.one_of(
            st.just(factories),                                           # what it has: accepted when dealable
            st.permutations(factories),
            st.lists(st.text(CHARS, max_size=5), max_size=10),
            st.builds(lambda fs, i, t: fs[:i] + [t] + fs[i + 1:], st.just(factories),
                      st.integers(0, max(len(factories) - 1, 0)), st.text(CHARS, max_size=5)),
            st.just(factories[:-1]), st.just(factories + ["B"]), st.just(tuple(factories)),
            WRONG_TYPES, st.text(CHARS, max_size=5),
        ))
        self.both("deal", arg, mutates=True)

    @precondition(lambda self: self.a.variant == "summer-pavilion")
    @rule(tiles=st.one_of(st.text(st.sampled_from(list("PGOYBR") + ODD_CHARS), max_size=12), WRONG_TYPES))
    def deal_supply(self, tiles):
        self.both("deal_supply", tiles, mutates=True)

    @rule(players=st.one_of(st.integers(0, 5), st.sampled_from([np.int64(2), 2.0, None, "2"])),
          variant=st.one_of(st.sampled_from(VARIANTS + ("Classic", "summer_pavilion", "")), st.text(CHARS, max_size=4)),
          seed=SEEDS, chance=st.sampled_from(["sampled", "explicit", "Sampled", "", None, "\ud800"]))
    def new_game_arguments(self, players, variant, seed, chance):
        if seed is None:
            seed = 0  # None draws from the OS: different games, not a fair comparison
        outcomes = [run(lambda e=e: e.new_game(players, variant, seed, chance)) for e in (PY, CPP)]
        compare("new_game", (players, variant, seed, chance), *outcomes)

    # -- copies and text -------------------------------------------------------------------------------------

    @rule(kind=st.sampled_from(["clone", "copy", "deepcopy", "text", "history", "cross-text", "pickle"]),
          protocol=st.integers(0, pickle.HIGHEST_PROTOCOL), keep=st.booleans())
    def round_trip(self, kind, protocol, keep):
        """A copy must equal its original, have the same text, and play on as the original would (``keep``
        goes on with the copies)."""
        copies = [self.copy(s, kind, protocol, engine) for s, engine in ((self.a, CPP), (self.b, PY))]
        for original, dup in zip((self.a, self.b), copies):
            assert dup == original and original == dup
            history = kind != "text"  # to_text() alone leaves the history out, by design
            assert dup.to_text(history=history) == original.to_text(history=history)
            assert dup.legal_actions() == original.legal_actions()
        if keep:
            self.a, self.b = copies

    @staticmethod
    def copy(state, kind, protocol, other_engine):
        if kind == "clone":
            return state.clone()
        if kind == "copy":
            return copy.copy(state)
        if kind == "deepcopy":
            return copy.deepcopy(state)
        if kind == "pickle":
            return pickle.loads(pickle.dumps(state, protocol))
        if kind == "cross-text":  # read by the other engine, then back by this one
            other = other_engine.from_text(state.to_text(history=True))
            return type(state).from_text(other.to_text(history=True))
        return type(state).from_text(state.to_text(history=kind == "history"))

    @rule(data=st.data(), history=st.booleans())
    def from_mangled_text(self, data, history):
        text = self.a.to_text(history=history)
        for _ in range(data.draw(st.integers(1, 3))):
            text = mangle(data, text)
        for read in ("from_text",):
            outcomes = [run(lambda e=e: e.from_text(text)) for e in (PY, CPP)]
            compare(read, (text,), *outcomes)


class Vector(RuleBasedStateMachine):
    """Both engines' VectorGame in lockstep: steps with legal actions in every integer dtype, bad actions,
    wrong shapes and types, resets and state(i) with good and bad indices, observations."""

    ARRAYS = ("legal_mask", "legal_actions", "num_legal", "current_player", "scores", "done")

    @initialize(n=st.integers(1, 6), players=st.integers(2, 4), variant=st.sampled_from(VARIANTS),
                seed=st.integers(0, 2 ** 64 - 1))
    def start(self, n, players, variant, seed):
        self.n = n
        self.a, self.b = PY.VectorGame(n, players, variant, seed), CPP.VectorGame(n, players, variant, seed)

    def arrays(self, vec):
        return [norm(np.array(getattr(vec, k))) for k in self.ARRAYS]

    @invariant()
    def same_arrays(self):
        if hasattr(self, "a"):
            assert self.arrays(self.a) == self.arrays(self.b)

    def both(self, method, *args, mutates=True):
        before = self.arrays(self.a) if mutates else None
        outcomes = [run(lambda v=v: getattr(v, method)(*args)) for v in (self.a, self.b)]
        compare("VectorGame." + method, args, *outcomes)
        if mutates and outcomes[0][0] == "raise":
            assert self.arrays(self.a) == before and self.arrays(self.b) == before, "refused %s changed" % method
        return outcomes[0]

    def legal_choice(self, data):
        out = []
        for i in range(self.n):
            count = int(self.a.num_legal[i])
            out.append(int(self.a.legal_actions[i, data.draw(st.integers(0, count - 1))]) if count else 0)
        return out

    @rule(data=st.data(), dtype=st.sampled_from([None, "int16", "int32", "int64", "uint16", "uint32", "uint64",
                                                  "intp"]), steps=st.integers(1, 20))
    def step_legal(self, data, dtype, steps):
        for _ in range(steps):
            actions = self.legal_choice(data)
            self.both("step", actions if dtype is None else np.array(actions, dtype=dtype), mutates=False)

    @rule(data=st.data(), bad=ACTION_IDS, dtype=st.sampled_from(["int64", "uint64", "int8", "int32", "object"]))
    def step_bad_action(self, data, bad, dtype):
        actions = self.legal_choice(data)
        actions[data.draw(st.integers(0, self.n - 1))] = int(bad)
        try:
            array = np.array(actions, dtype=dtype)
        except OverflowError:
            array = np.array(actions, dtype=object)
        self.both("step", array)

    @rule(value=st.one_of(WRONG_TYPES, st.sampled_from(["bad-shape", "2d", "float", "empty", "long", "str"])))
    def step_wrong_shape(self, value):
        actions = np.zeros(self.n, dtype=np.int64)
        shaped = {"bad-shape": actions[:-1], "2d": actions.reshape(1, -1), "float": actions.astype(float),
                  "empty": np.array([]), "long": np.zeros(self.n + 1, dtype=np.int64),
                  "str": np.array(["0"] * self.n)}
        self.both("step", shaped.get(value, value) if isinstance(value, str) else value)

    @rule(indices=st.one_of(st.none(), st.lists(st.integers(-3, 8), max_size=6),
                            st.lists(st.sampled_from([2 ** 31, 2 ** 40, -2 ** 40, 2 ** 64]), min_size=1, max_size=2),
                            st.builds(lambda xs: np.array(xs, dtype=np.int64), st.lists(st.integers(0, 5))),
                            st.sampled_from([5, "0", [0.0], [None], [True]])))
    def reset(self, indices):
        self.both("reset", *(() if indices is None else (indices,)))

    @rule(i=st.one_of(st.integers(-3, 8), st.sampled_from([2 ** 31, 2 ** 40, -2 ** 40, 2 ** 64, np.int64(0),
                                                           np.uint8(0), 0.0, None, "0", True])))
    def state(self, i):
        self.both("state", i, mutates=False)

    @rule()
    def observations(self):
        self.both("observation_tensors", mutates=False)


class Classic(Differential):
    VARIANTS = ("classic",)


class Grey(Differential):
    VARIANTS = ("grey",)


class Pavilion(Differential):
    VARIANTS = ("summer-pavilion",)


# One run per variant, so that each gets its share of examples.
TestClassic, TestGrey, TestPavilion = Classic.TestCase, Grey.TestCase, Pavilion.TestCase
TestVector = Vector.TestCase
for _case in (TestClassic, TestGrey, TestPavilion, TestVector):
    _case.settings = PROFILE
del _case  # a module-level TestCase under any name would be collected (and run) once more


def test_the_machine_reached_every_phase():
    """Coverage of the run above (same module, so it runs after it): every phase of every variant, Summer
    Pavilion's bonus phase included, was visited at least once."""
    if not PHASES_SEEN:
        pytest.skip("runs only after the machines above")
    wanted = {(v, p) for v in ("classic", "grey") for p in ("first-player", "fill", "offer", "over")}
    wanted |= {("grey", "tiling")}
    wanted |= {("summer-pavilion", p) for p in ("first-player", "fill", "acquire", "play", "bonus", "over")}
    assert wanted <= PHASES_SEEN, sorted(wanted - PHASES_SEEN)
