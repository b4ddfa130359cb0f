"""The playground in a real browser: a whole round played by two players on the page.

Chromium opens the page, Alice starts a table with the command box, Bob joins with
the table's button, both bet, both act with buttons, and the settled round and
both balances are read off the page, as a person would read them. Screenshots go
to ``PLAYGROUND_SCREENSHOTS`` (a folder) when set, else to the test's tmp dir;
``docs/playground.png`` in the README is ``round-in-progress.png``.
"""

from __future__ import annotations

import asyncio
import json
import os
import time
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from selenium.common.exceptions import StaleElementReferenceException, TimeoutException
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.remote.webelement import WebElement
from selenium.webdriver.support.ui import WebDriverWait

from bot.engine import Rules, Shoe, StackedShoe, parse_cards
from playground.running import Playground
from tests.db.invariants import check_invariants
from tests.playground.browser import ServedPlayground, chromium

#: Alice Ts 9h (19, stands); Bob Tc 6d (16) hits the Kh and busts; the dealer shows a 7,
#: holds a Th and stands on 17. Then twos, which end nothing.
ROUND = "Ts Tc 7s 9h 6d Th Kh " + " ".join(["2c"] * 30)
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
LOADED = "return arguments[0].complete && arguments[0].naturalWidth > 0;"
#: Real seconds the page gets for an answer to show (the bot answers in milliseconds).
WAIT_S = 20


def stacked_then_seeded() -> Callable[[Rules], Shoe]:
    """The first table deals ROUND; any later shoe is a seeded real one."""
    made: list[Shoe] = []

    def factory(rules: Rules) -> Shoe:
        shoe: Shoe = StackedShoe(parse_cards(ROUND))
        shoe.seed = bytes([7]) * 32
        if made:
            shoe = Shoe(rules.decks, rules.penetration, bytes([len(made)]) * 32)
        made.append(shoe)
        return shoe

    return factory


@pytest.fixture
def shots(tmp_path: Path) -> Path:
    """Where screenshots go."""
    folder = Path(os.environ.get("PLAYGROUND_SCREENSHOTS") or tmp_path / "screenshots")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[ServedPlayground, str]]:
    """The playground (stacked first shoe, its own SQLite file) serving its page."""
    database_url = f"sqlite:///{tmp_path / 'playground.sqlite3'}"
    playground = Playground(database_url, shoe_factory=stacked_then_seeded())
    with ServedPlayground(playground) as served:
        yield served, database_url
    asyncio.run(check_invariants(database_url))


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
        """The table message: the bot's message with an embed, not an ephemeral one."""
        for message in self.messages():
            classes = message.get_attribute("class") or ""
            if "ephemeral" not in classes and message.find_elements(By.CSS_SELECTOR, ".embed"):
                return message
        raise AssertionError(f"no table message among {self.texts()}")

    def table_text(self) -> str:
        """The table's embed as a player reads it, each card picture as its card: ``[7S]``."""

        def read() -> str:
            embed = self.table().find_element(By.CSS_SELECTOR, ".embed")
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


def test_two_players_play_a_round_in_the_browser(
    served: tuple[ServedPlayground, str], shots: Path
) -> None:
    playground, _ = served
    with chromium() as driver:
        page = Page(driver, playground.url)
        page.play_as("Alice")

        # The command box knows the synced commands, their options and choices.
        page.find("#command-input").send_keys("/blackjack st")
        suggestions = page.find("#suggestions")
        page.wait_until(lambda: "/blackjack start" in suggestions.text)
        page.find("#command-input").send_keys("art ")
        page.wait_until(lambda: "preset:" in suggestions.text)
        assert "one of: vegas-shoe · classic · simple" in suggestions.text
        page.find("#command-input").clear()

        # Bad input gets what Discord would answer, and changes nothing.
        assert "must be one of" in page.refusal("/blackjack start preset:nonsense")
        assert page.messages() == []

        started = page.command("/blackjack start")
        assert "@Alice used /blackjack start" in started
        assert "Place your bets" in page.table_text()
        assert page.buttons()["Join"] is True
        driver.save_screenshot(str(shots / "table-open.png"))

        page.play_as("Bob")
        page.press("Join", lambda text: "Bob" in text)
        assert "must be at most 7" in page.refusal("/bet amount:100 hands:9")
        answer = page.command("/bet 100")
        assert "Bet 100. Balance: 900." in answer
        assert "Only you can see this" in answer

        # Bob's reply is his alone: Alice's page does not show it.
        page.play_as("Alice")
        page.wait_until(lambda: not any("Balance: 900" in t for t in page.texts()))
        page.type_command("/bet 100")
        page.wait_until(lambda: "Your move" in page.table_text(), "the cards dealt")
        table = page.table_text()
        assert "Dealer [7S][back] · shows 7" in table
        assert "▶ [10S][9H] · 19 · 100" in table
        assert "▶ [10C][6D] · 16 · 100" in table
        # The card pictures are the bot's application emojis, served by the local Discord.
        pictures = page.table().find_elements(By.CSS_SELECTOR, ".embed img.emoji")
        assert len(pictures) == 6
        assert all(driver.execute_script(LOADED, picture) for picture in pictures)
        assert page.buttons()["Stand"] is True
        assert page.find(".embed .timestamp").text.startswith("in ")  # a live countdown
        driver.save_screenshot(str(shots / "round-in-progress.png"))

        page.press("Stand", lambda text: "Alice" in text)
        page.play_as("Bob")
        page.press("Hit", lambda text: "Place your bets" in text)
        settled = page.table_text()
        driver.save_screenshot(str(shots / "round-settled.png"))
        assert "Dealer: [7S] [10H] (17)" in settled
        assert "Alice: [10S] [9H] 19 wins · balance change +100" in settled
        assert "Bob: [10C] [6D] [KH] bust 26 · balance change -100" in settled

        # Both balances, as each player's /balance shows them on the page.
        assert "You have 900 chips." in page.command("/balance")
        page.play_as("Alice")
        assert "You have 1,100 chips." in page.command("/balance")
        driver.save_screenshot(str(shots / "balances.png"))


def bot_posts(served: ServedPlayground, channel_id: int, message: dict[str, Any]) -> None:
    """POST a message to the local Discord as the bot does (its REST route, its token)."""
    fake = served.playground.fake
    request = urllib.request.Request(
        f"{fake.api_base}/channels/{channel_id}/messages",
        data=json.dumps(message).encode(),
        headers={"Authorization": f"Bot {fake.token}", "Content-Type": "application/json"},
        method="POST",
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        assert response.status == 200


def test_the_page_draws_markdown_timestamps_emojis_fields_and_buttons(
    served: tuple[ServedPlayground, str], shots: Path
) -> None:
    playground, _ = served
    alice = playground.playground.players()[0]
    channel = playground.playground.channels()[0]
    soon = int(time.time()) + 600
    with chromium() as driver:
        page = Page(driver, playground.url)
        bot_posts(
            playground,
            channel.id,
            {
                "content": (
                    f"**Bold** *italic* __under__ ~~gone~~ `co*de*` ||secret|| {alice.mention}"
                    f" {channel.mention} <t:{soon}:R> <:card_back:1234567890>"
                ),
                "embeds": [
                    {
                        "title": "Insurance?",
                        "color": 0xF1C40F,
                        "description": "## Dealer\n> shows an ace\n- one\n-# small print",
                        "fields": [
                            {"name": "Alice", "value": "**19**", "inline": True},
                            {"name": "Bob", "value": "16", "inline": True},
                            {"name": "Carol", "value": "BJ", "inline": True},
                            {"name": "Latest", "value": "Dealer shows A♦", "inline": False},
                        ],
                        "footer": {"text": "Table 1 · round 2"},
                    }
                ],
                "components": [
                    {
                        "type": 1,
                        "components": [
                            {"type": 2, "style": 1, "label": "Hit", "custom_id": "a"},
                            {"type": 2, "style": 3, "label": "Join", "custom_id": "b"},
                            {
                                "type": 2,
                                "style": 4,
                                "label": "Surrender",
                                "custom_id": "c",
                                "disabled": True,
                            },
                        ],
                    }
                ],
            },
        )
        page.wait_until(lambda: page.messages(), "the bot's message, live")
        message = page.messages()[-1]

        def inside(css: str) -> list[str]:
            return [e.text for e in message.find_elements(By.CSS_SELECTOR, css)]

        assert inside(".content strong") == ["Bold"]
        assert inside(".content em") == ["italic"]
        assert inside(".content u") == ["under"]
        assert inside(".content s") == ["gone"]
        assert inside(".content code") == ["co*de*"]
        assert inside(".content .mention") == ["@Alice", "#blackjack"]
        assert inside(".content .timestamp")[0] == "in 10 minutes"
        # No image for this emoji on the local Discord: the client shows its name.
        page.wait_until(lambda: inside(".emoji-text") == [":card_back:"], "the emoji's name")
        embed = message.find_element(By.CSS_SELECTOR, ".embed")
        assert embed.value_of_css_property("border-left-color") == "rgba(241, 196, 15, 1)"
        assert inside(".embed h2") == ["Dealer"]
        assert inside(".embed blockquote") == ["shows an ace"]
        assert inside(".embed .subtext") == ["small print"]
        assert inside(".embed-footer") == ["Table 1 · round 2"]
        fields = message.find_elements(By.CSS_SELECTOR, ".embed-field")
        tops = [f.location["y"] for f in fields]
        assert tops[0] == tops[1] == tops[2] < tops[3]  # three inline fields share a row
        buttons = {b.text: b for b in message.find_elements(By.CSS_SELECTOR, "button")}
        assert buttons["Hit"].value_of_css_property("background-color") == "rgba(88, 101, 242, 1)"
        assert buttons["Join"].value_of_css_property("background-color") == "rgba(36, 128, 70, 1)"
        assert not buttons["Surrender"].is_enabled()
        assert buttons["Hit"].is_enabled()
        driver.save_screenshot(str(shots / "markdown.png"))
