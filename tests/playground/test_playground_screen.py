"""The page on a phone-sized window and through a long session: long and hostile names stay
inside their rows, every language's name shows whole, and the table stays in view while
private replies pile up under it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webelement import WebElement
from selenium.webdriver.support.ui import Select

from playground.running import Playground
from tests.playground.browser import Page, ServedPlayground, chromium

#: The widest 32 characters a display name may hold.
LONGEST = "W" * 32
#: A name with the spaces and symbols Discord allows, markup that must stay text among them.
HOSTILE = "Zoë <b>&amp;</b> 🂡 '\"x"
#: A text's width in an element's own font.
TEXT_WIDTH = """
const context = document.createElement("canvas").getContext("2d");
context.font = getComputedStyle(arguments[0]).font;
return context.measureText(arguments[1]).width;
"""
RECT = "return arguments[0].getBoundingClientRect().toJSON();"


@pytest.fixture
def served(tmp_path: Path) -> Iterator[ServedPlayground]:
    playground = Playground(f"sqlite:///{tmp_path / 'playground.sqlite3'}")
    with ServedPlayground(playground) as served:
        yield served


def rect(page: Page, element: WebElement) -> dict[str, float]:
    found: dict[str, float] = page.driver.execute_script(RECT, element)
    return found


def add_player(page: Page, name: str) -> None:
    box = page.find("#new-player")
    box.send_keys(name)
    page.find("#add-player button").click()
    page.wait_until(lambda: page.find("#you-name").text == name, f"playing as {name}")


def test_at_420_pixels_long_and_hostile_names_and_every_language_fit(
    served: ServedPlayground, tmp_path: Path
) -> None:
    with chromium() as driver:
        driver.set_window_size(420, 860)
        page = Page(driver, served.url)
        add_player(page, HOSTILE)
        add_player(page, LONGEST)
        Select(page.find("#language")).select_by_value("pt-BR")
        page.wait_until(lambda: page.find("#language").get_attribute("value") == "pt-BR")
        page.command("/blackjack start")
        page.command("/balance")
        driver.save_screenshot(str(tmp_path / "at-420.png"))

        width = driver.execute_script("return document.documentElement.clientWidth;")
        assert driver.execute_script("return document.documentElement.scrollWidth;") <= width
        names = [li.text for li in driver.find_elements(By.CSS_SELECTOR, "#players li")]
        assert HOSTILE in names  # shown as typed: its markup is text
        sidebar = rect(page, page.find("#sidebar"))
        for item in driver.find_elements(By.CSS_SELECTOR, "#players li, #channels li"):
            assert rect(page, item)["right"] <= sidebar["right"], item.text
        you, language = rect(page, page.find("#you-name")), rect(page, page.find("#language"))
        assert you["right"] <= language["left"]
        assert language["right"] <= width
        shown = driver.execute_script(TEXT_WIDTH, page.find("#language"), "Português (Brasil)")
        assert language["width"] >= shown + 8  # the whole name, and the menu's arrow

        # The channel keeps most of the window: the table, its buttons and the command box.
        messages = rect(page, page.find("#messages"))
        assert messages["width"] >= 400
        assert messages["height"] >= 300
        pane = page.find("#messages")
        scrolled = "return arguments[0].scrollWidth <= arguments[0].clientWidth;"
        assert driver.execute_script(scrolled, pane)  # no message is wider than the pane
        table = page.table()
        assert rect(page, table)["right"] <= width
        for button in table.find_elements(By.CSS_SELECTOR, "button.button"):
            assert rect(page, button)["right"] <= width, button.text
        box = rect(page, page.find("#command-input"))
        assert box["width"] >= 380
        assert box["bottom"] <= driver.execute_script("return window.innerHeight;")


def test_the_table_stays_in_view_while_private_replies_pile_up(
    served: ServedPlayground, tmp_path: Path
) -> None:
    with chromium() as driver:
        page = Page(driver, served.url)
        page.play_as("Alice")
        page.command("/blackjack start")
        for count in range(8):
            assert "chips" in page.command("/balance")
            pane, table = rect(page, page.find("#messages")), rect(page, page.table())
            assert pane["top"] <= table["top"] < pane["top"] + 40, count
            for button in page.table().find_elements(By.CSS_SELECTOR, "button.button"):
                assert pane["top"] <= rect(page, button)["bottom"] <= pane["bottom"], count
        # The newest reply shows too, under the table.
        newest = rect(page, page.messages()[-1])
        assert newest["bottom"] <= rect(page, page.find("#messages"))["bottom"] + 1
        driver.save_screenshot(str(tmp_path / "table-in-view.png"))
