"""Shared fixtures. Every rules test takes the ``engine`` fixture and so runs once per engine (PEP 399)."""

import pytest

from helpers import load_both, load_engine
# The session's one headless Chromium (browser_playwright.py), registered here once so that every module that
# uses it shares it (a fixture imported into two modules would start two Playwright drivers).
from browser_playwright import browser  # noqa: F401,E402


@pytest.fixture(params=["python", "cpp"], ids=["py", "cpp"])
def engine(request):
    """The engine module under test: ``azul_engine._pyengine`` or ``azul_engine._cppengine`` (``load_engine``:
    a C++ engine that was not built skips, or fails in CI and with AZUL_REQUIRE_CPP=1)."""
    return load_engine(request.param)


@pytest.fixture
def engines():
    """Both engines at once, ``(pure Python, C++)``, for tests that compare them (``load_both``)."""
    return load_both()
