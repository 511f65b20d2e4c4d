"""Shared fixtures. Every rules test takes the ``engine`` fixture and so runs once per engine (PEP 399)."""

import os

import pytest

import azul_engine


def _cpp_required():
    """In CI, or with AZUL_REQUIRE_CPP=1, a missing C++ engine is a failure, never a skip."""
    ci = os.environ.get("CI", "").strip().lower() not in ("", "0", "false")
    return ci or os.environ.get("AZUL_REQUIRE_CPP") == "1"


@pytest.fixture(params=["python", "cpp"], ids=["py", "cpp"])
def engine(request):
    """The engine module under test: ``azul_engine._pyengine`` or ``azul_engine._cppengine``."""
    try:
        return azul_engine.load_backend(request.param)
    except ImportError as exc:
        error = exc
    if request.param == "cpp" and not _cpp_required():
        pytest.skip(f"C++ engine not built: {error.__cause__ or error}")
    pytest.fail(f"{request.param} engine cannot be imported: {error}", pytrace=False)
