"""PEP 399 parity: the C++ engine and its pure-Python twin export the same API.

The same names in ``__all__`` (and nothing exported that the other lacks), the same constant values, each public
class the same public attributes and methods (and the same special methods of the protocols the engines promise:
comparison, copying, pickling, text), and the same parameters with the same defaults wherever a signature can be
read (pybind11 writes it as the first line of a function's ``__doc__``).  Also the C++ engine's type stub,
``_cppengine.pyi``: it names exactly what the module exports, and each class's public members.
"""

import ast
import inspect
import os
import re

import pytest

import azul_engine
from helpers import state_text, tiny_network

STUB = os.path.join(os.path.dirname(azul_engine.__file__), "_cppengine.pyi")
# Where the engines may differ by design: PORTABLE and VECTORISED say how the C++ engine was built and what the CPU
# runs.
BUILD_DEPENDENT = {"PORTABLE", "VECTORISED"}
OWN_NAMES = {"NAME"}  # each engine's own name: "python", "cpp"
PROTOCOL = ("__eq__", "__hash__", "__copy__", "__deepcopy__", "__reduce__", "__str__", "__repr__")


def _classes(module):
    return {n: getattr(module, n) for n in module.__all__ if inspect.isclass(getattr(module, n))
            and not issubclass(getattr(module, n), BaseException)}


def _samples(engine):
    """An instance of each public class (instance attributes count too)."""
    return {"GameState": engine.new_game(2, "grey", seed=1), "PavilionState": engine.new_game(2, "summer-pavilion",
                                                                                              seed=1),
            "VectorGame": engine.VectorGame(2, 2, "classic", 0), "GameInfo": engine.game_info("grey", 3),
            "SearchResult": engine.search(engine.new_game(2, seed=1), iterations=10),
            "RoundSolution": engine.solve_round(engine.from_text(state_text(center="BYY"))),
            "Network": tiny_network(engine)}


def _is_attribute(member):
    """A data attribute (property, slot, getset descriptor) rather than a method."""
    return inspect.isdatadescriptor(member) and not callable(member)


def _public(obj):
    return {n for n in dir(obj) if not n.startswith("_")}


def test_the_same_names_are_exported(engines):
    py, cpp = engines
    assert sorted(py.__all__) == sorted(cpp.__all__)
    assert len(set(py.__all__)) == len(py.__all__) and len(set(cpp.__all__)) == len(cpp.__all__)
    for name in py.__all__:
        assert hasattr(py, name) and hasattr(cpp, name), name
    # The package re-exports the active engine's names: every one of them, whichever engine is active.
    assert set(py.__all__) <= set(azul_engine.__all__)


def test_constants_have_the_same_values(engines):
    py, cpp = engines
    for name in py.__all__:
        a, b = getattr(py, name), getattr(cpp, name)
        if callable(a) or name in BUILD_DEPENDENT | OWN_NAMES:
            continue
        assert type(a) is type(b) and a == b, name


def test_the_same_classes_with_the_same_members(engines):
    py, cpp = engines
    assert set(_classes(py)) == set(_classes(cpp)) == set(_samples(py))
    samples = {"python": _samples(py), "cpp": _samples(cpp)}
    for name, cls in _classes(py).items():
        other = getattr(cpp, name)
        # On instances: a pure-Python instance attribute may be a class property in C++ (VectorGame.n).
        assert _public(samples["python"][name]) == _public(samples["cpp"][name]), name
        assert _public(cls) <= _public(other), name
        for special in PROTOCOL:
            defined = [special in vars(c) for c in (cls, other)]
            assert defined[0] == defined[1], (name, special)
        for member in _public(cls) & _public(other):
            a, b = inspect.getattr_static(cls, member), inspect.getattr_static(other, member)
            assert _is_attribute(a) == _is_attribute(b), (name, member)
    # One spelling in the API, the other only an alias that gives the same value.
    for state in (*(_samples(py)[n] for n in ("GameState", "PavilionState")),
                  *(_samples(cpp)[n] for n in ("GameState", "PavilionState"))):
        assert state.centre == state.center


_CPP_SIGNATURE = re.compile(r"^\w+\((.*)\) -> ")


def _cpp_parameters(function):
    """(name, default text) of a pybind11 function's first overload, from its ``__doc__``; None if unreadable."""
    doc = (getattr(function, "__doc__", None) or "").splitlines()
    match = _CPP_SIGNATURE.match(doc[0]) if doc else None
    if match is None or "*args" in match.group(1):
        return None
    params = []
    for part in filter(None, (p.strip() for p in re.split(r",\s*(?![^()\[\]]*[)\]])", match.group(1)))):
        name, _, rest = part.partition(":")
        default = rest.partition("=")[2].strip() or None
        params.append((name.strip(), default))
    return [p for p in params if p[0] != "self"]


def _py_parameters(function):
    try:
        signature = inspect.signature(function)
    except (TypeError, ValueError):
        return None
    if any(p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD) for p in signature.parameters.values()):
        return None
    out = []
    for p in signature.parameters.values():
        if p.kind is p.KEYWORD_ONLY and ("*", None) not in out:
            out.append(("*", None))  # where the keyword-only ones start, as pybind11's docstring writes it
        if p.name != "self":
            out.append((p.name, None if p.default is p.empty else repr(p.default)))
    return out


def _callables(engine):
    out = {n: getattr(engine, n) for n in engine.__all__
           if callable(getattr(engine, n)) and not inspect.isclass(getattr(engine, n))}
    for cname, cls in _classes(engine).items():
        for member in _public(cls):
            value = getattr(cls, member)
            if callable(value) and not _is_attribute(inspect.getattr_static(cls, member)):
                out["%s.%s" % (cname, member)] = value
    return out


# Methods whose C++ binding does not name its parameters (pybind11 calls them arg0, ...), so that only the
# positional call works there: none now (every binding names them as the pure engine does, py::arg); keep it so.
UNNAMED_IN_CPP = set()


def test_the_same_signatures(engines):
    py, cpp = engines
    mine, theirs = _callables(py), _callables(cpp)
    assert set(mine) == set(theirs)
    compared, unnamed = 0, set()
    for name, function in sorted(mine.items()):
        a, b = _py_parameters(function), _cpp_parameters(theirs[name])
        if a is None or b is None:
            continue
        compared += 1
        assert len(a) == len(b) and [d for _, d in a] == [d for _, d in b], name  # the same defaults
        if any(re.fullmatch(r"arg\d+", n) for n, _ in b):
            unnamed.add(name)
            continue
        assert a == b, name
    assert compared >= 30
    assert unnamed == UNNAMED_IN_CPP


def _stub():
    with open(STUB, encoding="utf-8") as f:
        tree = ast.parse(f.read())
    names, classes = set(), {}
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            names.add(node.name)
            classes[node.name] = {n.name for n in node.body if isinstance(n, ast.FunctionDef)} | {
                n.target.id for n in node.body if isinstance(n, ast.AnnAssign)}
        elif isinstance(node, ast.FunctionDef):
            names.add(node.name)
        elif isinstance(node, ast.AnnAssign):
            names.add(node.target.id)
        elif isinstance(node, ast.Assign):
            names.update(t.id for t in node.targets)
        elif isinstance(node, ast.ImportFrom) and node.module in ("_errors", "_pure.search"):
            names.update(a.asname for a in node.names if a.asname == a.name)
    return {n for n in names if not n.startswith("_")}, classes


def test_the_type_stub_names_exactly_what_the_cpp_engine_exports(engines):
    _, cpp = engines
    names, classes = _stub()
    assert names == set(cpp.__all__)
    samples = _samples(cpp)
    for name, members in classes.items():
        public = {m for m in members if not m.startswith("_")}
        assert public == _public(samples[name]), name


def test_the_stub_and_py_typed_are_installed():
    package = os.path.dirname(azul_engine.__file__)
    assert os.path.isfile(os.path.join(package, "py.typed")) and os.path.isfile(STUB)
    compile(open(STUB, encoding="utf-8").read(), STUB, "exec")  # valid Python syntax


@pytest.mark.parametrize("variant", ["classic", "summer-pavilion"])
def test_centre_is_the_api_spelling_and_center_its_alias(engine, variant):
    state = engine.new_game(2, variant, seed=5)
    state.apply(state.legal_actions()[0])  # a factory's leftovers go to the centre
    assert state.centre and state.centre == state.center
    assert "center=" in state.to_text()  # the state text's field keeps its spelling (format version 1)


def test_every_pure_module_names_its_cpp_twin():
    """The pure engine mirrors native/: each module of azul_engine._pure names, in its banner, C++ files that exist."""
    import importlib
    import pkgutil
    import re

    from azul_engine import _pure

    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    checked = 0
    for info in pkgutil.walk_packages(_pure.__path__, "azul_engine._pure."):
        module = importlib.import_module(info.name)
        if info.ispkg:
            continue
        banner = module.__doc__ or ""
        twins = re.findall(r"native/(?:src|include)/[\w/]+\.(?:cpp|h)", banner)
        assert "C++ twin" in banner and twins, info.name
        if os.path.isdir(os.path.join(root, "native")):  # a source checkout
            for twin in twins:
                assert os.path.exists(os.path.join(root, twin)), (info.name, twin)
        checked += 1
    assert checked >= 20


def test_the_package_tools_are_attributes_of_the_package():
    """``import azul_engine as az; az.records.read(...)``: the tools import on first use (a fresh interpreter,
    so that no other test has imported them); an unknown name is still an AttributeError."""
    import subprocess
    import sys

    code = ("import sys, azul_engine as az\n"
            "assert 'azul_engine.records' not in sys.modules\n"
            "assert az.records.read is sys.modules['azul_engine.records'].read\n"
            "assert az.bots.MCTSBot and az.tournament and az.replay.to_html and az.selfplay\n"
            "assert {'records', 'bots', 'replay', 'svg'} <= set(dir(az))\n"
            "sys.modules['pyspiel'] = None  # as if OpenSpiel were not installed\n"
            "assert not hasattr(az, 'openspiel')  # an AttributeError naming the import, not an ImportError\n"
            "try:\n    az.nothing_here\nexcept AttributeError as e:\n    print(e)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout == "module 'azul_engine' has no attribute 'nothing_here'\n"


# -- the stub's signatures ----------------------------------------------------------------------------------------

def _stub_default(node):
    """A stub default as the engines' signatures show it (repr of the value); None where there is none."""
    return None if node is None else repr(ast.literal_eval(node))


def _stub_parameters(function):
    """(name, default) of a stub ``def``, as ``_py_parameters`` gives them: ``("*", None)`` where the keyword-only
    parameters start, no ``self``."""
    args = function.args
    positional = args.posonlyargs + args.args
    defaults = [None] * (len(positional) - len(args.defaults)) + list(args.defaults)
    out = [(a.arg, _stub_default(d)) for a, d in zip(positional, defaults)]
    if args.vararg is not None or args.kwarg is not None:
        out.append(("**", None))  # not in the engines' API: it would show here as a difference
    if args.kwonlyargs:
        out.append(("*", None))
        out += [(a.arg, _stub_default(d)) for a, d in zip(args.kwonlyargs, args.kw_defaults)]
    return [p for p in out if p[0] != "self"]


def _stub_signatures(text):
    """``name`` or ``Class.method`` -> the list of its stub definitions' parameters (one per ``@overload``), for
    every function and method of the stub but properties and special methods (``__init__`` included)."""
    out = {}

    def visit(body, prefix):
        for node in body:
            if isinstance(node, ast.ClassDef):
                visit(node.body, node.name + ".")
            elif isinstance(node, ast.FunctionDef):
                decorators = {d.id for d in node.decorator_list if isinstance(d, ast.Name)}
                if "property" in decorators or (node.name.startswith("__") and node.name != "__init__"):
                    continue
                out.setdefault(prefix + node.name, []).append(_stub_parameters(node))

    visit(ast.parse(text).body, "")
    return out


def _stub_mismatches(text, py, cpp):
    """Where the stub's signatures differ from the engines' (parameter names, order, keyword-only start and
    defaults): a list of sentences, empty when they agree.  With ``@overload``s, the last (the general one) must be
    the engine's signature, and every other the same names with the same defaults where it gives one (an overload
    may drop a default to take only some values: ``with_plies: Literal[True]``, and make parameters keyword-only)."""
    stub = _stub_signatures(text)
    mine, theirs = _callables(py), _callables(cpp)
    stub_classes = {name.partition(".")[0] for name in stub if "." in name}
    problems = []
    for name in sorted(set(mine) | set(theirs)):
        if ("." not in name or name.partition(".")[0] in stub_classes) and name not in stub:
            problems.append("%s is not in the stub" % name)
    compared = 0
    for name, overloads in sorted(stub.items()):
        engines = []
        if name in mine:
            engines.append(("python", _py_parameters(mine[name])))
        if name in theirs or name.endswith(".__init__"):
            cls, _, method = name.partition(".")
            function = getattr(getattr(cpp, cls), method) if method else theirs[name]
            engines.append(("cpp", _cpp_parameters(function)))
        engines = [(engine, params) for engine, params in engines if params is not None]
        if not engines:
            problems.append("%s: no engine has it, or neither signature can be read" % name)
            continue
        compared += 1
        for engine, params in engines:
            if overloads[-1] != params:
                problems.append("%s: the stub says %s, the %s engine %s" % (name, overloads[-1], engine, params))
            for other in overloads[:-1]:
                # An overload may also make parameters keyword-only (new_game(players=2, *, variant=...)).
                named, engine_named = [p for p in other if p[0] != "*"], [p for p in params if p[0] != "*"]
                if [n for n, _ in named] != [n for n, _ in engine_named] or any(
                        d is not None and d != e for (_, d), (_, e) in zip(named, engine_named)):
                    problems.append("%s: an overload says %s, the %s engine %s" % (name, other, engine, params))
    if compared < 40:
        problems.append("only %d signatures compared" % compared)
    return problems


def test_the_stub_has_both_engines_signatures(engines):
    """Every function and method of ``_cppengine.pyi`` has the parameters of both engines: the same names in the
    same order, the same keyword-only ones and the same defaults (the pure engine's signature is the reference)."""
    py, cpp = engines
    with open(STUB, encoding="utf-8") as f:
        assert _stub_mismatches(f.read(), py, cpp) == []


def test_the_stub_check_sees_a_changed_stub(engines):
    """The check above fails for a stub that drifts: a default changed, a parameter dropped or renamed, a
    keyword-only parameter made positional, a method left out."""
    py, cpp = engines
    with open(STUB, encoding="utf-8") as f:
        text = f.read()
    changes = {
        "inner_candidates: int = 5,": "inner_candidates: int = 6,",
        " widen: int = 1000,": "",
        "def reseed(self, seed: int)": "def reseed(self, s: int)",
        'def new_game(players: int = 2, variant: str = "classic"':
            'def new_game(players: int = 2, *, variant: str = "classic"',
        "    def undo(self) -> None: ...\n": "",
    }
    for old, new in changes.items():
        assert old in text, old
        assert _stub_mismatches(text.replace(old, new, 1), py, cpp), "a stub with %r as %r passes" % (old, new)
