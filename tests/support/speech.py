"""The bot's messages by their catalog id, as a reader reads them: a test says which message
it expects (``_("You have {amount} chips.", amount=900)``) rather than its English words, so
it checks the meaning in any language and fails when the bot says another message."""

from __future__ import annotations

from bot.i18n import Text, _, language_of, number_text
from fakediscord.models import FakeMember


def said(member: FakeMember, text: Text) -> str:
    """``text`` as ``member``'s client reads it."""
    return text.in_language(language_of(member.user.locale))


def receipt(stake: int, balance: int) -> Text:
    """``/bet``'s answer for one hand of ``stake``, leaving ``balance``."""
    return _("Bet {stake}. Balance: {balance}.", stake=number_text(stake), balance=balance)
