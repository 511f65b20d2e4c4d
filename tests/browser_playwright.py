"""Playwright for the SVG and replay tests (the web app's selenium fixtures are in browser_support.py):
headless Chromium (Debian's ``chromium`` package, installed by .ci/run) driven by Playwright for Python, never
a browser Playwright downloads itself.

Use the fixtures by importing them into a test module::

    from browser_playwright import browser, page, ARTIFACTS  # noqa: F401  (pytest fixtures)

``browser`` (one per session) and ``page`` (a fresh page per test, ``page.problems`` collecting every console
error and uncaught script error) skip with a reason when Chromium or Playwright is missing, and FAIL instead
when the environment variable CI is set: CI must run them.  ``AZUL_CHROMIUM`` names another binary;
``AZUL_NO_BROWSER=reason`` skips them on purpose (scripts/sanitize.sh sets it: no browser under ASan).
Screenshots go to ``ARTIFACTS`` (tests/artifacts/, ignored by git).
"""

import os
import shutil

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
ARTIFACTS = os.path.join(HERE, "artifacts")
_NAMES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")


def in_ci():
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false")


def chromium_path():
    """The Chromium binary to drive, or None."""
    named = os.environ.get("AZUL_CHROMIUM")
    if named:
        return shutil.which(named) or (named if os.path.exists(named) else None)
    for name in _NAMES:
        found = shutil.which(name)
        if found:
            return found
    return None


def _missing(reason):
    if in_ci():
        pytest.fail("browser tests cannot run in CI: %s" % reason, pytrace=False)
    pytest.skip(reason)


@pytest.fixture(scope="session")
def browser():
    reason = os.environ.get("AZUL_NO_BROWSER")
    if reason:  # a run that leaves the browser out on purpose (the sanitizer pass), CI or not
        pytest.skip("browser tests left out: %s" % reason)
    path = chromium_path()
    if path is None:
        _missing("no Chromium found (apt-get install chromium; or set AZUL_CHROMIUM)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _missing("Playwright for Python is not installed (pip install 'azul-engine[browser]')")
    os.makedirs(ARTIFACTS, exist_ok=True)
    with sync_playwright() as p:
        # --no-sandbox: CI runs as root, where Chromium's sandbox refuses to start.
        b = p.chromium.launch(executable_path=path, headless=True,
                              args=["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"])
        try:
            yield b
        finally:
            b.close()


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1200, "height": 1000}, device_scale_factor=1)
    # No network: every request but a local file or inline data is refused, and counted as a problem.
    p = context.new_page()
    p.problems = []
    p.requests = []

    def route(r):
        url = r.request.url
        if url.startswith(("file:", "data:", "about:")):
            r.continue_()
        else:
            p.requests.append(url)
            r.abort()

    p.route("**/*", route)
    p.on("console", lambda m: p.problems.append("console %s: %s" % (m.type, m.text)) if m.type == "error" else None)
    p.on("pageerror", lambda e: p.problems.append("page error: %s" % e))
    try:
        yield p
    finally:
        context.close()
