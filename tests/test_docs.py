"""Examples in the documentation run as doctests."""

import doctest
import os

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


def test_api_docstring_examples(engine):
    """The docstrings of the pure engine are the API contract: their examples must hold for
    every engine, so they run with the engine under test in their namespace."""
    contract = azul_engine.load_backend("python")
    names = {name: getattr(engine, name) for name in engine.__all__}
    runner = doctest.DocTestRunner(optionflags=FLAGS)
    tests = doctest.DocTestFinder(exclude_empty=True).find(contract)
    assert tests, "no docstring examples found"
    for test in tests:
        test.globs = dict(names)
        runner.run(test)
    result = runner.summarize(verbose=False)
    assert result.failed == 0


@pytest.mark.parametrize("module", ["azul_engine.bots", "azul_engine.records", "azul_engine.tournament",
                                    "azul_engine.distributed"])
def test_module_docstring_examples(module):
    """The examples of the engine-independent modules, run with the package's active engine."""
    import importlib

    result = doctest.testmod(importlib.import_module(module), optionflags=FLAGS)
    assert result.attempted > 0 and result.failed == 0
