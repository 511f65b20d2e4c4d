"""The one place that starts a browser for the tests: Debian's headless ``chromium`` driven by Selenium through
Debian's ``chromium-driver`` (nothing downloads a browser or a driver).

``browser()`` returns a started WebDriver, or calls ``pytest.skip`` with the reason when chromium, its driver
or Selenium is missing, unless the environment variable CI is set: then a missing browser fails the test.
``SCREENSHOTS`` is the folder the tests write their screenshots to (gitignored).
"""

import os
import shutil
from pathlib import Path

import pytest

SCREENSHOTS = Path(__file__).resolve().parent.parent / "screenshots"
_CHROMIUM = ("chromium", "chromium-browser")
_DRIVER = ("chromedriver",)
_DRIVER_PATHS = ("/usr/bin/chromedriver", "/usr/lib/chromium/chromedriver")


def _missing(why):
    if os.environ.get("CI"):
        pytest.fail("CI needs a browser for this test: %s (.ci/run installs Debian's chromium and "
                    "chromium-driver)" % why)
    pytest.skip(why)


def _which(names, paths=()):
    for name in names:
        found = shutil.which(name)
        if found:
            return found
    for path in paths:
        if os.access(path, os.X_OK):
            return path
    return None


def browser(width=1100, height=900):
    """A headless chromium WebDriver of that window size (the caller quits it)."""
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
    except ImportError:
        _missing("selenium is not installed (pip install 'azul-engine[webtest]')")
    binary = _which(_CHROMIUM)
    driver = _which(_DRIVER, _DRIVER_PATHS)
    if binary is None:
        _missing("no chromium on PATH (apt-get install chromium chromium-driver)")
    if driver is None:
        _missing("no chromedriver (apt-get install chromium-driver)")
    options = webdriver.ChromeOptions()
    options.binary_location = binary
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                "--window-size=%d,%d" % (width, height), "--lang=en-US", "--hide-scrollbars"):
        options.add_argument(arg)
    options.add_experimental_option("prefs", {"intl.accept_languages": "en-US,en"})
    # An explicit driver path: Selenium Manager never runs, so nothing is downloaded.
    return webdriver.Chrome(service=Service(executable_path=driver), options=options)


def screenshot(driver, name, folder=None):
    """The whole page (not only the window) as ``folder/name.png`` (default folder: SCREENSHOTS)."""
    import base64

    folder = Path(folder) if folder else SCREENSHOTS
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / ("%s.png" % name)
    shot = driver.execute_cdp_cmd("Page.captureScreenshot", {"format": "png", "captureBeyondViewport": True})
    path.write_bytes(base64.b64decode(shot["data"]))
    return path
