"""Bring the message catalogs in line with the code: ``make catalogs``.

1. Every message of bot/ and cogs/ (the calls of ``bot.i18n``'s ``_``, ``speak``, ``n_``
   and ``nspeak``) is extracted, with Babel, into ``bot/locales/messages.pot``: the English
   source.
2. Each language's ``bot/locales/<lang>/LC_MESSAGES/messages.po`` is updated from it: a
   new message is added with an empty translation, a message the code no longer has is
   dropped (git keeps it), every other translation is kept.

3. The slash commands' names, descriptions and choices, as the bot syncs them (it is run
   against the fake Discord for this), go into ``bot/locales/commands.pot`` with their
   kind as the context (``name``, ``description``, ``choice``), and each language's
   ``commands.po`` is updated the same way.

Then translate the empty entries; ``tests/i18n`` fails while one is missing.
"""

from __future__ import annotations

import asyncio
import sys
import tempfile
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bot.app import build_bot  # noqa: E402
from bot.command_translator import command_texts  # noqa: E402
from bot.config import Config  # noqa: E402
from bot.i18n import (  # noqa: E402
    COMMANDS,
    KEYWORDS,
    LANGUAGES,
    LOCALES_DIR,
    MESSAGES,
    babel_code,
    catalog_path,
)
from fakediscord import FakeDiscord  # noqa: E402
from fakediscord.harness import running_bot  # noqa: E402

#: A comment that starts so, just above a message, is copied into the catalogs for the
#: translators (what a message is for where its words alone do not say).
TRANSLATORS = "TRANSLATORS:"
#: The folders whose code speaks to players.
SOURCES = ("bot", "cogs")
#: What each catalog's header says of the project.
HEADER: dict[str, str] = {
    "project": "blackjack-table-bot",
    "version": "0.1.0",
    "copyright_holder": "the blackjack-table-bot authors",
    "msgid_bugs_address": "",
}


def extracted() -> Catalog:
    """Every message the code says, as an English template."""
    template = Catalog(**HEADER, fuzzy=False)
    for root in SOURCES:
        found = extract_from_dir(
            ROOT / root,
            method_map=[("**.py", "python")],
            keywords=KEYWORDS,
            comment_tags=(TRANSLATORS,),
        )
        for filename, lineno, message, comments, context in found:
            template.add(
                message,
                None,
                [(f"{root}/{filename}", lineno)],
                auto_comments=comments,
                context=context,
            )
    return template


async def synced_commands() -> list[dict[str, object]]:
    """The commands the bot syncs, as Discord receives them (from the fake Discord)."""
    with tempfile.TemporaryDirectory() as folder:
        async with FakeDiscord() as fake:
            url = f"sqlite:///{folder}/chips.sqlite3"
            config = Config(token=fake.token, database_url=url, card_pictures=False)
            async with running_bot(fake, build_bot(config, clock=fake.clock)):
                return [command.data for scope in fake.commands.values() for command in scope]


def command_template(commands: list[dict[str, object]]) -> Catalog:
    """Every text of the commands, with its kind as the context, as an English template."""
    template = Catalog(**HEADER, fuzzy=False)
    for kind, text in command_texts(commands):
        template.add(text, None, context=kind)
    return template


def write(catalog: Catalog, path: Path) -> None:
    """A catalog as a ``.po`` file: sorted and without line numbers, so a change to the
    code moves no entry and two branches' new messages merge as separate entries."""
    with path.open("wb") as out:
        write_po(
            out, catalog, width=100, sort_output=True, include_lineno=False, ignore_obsolete=True
        )


def update(template: Catalog, domain: str = MESSAGES) -> None:
    """Write ``template`` and update every language's catalog of ``domain`` from it."""
    write(template, LOCALES_DIR / f"{domain}.pot")
    for language in LANGUAGES[1:]:
        path = catalog_path(language, domain)
        if path.exists():
            with path.open("rb") as po:
                catalog = read_po(po, locale=babel_code(language), domain=domain)
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            catalog = Catalog(**HEADER, locale=babel_code(language), domain=domain, fuzzy=False)
        catalog.update(template, no_fuzzy_matching=True, update_creation_date=False)
        write(catalog, path)


def main() -> None:
    """Update the player-facing messages' catalogs (and the commands', see below)."""
    update(extracted())
    for language in LANGUAGES[1:]:  # the bot reads them while it syncs: a new language
        path = catalog_path(language, COMMANDS)
        if not path.exists():
            write(Catalog(**HEADER, locale=babel_code(language), domain=COMMANDS), path)
    update(command_template(asyncio.run(synced_commands())), COMMANDS)
    print(f"updated the catalogs in {LOCALES_DIR.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
