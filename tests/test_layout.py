"""The two engines point at each other, file by file, both ways: every C++ source and header says which pure-Python
module is its twin (or that it has none, and why), every pure-Python module of azul_engine/_pure names its C++
twin, every path named exists, and each pair names each other (a header may be named through its .cpp).

And the shape of the package: its layers (.importlinter) and no import cycle, one command-line layer, the game's
facts from game_info, the pure engine's imports, pages that are templates (not HTML in Python), one escaper, the
pages' files in the package data."""

import glob
import os
import re
import subprocess

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
NATIVE = sorted(glob.glob(os.path.join(ROOT, "native", "src", "**", "*.cpp"), recursive=True)
                + glob.glob(os.path.join(ROOT, "native", "src", "**", "*.h"), recursive=True)
                + glob.glob(os.path.join(ROOT, "native", "include", "**", "*.h"), recursive=True))
PURE = sorted(glob.glob(os.path.join(ROOT, "python", "azul_engine", "_pure", "**", "*.py"), recursive=True))
PATH = re.compile(r"(?:native|python)/[\w/]+\.(?:cpp|h|py)")


def rel(path):
    return os.path.relpath(path, ROOT).replace(os.sep, "/")


def native_twins():
    """native file -> the pure-Python files its 'Pure-Python twin:' line names ([] for none)."""
    out = {}
    for path in NATIVE:
        with open(path, encoding="utf-8") as f:
            lines = [line for line in f if line.startswith("// Pure-Python twin:")]
        assert len(lines) == 1, "%s: %d 'Pure-Python twin:' lines, not 1" % (rel(path), len(lines))
        named = PATH.findall(lines[0])
        assert named or "none (" in lines[0], "%s: names no twin and says not why" % rel(path)
        out[rel(path)] = named
    return out


def pure_twins():
    """pure-Python module -> the native files its docstring's 'C++ twin(s):' names."""
    out = {}
    for path in PURE:
        with open(path, encoding="utf-8") as f:
            text = f.read()
        if os.path.basename(path) == "__init__.py":
            continue
        found = re.search(r"C\+\+ twins?: (.*?)(?:\n\n|\"\"\")", text, re.S)
        assert found, "%s names no C++ twin" % rel(path)
        out[rel(path)] = PATH.findall(found.group(1))
        assert out[rel(path)], "%s: its C++ twin line names no file" % rel(path)
    return out


def sibling(path):
    """native/include/azul/X/Y.h <-> native/src/X/Y.cpp."""
    m = re.match(r"native/include/azul/(.+)\.h$", path)
    if m:
        return "native/src/%s.cpp" % m.group(1)
    m = re.match(r"native/src/(.+)\.cpp$", path)
    return "native/include/azul/%s.h" % m.group(1) if m else None


def test_every_path_named_exists():
    for source, named in list(native_twins().items()) + list(pure_twins().items()):
        for path in named:
            assert os.path.exists(os.path.join(ROOT, path)), "%s names %s, which does not exist" % (source, path)


def test_twins_name_each_other():
    native, pure = native_twins(), pure_twins()
    for cpp, pys in native.items():
        for py in pys:
            assert cpp in pure[py] or sibling(cpp) in pure[py], "%s names %s, which does not name it" % (cpp, py)
    for py, cpps in pure.items():
        for cpp in cpps:
            assert py in native[cpp], "%s names %s, which does not name it back" % (py, cpp)


def test_nothing_points_outside_the_repository():
    """A user who clones the repository has nothing beside it: no file git keeps names ../shared."""
    listed = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True)
    if listed.returncode != 0:
        pytest.skip("not a git checkout: %s" % listed.stderr.decode(errors="replace").strip())
    paths = [p for p in listed.stdout.decode().split("\0") if p]
    assert "README.md" in paths and "tests/test_layout.py" in paths
    for name in paths:
        path = os.path.join(ROOT, name)
        if not os.path.isfile(path):
            continue
        with open(path, "rb") as f:
            data = f.read()
        assert b"../shared" not in data or name == "tests/test_layout.py", \
            "%s points outside the repository (../shared)" % name


PACKAGE = sorted(glob.glob(os.path.join(ROOT, "python", "azul_engine", "**", "*.py"), recursive=True))


def test_one_cli_layer(monkeypatch):
    """Every command is registered one way (_cli.add_command, from a module's register(commands)) and takes
    --backend from _cli.add_backend: the parser, built with those two watched, has no command nor --backend option
    that did not come through them. (No module imports the command line's entry point, __main__: the contract
    main of .importlinter, test_the_layers_hold.)"""
    from azul_engine import _cli
    from azul_engine.__main__ import parser

    registered, with_backend = {}, set()
    add_command, add_backend = _cli.add_command, _cli.add_backend

    def watched_command(commands, name, handler, **kwargs):
        registered[name] = add_command(commands, name, handler, **kwargs)
        return registered[name]

    def watched_backend(parser, *args, **kwargs):
        with_backend.add(id(parser))
        return add_backend(parser, *args, **kwargs)

    monkeypatch.setattr(_cli, "add_command", watched_command)
    monkeypatch.setattr(_cli, "add_backend", watched_backend)
    commands = parser()._subparsers._group_actions[0].choices
    assert len(commands) >= 13 and set(commands) == set(registered)
    for name, sub in commands.items():
        assert sub is registered[name], "%s was not made by _cli.add_command" % name
        assert callable(sub.get_default("handler")), name
        has_backend = any(a.dest == "backend" for a in sub._actions)
        assert has_backend == (id(sub) in with_backend), "%s: --backend not from _cli.add_backend" % name
        assert has_backend or name == "info", "%s has no --backend" % name


def _calls(path):
    """The names of the functions and methods the module at ``path`` calls (``f(...)``, ``x.f(...)``)."""
    import ast

    with open(path, encoding="utf-8") as f:
        tree = ast.parse(f.read(), path)
    return {getattr(node.func, "attr", getattr(node.func, "id", None)) for node in ast.walk(tree)
            if isinstance(node, ast.Call)}


def test_no_code_but_the_record_walk_reads_the_refill_notation(engine, monkeypatch):
    """Summer Pavilion's supply refill in a record ('~' and the tiles, '~BR') is read in one place:
    records.is_refill, which records.walk asks for every move of a record (so a replay of a game with refills goes
    through it), and no tool but records deals a supply itself (none calls deal_supply)."""
    from azul_engine import bots, records

    state = bots.play(engine, 2, "summer-pavilion", 5, "greedy")  # greedy takes bonus tiles: refills
    record = state.record()
    moves = [m for r in record["rounds"] for m in r["moves"]]
    refills = [m for m in moves if m.startswith("~")]
    asked = []
    is_refill = records.is_refill
    monkeypatch.setattr(records, "is_refill", lambda r, m: asked.append(m) or is_refill(r, m))
    steps = list(records.walk(record, engine))
    last = steps[-1].state
    assert refills and asked == moves and (last.scores, last.boards) == (state.scores, state.boards)
    for path in PACKAGE:
        name = rel(path)
        if "/_pure/" in name or name.rsplit("/", 1)[-1] in ENGINE_FILES or name.endswith("/records.py"):
            continue
        assert "deal_supply" not in _calls(path), "%s deals a supply itself: records.walk does" % name


# The game's facts as the engines keep them (game_info): the colour orders, the classic wall's pattern, Summer
# Pavilion's stars, the floor penalties (each space's, or the running totals).
FACTS = ("BYRKW", "WBYRK", "PGOYBR", "ORBYGPC")
PENALTIES = re.compile(r"1,\s*1,\s*2,\s*2,\s*2,\s*3,\s*3|1,\s*2,\s*4,\s*6,\s*8,\s*11,\s*14")
ENGINE_FILES = ("_pyengine.py", "_pypavilion.py")


def test_tools_take_the_game_facts_from_game_info():
    """No module above the engines (records, bots, pictures, the terminal game, the web app, the adapters) keeps
    its own copy of a colour order, the wall's pattern, the stars or the floor penalties: they read game_info."""
    import io
    import tokenize

    checked = 0
    for path in PACKAGE:
        name = rel(path)
        if "/_pure/" in name or name.rsplit("/", 1)[-1] in ENGINE_FILES:
            continue
        checked += 1
        with open(path, encoding="utf-8") as f:
            tokens = list(tokenize.generate_tokens(io.StringIO(f.read()).readline))
        code = " ".join(t.string for t in tokens if t.type not in (tokenize.COMMENT, tokenize.STRING))
        assert not PENALTIES.search(code), "%s keeps the floor penalties (game_info: floor_penalties)" % name
        for t in tokens:
            if t.type == tokenize.STRING:
                for fact in FACTS:
                    assert fact not in t.string, "%s line %d keeps %r (read game_info instead)" % (
                        name, t.start[0], fact)
    assert checked > 30


# -- the layers of the package (.importlinter) -------------------------------------------------------------------

def _source_env():
    """The environment of a tool that reads python/azul_engine from this checkout (not an installed copy)."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.path.join(ROOT, "python") + os.pathsep + env.get("PYTHONPATH", "")
    return env


def _lint_imports(source):
    """lint-imports with .importlinter on the package under the folder ``source``: (status, output)."""
    import sys

    env = dict(os.environ)
    env["PYTHONPATH"] = source + os.pathsep + env.get("PYTHONPATH", "")
    proc = subprocess.run([sys.executable, "-c", "from importlinter.cli import lint_imports_command; "
                           "lint_imports_command()", "--config", os.path.join(ROOT, ".importlinter"),
                           "--no-cache"],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    return proc.returncode, proc.stdout + proc.stderr


@pytest.mark.static
def test_the_layers_hold():
    """lint-imports keeps the contracts of .importlinter: engines at the bottom; records, bots and pictures above
    them; the command line, the web app and Ray on top; no module imports a layer above its own, no package has an
    import cycle among its modules, no module imports the package root, _pure is imported by the pure engine's
    modules and _backends only, nothing imports __main__, and only _markup imports MarkupSafe."""
    pytest.importorskip("importlinter", reason="import-linter is in the [test] extra")
    status, output = _lint_imports(os.path.join(ROOT, "python"))
    assert status == 0, output[-6000:]
    assert "0 broken" in output and "6 kept" in output


# An import each contract forbids, added to a copy of the package: (module, line, the contract's name begins).
FORBIDDEN = [
    ("records.py", "import azul_engine", "The package root is the public facade"),
    ("web/sheet.py", "from .. import game_info", "The package root is the public facade"),
    ("bots.py", "from ._pure.common import SplitMix64", "Only the pure engine's modules"),
    ("svg.py", "from markupsafe import escape as _escape", "Markup is escaped one way"),
    ("web/views.py", "import html", "Markup is escaped one way"),
    ("_commands.py", "from . import __main__", "No module imports the command line's entry point"),
    ("records.py", "from . import bots", "Engines at the bottom"),
]


@pytest.mark.static
def test_the_contracts_refuse_what_they_forbid(tmp_path):
    """Each contract of .importlinter fails a copy of the package that breaks it, naming the import: the rules of
    CONTRIBUTING.md hold by construction, not by a search for their spelling."""
    pytest.importorskip("importlinter", reason="import-linter is in the [test] extra")
    import shutil

    copy = tmp_path / "azul_engine"
    shutil.copytree(PACKAGE_DIR, copy, ignore=shutil.ignore_patterns("__pycache__", "*.so", "data", "static"))
    for module, line, contract in FORBIDDEN:
        path = copy / module
        original = path.read_text(encoding="utf-8")
        path.write_text(original + "\n" + line + "  # added by the test\n", encoding="utf-8")
        try:
            status, output = _lint_imports(str(tmp_path))
        finally:
            path.write_text(original, encoding="utf-8")
        summary = output[output.index("Contracts\n"):output.index("Broken contracts")]
        verdict = re.search(re.escape(contract) + r".*? (KEPT|BROKEN)", summary, re.S)
        assert status != 0 and verdict and verdict.group(1) == "BROKEN", (module, line, summary)
        assert "azul_engine.%s" % module[:-3].replace("/", ".") in output[output.index("Broken contracts"):]


@pytest.mark.static
def test_no_import_cycle_anywhere_in_the_package():
    """No module of azul_engine (the package root included, and imports inside functions counted) reaches itself
    through its imports: the strongly connected components of the import graph are single modules."""
    pytest.importorskip("grimp", reason="grimp comes with import-linter, in the [test] extra")
    import sys

    script = (
        "import grimp, json\n"
        "g = grimp.build_graph('azul_engine', include_external_packages=False, cache_dir=None)\n"
        "print(json.dumps({m: sorted(g.find_modules_directly_imported_by(m)) for m in g.modules}))\n")
    proc = subprocess.run([sys.executable, "-c", script], cwd=ROOT, env=_source_env(), capture_output=True,
                          text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    import json

    graph = json.loads(proc.stdout)
    assert "azul_engine._pure.classic.state" in graph and "azul_engine.records" in graph
    cycles = [sorted(c) for c in _strongly_connected(graph) if len(c) > 1]
    assert not cycles, "import cycles: %s" % cycles


def _strongly_connected(graph):
    """Tarjan's strongly connected components of ``graph`` (module -> modules it imports), iteratively."""
    index, low, on_stack, stack, out = {}, {}, set(), [], []
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(graph.get(root, ())))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(graph.get(child, ()))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = set()
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.add(member)
                    if member == node:
                        break
                out.append(component)
    return out


def test_the_cycle_finder_finds_a_cycle():
    assert sorted(map(sorted, _strongly_connected({"a": ["b"], "b": ["c", "a"], "c": [], "d": ["d"]}))) == \
        [["a", "b"], ["c"], ["d"]]


def test_the_version_has_one_source(capsys):
    """azul_engine.__version__, ``azul-engine --version`` and the installed metadata all read _version.py."""
    import importlib.metadata

    import azul_engine
    from azul_engine import _version
    from azul_engine.__main__ import main

    tomllib = pytest.importorskip("tomllib", reason="tomllib: Python 3.11 and later")
    with open(os.path.join(ROOT, "pyproject.toml"), "rb") as f:
        project = tomllib.load(f)
    assert "version" in project["project"]["dynamic"] and "version" not in project["project"]
    assert project["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "azul_engine._version.__version__"}
    assert re.fullmatch(r"\d+\.\d+\.\d+(?:\.dev\d+|rc\d+)?", _version.__version__)
    assert azul_engine.__version__ == _version.__version__
    try:
        assert importlib.metadata.version("azul-engine") == _version.__version__
    except importlib.metadata.PackageNotFoundError:
        pass  # run from a source tree that was never installed
    with pytest.raises(SystemExit) as exit_:
        main(["--version"])
    assert exit_.value.code == 0
    assert capsys.readouterr().out == "azul-engine %s\n" % _version.__version__


def test_the_package_carries_its_licence_and_metadata():
    """The licence (MIT) is in LICENSE and in the installed metadata as PEP 639 says (License-Expression and
    License-File), with the authors, classifiers and project URLs a package index shows."""
    import importlib.metadata

    with open(os.path.join(ROOT, "LICENSE"), encoding="utf-8") as f:
        licence = f.read()
    assert licence.startswith("MIT License\n") and "the azul-engine authors" in licence
    try:
        meta = importlib.metadata.metadata("azul-engine")
    except importlib.metadata.PackageNotFoundError:
        pytest.skip("run from a source tree that was never installed")
    assert meta["License-Expression"] == "MIT"
    assert meta.get_all("License-File") == ["LICENSE"]
    assert not any(c.startswith("License ::") for c in meta.get_all("Classifier"))  # PEP 639: the expression only
    assert "Topic :: Games/Entertainment :: Board Games" in meta.get_all("Classifier")
    assert meta["Author"] == "the azul-engine authors" or "the azul-engine authors" in (meta["Author-email"] or "")
    urls = dict(u.split(", ", 1) for u in meta.get_all("Project-URL"))
    assert set(urls) == {"Documentation", "Source", "Changelog", "Issues"}
    assert all(u.startswith("https://") for u in urls.values())
    dist = importlib.metadata.distribution("azul-engine")
    files = [str(p) for p in dist.files or []]
    assert any(p == "LICENSE" or p.endswith("/LICENSE") for p in files), files


# -- the pure engine's import graph ----------------------------------------------------------------------------

PURE_ENGINE = PURE + [os.path.join(ROOT, "python", "azul_engine", name) for name in ENGINE_FILES]


def _module_name(path):
    parts = os.path.relpath(path, os.path.join(ROOT, "python"))[:-len(".py")].split(os.sep)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path):
    """The modules the file at ``path`` imports, as absolute names: every import statement, at the top or in a
    function (a function's import can hide a cycle as well as any), and for ``from X import Y`` both X and X.Y
    (Y may be a module)."""
    import ast

    name = _module_name(path)
    package = name if path.endswith("__init__.py") else name.rpartition(".")[0]
    with open(path, encoding="utf-8") as f:
        tree = ast.parse(f.read(), path)
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[:len(package.split(".")) - node.level + 1]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module
            out.add(module)
            out.update("%s.%s" % (module, alias.name) for alias in node.names)
    return out


def pure_import_graph():
    """module -> the modules of the pure engine (azul_engine._pure and _pyengine, _pypavilion) it
    imports.  Importing a.b.c runs the packages a and a.b first: those count as imports too."""
    modules = {_module_name(path): path for path in PURE_ENGINE}
    graph = {}
    for name, path in modules.items():
        edges = set()
        for imported in _imports(path) | {name}:
            parts = imported.split(".")
            edges.update(".".join(parts[:k]) for k in range(1, len(parts) + 1))
        graph[name] = sorted(m for m in edges if m in modules and m != name)
    return graph


def test_the_pure_engine_has_no_import_cycle():
    """No module of the pure engine imports, directly or through others, a module that imports it back: each job's
    module imports only what it uses, state.py composes the state class from them, and the engine modules
    (_pyengine, _pypavilion) import the finished engine.  A cycle would make the import order matter again."""
    graph = pure_import_graph()
    assert len(graph) >= 35 and "azul_engine._pure.classic.state" in graph["azul_engine._pyengine"]
    assert "azul_engine._pure.classic.apply" in graph["azul_engine._pure.classic.state"]
    cycles = [sorted(c) for c in _strongly_connected(graph) if len(c) > 1]
    assert not cycles, "import cycles in the pure engine: %s" % "; ".join(" <-> ".join(c) for c in cycles)


def test_the_pure_engine_imports_at_the_top():
    """No late import (after the module's code has begun, as flake8's E402 says) and no class put together
    afterwards: the state classes are composed in their class bodies, and no module fills a namespace from others
    (``globals().update``, setattr on a class)."""
    import ast

    for path in PURE_ENGINE:
        with open(path, encoding="utf-8") as f:
            text = f.read()
        tree = ast.parse(text, path)
        code_began = False
        for node in tree.body:
            is_docstring = isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                assert not code_began, "%s line %d: an import after the module's code" % (rel(path), node.lineno)
            elif not is_docstring:
                code_began = True
        assert "noqa: E402" not in text and "globals()" not in text, rel(path)
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "setattr":
                target = node.args[0]
                assert not (isinstance(target, ast.Name) and target.id[:1].isupper()), \
                    "%s line %d: a class put together with setattr" % (rel(path), node.lineno)


# -- pages are templates; one escaper --------------------------------------------------------------------------

PACKAGE_DIR = os.path.join(ROOT, "python", "azul_engine")
# An HTML tag in a Python string ("<div", "</p>", ...), not a regular expression's named group ("(?P<col>").
HTML_TAG = re.compile(r"(?<!\?P)</?(?:a|b|i|p|br|h[1-6]|div|span|button|form|input|select|option|label|textarea|"
                      r"fieldset|table|tr|td|th|ul|ol|li|html|head|body|main|nav|header|title|meta|link|script|"
                      r"style|noscript|progress|strong|em|small|img|svg)\b", re.I)


def _string_literals(path):
    """A module's string literals but its docstrings (the literal parts of f-strings included): (line, text)."""
    import ast

    with open(path, encoding="utf-8") as f:
        tree = ast.parse(f.read())
    docstrings = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                docstrings.add(id(first.value))
    return [(node.lineno, node.value) for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings]


def test_pages_are_templates_not_strings_of_python():
    """The pages are Jinja2 templates (azul_engine/web/templates/, azul_engine/data/replay.html and ratings.html):
    no module of the web app, and not replay.py nor the ratings' modules, writes HTML in Python (no string of theirs
    holds an HTML tag; the pictures are svg.py's, the one module that writes markup, or the templates' own), and
    web/app.py, the routes and their endpoints, stays short."""
    with open(os.path.join(PACKAGE_DIR, "web", "app.py"), encoding="utf-8") as f:
        assert len(f.readlines()) <= 400
    paths = sorted(glob.glob(os.path.join(PACKAGE_DIR, "web", "*.py"))) + [
        os.path.join(PACKAGE_DIR, name) for name in ("replay.py", "report.py", "ratings.py", "ladder.py")]
    assert len(paths) >= 10
    for path in paths:
        for line, text in _string_literals(path):
            assert not HTML_TAG.search(text), "%s line %d writes HTML: %r (a template's job)" % (
                rel(path), line, text[:80])
    assert HTML_TAG.search('"<td>%d</td>" % score') and not HTML_TAG.search(r"(?P<col>\d)")


def test_no_template_line_is_over_160_characters():
    """The pages' templates (the web app's, the replay's and the report's), their style and scripts read in a review
    without scrolling: no line over 160 characters (some ran to 365-572)."""
    paths = sorted(glob.glob(os.path.join(PACKAGE_DIR, "web", "templates", "*.html"))
                   + glob.glob(os.path.join(PACKAGE_DIR, "data", "*.html"))
                   + glob.glob(os.path.join(PACKAGE_DIR, "data", "*.css"))
                   + glob.glob(os.path.join(PACKAGE_DIR, "data", "*.js"))
                   + glob.glob(os.path.join(PACKAGE_DIR, "web", "static", "*.js"))
                   + glob.glob(os.path.join(PACKAGE_DIR, "web", "static", "*.css")))
    assert len(paths) >= 15
    for path in paths:
        with open(path, encoding="utf-8") as f:
            for number, line in enumerate(f, 1):
                assert len(line.rstrip("\n")) <= 160, "%s line %d: %d characters" % (rel(path), number, len(line))


def test_one_escaper(monkeypatch):
    """Markup is escaped one way: the templates by Jinja2's autoescape, the pictures (svg.py) by _markup.escape,
    MarkupSafe's escape, the function autoescape calls. Only _markup imports MarkupSafe or html (the contract
    escaper of .importlinter, test_the_layers_hold), and a picture's text goes through _markup.escape: with it
    replaced, the picture's text changes."""
    import markupsafe

    from azul_engine import _markup, svg

    assert _markup.escape('<b x="1">&\'') == str(markupsafe.escape('<b x="1">&\''))
    title = svg.document(10, 10, "", ["<g/>"], title="a < b & c")
    assert "a &lt; b &amp; c" in title and "a < b" not in title
    monkeypatch.setattr(svg, "escape", lambda text: "ESCAPED")
    assert "ESCAPED" in svg.document(10, 10, "", ["<g/>"], title="a < b & c")


def test_the_pages_files_are_package_data():
    """Every file the pages read at run time (the web app's templates and static files, the HTML replay's template,
    style and script) is package data: its package is listed in pyproject.toml and one of the package's
    [tool.setuptools.package-data] patterns covers it, so an installed package has it."""
    import fnmatch

    tomllib = pytest.importorskip("tomllib", reason="tomllib: Python 3.11 and later")
    with open(os.path.join(ROOT, "pyproject.toml"), "rb") as f:
        setuptools = tomllib.load(f)["tool"]["setuptools"]
    checked = 0
    for folder in ("data", "data/networks", "web/templates", "web/static"):
        package = "azul_engine." + folder.replace("/", ".")
        assert package in setuptools["packages"], package
        patterns = setuptools["package-data"][package]
        for name in os.listdir(os.path.join(PACKAGE_DIR, folder)):
            if name.endswith(".py") or name == "__pycache__" or os.path.isdir(os.path.join(PACKAGE_DIR, folder, name)):
                continue  # a folder is a package of its own, checked in its turn
            assert any(fnmatch.fnmatch(name, p) for p in patterns), "%s/%s is not package data" % (package, name)
            checked += 1
    assert checked >= 15


def test_the_sanitizer_build_checks_float_to_integer_conversions():
    """AZUL_SANITIZE with "undefined" adds float-cast-overflow, which GCC's "undefined" leaves out (a double
    converted to an integer it does not fit: search(seconds > 9.2e9) was one, and CI did not see it), and
    scripts/sanitize.sh asks for it and checks the extension has its handler. setup.py's sanitizers() is read
    from the file alone (importing setup.py would run setup())."""
    import ast

    with open(os.path.join(ROOT, "setup.py"), encoding="utf-8") as f:
        tree = ast.parse(f.read())
    [function] = [node for node in tree.body if isinstance(node, ast.FunctionDef) and node.name == "sanitizers"]
    space = {}
    exec(compile(ast.Module(body=[function], type_ignores=[]), "setup.py", "exec"), space)
    sanitizers = space["sanitizers"]
    assert sanitizers("address,undefined") == "address,undefined,float-cast-overflow"
    assert sanitizers("address,undefined,float-cast-overflow") == "address,undefined,float-cast-overflow"
    assert sanitizers("address") == "address" and sanitizers(" ") == ""
    with open(os.path.join(ROOT, "scripts", "sanitize.sh"), encoding="utf-8") as f:
        script = f.read()
    assert "AZUL_SANITIZE=address,undefined,float-cast-overflow .venv-asan/bin/python -m pip install" in script
    assert 'nm -D "$ext" | grep __ubsan_handle_float_cast_overflow' in script
