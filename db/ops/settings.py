"""Guild settings: NULL columns fall back to the code's defaults."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any, Final

from db import checks
from db.errors import SettingsCrossed
from db.models import CARD_STYLES, LAYOUTS, MAX_BALANCE, GuildSettings
from db.ops.seasons import SEASON_LENGTHS
from db.statements import Op, Query

#: The side bets' setting: rows of ``guild_side_bets``, not a column.
SIDE_BETS: Final = "side_bets"
#: The settings that are columns of ``guild_settings``.
FIELDS: Final = tuple(f.name for f in dataclasses.fields(GuildSettings) if f.name != SIDE_BETS)
_DAY: Final = 86_400
#: The values a text setting may take (any text up to 64 characters when not listed).
CHOICES: Final[dict[str, tuple[str, ...]]] = {
    "card_style": CARD_STYLES,
    "season_length": SEASON_LENGTHS,
    "layout": LAYOUTS,
}
#: The longest table language setting: a Discord locale code or "server". Which languages
#: exist is ``bot.i18n``'s to say (the admin command checks it); the store keeps the code.
LANGUAGE_MAX: Final = 16

#: (lowest, highest) for each whole-number setting.
LIMITS: Final[dict[str, tuple[int, int]]] = {
    "min_bet": (1, MAX_BALANCE),
    "max_bet": (1, MAX_BALANCE),
    "starting_chips": (0, MAX_BALANCE),
    "daily_amount": (1, MAX_BALANCE),
    "daily_period_s": (60, 366 * _DAY),
    "bet_timer_s": (5, 3600),
    "action_timer_s": (5, 3600),
    "idle_close_s": (30, _DAY),
    "side_min_bet": (1, MAX_BALANCE),
    "side_max_bet": (1, MAX_BALANCE),
    "side_max_edge_pct": (1, 100),
    "min_account_age_days": (0, 3650),
    "play_role_id": (0, checks.MAX_ID),
    "play_stopped": (0, 1),
    "practice_tables": (0, 1),
    "bridge_buy_in": (0, MAX_BALANCE),
    "bridge_cash_out_on_leave": (0, 1),
    "bridge_idle_cash_out_min": (0, 7 * 24 * 60),
}
#: Most channels a server may list for its tables.
MAX_TABLE_CHANNELS: Final = 25


def check_changes(changes: Mapping[str, Any]) -> dict[str, Any]:
    """The changes, each checked on its own; ValueError names the first bad one."""
    checked: dict[str, Any] = {}
    for name, value in changes.items():
        if name == SIDE_BETS:
            checked[name] = side_bet_changes(value)
            continue
        if name not in FIELDS:
            raise ValueError(f"there is no setting {name!r}; settings are {', '.join(FIELDS)}")
        if name == "default_preset":
            checked[name] = checks.text(name, value, limit=64)
            continue
        if name == "language":
            checked[name] = checks.text(name, value, limit=LANGUAGE_MAX)
            continue
        if name == "table_channels":
            checked[name] = channel_list(value)
            continue
        if name in CHOICES:
            if value not in CHOICES[name]:
                raise ValueError(f"{name} must be one of {', '.join(CHOICES[name])}, not {value!r}")
            checked[name] = value
            continue
        checks.whole(name, value)
        low, high = LIMITS[name]
        if not low <= value <= high:
            raise ValueError(f"{name} must be between {low} and {high}, not {value}")
        checked[name] = int(value)
    return checked


def side_bet_changes(value: Any) -> dict[str, str | None]:
    """``side_bets`` checked: a pay table's name by bet (None: the bet is off). Which bets
    and pay tables exist is the engine's to say; the store keeps the text."""
    if not isinstance(value, Mapping):
        raise ValueError(f"side_bets must map each bet to a pay table or None, not {value!r}")
    return {
        checks.text("a side bet", bet, limit=32): (
            None if table is None else checks.text(f"{bet}'s pay table", table, limit=64)
        )
        for bet, table in value.items()
    }


def channel_list(value: Any) -> str:
    """``table_channels`` checked: channel ids, comma-separated ("" for any channel)."""
    text = checks.text("table_channels", value, empty=True, limit=MAX_TABLE_CHANNELS * 21)
    parts = [part for part in text.split(",") if part]
    if not all(part.isdigit() for part in parts):
        raise ValueError(f"table_channels must be channel ids separated by commas, not {text!r}")
    if len(parts) > MAX_TABLE_CHANNELS:
        raise ValueError(f"at most {MAX_TABLE_CHANNELS} channels can be table channels")
    return ",".join(str(checks.snowflake("a table channel", int(part))) for part in parts)


def read_settings(guild_id: int) -> Op[GuildSettings]:
    """The guild's settings, defaults filled in."""
    rows = yield Query(
        f"SELECT {', '.join(FIELDS)} FROM guild_settings WHERE guild_id = ?", (guild_id,)
    )
    side = yield Query(
        "SELECT bet, pay_table FROM guild_side_bets WHERE guild_id = ? ORDER BY bet", (guild_id,)
    )
    side_bets = tuple((str(bet), str(table)) for bet, table in side)
    if not rows:
        return GuildSettings(side_bets=side_bets)
    stored = {name: value for name, value in zip(FIELDS, rows[0], strict=True) if value is not None}
    return GuildSettings(**stored, side_bets=side_bets)  # a field left out takes its default


def write_settings(guild_id: int, changes: Mapping[str, Any], now: int) -> Op[GuildSettings]:
    """Apply checked ``changes`` and return the result; min_bet above max_bet is refused."""
    yield from _write_side_bets(guild_id, changes.get(SIDE_BETS, {}))
    names = [name for name in changes if name != SIDE_BETS]
    # Only the named columns are written, so two admins changing different
    # settings at the same moment do not undo each other. The names come from
    # FIELDS, never from the caller's text.
    columns = ", ".join(["guild_id", *names, "updated_at"])
    marks = ", ".join("?" for _ in range(len(names) + 2))
    updates = ", ".join(f"{name} = excluded.{name}" for name in [*names, "updated_at"])
    yield Query(
        f"INSERT INTO guild_settings ({columns}) VALUES ({marks})"
        f" ON CONFLICT (guild_id) DO UPDATE SET {updates}",
        (guild_id, *[changes[name] for name in names], now),
    )
    settings = yield from read_settings(guild_id)
    if settings.min_bet > settings.max_bet:
        raise SettingsCrossed("bet", settings.min_bet, settings.max_bet)
    if settings.side_min_bet > settings.side_max_bet:
        raise SettingsCrossed("side_bet", settings.side_min_bet, settings.side_max_bet)
    return settings


def _write_side_bets(guild_id: int, tables: Mapping[str, str | None]) -> Op[None]:
    """Each bet's row set to its pay table, or deleted (None: the bet is off)."""
    for bet, table in tables.items():
        if table is None:
            yield Query(
                "DELETE FROM guild_side_bets WHERE guild_id = ? AND bet = ?", (guild_id, bet)
            )
        else:
            yield Query(
                "INSERT INTO guild_side_bets (guild_id, bet, pay_table) VALUES (?, ?, ?)"
                " ON CONFLICT (guild_id, bet) DO UPDATE SET pay_table = excluded.pay_table",
                (guild_id, bet, table),
            )
