"""Regression corpus: inputs that once crashed or split the engines, one JSON file per input in tests/corpus/.

Each file is an object with ``kind`` (what to do with ``input``), ``about`` (what went wrong) and optionally
``expect`` (the exception type both engines must raise) and ``known_defect`` (a key of
fuzz_support.KNOWN_DEFECTS: the case is marked xfail(strict=True) until that defect is fixed; then delete the
key). Strings are JSON strings, so lone surrogates are written ``"\\ud800"``. Kinds:

- ``from_text``: ``input`` is state text; both engines give the same outcome (``expect``: its error type).
- ``record_line``: ``input`` is one line of a .jsonl file; ``records.iter_file`` reads it without raising,
  ``records.audit`` gives the same findings in both engines, and ``azul-engine audit`` prints the same lines
  with both backends and exits with status 1 (a finding).
- ``call``: ``input`` is ``{"state": new_game kwargs, "moves": [...], "method": name, "args": [...]}`` (a method
  of that state), ``{"vector": VectorGame kwargs, "method", "args"}`` or ``{"function": name, "args": [...],
  "kwargs": {}}`` (a module function); arguments ``{"numpy": dtype, "value": v}`` are numpy scalars and
  ``{"array": [...], "dtype": d}`` arrays. Both engines give the same outcome.
- ``pickle``: ``input`` is ``{"type": "GameState" | "PavilionState" | "VectorGame", "protocol": p}``: the
  object survives ``pickle.loads(pickle.dumps(x, p))`` equal to itself, in both engines alike.
- ``new_uninitialised``: ``input`` is a class name: ``cls.__new__(cls)`` and then ``apply(0)`` (``step`` for
  VectorGame) give the same outcome in both engines, and never a crash.
- ``hash``: ``input`` is new_game kwargs: ``hash(state)`` gives the same outcome in both engines.

Every case runs in a child process (a case that aborts or segfaults the interpreter fails its own test only,
with the child's last output). Sanitizer runs (scripts/sanitize.sh) see a child's report on its stderr.
"""

import contextlib
import io
import json
import os
import pickle
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np
import pytest

HERE = Path(__file__).resolve().parent
CORPUS = HERE / "corpus"
FILES = sorted(CORPUS.glob("*.json"))


# -- the child: runs cases, prints one result line each -----------------------------------------------------

def _decode(value):
    if isinstance(value, dict) and set(value) == {"numpy", "value"}:
        return getattr(np, value["numpy"])(value["value"])
    if isinstance(value, dict) and set(value) == {"array", "dtype"}:
        return np.array(value["array"], dtype=value["dtype"])
    if isinstance(value, list):
        return [_decode(v) for v in value]
    return value


def _both(fn):
    from fuzz_support import load_both, run, show
    outcomes = [run(lambda e=e: fn(e)) for e in load_both()]
    if outcomes[0] != outcomes[1]:
        return False, "engines differ: python %s; cpp %s" % (show(outcomes[0]), show(outcomes[1])), outcomes
    return True, "both: %s" % show(outcomes[0]), outcomes


def _case_from_text(case):
    ok, detail, (a, _) = _both(lambda e: e.from_text(case["input"]))
    return ok and _expected(case, a), detail


def _expected(case, outcome):
    want = case.get("expect")
    if want is None:
        return True
    return outcome[0] == "raise" and outcome[1].__name__ == want


def _case_record_line(case):
    from azul_engine import records
    from azul_engine.__main__ import main
    from fuzz_support import run, show
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "case.jsonl")
        with open(path, "w", encoding="utf-8", errors="surrogatepass") as f:
            f.write(case["input"] + "\n")
        got = run(lambda: list(records.iter_file(path)))
        if got[0] == "raise":
            return False, "records.iter_file raised %s" % show(got)
        found = []
        for number, item in records.iter_file(path):
            if isinstance(item, records.RecordError):
                found.append(("error", str(item)))
                continue
            ok, detail, (a, _) = _both(lambda e: [str(x) for x in records.audit(item, e, line=number)])
            if not ok:
                return False, "records.audit: " + detail
            if a[0] == "raise":
                return False, "records.audit raised: " + detail
            found.extend(a[1][1])
        printed = []
        for backend in ("python", "cpp"):
            out, err = io.StringIO(), io.StringIO()
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                status = run(lambda: main(["audit", path, "--backend", backend]))
            printed.append((status, out.getvalue().replace(path, "FILE"), err.getvalue().replace(path, "FILE")))
        if printed[0] != printed[1]:
            return False, "the audit CLI differs: python %r; cpp %r" % tuple(printed)
        if printed[0][0] != ("ok", 1):
            return False, "the audit CLI gave %r (want status 1)" % (printed[0],)
        return True, "findings %r" % (found,)


def _case_call(case):
    spec = case["input"]
    args = _decode(spec.get("args", []))
    kwargs = {k: _decode(v) for k, v in spec.get("kwargs", {}).items()}

    def call(engine):
        if "state" in spec:
            target = engine.new_game(**spec["state"])
            for move in spec.get("moves", []):
                target.apply(move)
        elif "vector" in spec:
            target = engine.VectorGame(**spec["vector"])
        else:
            return getattr(engine, spec["function"])(*args, **kwargs)
        return getattr(target, spec["method"])(*args, **kwargs)

    ok, detail, (a, _) = _both(call)
    return ok and _expected(case, a), detail


def _case_pickle(case):
    spec = case["input"]

    def make(engine):
        if spec["type"] == "VectorGame":
            return engine.VectorGame(3, players=2, seed=4)
        variant = "summer-pavilion" if spec["type"] == "PavilionState" else "classic"
        state = engine.new_game(2, variant, seed=4)
        state.apply(state.legal_actions()[1])
        return state

    def round_trip(engine):
        obj = make(engine)
        copy = pickle.loads(pickle.dumps(obj, spec["protocol"]))
        if spec["type"] == "VectorGame":
            same = all((getattr(copy, k) == getattr(obj, k)).all() for k in ("legal_mask", "scores", "done"))
            return [same, copy.state(1).to_text(history=True) == obj.state(1).to_text(history=True)]
        return [copy == obj, copy.to_text(history=True) == obj.to_text(history=True)]

    ok, detail, (a, _) = _both(round_trip)
    return ok and a == ("ok", ("list", [True, True])), detail


def _case_new_uninitialised(case):
    name = case["input"]

    def make(engine):
        cls = getattr(engine, name)
        obj = cls.__new__(cls)
        if name == "VectorGame":
            return obj.step([0])
        return obj.apply(0)

    ok, detail, _ = _both(make)
    return ok, detail


def _case_hash(case):
    ok, detail, _ = _both(lambda e: hash(e.new_game(**case["input"])))
    return ok, detail


CASES = {"from_text": _case_from_text, "record_line": _case_record_line, "call": _case_call,
         "pickle": _case_pickle, "new_uninitialised": _case_new_uninitialised, "hash": _case_hash}


def child(paths):
    sys.path.insert(0, str(HERE))
    for path in paths:
        print("BEGIN " + path, flush=True)
        case = json.loads(Path(path).read_text(encoding="utf-8"))
        try:
            ok, detail = CASES[case["kind"]](case)
        except Exception as exc:  # noqa: BLE001 -- the case's own failure, reported
            ok, detail = False, "the check raised %s: %s" % (type(exc).__name__, exc)
        print("RESULT " + json.dumps({"path": path, "ok": bool(ok), "detail": detail}), flush=True)


# -- the parent: one test per file --------------------------------------------------------------------------

def _child_env():
    env = dict(os.environ)
    for key in ("ASAN_OPTIONS", "UBSAN_OPTIONS"):  # a child's report goes to its stderr, read below
        if key in env:
            env[key] = ":".join(o for o in env[key].split(":") if not o.startswith("log_path="))
    return env


@pytest.fixture(scope="module")
def results():
    out, todo = {}, [str(p) for p in FILES]
    while todo:
        proc = subprocess.run([sys.executable, __file__, "child", *todo], capture_output=True, text=True,
                              env=_child_env(), timeout=600, cwd=str(HERE))
        current = None
        for line in proc.stdout.splitlines():
            if line.startswith("BEGIN "):
                current = line[6:]
            elif line.startswith("RESULT "):
                result = json.loads(line[7:])
                out[result["path"]] = (result["ok"], result["detail"])
                current = None
        if current is None:
            if proc.returncode != 0:
                raise AssertionError("corpus child failed outside a case: %s" % proc.stderr[-3000:])
            break
        out[current] = (False, "the interpreter died (status %d): %s" % (proc.returncode, proc.stderr[-2000:]))
        todo = todo[todo.index(current) + 1:]
    return out


def _params():
    from fuzz_support import KNOWN_DEFECTS
    params = []
    for path in FILES:
        case = json.loads(path.read_text(encoding="utf-8"))
        marks = []
        if case.get("known_defect"):
            reason = KNOWN_DEFECTS.get(case["known_defect"], case["known_defect"])
            if reason.startswith("issue 10"):
                reason += " (being fixed on branch inputs/cli)"
            marks.append(pytest.mark.xfail(strict=True, reason=reason))
        params.append(pytest.param(str(path), marks=marks, id=path.stem))
    return params


@pytest.mark.parametrize("path", _params())
def test_corpus_case(path, results):
    ok, detail = results[path]
    assert ok, detail


def test_the_corpus_is_well_formed():
    assert len(FILES) >= 20
    for path in FILES:
        case = json.loads(path.read_text(encoding="utf-8"))
        assert case["kind"] in CASES and "input" in case and case.get("about"), path.name
        assert set(case) <= {"kind", "input", "about", "expect", "known_defect"}, path.name


if __name__ == "__main__" and sys.argv[1:2] == ["child"]:
    child(sys.argv[2:])
