"""The public API is typed: mypy (the [test] extra) checks the package and the typed example as pyproject.toml's
[tool.mypy] says, a user's ``mypy --strict`` passes on examples/typed_example.py and catches a misspelt name and a
wrong argument (so typing cannot go back to ``Any`` unnoticed), mypy's stubtest finds the C++ engine's stub equal
to the module, and the package root's stub (__init__.pyi) names what the package has.

Without mypy these tests are skipped, except under CI (the environment variable CI set), where they fail.
"""

import ast
import importlib
import os
import re
import subprocess
import sys
import textwrap

import pytest

import azul_engine

# Static checks of the source: their own CI stage (pytest -m static); long, so slow too.
pytestmark = [pytest.mark.static, pytest.mark.slow]

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SOURCE = os.path.join(ROOT, "python")
PACKAGE = os.path.join(SOURCE, "azul_engine")
EXAMPLE = os.path.join(ROOT, "examples", "typed_example.py")


def _need_mypy():
    try:
        import mypy  # noqa: F401
    except ImportError:
        if os.environ.get("CI"):
            pytest.fail("mypy is not installed: it is in the [test] extra (pip install -e .[test])")
        pytest.skip("mypy is not installed (it is in the [test] extra)")


@pytest.fixture(scope="module")
def cache(tmp_path_factory):
    """One mypy cache for the module's runs (the package is analysed once), outside the work tree."""
    return str(tmp_path_factory.mktemp("mypy-cache"))


def _mypy(args, cwd, cache):
    """Run mypy; (exit code, its report).  PYTHONPATH puts this checkout's package first, where mypy finds it as
    a user's mypy finds the installed package (py.typed; its own errors are not the user's)."""
    env = dict(os.environ)
    env["PYTHONPATH"] = SOURCE + os.pathsep + env.get("PYTHONPATH", "")
    env.pop("MYPYPATH", None)
    proc = subprocess.run([sys.executable, "-m", "mypy", "--cache-dir", cache, "--no-color-output",
                           "--no-error-summary" if "--no-error-summary" in args else "--show-error-codes",
                           *[a for a in args if a != "--no-error-summary"]],
                          cwd=cwd, env=env, capture_output=True, text=True, timeout=600)
    return proc.returncode, proc.stdout + proc.stderr


def test_mypy_passes_on_the_package_and_the_example(cache):
    """``mypy`` from the repository's root, with pyproject.toml's [tool.mypy]: strict on the public API (the
    package root's stub, the engine's stub, the annotated tools), the default checks on the rest."""
    _need_mypy()
    code, report = _mypy([], ROOT, cache)
    assert code == 0, report
    assert "Success: no issues found" in report


def test_the_typed_example_passes_mypy_strict(cache, tmp_path):
    """What a user gets: ``mypy --strict`` on code that uses the API (run outside the repository, so that no
    configuration of ours applies) finds nothing in examples/typed_example.py."""
    _need_mypy()
    code, report = _mypy(["--strict", EXAMPLE], str(tmp_path), cache)
    assert code == 0, report


def test_mypy_catches_a_misspelt_name_and_a_wrong_argument(cache, tmp_path):
    """The negative check: were the package's names ``Any`` again (a namespace filled at run time), mypy would
    report nothing here."""
    _need_mypy()
    snippet = tmp_path / "user_code.py"
    snippet.write_text(textwrap.dedent("""\
        import azul_engine as az
        from azul_engine import records

        state = az.new_gme(2)
        other = az.new_game("two")
        reveal_type(az.new_game(2))
        reveal_type(records.read("games.jsonl"))
        records.replay(records.read("games.jsonl")[0], engine=3.5)
        """))
    code, report = _mypy(["--strict", str(snippet)], str(tmp_path), cache)
    assert code == 1, report
    assert 'user_code.py:4: error: Module has no attribute "new_gme"' in report, report
    assert 'user_code.py:5: error: No overload variant of "new_game" matches argument type "str"' in report, report
    assert 'user_code.py:6: note: Revealed type is "azul_engine._cppengine.GameState"' in report, report
    assert "user_code.py:7: note: Revealed type is" in report and "dict[" in report.split(":7: note:")[1].lower()
    assert 'user_code.py:8: error: Argument "engine" to "replay" has incompatible type "float"' in report, report
    assert report.count(": error:") == 3, report


def test_the_variant_gives_the_state_class(cache, tmp_path):
    """``new_game`` and ``from_text`` are overloaded on the variant's literal: GameState for classic and grey (and
    the default), PavilionState for Summer Pavilion, either for a variant that is a plain ``str``."""
    _need_mypy()
    snippet = tmp_path / "variants.py"
    snippet.write_text(textwrap.dedent("""\
        import azul_engine as az

        name: str = "grey"
        reveal_type(az.new_game())
        reveal_type(az.new_game(3, "grey", seed=1))
        reveal_type(az.new_game(2, variant="summer-pavilion"))
        reveal_type(az.new_game(variant="summer-pavilion"))
        reveal_type(az.new_game(2, "summer-pavilion", 5, "explicit"))
        reveal_type(az.new_game(2, name))
        reveal_type(az.from_text("...", variant="classic"))
        reveal_type(az.from_text("...", variant="summer-pavilion"))
        reveal_type(az.from_text("..."))
        az.new_game(2, variant="summer-pavilion").pattern_lines
        az.new_game(2, variant="classic").supply
        """))
    code, report = _mypy(["--strict", str(snippet)], str(tmp_path), cache)
    revealed = re.findall(r":(\d+): note: Revealed type is \"([^\"]+)\"", report)
    short = {int(line): re.sub(r"^Union\[(.*)\]$", r"\1", kind.replace("azul_engine._cppengine.", "")).replace(
        ", ", " | ") for line, kind in revealed}
    either = "GameState | PavilionState"
    assert short == {4: "GameState", 5: "GameState", 6: "PavilionState", 7: "PavilionState", 8: "PavilionState",
                     9: either, 10: "GameState", 11: "PavilionState", 12: either}, report
    assert code == 1 and report.count(": error:") == 2, report
    assert 'variants.py:13: error: "PavilionState" has no attribute "pattern_lines"' in report, report
    assert 'variants.py:14: error: "GameState" has no attribute "supply"' in report, report


def _readme_tour():
    """The Python of README.md's "A short tour" as a script: its statements (``>>>`` and ``...`` lines), without
    the example's outputs."""
    with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as f:
        readme = f.read()
    block = re.search(r"## A short tour\n+```python\n(.*?)```", readme, re.S).group(1)
    lines = [line[4:] for line in block.splitlines() if line.startswith((">>> ", "... "))]
    # The example's deliberate IllegalMoveError (a doctest shows it): in a script, caught.
    return "\n".join(lines) + "\n", len(lines)


def test_the_readme_tour_passes_mypy_strict(cache, tmp_path):
    """What a reader pastes into a typed project: the README's tour passes ``mypy --strict`` (outside the
    repository, so that no configuration of ours applies); a variant's literal gives the class of the state."""
    _need_mypy()
    code_text, statements = _readme_tour()
    assert statements >= 10 and "az.new_game(players=2, variant=\"classic\", seed=7)" in code_text
    tour = tmp_path / "readme_tour.py"
    tour.write_text(code_text + "reveal_type(g)\n", encoding="utf-8")
    code, report = _mypy(["--strict", str(tour)], str(tmp_path), cache)
    assert code == 0, report
    assert 'Revealed type is "azul_engine._cppengine.GameState"' in report, report


def test_stubtest_finds_the_stub_equal_to_the_cpp_engine(cache):
    """mypy's stubtest compares _cppengine.pyi with the compiled module: every name, class member, property and
    constant's type; tests/stubtest-allowlist.txt lists what differs by design, with its reason.  (pybind11's
    functions have no signature that stubtest can read: tests/test_parity.py compares the parameters.)"""
    _need_mypy()
    try:
        importlib.import_module("azul_engine._cppengine")
    except ImportError as exc:
        pytest.skip("the C++ engine is not built: %s" % exc)
    # The installed package, stub and compiled module side by side (the source tree has no compiled module; the
    # installed stub is the source's, package data).
    proc = subprocess.run([sys.executable, "-m", "mypy.stubtest", "azul_engine._cppengine", "--allowlist",
                           os.path.join(ROOT, "tests", "stubtest-allowlist.txt"), "--mypy-config-file",
                           os.devnull], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout[-6000:] + proc.stderr[-2000:]


def _stub_names():
    """The names the package root's stub declares, and its ``__all__``."""
    with open(os.path.join(PACKAGE, "__init__.pyi"), encoding="utf-8") as f:
        tree = ast.parse(f.read())
    names, exported = set(), None
    for node in tree.body:
        if isinstance(node, ast.ImportFrom):
            names.update(a.asname for a in node.names if a.asname)
        elif isinstance(node, ast.FunctionDef):
            names.add(node.name)
        elif isinstance(node, ast.AnnAssign):
            names.add(node.target.id)
        elif isinstance(node, ast.Assign) and [t.id for t in node.targets] == ["__all__"]:
            exported = ast.literal_eval(node.value)
    return names, exported


def test_the_package_stub_names_what_the_package_has():
    """__init__.pyi declares every name of ``__all__``, the tools (the submodules ``__getattr__`` imports) and
    ``__version__``, and nothing the package lacks; its ``__all__`` is the package's."""
    names, exported = _stub_names()
    assert exported == azul_engine.__all__
    assert set(azul_engine.__all__) <= names
    assert names == set(azul_engine.__all__) | set(azul_engine._SUBMODULES) | {"__version__"}
    for name in names - set(azul_engine._SUBMODULES):
        assert hasattr(azul_engine, name), name


def test_the_package_root_names_each_engine_name():
    """No namespace filled in a loop: every name of the active engine is assigned by name in __init__.py (as the
    issue asks, so that readers and linters see them), and it is the active engine's object."""
    with open(os.path.join(PACKAGE, "__init__.py"), encoding="utf-8") as f:
        text = f.read()
    assert "globals().update" not in text and "setattr(" not in text
    tree = ast.parse(text)
    assigned = {t.id for node in tree.body if isinstance(node, ast.Assign) for t in node.targets
                if isinstance(t, ast.Name)}
    imported = {a.asname or a.name for node in tree.body if isinstance(node, ast.ImportFrom) for a in node.names}
    engine = azul_engine._backends.ENGINE
    for name in engine.__all__:
        assert name in assigned | imported, name
        assert getattr(azul_engine, name) is getattr(engine, name), name


def test_pyright_if_installed(tmp_path):
    """pyright (optional: not in the extras) agrees on the example, for Python 3.9, and sees the misspelt name."""
    import shutil

    pyright = shutil.which("pyright") or shutil.which("pyright", path=os.path.dirname(sys.executable))
    if pyright is None:
        pytest.skip("pyright is not installed (optional)")
    env = dict(os.environ)
    env["PYTHONPATH"] = SOURCE + os.pathsep + env.get("PYTHONPATH", "")
    snippet = tmp_path / "user_code.py"
    snippet.write_text("import azul_engine as az\naz.new_gme(2)\n")
    proc = subprocess.run([pyright, "--pythonversion", "3.9", "--pythonpath", sys.executable, EXAMPLE, str(snippet)],
                          cwd=str(tmp_path), env=env, capture_output=True, text=True, timeout=600)
    if "error" in proc.stdout and "new_gme" not in proc.stdout and proc.returncode != 1:
        pytest.skip("pyright could not run here: %s" % proc.stdout[-500:])
    assert '"new_gme" is not a known attribute of module "azul_engine"' in proc.stdout, proc.stdout
    assert "1 error" in proc.stdout, proc.stdout
