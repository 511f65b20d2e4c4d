"""What the differential and mutation fuzz tests share (test_differential.py, test_mutation_fuzz.py,
test_corpus.py): loading both engines, one comparable "outcome" of a call, and the list of defects that issue 10
names and other branches fix, so that the fuzzers tolerate exactly those symptoms, and nothing else, until
they are fixed.

When a defect below is fixed and merged: delete its entry from KNOWN_DEFECTS (the fuzzers then fail on it again)
and the "known_defect" key of its corpus files in tests/corpus/ (test_corpus.py marks those cases
xfail(strict=True), so a fixed one shows up as XPASS, a failure, until its key is removed).
AZUL_FUZZ_ALL=1 ignores the list (every tolerated symptom becomes a failure).
"""

import os

import numpy as np

from helpers import load_both  # noqa: F401  (re-exported: test_differential, test_corpus)

VARIANTS = ("classic", "grey", "summer-pavilion")

# Disagreements still open (issue 10's were all fixed on main): name -> what.
KNOWN_DEFECTS = {}
if os.environ.get("AZUL_FUZZ_ALL") == "1":
    KNOWN_DEFECTS = {}


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


def known(name, condition):
    """``name`` if that defect is still listed and ``condition`` holds, else None."""
    return name if name in KNOWN_DEFECTS and condition else None


def tolerated(method, args, a, b):
    """The known defect explaining why the pure outcome ``a`` and the C++ outcome ``b`` of ``method(*args)``
    differ, or None. Only the exact symptoms listed are tolerated (issue 10's, all fixed now, were: C++ cast
    errors on non-ASCII and lone surrogates, deal(None), pickle protocols 0-1, VectorGame indices and uint64
    actions, half-made objects, records' deep nesting and empty files, unhashable-type messages)."""
    return None


def compare(method, args, a, b):
    """Fail unless the two outcomes agree (or differ only by a known defect); returns the defect's name or None."""
    if a == b:
        return None
    defect = tolerated(method, args, a, b)
    if defect is None:
        raise AssertionError("engines disagree on %s%r:\n  python: %s\n  cpp:    %s"
                             % (method, tuple(args), show(a), show(b)))
    return defect
