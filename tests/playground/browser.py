"""Debian's Chromium driven by Selenium, and the playground served from a thread for it.

Selenium is told where chromedriver and chromium are, so Selenium Manager never
downloads a browser or a driver. Without them the browser tests skip locally and
fail when CI is set (as the PostgreSQL tests do).
"""

from __future__ import annotations

import asyncio
import os
import shutil
import tempfile
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Final

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.service import Service

from playground.running import Playground
from playground.web import serving

CHROMIUM: Final = "/usr/bin/chromium"
CHROMEDRIVER: Final = "/usr/bin/chromedriver"
INSTALL_HINT: Final = (
    "Debian's chromium and chromium-driver are not installed"
    " (`apt-get update && apt-get install -y chromium chromium-driver`)"
)
FLAGS: Final = (
    "--headless",
    "--no-sandbox",  # Chromium's sandbox refuses to run as root, as CI does
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
    "--window-size=1280,860",
)


def require_chromium() -> None:
    """Skip without Chromium and its driver; fail instead when CI is set."""
    if Path(CHROMIUM).exists() and Path(CHROMEDRIVER).exists():
        return
    if os.environ.get("CI"):
        pytest.fail(f"CI is set and {INSTALL_HINT}", pytrace=False)
    pytest.skip(INSTALL_HINT)


@contextmanager
def chromium() -> Iterator[webdriver.Chrome]:
    """A headless Chromium with a fresh profile, closed (and its profile deleted) afterwards."""
    require_chromium()
    profile = tempfile.mkdtemp(prefix="playground-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in (*FLAGS, f"--user-data-dir={profile}"):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(executable_path=CHROMEDRIVER), options=options)
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


class ServedPlayground:
    """The playground and its page in a thread with its own event loop (Selenium blocks)."""

    def __init__(self, playground: Playground) -> None:
        self.playground = playground
        self.url = ""
        self.failure: BaseException | None = None
        self._ready = threading.Event()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stop: asyncio.Event | None = None
        self._thread = threading.Thread(target=self._run, name="playground", daemon=True)

    def _run(self) -> None:
        try:
            asyncio.run(self._serve())
        except BaseException as error:  # reported to the test by __enter__
            self.failure = error
            self._ready.set()

    async def _serve(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._stop = asyncio.Event()
        async with serving(self.playground, port=0) as url:
            self.url = url
            self._ready.set()
            await self._stop.wait()

    def __enter__(self) -> ServedPlayground:
        self._thread.start()
        if not self._ready.wait(timeout=60) or self.failure is not None:
            raise AssertionError(f"the playground did not start: {self.failure!r}")
        return self

    def __exit__(self, *exc: object) -> None:
        if self._loop is not None and self._stop is not None:
            self._loop.call_soon_threadsafe(self._stop.set)
        self._thread.join(timeout=30)
