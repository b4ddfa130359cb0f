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
from selenium.webdriver.common.by import By

from bot.engine import Rules, Shoe, StackedShoe, parse_cards
from playground.running import Playground
from tests.db.invariants import check_invariants
from tests.playground.browser import LOADED, Page, ServedPlayground, chromium

#: Alice Ts 9h (19, stands); Bob Tc 6d (16) hits the Kh and busts; the dealer shows a 7,
#: holds a Th and stands on 17. Then twos, which end nothing.
ROUND = "Ts Tc 7s 9h 6d Th Kh " + " ".join(["2c"] * 30)


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
        assert "Alice: [10S] [9H] — 19 beats 17: wins 100, 200 back" in settled
        assert "Bob: [10C] [6D] [KH] — busts with 26: loses 100" in settled

        # Both balances, as each player's /balance shows them on the page.
        assert "You have 900 chips." in page.command("/balance")
        page.play_as("Alice")
        assert "You have 1,100 chips." in page.command("/balance")
        driver.save_screenshot(str(shots / "balances.png"))


def test_a_round_in_the_components_layout_in_the_browser(
    served: tuple[ServedPlayground, str], shots: Path
) -> None:
    playground, _ = served
    with chromium() as driver:
        page = Page(driver, playground.url)
        page.play_as("Croupier")
        assert "Table layout: components" in page.command(
            "/blackjack-admin config layout:components"
        )
        page.play_as("Alice")
        page.command("/blackjack start")
        table = page.table()
        assert table.find_elements(By.CSS_SELECTOR, ".container .text-display")
        assert not table.find_elements(By.CSS_SELECTOR, ".embed")
        assert "Place your bets" in page.table_text()
        page.play_as("Bob")
        page.press("Join", lambda text: "Bob" in text)
        page.command("/bet 100")
        page.play_as("Alice")
        page.type_command("/bet 100")
        page.wait_until(lambda: "Your move" in page.table_text(), "the cards dealt")
        dealt = page.table_text()
        assert "Dealer [7S][back] · shows 7" in dealt
        assert "▶ [10S][9H] · 19 · 100" in dealt
        assert page.table().find_elements(By.CSS_SELECTOR, ".container .separator.divider")
        assert page.buttons()["Stand"] is True
        driver.save_screenshot(str(shots / "components-round-in-progress.png"))
        page.press("Stand", lambda text: "Alice" in text)
        page.play_as("Bob")
        page.press("Hit", lambda text: "Place your bets" in text)
        assert "Dealer: [7S] [10H] (17)" in page.table_text()
        driver.save_screenshot(str(shots / "components-round-settled.png"))
        assert "You have 900 chips." in page.command("/balance")


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
