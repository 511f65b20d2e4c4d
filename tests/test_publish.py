"""Issue 35's smaller points, in both engines where they are engine calls: VectorGame's repr, from_text's variant,
the package's dir(), the default ports, and how seats are numbered for people."""

import pickle
import subprocess
import sys

import pytest

import azul_engine


@pytest.mark.parametrize("args,kwargs,text", [
    ((4,), {}, "VectorGame(4, players=2, variant='classic', seed=0, auto_reset=False)"),
    ((3, 4, "summer-pavilion", 2 ** 64 - 1), {"auto_reset": "next_step"},
     "VectorGame(3, players=4, variant='summer-pavilion', seed=18446744073709551615, auto_reset='next_step')"),
    ((1,), {"variant": "grey", "players": 3, "auto_reset": True},
     "VectorGame(1, players=3, variant='grey', seed=0, auto_reset=True)"),
])
def test_vector_game_repr_is_its_call(engine, args, kwargs, text):
    """repr(VectorGame(...)) is the call that makes it (the same text in both engines), not <... object at 0x...>;
    stepping does not change it, and eval of it makes an equal vector."""
    vec = engine.VectorGame(*args, **kwargs)
    assert repr(vec) == text
    vec.step(vec.legal_actions[:, 0])
    assert repr(vec) == text
    again = eval(text, {"VectorGame": engine.VectorGame})
    assert repr(again) == text and again.n == vec.n and again.variant == vec.variant
    assert repr(pickle.loads(pickle.dumps(vec))) == text


@pytest.mark.parametrize("variant", ["classic", "grey", "summer-pavilion"])
def test_from_text_with_the_variant_it_must_be(engine, variant):
    state = engine.new_game(2, variant, seed=3)
    text = state.to_text()
    assert engine.from_text(text, variant=variant) == state
    assert engine.from_text(text) == state
    for other in set(engine.VARIANTS) - {variant}:
        with pytest.raises(engine.StateFormatError) as error:
            engine.from_text(text, variant=other)
        assert str(error.value) == "field variant: %r, expected %r" % (variant, other)


def test_from_text_refuses_an_unknown_variant_before_reading(engine):
    """The variant is checked first, with new_game's words, whatever the text holds."""
    for bad in ("classical", 3):
        with pytest.raises(ValueError) as error:
            engine.from_text("not a state", variant=bad)
        assert str(error.value) == "unknown variant %r (variants: classic, grey, summer-pavilion)" % (bad,)
        assert not isinstance(error.value, engine.StateFormatError)
    with pytest.raises(TypeError):
        engine.from_text(engine.new_game(2, seed=1).to_text(), "classic")  # keyword-only


def test_dir_lists_the_api_and_the_tools_not_the_imports():
    """dir(azul_engine) is what a user may use: the API, the tools and the dunders; importlib (imported by the
    package for its lazy tools) is not listed, and neither is any other private import."""
    names = dir(azul_engine)
    assert set(azul_engine.__all__) <= set(names)
    assert {"records", "bots", "svg", "__version__"} <= set(names)
    assert "importlib" not in names and "_backends" not in names
    assert all(not n.startswith("_") or n.startswith("__") for n in names), names
    assert names == sorted(names)


def test_the_package_does_not_hold_importlib():
    code = "import azul_engine as az; print(hasattr(az, 'importlib'), 'importlib' in dir(az))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.stdout.split() == ["False", "False"], out.stderr


def test_the_web_tests_client_gives_no_deprecation_warning():
    """The webtest extra brings httpx2 where Starlette's test client wants it (Python 3.11 and later): the client
    of the web app's tests starts and answers without a warning (Starlette's StarletteDeprecationWarning is a
    UserWarning: every warning is an error here)."""
    import importlib.util
    import os

    for module in ("starlette", "httpx"):
        pytest.importorskip(module)
    if sys.version_info >= (3, 11) and importlib.util.find_spec("httpx2") is None:
        if os.environ.get("CI", "").strip().lower() not in ("", "0", "false"):
            pytest.fail("the webtest extra installs httpx2 on Python 3.11 and later")
        pytest.skip("httpx2 is not installed (the webtest extra brings it)")
    code = ("from starlette.testclient import TestClient\n"
            "from azul_engine.web import app\n"
            "print(TestClient(app.create_app()).get('/').status_code)\n")
    out = subprocess.run([sys.executable, "-W", "error", "-c", code], capture_output=True,
                         text=True, timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.strip() == "200"


def test_bench_says_each_section_before_its_rows():
    """bench's progress: a line for each section of rows, before its first row (bench writes them on standard
    error), so that a long section (the pure engine's search rows) is never a silent wait."""
    from azul_engine import bench

    events = []
    for result in bench.run(["python"], configs=[(2, "classic")], repeats=1, seconds=0.01, threads=1,
                            progress=events.append):
        events.append(result["measure"])
    sections = [e for e in events if isinstance(e, str) and e.startswith("bench: python: ")]
    assert [s.split(": ")[2].split(" (")[0] for s in sections] == [
        "in-engine random games", "in-engine games, light policy", "Python loop",
        "VectorGame, the env step, clone() and threads", "search, 25 iterations", "guided search"]
    # each section's line comes before its rows, and announces as many rows as follow it
    measures = {"in-engine random games": ["engine"], "in-engine games, light policy": ["engine-light"],
                "Python loop": ["python-loop"], "search, 25 iterations": ["search"], "guided search": ["guided"],
                "VectorGame, the env step, clone() and threads": ["batched", "batched-env", "clone", "threads"]}
    for k, line in enumerate(events):
        if isinstance(line, str) and line.startswith("bench: "):
            name = line.split(": ")[2].split(" (")[0]
            rows = []
            for e in events[k + 1:]:
                if isinstance(e, str) and e.startswith("bench: "):
                    break
                rows.append(e)
            assert rows and set(rows) <= set(measures[name]), (name, rows)
            assert "(%d row" % len(rows) in line, (line, rows)


DOCS_SITE = "https://azul-engine.readthedocs.io/en/latest/"
RAW = "https://raw.githubusercontent.com/azul-engine/azul-engine/main/"


def _readme():
    import os

    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    with open(os.path.join(root, "README.md"), encoding="utf-8") as f:
        return root, f.read()


def _slug(heading):
    """A heading's anchor, as Sphinx (docutils) and GitHub make it: lower case, words joined by hyphens."""
    import re

    return re.sub(r"[^a-z0-9]+", "-", heading.lower().replace("'", "")).strip("-")


def test_the_readme_links_work_on_pypi():
    """PyPI shows the README as the package's page, where a relative link or image leads nowhere: every link is
    absolute, each one to the documentation site names a page of docs/ (and a heading of it, for an anchor),
    the picture is the repository's raw file, and the pages only the site renders (the command line, the API
    reference) are linked there."""
    import os
    import re

    root, readme = _readme()
    targets = re.findall(r"\]\(([^)\s]+)\)", readme)
    assert targets and all(re.match(r"https://", t) for t in targets), [t for t in targets if "://" not in t]
    site = [t[len(DOCS_SITE):] for t in targets if t.startswith(DOCS_SITE)]
    assert len(site) >= 20 and {"cli.html", "api/index.html", "tutorial.html", "environments.html"} <= set(site)
    for target in site:
        page, _, anchor = target.partition("#")
        source = os.path.join(root, "docs", page[:-len(".html")] + ".md")
        assert page.endswith(".html") and os.path.isfile(source), target
        if anchor:
            with open(source, encoding="utf-8") as f:
                headings = [line.lstrip("#").strip() for line in f if line.startswith("#")]
            assert anchor in {_slug(h) for h in headings}, target
    images = re.findall(r"!\[[^\]]*\]\(([^)\s]+)\)", readme)
    assert images and all(i.startswith(RAW) for i in images)
    for image in images:
        assert os.path.isfile(os.path.join(root, image[len(RAW):].split("?")[0])), image


def test_the_readme_names_the_quick_start_commands():
    """The test command is the one CI runs (.ci/run calls scripts/test.sh), the fast loop and the site's build
    are named, each with its time."""
    import os
    import re

    root, readme = _readme()
    start = readme.index("## Quick start")
    quick = readme[start:readme.index("\n## ", start + 1)]
    for command in ("bash scripts/bench.sh", "bash scripts/test.sh", 'python -m pytest -m "not slow"',
                    "bash scripts/docs.sh --build-only"):
        assert command in quick, command
    assert "3 minutes" in quick and "12 minutes" in quick and re.search(r"under 2\s+minutes", quick)
    with open(os.path.join(root, ".ci", "run"), encoding="utf-8") as f:
        assert "bash scripts/test.sh" in f.read()


def test_the_front_pages_code_fits_a_laptop_screen():
    """The site's front page (docs/index.md) shows its example without a horizontal scroll bar at 1280 px: in
    Furo's content column there, a code line of up to about 90 characters fits (its longest, 64, ended at 900 px
    of 1128 in a screenshot of Chromium); the lines are kept to 72."""
    import os
    import re

    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    with open(os.path.join(root, "docs", "index.md"), encoding="utf-8") as f:
        page = f.read()
    blocks = re.findall(r"```python\n(.*?)```", page, re.S)
    assert blocks
    longest = max(len(line) for block in blocks for line in block.splitlines())
    assert longest <= 72, longest
