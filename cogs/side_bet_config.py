"""``/blackjack-admin side-bets``: a side bet's pay table, or off; the bets are the
engine's registry (``bot.engine.SPECS``), so a new bet needs nothing here.

A pay table is checked before it is stored: one that is not a pay table of the bet,
or that would give the player the edge at the decks of the server's default rules,
is refused with the reason (and the figure). A table opened with other rules checks
again at its own decks and leaves off a bet that would favour the player there.
"""

from __future__ import annotations

from discord import app_commands

from bot.engine import SPECS, parse_pay_table, preset
from bot.i18n import Figure, Text, _, joined
from bot.tables.side_bets import SHOWN, edge_pct, pay_table_refusal
from db.models import GuildSettings

#: What an admin types to turn a side bet off.
OFF = "off"
#: The bets an admin may set, by the name players see.
BET_CHOICES = [app_commands.Choice(name=spec.shown, value=key) for key, spec in SPECS.items()]
#: The pay-table option's describe text.
PAY_TABLE_DESCRIBE = (
    'Its payouts to 1, highest first (Buster: by cards, 3 first), like 25/12/6; or "off"'
)


def side_bet_changes(
    bet: str | None, text: str | None, default_preset: str
) -> dict[str, str | None]:
    """The store's ``side_bets`` change for the pay table an admin gave ``bet``.

    ValueError with the reason when it cannot be offered, or one of the two is missing."""
    if bet is None or text is None:
        raise ValueError(_("a pay table is set with both options, bet and pay_table"))
    if text.strip().lower() == OFF:
        return {bet: None}
    refusal = pay_table_refusal(bet, text, preset(default_preset))
    if refusal is not None:
        raise ValueError(refusal)
    return {bet: parse_pay_table(bet, text).name}


def side_bet_settings_lines(settings: GuildSettings) -> list[Text]:
    """Each side bet's setting with its house edge at the default rules, the side-bet
    limits, and the largest edge a table offers, for the settings list."""
    rules, most = preset(settings.default_preset), settings.side_max_edge_pct
    lines = []
    for bet in SPECS:
        name = settings.side_pay_table(bet)
        if name is None:
            lines.append(_("{bet}: off", bet=SHOWN[bet]))
            continue
        edge = edge_pct(parse_pay_table(bet, name), rules)
        words = {
            "bet": SHOWN[bet],
            "pay_table": name,
            "edge": Figure(float(edge), "0.00"),
            "preset": settings.default_preset,
        }
        if edge > most:
            lines.append(
                _(
                    "{bet}: pays {pay_table} (house edge at {preset}: {edge}%, above the "
                    "maximum: tables of these rules leave it off)",
                    **words,
                )
            )
        else:
            lines.append(_("{bet}: pays {pay_table} (house edge at {preset}: {edge}%)", **words))
    lines.append(
        _(
            "Side bets: {low} to {high} chips a hand; the largest house edge a table "
            "offers: {most}%",
            low=settings.side_min_bet,
            high=settings.side_max_bet,
            most=most,
        )
    )
    return lines


def side_bets_text(settings: GuildSettings, *, changed: bool) -> Text:
    """The answer to ``/blackjack-admin side-bets``: the side-bet settings, changed or not."""
    lines = joined(side_bet_settings_lines(settings), "\n")
    if not changed:
        return _("Side bets of this server:\n{settings}", settings=lines)
    return _(
        "Settings changed.\n{settings}\nOpen tables keep their rules; new tables use these.",
        settings=lines,
    )
