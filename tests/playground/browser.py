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
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Final

import pytest
from selenium import webdriver
from selenium.common.exceptions import StaleElementReferenceException, TimeoutException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.remote.webelement import WebElement
from selenium.webdriver.support.ui import WebDriverWait

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


LOADED = "return arguments[0].complete && arguments[0].naturalWidth > 0;"


#: Real seconds the page gets for an answer to show (the bot answers in milliseconds).
WAIT_S = 20
#: What holds a table's text: the embed, or a Components V2 message's container.
TABLE_BODY = ".embed, .container"


class Page:
    """The playground page as a player uses it: type commands, press buttons, read messages."""

    def __init__(self, driver: WebDriver, url: str) -> None:
        self.driver = driver
        driver.get(url)
        self.wait_until(
            lambda: driver.find_element(By.TAG_NAME, "body").get_attribute("data-ready")
        )
        self.wait_until(lambda: "live" in (self.find("#connection").get_attribute("class") or ""))

    def wait_until(self, condition: Callable[[], object], what: str = "") -> object:
        # The page redraws a message when it changes: an element read a moment ago may be gone.
        waiting = WebDriverWait(
            self.driver, WAIT_S, ignored_exceptions=(StaleElementReferenceException,)
        )
        return waiting.until(lambda _: condition(), what)

    def find(self, css: str) -> WebElement:
        return self.driver.find_element(By.CSS_SELECTOR, css)

    def messages(self) -> list[WebElement]:
        return self.driver.find_elements(By.CSS_SELECTOR, "#messages .message")

    def texts(self) -> list[str]:
        return [m.text for m in self.messages()]

    def ids(self) -> list[str]:
        return [m.get_attribute("data-message-id") or "" for m in self.messages()]

    def play_as(self, name: str) -> None:
        self.find(f'#players li[data-player-name="{name}"]').click()
        # Set once the channel is shown as the new player sees it (their ephemeral replies).
        body = self.find("body")
        self.wait_until(lambda: body.get_attribute("data-playing-as") == name, f"as {name}")

    def type_command(self, line: str) -> None:
        box = self.find("#command-input")
        box.clear()
        box.send_keys(line)
        box.send_keys(Keys.ENTER)

    def command(self, line: str) -> str:
        """Run a command whose answer is a new message; that message's text."""
        seen = set(self.ids())
        self.type_command(line)
        try:
            self.wait_until(lambda: set(self.ids()) - seen, f"an answer to {line}")
        except TimeoutException:
            error = self.find("#command-error").text
            raise AssertionError(f"no answer to {line}: {error!r}; page: {self.texts()}") from None

        def answer() -> str:
            fresh = (m for m in self.messages() if m.get_attribute("data-message-id") not in seen)
            return next(fresh).text

        return str(self.wait_until(answer))

    def refusal(self, line: str) -> str:
        """Run a command the client refuses; the red line under the box."""
        self.type_command(line)
        self.wait_until(lambda: self.find("#command-error").text, f"a refusal of {line}")
        return self.find("#command-error").text

    def table(self) -> WebElement:
        """The table message: the bot's message with an embed (or a Components V2 message's
        container), not an ephemeral one."""
        for message in self.messages():
            classes = message.get_attribute("class") or ""
            if "ephemeral" not in classes and message.find_elements(By.CSS_SELECTOR, TABLE_BODY):
                return message
        raise AssertionError(f"no table message among {self.texts()}")

    def table_text(self) -> str:
        """The table's embed as a player reads it, each card picture as its card: ``[7S]``."""

        def read() -> str:
            embed = self.table().find_element(By.CSS_SELECTOR, TABLE_BODY)
            return str(self.driver.execute_script(READ_CARDS, embed))

        return str(self.wait_until(read))

    def buttons(self) -> dict[str, bool]:
        """The table's buttons: label -> enabled."""

        def read() -> dict[str, bool]:
            found = self.table().find_elements(By.CSS_SELECTOR, "button.button")
            return {b.text: b.is_enabled() for b in found}

        found: dict[str, bool] = self.wait_until(read)  # type: ignore[assignment]
        return found

    def press(self, label: str, then: Callable[[str], bool]) -> None:
        """Press a table button and wait until the table's text satisfies ``then``."""

        def click() -> bool:
            for button in self.table().find_elements(By.CSS_SELECTOR, "button.button"):
                if button.text == label:
                    button.click()
                    return True
            raise AssertionError(f"no button {label!r} on the table: {self.buttons()}")

        self.wait_until(click, f"pressing {label}")
        self.wait_until(lambda: then(self.table_text()), f"the table after {label}")


#: The text of an element with each card emoji (``bj_7S_<hash>``) read as ``[7S]``: pictures
#: have no text, so a label goes in beside each for the moment of reading.
READ_CARDS = """
const labels = [...arguments[0].querySelectorAll("img.emoji")].map((img) => {
  const label = document.createElement("span");
  label.textContent = `[${img.dataset.emojiName.split("_")[1]}]`;
  img.after(label);
  return label;
});
const text = arguments[0].innerText;
labels.forEach((label) => label.remove());
return text;
"""
