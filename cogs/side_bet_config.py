"""The side-bet options of ``/blackjack-admin config``: each bet's pay table, or off.

A pay table is checked before it is stored: one that is not a pay table of the bet,
or that would give the player the edge at the decks of the server's default rules,
is refused with the reason (and the figure). A table opened with other rules checks
again at its own decks and leaves off a bet that would favour the player there.
"""

from __future__ import annotations

from bot.engine import (
    BUSTER,
    KNOWN_PAY_TABLES,
    PERFECT_PAIRS,
    TWENTY_ONE_PLUS_THREE,
    parse_pay_table,
    preset,
)
from bot.i18n import Figure, Text, _
from bot.tables.side_bets import SETTING, SHOWN, edge_pct, pay_table_refusal
from db.models import GuildSettings

#: What an admin types to turn a side bet off.
OFF = "off"
#: The describe text of each pay-table option.
DESCRIBE = {
    TWENTY_ONE_PLUS_THREE: "21+3 pay table ("
    + ", ".join(KNOWN_PAY_TABLES[TWENTY_ONE_PLUS_THREE])
    + ") or off",
    PERFECT_PAIRS: "Perfect Pairs pay table ("
    + ", ".join(KNOWN_PAY_TABLES[PERFECT_PAIRS])
    + ") or off",
    BUSTER: "Buster pay table by cards, 3 to 8+ ("
    + ", ".join(KNOWN_PAY_TABLES[BUSTER])
    + ") or off",
}


def side_bet_changes(given: dict[str, str | None], default_preset: str) -> dict[str, str | None]:
    """The settings to write for the pay tables an admin gave (by bet; None: not given).

    ValueError with the reason when one cannot be offered."""
    rules = preset(default_preset)
    changes: dict[str, str | None] = {}
    for bet, text in given.items():
        if text is None:
            continue
        if text.strip().lower() == OFF:
            changes[SETTING[bet]] = None
            continue
        refusal = pay_table_refusal(bet, text, rules)
        if refusal is not None:
            raise ValueError(refusal)
        changes[SETTING[bet]] = parse_pay_table(bet, text).name
    return changes


def side_bet_settings_lines(settings: GuildSettings) -> list[Text]:
    """Each side bet's setting with its house edge at the default rules, the side-bet
    limits, and the largest edge a table offers, for the settings list."""
    rules, most = preset(settings.default_preset), settings.side_max_edge_pct
    lines = []
    for bet, setting in SETTING.items():
        name = getattr(settings, setting)
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
