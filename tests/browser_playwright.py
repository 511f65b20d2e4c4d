"""The one place that starts a browser for the tests (the SVG boards, the HTML replays, the web app): headless
Chromium (Debian's ``chromium`` package, installed by .ci/run) driven by Playwright for Python, never a browser
Playwright downloads itself.

``browser`` is registered once for the whole suite by conftest.py; a test module imports ``page`` (or calls
``new_page``) from here::

    from browser_playwright import ARTIFACTS, page  # noqa: F401  (a pytest fixture)

``browser`` (one per session) and ``page`` (a fresh page per test, see ``new_page``) skip with a reason when
Chromium or Playwright is missing, and FAIL instead when the environment variable CI is set: CI must run them.  ``AZUL_CHROMIUM`` names another binary;
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


def new_page(browser, allow=(), **options):
    """A page in a context of its own (``options``: Playwright's new_context options), with no network: every
    request but a local file, inline data and URLs starting with one of ``allow`` (a test's own server,
    "http://127.0.0.1:PORT/") is refused and counted in ``page.requests``; every console error and uncaught
    script error is collected in ``page.problems``. Close it with ``page.context.close()``."""
    options.setdefault("viewport", {"width": 1200, "height": 1000})
    options.setdefault("device_scale_factor", 1)
    options.setdefault("locale", "en-US")
    context = browser.new_context(**options)
    p = context.new_page()
    p.problems = []
    p.requests = []
    allowed = ("file:", "data:", "about:") + tuple(allow)

    def route(r):
        url = r.request.url
        if url.startswith(allowed):
            r.continue_()
        else:
            p.requests.append(url)
            r.abort()

    p.route("**/*", route)
    p.on("console", lambda m: p.problems.append("console %s: %s" % (m.type, m.text)) if m.type == "error" else None)
    p.on("pageerror", lambda e: p.problems.append("page error: %s" % e))
    return p


WCAG_AA = {"runOnly": {"type": "tag", "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]},
           "resultTypes": ["violations"]}


def axe_violations(p):
    """axe-core's WCAG 2.1 A and AA violations on the page as it is, as short lines."""
    from axe_playwright_python.sync_playwright import Axe

    found = Axe().run(p, options=WCAG_AA).response["violations"]
    return ["%s: %s (%s)" % (v["id"], v["help"], ", ".join(n["target"][0] for n in v["nodes"][:3])) for v in found]


@pytest.fixture
def page(browser):
    p = new_page(browser)
    try:
        yield p
    finally:
        p.context.close()
