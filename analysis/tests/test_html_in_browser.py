"""report.html in a real headless browser (Debian's chromium + chromium-driver).

Needs: apt-get install -y chromium chromium-driver. Without them this test fails when
CI=true (CI must have them) and is skipped elsewhere.
"""

import os
import shutil
import tempfile
from pathlib import Path

import pytest

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMEDRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"


def browser_or_reason(width: int = 1280, height: int = 2000):
    """A headless Chromium whose viewport is ``width`` x ``height`` CSS pixels, or None and why
    not."""
    missing = [p for p in (CHROMIUM, CHROMEDRIVER) if not Path(p).exists()]
    if missing:
        return None, f"{', '.join(missing)} not found: apt-get install -y chromium chromium-driver"
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
    except ImportError:
        return None, "selenium is not installed: pip install -e '.[test]'"
    opts = webdriver.ChromeOptions()
    opts.binary_location = CHROMIUM
    profile = tempfile.mkdtemp(prefix="ycsb-report-chromium-")
    for flag in (
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        f"--user-data-dir={profile}",
        f"--window-size={width},{height}",
        "--hide-scrollbars",
    ):
        opts.add_argument(flag)
    # An explicit driver path: Selenium Manager must not try to download one.
    driver = webdriver.Chrome(service=Service(executable_path=CHROMEDRIVER), options=opts)
    # the window's frame must not eat into the screen measured: the viewport itself is set
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})
    return driver, None


def headless_browser(width: int = 1280, height: int = 2000):
    """The browser of :func:`browser_or_reason`; where there is none, the test fails on CI and
    is skipped elsewhere."""
    driver, reason = browser_or_reason(width, height)
    if driver is None:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"headless browser check cannot run on CI: {reason}")
        pytest.skip(reason)
    return driver


@pytest.fixture(scope="module")
def browser():
    driver = headless_browser()
    yield driver
    driver.quit()


def test_report_renders_with_every_chart_shown_and_no_broken_link(browser, built_report):
    browser.get((built_report / "report.html").resolve().as_uri())
    assert browser.title == "YCSB results"
    images = browser.execute_script(
        "return Array.from(document.images)"
        ".map(i => [i.alt, i.complete, i.naturalWidth, i.naturalHeight]);"
    )
    charts = sorted(p.stem for p in built_report.glob("*.png"))
    assert len(images) == len(charts) >= 7
    for alt, complete, width, height in images:
        assert complete and width > 100 and height > 100, f"chart {alt!r} did not render"
    hrefs = browser.execute_script(
        "return Array.from(document.querySelectorAll('a[href]')).map(a => a.getAttribute('href'));")
    broken_anchors = browser.execute_script("""
        return Array.from(document.querySelectorAll('a[href^="#"]'))
          .map(a => a.getAttribute('href'))
          .filter(h => !document.getElementById(h.slice(1)));""")
    assert broken_anchors == []
    # The only other links are the data files written beside the report: each exists, all are
    # linked.
    files = [h for h in hrefs if not h.startswith("#")]
    assert all("/" not in h and (built_report / h).is_file() for h in files), files
    assert set(files) == {p.name for p in built_report.iterdir() if p.suffix in (".csv", ".json")}
    text = browser.find_element("tag name", "body").text
    assert "Overview" in text and "basic:batch-run" in text
