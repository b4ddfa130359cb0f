"""Bring the message catalogs in line with the code: ``make catalogs``.

1. Every message of bot/ and cogs/ (the calls of ``bot.i18n``'s ``_``, ``speak``, ``n_``
   and ``nspeak``) is extracted, with Babel, into ``bot/locales/messages.pot``: the English
   source.
2. Each language's ``bot/locales/<lang>/LC_MESSAGES/messages.po`` is updated from it: a
   new message is added with an empty translation, a message the code no longer has is
   dropped (git keeps it), every other translation is kept.

Then translate the empty entries; ``tests/i18n`` fails while one is missing.
"""

from __future__ import annotations

import sys
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bot.i18n import KEYWORDS, LANGUAGES, LOCALES_DIR, MESSAGES, babel_code, catalog_path  # noqa: E402

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
        found = extract_from_dir(ROOT / root, method_map=[("**.py", "python")], keywords=KEYWORDS)
        for filename, lineno, message, comments, context in found:
            template.add(
                message,
                None,
                [(f"{root}/{filename}", lineno)],
                auto_comments=comments,
                context=context,
            )
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
    print(f"updated the catalogs in {LOCALES_DIR.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
