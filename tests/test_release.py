"""The release's configuration (issue 35): pyproject.toml's [tool.cibuildwheel] builds CPython 3.9-3.13 for every
platform and tests each wheel with the rules tests, and .github/workflows/release.yml builds them all, the sdist,
and publishes on a version tag by trusted publishing.  What runs the real tools: scripts/dist.sh (actionlint on
the workflow; auditwheel repair of the Linux x86-64 wheel and this test command against it), in CI."""

import os
import re
import shutil
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
WORKFLOW = os.path.join(ROOT, ".github", "workflows", "release.yml")


def _pyproject():
    try:
        import tomllib
    except ImportError:  # Python 3.9 and 3.10
        tomllib = pytest.importorskip("tomli")
    with open(os.path.join(ROOT, "pyproject.toml"), "rb") as f:
        return tomllib.load(f)


def _workflow():
    yaml = pytest.importorskip("yaml")
    with open(WORKFLOW, encoding="utf-8") as f:
        return yaml.safe_load(f)


def test_cibuildwheel_builds_every_supported_python_on_every_platform():
    config = _pyproject()["tool"]["cibuildwheel"]
    assert config["build"] == ["cp%d%d-*" % (3, minor) for minor in range(9, 14)]
    assert config["linux"]["archs"] == ["x86_64", "aarch64"]
    assert config["macos"]["archs"] == ["x86_64", "arm64"]
    assert config["windows"]["archs"] == ["AMD64"]
    for part in ("environment", "test-environment"):
        assert config[part]["AZUL_REQUIRE_CPP"] == "1"  # a wheel without the C++ engine fails, never ships
    assert config["macos"]["environment"]["AZUL_REQUIRE_CPP"] == "1"
    # Python's classifiers say the same versions
    classifiers = _pyproject()["project"]["classifiers"]
    assert {c for c in classifiers if re.fullmatch(r"Programming Language :: Python :: 3\.\d+", c)} == {
        "Programming Language :: Python :: 3.%d" % minor for minor in range(9, 14)}


def test_the_wheels_test_command_runs_rules_tests_that_exist_outside_the_tree():
    command = _pyproject()["tool"]["cibuildwheel"]["test-command"]
    assert "\n" not in command and command.startswith("pytest ")
    files = re.findall(r"\{project\}/(tests/test_\w+\.py)", command)
    assert len(files) >= 10
    assert all(os.path.isfile(os.path.join(ROOT, f)) for f in files), files
    # the rules of both variants, the playouts and the engines' parity; nothing that needs an extra
    assert {"tests/test_end.py", "tests/test_pavilion.py", "tests/test_playouts.py", "tests/test_parity.py"} <= set(
        files)
    for f in files:
        with open(os.path.join(ROOT, f), encoding="utf-8") as source:
            text = source.read()
        assert not re.search(r"^(import|from) (hypothesis|scipy|gymnasium|starlette|playwright)", text, re.M), f


def test_the_release_workflow_builds_tests_and_publishes_on_a_tag():
    workflow = _workflow()
    on = workflow.get("on", workflow.get(True))  # YAML 1.1 reads the key "on" as True
    assert on["push"]["tags"] == ["v*"]
    jobs = workflow["jobs"]
    platforms = {(m["platform"], m["arch"]) for m in jobs["wheels"]["strategy"]["matrix"]["include"]}
    assert platforms == {("linux", "x86_64"), ("linux", "aarch64"), ("macos", "x86_64"), ("macos", "arm64"),
                         ("windows", "AMD64")}
    build = " ".join(step.get("run", "") for step in jobs["wheels"]["steps"])
    assert "cibuildwheel==" in build and "python -m cibuildwheel" in build
    sdist = " ".join(step.get("run", "") for step in jobs["sdist"]["steps"])
    assert "build --sdist" in sdist and "twine check --strict" in sdist
    publish = jobs["publish"]
    assert publish["if"] == "startsWith(github.ref, 'refs/tags/v')"
    assert set(publish["needs"]) == {"wheels", "sdist"}
    assert publish["permissions"] == {"id-token": "write"}  # trusted publishing, no token
    assert any(step.get("uses", "").startswith("pypa/gh-action-pypi-publish@") for step in publish["steps"])
    assert not any("password" in (step.get("with") or {}) for step in publish["steps"])
    assert workflow["permissions"] == {"contents": "read"}


def test_actionlint_if_installed():
    """scripts/dist.sh installs actionlint and runs it in CI; here only where it is on the PATH."""
    actionlint = shutil.which("actionlint") or shutil.which("actionlint", path=os.path.dirname(sys.executable))
    if actionlint is None:
        pytest.skip("actionlint is not installed (scripts/dist.sh installs it)")
    proc = subprocess.run([actionlint, "-no-color", "-oneline", WORKFLOW], capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode == 0, proc.stdout + proc.stderr
