"""The bot's messages by their catalog id, as a reader reads them: a test says which message
it expects (``_("You have {amount} chips.", amount=900)``) rather than its English words, so
it checks the meaning in any language and fails when the bot says another message (or a
sentence that is in no catalog)."""

from __future__ import annotations

import functools
import re

from babel.messages.pofile import read_po

from bot.i18n import LOCALES_DIR, MESSAGES, Text, _, language_of, number_text
from fakediscord.models import FakeMember


@functools.cache
def catalog_ids() -> frozenset[str]:
    """Every message id of the player-facing catalog's template (a plural by its singular)."""
    with (LOCALES_DIR / f"{MESSAGES}.pot").open("rb") as pot:
        ids = (message.id for message in read_po(pot) if message.id)
        return frozenset(id_ if isinstance(id_, str) else id_[0] for id_ in ids)


def said(member: FakeMember, text: Text) -> str:
    """``text``, a catalog message, as ``member``'s client reads it."""
    assert text.msgid in catalog_ids(), f"no catalog message {text.msgid!r}: run make catalogs"
    return text.in_language(language_of(member.user.locale))


def is_message(note: object, expected: Text) -> bool:
    """Whether ``note`` (what the table service answered or raised) is the catalog message
    ``expected``: its id, and its words with their parameters."""
    assert expected.msgid in catalog_ids(), f"no catalog message {expected.msgid!r}"
    return isinstance(note, Text) and note.msgid == expected.msgid and note == expected


def says(reply: str, member: FakeMember, template: Text, *unknown: str, **params: object) -> bool:
    """Whether ``reply`` is the message ``template`` with ``params`` as ``member`` reads it,
    word for word, but for the parameters named in ``unknown`` (a timestamp), which may be
    any words."""
    marks = {name: f"\x00{name}\x00" for name in unknown}
    written = re.escape(said(member, template.filled(**params, **marks)))
    for mark in marks.values():
        written = written.replace(re.escape(mark), ".+?")
    return re.fullmatch(written, reply, re.DOTALL) is not None


def receipt(stake: int, balance: int) -> Text:
    """``/bet``'s answer for one hand of ``stake``, leaving ``balance``."""
    return _("Bet {stake}. Balance: {balance}.", stake=number_text(stake), balance=balance)


#: Messages many tests check, as templates (filled by ``said``'s caller or ``says``).
CLAIMED = _("You claimed {amount} chips. Balance: {balance}. Next claim {when}.")
CLAIMED_ALREADY = _("You already claimed today. Next claim {when}. Balance: {balance}.")
LIFTED = _(
    "Lifted {member}'s break in this server; it still holds in every other server. "
    "A timed break, if any, still runs to its end."
)


def claimed(reply: str, member: FakeMember, balance: int) -> bool:
    """Whether ``reply`` is a claim of the daily 250 chips, leaving ``balance``."""
    return says(reply, member, CLAIMED, "when", amount=250, balance=balance)
