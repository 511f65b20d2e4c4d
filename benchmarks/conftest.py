"""Benchmarks: run with ``python -m pytest benchmarks`` (not part of the default test run).

Each benchmark takes the ``engine`` fixture and so is measured once per engine; a missing C++ engine is skipped
here (figures of one engine are still worth having), unlike in the test suite, where it fails CI.
"""

import pytest

import azul_engine


@pytest.fixture(params=["python", "cpp"], ids=["py", "cpp"])
def engine(request):
    try:
        return azul_engine.load_backend(request.param)
    except ImportError as exc:
        pytest.skip(f"{request.param} engine not available: {exc}")
