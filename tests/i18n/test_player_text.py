"""No English sentence reaches a player outside the catalogs: the code that speaks to
players (bot/, cogs/) hands Discord no text of its own, and every message it marks is one
the extraction can read (a literal, so `make catalogs` finds it and the template checks
in test_catalogs.py hold)."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator

from bot.i18n import KEYWORDS, LOCALES_DIR
from scripts.catalogs import SOURCES

ROOT = LOCALES_DIR.parents[1]
#: What carries text to a player: discord.py's answers, embeds, components and forms, and
#: the project's ``tell``. (A slash command's own texts are the commands catalog's, which
#: test_discord_languages checks against what the bot syncs.)
SPEAKING_CALLS = frozenset(
    {
        "send_message",
        "send",
        "edit_message",
        "edit",
        "edit_original_response",
        "tell",
        "Embed",
        "add_field",
        "set_footer",
        "set_author",
        "Button",
        "TextInput",
        "Modal",
        "SelectOption",
        "TextDisplay",
    }
)
#: The keywords of those calls that are text a player reads.
SPEAKING_KEYWORDS = frozenset(
    {"content", "title", "description", "label", "name", "value", "placeholder", "text", "default"}
)
#: Two words, or one capitalised word: a sentence or a label, not an id or a separator.
WORDS = re.compile(r"[A-Za-z]{2,}\s+[A-Za-z]{2,}|^[A-Z][a-z]+$")
#: Where a message is marked with ``N_`` and said by a variable: ``category_words``.
SAID_BY_NAME = {("bot/tables/side_bets.py", "words")}


def calls() -> Iterator[tuple[str, ast.Call]]:
    for source in SOURCES:
        for path in sorted((ROOT / source).rglob("*.py")):
            where = str(path.relative_to(ROOT))
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.Call):
                    yield where, node


def called(node: ast.Call) -> str | None:
    if isinstance(node.func, ast.Attribute):
        return node.func.attr
    return node.func.id if isinstance(node.func, ast.Name) else None


def literal_text(node: ast.expr) -> str | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(str(part.value) for part in node.values if isinstance(part, ast.Constant))
    return None


def test_no_literal_sentence_is_handed_to_discord() -> None:
    found = []
    for where, node in calls():
        if called(node) not in SPEAKING_CALLS:
            continue
        given = [*node.args, *(k.value for k in node.keywords if k.arg in SPEAKING_KEYWORDS)]
        for argument in given:
            text = literal_text(argument)
            if text is not None and WORDS.search(text):
                found.append(f"{where}:{node.lineno}: {text!r}")
    assert not found, "say these through bot.i18n (`_`, `speak`):\n" + "\n".join(found)


def test_every_message_is_a_literal_the_extraction_reads() -> None:
    found = []
    for where, node in calls():
        name = called(node)
        if not isinstance(node.func, ast.Name) or name not in KEYWORDS:
            continue
        for argument in node.args[: len(KEYWORDS[name])]:
            if isinstance(argument, ast.Constant) and isinstance(argument.value, str):
                continue
            if isinstance(argument, ast.Name) and (where, argument.id) in SAID_BY_NAME:
                continue
            found.append(f"{where}:{node.lineno}: {name}({ast.unparse(argument)})")
    assert not found, "a message must be a string literal:\n" + "\n".join(found)
