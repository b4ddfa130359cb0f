"""Modals on the page: a button's form is drawn over the channel and submitted as Discord's
client submits one (interaction type 5, ``MODAL_SUBMIT``); every field kind a modal holds
is drawn and read back as the client sends it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import discord
import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webelement import WebElement

from fakediscord.interactions import MODAL_SUBMIT
from playground.running import Playground
from tests.playground.browser import Page, ServedPlayground, chromium

#: The fields the page reads back, each as the client sends its value.
READ_VALUES = """
const values = {};
for (const control of document.querySelectorAll("#modal .modal-control")) {
  values[control.dataset.customId] = modalValue(control);
}
return values;
"""


@pytest.fixture
def served(tmp_path: Path) -> Iterator[ServedPlayground]:
    playground = Playground(f"sqlite:///{tmp_path / 'playground.sqlite3'}")
    with ServedPlayground(playground) as served:
        yield served


def board(page: Page) -> WebElement:
    """The tournament's board: the message with the Bet button."""
    for message in page.messages():
        if any(b.text == "Bet" for b in message.find_elements(By.CSS_SELECTOR, "button")):
            return message
    raise AssertionError(f"no tournament board among {page.texts()}")


def open_bet_form(page: Page) -> WebElement:
    def click() -> bool:
        for button in board(page).find_elements(By.CSS_SELECTOR, "button"):
            if button.text == "Bet":
                button.click()
                return True
        return False

    page.wait_until(click, "pressing Bet")
    page.wait_until(lambda: page.driver.find_elements(By.CSS_SELECTOR, "#modal form"), "the form")
    return page.find("#modal form")


def fill(form: WebElement, label: str, text: str) -> None:
    for field in form.find_elements(By.CSS_SELECTOR, ".modal-field"):
        if field.find_element(By.CSS_SELECTOR, ".modal-label").text.lower() == label.lower():
            control = field.find_element(By.CSS_SELECTOR, ".modal-control")
            control.clear()
            control.send_keys(text)
            return
    raise AssertionError(f"no field {label!r} in {form.text!r}")


def test_the_tournament_bet_button_opens_its_form_and_the_form_seals_the_bet(
    served: ServedPlayground, tmp_path: Path
) -> None:
    fake = served.playground.fake
    with chromium() as driver:
        page = Page(driver, served.url)
        page.play_as("Croupier")
        page.command("/tournament create hands:1 eliminations:")
        for player in ("Alice", "Bob"):
            page.play_as(player)
            page.command("/tournament join")
        page.play_as("Croupier")
        page.command("/tournament start")
        page.play_as("Alice")

        form = open_bet_form(page)
        assert form.find_element(By.CSS_SELECTOR, ".modal-title").text == "Your sealed bet"
        labels = [e.text for e in form.find_elements(By.CSS_SELECTOR, ".modal-label")]
        assert [label.lower() for label in labels] == [
            "chips",
            "your one secret bet? (yes or no)",
        ]
        driver.save_screenshot(str(tmp_path / "bet-form.png"))
        # The client refuses an empty required field: nothing is sent.
        sent = len(fake.interactions)
        form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
        assert driver.find_elements(By.CSS_SELECTOR, "#modal form")
        assert len(fake.interactions) == sent

        fill(form, "Chips", "ten")
        form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
        page.wait_until(
            lambda: any("'ten' is not an amount of chips" in t for t in page.texts()),
            "the bot's answer",
        )
        assert not driver.find_elements(By.CSS_SELECTOR, "#modal")

        form = open_bet_form(page)
        fill(form, "Chips", "10")
        form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
        page.wait_until(
            lambda: any("Your bet of 10 chips is sealed." in t for t in page.texts()), "sealed"
        )
        submits = [i for i in fake.interactions.values() if i.type == MODAL_SUBMIT]
        assert len(submits) == 2
        assert all(i.responded for i in submits)
        driver.save_screenshot(str(tmp_path / "bet-sealed.png"))


class EveryField(discord.ui.Modal, title="Every field"):
    """A modal with each field kind discord.py 2.7 sends: the payload is its own."""

    name = discord.ui.TextInput(label="Name", default="Ana")
    pick = discord.ui.Label(
        text="Pick a table",
        description="Where you sit",
        component=discord.ui.Select(
            options=[
                discord.SelectOption(label="High rollers", value="high"),
                discord.SelectOption(label="Beginners", value="low", default=True),
            ]
        ),
    )
    sure = discord.ui.Label(text="Sure?", component=discord.ui.Checkbox())
    notes = discord.ui.TextDisplay("**Read** the rules first")


def test_the_page_draws_labels_selects_checkboxes_and_text_and_reads_them_as_sent(
    served: ServedPlayground,
) -> None:
    payload: dict[str, Any] = {**EveryField().to_dict(), "interaction": "1"}
    select_id = payload["components"][1]["component"]["custom_id"]
    checkbox_id = payload["components"][2]["component"]["custom_id"]
    text_id = payload["components"][0]["components"][0]["custom_id"]
    with chromium() as driver:
        page = Page(driver, served.url)
        driver.execute_script("showModal(arguments[0])", payload)
        form = page.find("#modal form")
        labels = [e.text for e in form.find_elements(By.CSS_SELECTOR, ".modal-label")]
        assert [label.lower() for label in labels] == ["name", "pick a table", "sure?"]
        assert form.find_element(By.CSS_SELECTOR, ".modal-description").text == "Where you sit"
        assert form.find_element(By.CSS_SELECTOR, ".content strong").text == "Read"
        assert driver.execute_script(READ_VALUES) == {
            text_id: "Ana",
            select_id: ["low"],
            checkbox_id: False,
        }
        form.find_element(By.CSS_SELECTOR, "option[value=high]").click()
        form.find_element(By.CSS_SELECTOR, "input[type=checkbox]").click()
        assert driver.execute_script(READ_VALUES) == {
            text_id: "Ana",
            select_id: ["high"],
            checkbox_id: True,
        }
        form.find_element(By.CSS_SELECTOR, "button.link").click()  # Cancel
        assert not driver.find_elements(By.CSS_SELECTOR, "#modal")
