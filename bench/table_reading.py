"""How a ``bench/load.py`` player reads the table message and decides what to press.

The player sees what a person sees: the table message's embed and buttons. Apart from
the driver so the decision can be tested on its own (tests/bench_tests/).
"""

from __future__ import annotations

import json
import re
from collections.abc import Collection, Sequence
from typing import Any

from bot.engine import Action, Card, preset
from bot.engine.analysis import advise
from bot.shown_names import shown_name
from cogs.table.buttons import parse_custom_id
from cogs.table.render import CURRENT_MARK
from fakediscord.components_v2 import TEXT_DISPLAY, walk
from fakediscord.records import FakeMessage

#: The tables' rules (every bench guild keeps the default preset and bet limits).
RULES = preset("vegas-shoe")
DEALER_UP = re.compile(r"\*\*Dealer\*\*\s+(\S+)")
#: A card shown as the bot's card picture (an application emoji): ``<:BJ_10S_3281EA:id>``.
CARD_EMOJI = re.compile(r"<:BJ_([0-9]{1,2}|[AJQK])([SHDC])_\w+:\d+>", re.IGNORECASE)


def message_state(message: FakeMessage) -> tuple[int, str]:
    """(round number, phase) that the table message shows, read from its buttons' ids."""
    actions, round_no = set(), 0
    for button in message.buttons():
        ref = parse_custom_id(button.get("custom_id", ""))
        if ref is not None:
            actions.add(ref.action)
            round_no = ref.round_no
    if "hit" in actions:
        return round_no, "playing"
    if "insurance" in actions:
        return round_no, "insurance"
    return round_no, "betting"


def card_texts(text: str) -> str:
    """The line with every card picture replaced by its text (``10S``)."""
    return CARD_EMOJI.sub(lambda m: f" {m[1]}{m[2]} ", text)


def without_pictures(embed: dict[str, Any]) -> dict[str, Any]:
    """The embed with each card picture written as plain text of the same length, for the
    rich floor: another application may not use the blackjack bot's emojis."""
    text = json.dumps(embed)
    return dict(json.loads(CARD_EMOJI.sub(lambda m: "(" + m[0][1:-1] + ")", text)))


def seat_value(message: FakeMessage, name: str) -> str | None:
    """The lines of the player's seat on the table message (its field, or in a V2 message
    its text display, is headed with the name as the bot shows it: Markdown escaped, so
    "P0-0" reads "P0\\-0")."""
    shown = shown_name(name)
    if message.components_v2:
        head = f"**{shown}**\n"
        texts = [c["content"] for c in walk(message.components) if c["type"] == TEXT_DISPLAY]
        return next((t.removeprefix(head) for t in texts if t.startswith(head)), None)
    embed = message.embed or {}
    return next((f["value"] for f in embed.get("fields", ()) if f["name"] == shown), None)


def shown_embed(message: FakeMessage) -> dict[str, Any]:
    """The table message as an embed: its own, or a V2 message's text as a description of
    the same size (what the rich floor sends)."""
    if message.components_v2:
        return {"description": message.text_displays()[:4096]}
    return message.embed or {}


def hand_decision(
    cards: Sequence[Card], dealer_up: Card, *, hands: int, refused: Collection[Action]
) -> Action | None:
    """The basic-strategy action for the player's current hand; None: nothing to press.

    Legal actions are guessed from the cards (the message shows every player's buttons,
    not this player's): Hit and Stand always, Double on two cards, Split on a pair,
    Surrender on the first two cards of the only hand. ``refused`` are actions the bot
    refused for this hand as shown. Hit and Stand are refused only when the message is
    behind the table (the hand was played, or the turn moved on): then no guess is left
    to try, and the player waits for the message to change.
    """
    legal = [Action.HIT, Action.STAND]
    if len(cards) == 2:
        legal.append(Action.DOUBLE)
        if cards[0].value == cards[1].value:
            legal.append(Action.SPLIT)
        if hands == 1:
            legal.append(Action.SURRENDER)
    legal = [a for a in legal if a not in refused]
    if Action.HIT not in legal and Action.STAND not in legal:
        return None
    return advise(RULES, cards, dealer_up, legal)


def decide(message: FakeMessage, name: str, refused: Collection[Action]) -> Action | None:
    """What the player does now by basic strategy (never insurance); None: nothing to do."""
    _, phase = message_state(message)
    value = seat_value(message, name)
    if value is None or phase == "betting":
        return None
    lines = card_texts(value).splitlines()
    hands = [line for line in lines if line.startswith((CURRENT_MARK, "•"))]
    if phase == "insurance":
        decided = any(line.startswith(("Insured", "No insurance")) for line in lines)
        return None if decided or not hands else Action.NO_INSURANCE
    current = next((line for line in hands if line.startswith(CURRENT_MARK)), None)
    found = DEALER_UP.search(card_texts(shown_embed(message).get("description", "")))
    if current is None or found is None:
        return None
    cards = [Card.parse(text) for text in current[1:].split(" · ", 1)[0].split()]
    return hand_decision(cards, Card.parse(found[1]), hands=len(hands), refused=refused)
