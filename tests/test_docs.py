"""Examples in the documentation run as doctests."""

import doctest
import os
import sys

import pytest

import azul_engine

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE


def test_readme_examples():
    """README.md's examples, run with the package's active engine."""
    path = os.path.join(ROOT, "README.md")
    if not os.path.exists(path):
        pytest.skip("README.md not written yet")
    result = doctest.testfile(path, module_relative=False, optionflags=FLAGS, verbose=False)
    assert result.failed == 0, "%d of %d README examples failed" % (result.failed,
                                                                   result.attempted)


def _contract_tests():
    """The pure engine's docstring examples: the module's, and those of every public class (methods included) and
    function, wherever in azul_engine._pure its code lives."""
    import inspect

    contract = azul_engine.load_backend("python")
    finder = doctest.DocTestFinder(exclude_empty=True)
    tests = {(t.filename, t.lineno, t.docstring): t for t in finder.find(contract)}
    for name in contract.__all__:
        obj = getattr(contract, name)
        if inspect.isclass(obj) or inspect.isfunction(obj):
            for t in finder.find(obj, name, module=False, globs={}):
                tests.setdefault((t.filename, t.lineno, t.docstring), t)
    return [t for t in tests.values() if t.examples]


def test_api_docstring_examples(engine):
    """The docstrings of the pure engine are the API contract: their examples must hold for
    every engine, so they run with the engine under test in their namespace."""
    names = {name: getattr(engine, name) for name in engine.__all__}
    runner = doctest.DocTestRunner(optionflags=FLAGS)
    tests = _contract_tests()
    assert sum(len(t.examples) for t in tests) >= 9, "docstring examples missing"
    for test in tests:
        test.globs = dict(names)
        runner.run(test)
    result = runner.summarize(verbose=False)
    assert result.failed == 0


@pytest.mark.parametrize("module", ["azul_engine.bots", "azul_engine.bot_specs", "azul_engine.hints",
                                    "azul_engine.mcts", "azul_engine.records",
                                    "azul_engine.tournament", "azul_engine.ratings", "azul_engine.report",
                                    "azul_engine.distributed",
                                    "azul_engine.outputs", "azul_engine.network"])
def test_module_docstring_examples(module):
    """The examples of the engine-independent modules, run with the package's active engine."""
    import importlib

    result = doctest.testmod(importlib.import_module(module), optionflags=FLAGS)
    assert result.attempted > 0 and result.failed == 0


@pytest.mark.parametrize("module,needs", [("azul_engine.envs", "gymnasium"), ("azul_engine.sb3", "sb3_contrib")])
def test_rl_module_docstring_examples(module, needs):
    """The examples of the RL modules (they need their extras: gymnasium; Stable-Baselines3)."""
    import importlib

    pytest.importorskip(needs)
    result = doctest.testmod(importlib.import_module(module), optionflags=FLAGS)
    assert result.attempted > 0 and result.failed == 0


def test_the_examples_run_on_the_engine_asked():
    """scripts/docs.sh runs the examples once per engine through AZUL_BACKEND: the package must be on that one."""
    asked = os.environ.get("AZUL_BACKEND") or "auto"
    assert asked == "auto" or azul_engine.BACKEND == asked


def _pages_with_examples():
    """The pages of docs/ (the documentation site's sources) that hold examples, by file name."""
    names = []
    for name in sorted(os.listdir(os.path.join(ROOT, "docs"))):
        if name.endswith(".md"):
            with open(os.path.join(ROOT, "docs", name), encoding="utf-8") as f:
                if any(line.lstrip().startswith(">>> ") for line in f):
                    names.append(name)
    return names


# What a page's examples import beyond the package (its extras); without them the page is skipped.
NEEDS = {"rl.md": ("gymnasium",), "adapters.md": ("gymnasium", "pettingzoo", "pyspiel"),
         "environments.md": ("gymnasium",)}


@pytest.mark.parametrize("name", _pages_with_examples())
def test_docs_examples(name):
    """The examples in docs/, run with the package's active engine (scripts/docs.sh runs them with each engine:
    AZUL_BACKEND=cpp, then AZUL_BACKEND=python)."""
    for module in NEEDS.get(name, ()):
        pytest.importorskip(module)
    result = doctest.testfile(os.path.join(ROOT, "docs", name), module_relative=False, optionflags=FLAGS,
                              verbose=False)
    assert result.attempted > 0 and result.failed == 0


def test_the_pages_with_examples_are_found():
    """The pages the examples of the site are in; a page that loses its examples (or a new one) is noticed."""
    assert {"adapters.md", "bots.md", "engines.md", "game-api.md", "getting-started.md", "index.md",
            "network.md", "observation.md", "pictures.md", "playouts.md", "rl.md", "summer-pavilion.md"} <= set(
        _pages_with_examples())


SECTIONS = {"rules.md": ["1", "2", "3", "4", "5", "6", "7"], "records.md": ["1", "2", "3", "4", "5"]}


def _section_titles(name):
    with open(os.path.join(ROOT, "docs", name), encoding="utf-8") as f:
        return {line.split()[1].rstrip("."): line[3:].strip() for line in f if line.startswith("## ")}


@pytest.mark.parametrize("name", sorted(SECTIONS))
def test_docs_keep_their_section_numbers(name):
    """The code cites "rules section N" and "records.md section N": every number stays, in order."""
    assert list(_section_titles(name)) == SECTIONS[name]


def _citations():
    """Every "rules[.md] section(s) N[-M| and M]" / "records.md section N" in the code, as (file, doc, number)."""
    import re

    pattern = re.compile(r"\b(rules|records)(?:\.md)?,? sections? (\d)(?:(?:-| and )(\d))?")
    found = []
    for top in ("python", "tests", "native", "src", "README.md", "docs"):
        path = os.path.join(ROOT, top)
        files = [path] if os.path.isfile(path) else [os.path.join(d, f) for d, _, fs in os.walk(path) for f in fs]
        for file in files:
            if not file.endswith((".py", ".cpp", ".h", ".md", ".pyi")) or not os.path.exists(file):
                continue
            with open(file, encoding="utf-8") as f:
                for m in pattern.finditer(f.read()):
                    for number in filter(None, m.groups()[1:]):
                        found.append((os.path.relpath(file, ROOT), m.group(1) + ".md", number))
    return found


def test_every_citation_names_a_section_that_exists():
    citations = _citations()
    assert len(citations) > 20
    titles = {name: _section_titles(name) for name in SECTIONS}
    missing = [c for c in citations if c[2] not in titles[c[1]]]
    assert not missing


@pytest.mark.slow
def test_records_page_audit_and_explain_samples(tmp_path):
    """docs/records-guide.md, "Records, audits and score checks" (the README's until the site): the record
    command's games audit clean and `explain` prints what the page shows (the lines before its "..."); the
    hand-edited audit sample is the same games' findings."""
    import json
    import re
    import subprocess
    import sys

    readme = open(os.path.join(ROOT, "docs", "records-guide.md"), encoding="utf-8").read()
    games = tmp_path / "games.jsonl"

    def run(*args):
        return subprocess.run([sys.executable, "-m", "azul_engine", *args], capture_output=True, text=True,
                              timeout=300, cwd=tmp_path)

    assert run("record", "--players", "2", "--games", "3", "--seed", "1", "--bots", "greedy,mcts:500",
               "-o", str(games)).returncode == 0
    assert run("audit", str(games)).stdout == "3 records agree, 0 disagree\n"
    sample = re.search(r"\$ python -m azul_engine explain games.jsonl --game 1\n(.*?)\n\.\.\.\n", readme, re.S)
    assert sample and run("explain", str(games), "--game", "1").stdout.startswith(sample.group(1) + "\n")
    # the edited file: three points on line 2's round 3 for player 0, player 1's end bonus left out of line 3
    lines = games.read_text(encoding="utf-8").splitlines()
    second, third = json.loads(lines[1]), json.loads(lines[2])
    second["rounds"][2]["scores"][0] += 3
    bonus = re.search(r"player 1: end bonuses missing: \+(\d+)", readme)
    third["final_scores"][1] -= int(bonus.group(1))
    edited = tmp_path / "edited.jsonl"
    edited.write_text("\n".join([lines[0], json.dumps(second), json.dumps(third)]) + "\n", encoding="utf-8")
    shown = re.search(r"\$ python -m azul_engine audit edited.jsonl\n(.*?)\n```", readme, re.S).group(1)
    assert run("audit", "edited.jsonl").stdout == shown + "\n"


def test_the_docs_own_bot_plays(tmp_path, monkeypatch):
    """FlatMC of docs/bots.md ('Bots of your own', the README's until the site), written to mybots/flat.py as the
    page says, loads by spec and finishes a short tournament against greedy without a forfeit."""
    from azul_engine import tournament

    with open(os.path.join(ROOT, "docs", "bots.md"), encoding="utf-8") as f:
        text = f.read()
    start = text.index("# mybots/flat.py")
    code = text[start:text.index("```", start)]
    (tmp_path / "mybots").mkdir()
    (tmp_path / "mybots" / "__init__.py").write_text("")
    (tmp_path / "mybots" / "flat.py").write_text(code)
    monkeypatch.syspath_prepend(str(tmp_path))
    for name in ("mybots", "mybots.flat"):  # other tests write a module mybots of their own
        monkeypatch.delitem(sys.modules, name, raising=False)
    try:
        result = tournament.run(tournament.plan(["greedy", "mybots.flat:FlatMC:playouts=5"], games=2, seed=1),
                                workers=1)
    finally:
        for name in ("mybots.flat", "mybots"):
            sys.modules.pop(name, None)
    assert not result.forfeits and [s.games for s in result.standings] == [2, 2]


def _in_ci():
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false")


@pytest.mark.slow
def test_the_site_builds_with_warnings_as_errors(tmp_path):
    """The documentation site (docs/: Sphinx, MyST, Furo, sphinx-argparse, autodoc) builds with every warning an
    error, as scripts/docs.sh and Read the Docs build it. Without the [docs] extra it skips, except in CI."""
    import importlib.util
    import subprocess

    missing = [m for m in ("sphinx", "myst_parser", "furo", "sphinxarg") if importlib.util.find_spec(m) is None]
    if missing:
        message = "the docs extra is not installed (%s): pip install '.[docs]'" % ", ".join(missing)
        if _in_ci():
            pytest.fail(message + "; CI must build the site")
        pytest.skip(message)
    out = tmp_path / "html"
    build = subprocess.run([sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b", "html",
                            "-d", str(tmp_path / "doctrees"), os.path.join(ROOT, "docs"), str(out)],
                           capture_output=True, text=True, timeout=600)
    assert build.returncode == 0, build.stdout[-3000:] + build.stderr[-5000:]
    for page in ("index", "getting-started", "rules", "records", "observation", "search-algorithm", "cli",
                 "api/engine", "changelog", "contributing", "layout"):
        assert (out / (page + ".html")).is_file(), page
    cli = (out / "cli.html").read_text(encoding="utf-8")
    assert all(command in cli for command in ("tournament", "selfplay", "check-score", "replay", "serve"))
    # The command line's page copies and pastes: "--workers", not an en dash; straight quotes (no smartquotes);
    # each default shown once (sphinx-argparse's "Default:" line only where the help does not say it).
    assert "--workers" in cli and "\u2013workers" not in cli and "\u2013" + "backend" not in cli
    assert not any(q in cli for q in "\u201c\u201d\u2018\u2019"), "curly quotes on the command line's page"
    assert "(default: 3)" in cli and "Default: <code" in cli
    import re

    for item in re.findall(r"<dd>(.*?)</dd>", cli, re.S):
        if "Default: <code" in item:
            assert "default" not in re.sub(r"<[^>]+>", "", item.split("Default: <code")[0]).lower(), item
    # The API reference: every public name of the package under its public name, with its type.
    pages = (out / "api" / "engine.html").read_text(encoding="utf-8") + (
        out / "api" / "game_info.html").read_text(encoding="utf-8")
    for name in azul_engine.__all__:
        assert 'id="azul_engine.%s"' % name in pages, name
    assert 'id="azul_engine.GameState.is_over"' in pages and 'id="azul_engine.PavilionState.scores"' in pages
    assert "azul_engine._pyengine" not in pages.split("<body")[1]


def test_the_readme_is_short_and_links_into_the_docs():
    """The README stays a front page (at most 250 lines) and its relative links, and those of the pages, lead to
    files of the repository."""
    import re

    with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as f:
        readme = f.read()
    assert readme.count("\n") <= 250
    assert "bash scripts/docs.sh --serve" in readme and "3.9 to 3.13" in readme
    pages = [("README.md", readme)]
    for name in sorted(os.listdir(os.path.join(ROOT, "docs"))):
        if name.endswith(".md"):
            with open(os.path.join(ROOT, "docs", name), encoding="utf-8") as f:
                pages.append(("docs/" + name, f.read()))
    broken = []
    for name, text in pages:
        for target in re.findall(r"\]\(([^)\s]+)\)", text):
            if re.match(r"[a-z]+:", target) or target.startswith("#"):
                continue
            path = os.path.normpath(os.path.join(ROOT, os.path.dirname(name), target.split("#")[0]))
            if not path.startswith(ROOT + os.sep) or not os.path.exists(path):
                broken.append((name, target))
    assert not broken


def _api_reference_names():
    """The names the API reference's pages list, in the order of their ``azul-api`` directives."""
    import re

    names = []
    folder = os.path.join(ROOT, "docs", "api")
    for page in sorted(os.listdir(folder)):
        if page.endswith(".md"):
            with open(os.path.join(folder, page), encoding="utf-8") as f:
                for line in re.findall(r"^\.\. azul-api:: (.*)$", f.read(), re.M):
                    names += line.split()
    return names


def test_the_api_reference_lists_every_public_name_with_a_docstring():
    """Every name of ``azul_engine.__all__`` is in the reference once (docs/api/, its ``azul-api`` directives,
    which docs/apiref.py makes from the type stubs), and every entry, each class's members included, has a
    docstring: a name added to the package and not to the reference fails here."""
    import ast

    sys.path.insert(0, os.path.join(ROOT, "docs"))
    try:
        import apiref
    finally:
        sys.path.pop(0)
    listed = _api_reference_names()
    assert len(listed) == len(set(listed)), "a name listed twice"
    assert set(listed) == set(azul_engine.__all__), (set(azul_engine.__all__) - set(listed),
                                                    set(listed) - set(azul_engine.__all__))
    text, documented = apiref.entries(listed)
    assert [name for name, first in documented if not first.strip()] == []
    names = {name for name, _ in documented}
    with open(os.path.join(ROOT, "python", "azul_engine", "_cppengine.pyi"), encoding="utf-8") as f:
        stub = ast.parse(f.read())
    members = {"%s.%s" % (c.name, n.name) for c in stub.body if isinstance(c, ast.ClassDef) for n in c.body
               if isinstance(n, ast.FunctionDef) and not n.name.startswith("_")}
    assert len(members) > 100 and members <= names, sorted(members - names)
    # the types come from the stubs: the overloads of new_game, a property's type
    joined = "\n".join(text)
    assert 'new_game(players: int, variant: Literal["summer-pavilion"]' in joined
    assert ".. py:property:: is_over\n      :type: bool" in joined
