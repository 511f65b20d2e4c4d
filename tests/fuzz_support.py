"""What the differential and mutation fuzz tests share (test_differential.py, test_mutation_fuzz.py,
test_corpus.py): loading both engines, one comparable "outcome" of a call, and the list of defects that issue 10
names and other branches are fixing, so that the fuzzers tolerate exactly those symptoms, and nothing else, until
they are fixed.

When a defect below is fixed and merged: delete its entry from KNOWN_DEFECTS (the fuzzers then fail on it again)
and the "known_defect" key of its corpus files in tests/corpus/ (test_corpus.py marks those cases
xfail(strict=True), so a fixed one shows up as XPASS, a failure, until its key is removed).
AZUL_FUZZ_ALL=1 ignores the list (every tolerated symptom becomes a failure; pickle protocols 0 and 1 of the C++
engine then abort the interpreter while that defect is open).
"""

import os

import numpy as np
import pytest

import azul_engine
from helpers import cpp_required

VARIANTS = ("classic", "grey", "summer-pavilion")

# Issue 10 items being fixed on the branches "inputs" and "cli" (and one found by these checks): name -> what.
KNOWN_DEFECTS = {
    "pickle-protocol-0-1": "issue 10: pickle.dumps(state, 0 or 1) aborts on C++ GameState, PavilionState, VectorGame",
    "pickle-vector": "issue 10 (pickling the same in both engines for all three types): the C++ VectorGame "
                     "refuses pickle protocols 2-5 (TypeError) where the pure one pickles",
    "empty-audit": "issue 10: the audit of an empty file says '0 records agree' with status 0",
    "strings": "issue 10: non-ASCII characters and lone surrogates raise UnicodeDecodeError or "
               "'RuntimeError: Unable to cast' from the C++ engine (from_text fields, deal, apply, records), "
               "or another message than the pure engine's",
    "deal-types": "issue 10: deal(None) and other non-lists raise different types in the two engines",
    "record-nesting": "issue 10: a record line of deeply nested brackets raises RecursionError out of "
                      "records.iter_file",
    "vector-index": "issue 10: VectorGame.reset([2**40]) and state(2**40) raise different types",
    "uint64-action": "issue 10: a uint64 action of 2**63 or more is reported as negative by the C++ engine",
    "history-rounds": "issue 10: from_text silently drops r1=... round fields when history= is missing",
    "new-uninitialised": "issue 10: GameState.__new__(GameState) gives an object that crashes on use",
    "vector-arg-types": "found by these checks (not in issue 10's list): VectorGame.state(i) with i not an int "
                        "(0.0, None, '0'): TypeError in both engines, but pybind11's 'state(): incompatible "
                        "function arguments ...' in C++ and another message in Python",
    "hash-message": "found by these checks (not in issue 10's list): hash(state) raises TypeError "
                    "\"unhashable type: 'GameState'\" in Python but \"unhashable type: "
                    "'azul_engine._cppengine.GameState'\" in C++",
}
if os.environ.get("AZUL_FUZZ_ALL") == "1":
    KNOWN_DEFECTS = {}


def load_both():
    py = azul_engine.load_backend("python")
    try:
        cpp = azul_engine.load_backend("cpp")
    except ImportError as exc:
        if cpp_required():
            pytest.fail("the C++ engine is required here but cannot be imported: %s" % exc, pytrace=False)
        pytest.skip("C++ engine not built: %s" % exc)
    return py, cpp


def is_state(value):
    return hasattr(value, "legal_actions") and hasattr(value, "to_text")


def norm(value):
    """A value made comparable across the engines: arrays by dtype, shape and contents, states by their text."""
    if isinstance(value, np.ndarray):
        return ("ndarray", value.dtype.str, value.shape, value.tolist())
    if is_state(value):
        return ("state", type(value).__name__, value.to_text(history=True))
    if isinstance(value, (list, tuple)):
        return (type(value).__name__, [norm(v) for v in value])
    if isinstance(value, dict):
        return ("dict", sorted((k, norm(v)) for k, v in value.items()))
    if isinstance(value, float):
        return ("float", repr(value))
    return value


def run(fn):
    """``("ok", value)`` or ``("raise", exception type, message)``: what calling ``fn()`` gives."""
    try:
        value = fn()
    except Exception as exc:  # noqa: BLE001 -- every error is an outcome to compare; Ctrl-C is not caught
        return ("raise", type(exc), str(exc))
    return ("ok", norm(value))


def show(outcome):
    if outcome[0] == "raise":
        return "%s: %s" % (outcome[1].__name__, outcome[2][:300])
    return "returned %r" % (outcome[1],)


def non_ascii(value):
    """Whether any string inside ``value`` (nested lists, tuples, dicts) has a character past ASCII."""
    if isinstance(value, str):
        return not value.isascii()
    if isinstance(value, (list, tuple)):
        return any(non_ascii(v) for v in value)
    if isinstance(value, dict):
        return any(non_ascii(k) or non_ascii(v) for k, v in value.items())
    return False


def _cast_failure(outcome):
    return outcome[0] == "raise" and (
        issubclass(outcome[1], UnicodeError)
        or (outcome[1] is RuntimeError and outcome[2].startswith("Unable to cast Python instance")))


def known(name, condition):
    """``name`` if that defect is still listed and ``condition`` holds, else None."""
    return name if name in KNOWN_DEFECTS and condition else None


def tolerated(method, args, a, b):
    """The known defect explaining why the pure outcome ``a`` and the C++ outcome ``b`` of ``method(*args)``
    differ, or None. Only the exact symptoms the issue describes are tolerated."""
    # The item covers any disagreement on such input (the C++ engine also counts UTF-8 bytes where the
    # pure one counts characters, so messages differ even where both raise StateFormatError).
    if known("strings", non_ascii(args) and not _cast_failure(a)):
        return "strings"
    if method == "deal" and args and not isinstance(args[0], (list, tuple)):
        return known("deal-types", a[0] == b[0] == "raise" and a[1] is not b[1])
    both_raise = a[0] == b[0] == "raise"
    if method in ("VectorGame.reset", "VectorGame.state") and both_raise and a[1] is not b[1]:
        return known("vector-index", any(abs(int(v)) >= 2 ** 31 for v in _ints(args)))
    if method == "VectorGame.state" and both_raise and a[1] is b[1] is TypeError:
        return known("vector-arg-types", b[2].startswith("state(): incompatible function arguments"))
    if method == "VectorGame.step" and both_raise and a[1] is b[1]:
        array = args[0] if args else None
        return known("uint64-action", isinstance(array, np.ndarray) and array.dtype == np.uint64
                     and bool((array >= 2 ** 63).any()))
    return None


def _ints(value):
    if isinstance(value, (bool, np.bool_)):
        return
    if isinstance(value, (int, np.integer)):
        yield value
    elif isinstance(value, (list, tuple, np.ndarray)):
        for v in value:
            yield from _ints(v)


def compare(method, args, a, b):
    """Fail unless the two outcomes agree (or differ only by a known defect); returns the defect's name or None."""
    if a == b:
        return None
    defect = tolerated(method, args, a, b)
    if defect is None:
        raise AssertionError("engines disagree on %s%r:\n  python: %s\n  cpp:    %s"
                             % (method, tuple(args), show(a), show(b)))
    return defect
