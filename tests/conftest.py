"""Shared fixtures. Every rules test takes the ``engine`` fixture and so runs once per engine (PEP 399)."""

import signal

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


@pytest.fixture(autouse=True, scope="session")
def sigint_has_pythons_handler():
    """A suite started with SIGINT ignored (a background job of a non-interactive shell, nohup) would pass the
    ignored signal on, across exec, to every process the tests start, and the tests that stop a child with
    Ctrl-C would wait for it until their timeout. While the suite runs, SIGINT has Python's own handler, which
    exec resets to the default in the children."""
    previous = signal.getsignal(signal.SIGINT)
    if previous == signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    if previous == signal.SIG_IGN:
        signal.signal(signal.SIGINT, previous)

