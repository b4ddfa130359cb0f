"""The table message: a pure function from a table snapshot to one embed and its buttons.

Nothing here touches the network or the clock, so every picture of a table can be
tested without Discord. Countdowns are Discord timestamps (``<t:UNIX:R>``): the
client ticks them, the bot never edits a message just to move a clock.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Final

import discord

from bot.engine.actions import Action
from bot.tables.snapshot import CardView, DealerView, HandView, Phase, SeatView, TableSnapshot
from db.models import VoidResult

# -- Discord's limits (https://discord.com/developers/docs/resources/message#embed-object-embed-limits)
EMBED_TOTAL_LIMIT: Final = 6000
TITLE_LIMIT: Final = 256
DESCRIPTION_LIMIT: Final = 4096
FIELD_LIMIT: Final = 25
FIELD_NAME_LIMIT: Final = 256
FIELD_VALUE_LIMIT: Final = 1024
FOOTER_LIMIT: Final = 2048
CUSTOM_ID_LIMIT: Final = 100
ROWS_LIMIT: Final = 5
BUTTONS_PER_ROW: Final = 5

#: Every action a table button can carry in its custom id.
BUTTON_ACTIONS: Final = (
    "hit",
    "stand",
    "double",
    "split",
    "surrender",
    "insurance",
    "no_insurance",
    "hint",
    "join",
    "leave",
    "rebet",
    "rebet2",
)
#: ``bj:{table_id}:{round_no}:{action}``: clicks route by this after a restart too.
CUSTOM_ID_TEMPLATE: Final = (
    r"bj:(?P<table_id>[0-9A-Za-z]{1,40}):(?P<round_no>[0-9]{1,15}):"
    r"(?P<action>" + "|".join(BUTTON_ACTIONS) + r")"
)
_CUSTOM_ID = re.compile(CUSTOM_ID_TEMPLATE)

COLOURS: Final[dict[Phase, int]] = {
    Phase.BETTING: 0x5865F2,  # blurple: waiting for bets
    Phase.INSURANCE: 0xF1C40F,  # gold: a question for everyone
    Phase.PLAYING: 0x2ECC71,  # green: cards are out
    Phase.CLOSED: 0x95A5A6,  # grey: nothing more will happen
}
#: Colour of the message once the round has a result on the table.
SETTLED_COLOUR: Final = 0xE67E22

HIDDEN_CARD: Final = "??"
CURRENT_MARK: Final = "▶"
#: Lines of recent events shown under the seats (the newest last).
EVENT_LINES: Final = 4

# Button labels, also what tests click by.
LABELS: Final[dict[str, str]] = {
    "hit": "Hit",
    "stand": "Stand",
    "double": "Double",
    "split": "Split",
    "surrender": "Surrender",
    "insurance": "Insurance",
    "no_insurance": "No insurance",
    "hint": "Hint",
    "join": "Join",
    "leave": "Leave",
    "rebet": "Bet again",
    "rebet2": "Bet 2×",
}
_STYLES: Final[dict[str, discord.ButtonStyle]] = {
    "hit": discord.ButtonStyle.primary,
    "stand": discord.ButtonStyle.secondary,
    "double": discord.ButtonStyle.secondary,
    "split": discord.ButtonStyle.secondary,
    "surrender": discord.ButtonStyle.danger,
    "insurance": discord.ButtonStyle.primary,
    "no_insurance": discord.ButtonStyle.secondary,
    "hint": discord.ButtonStyle.secondary,
    "join": discord.ButtonStyle.success,
    "leave": discord.ButtonStyle.secondary,
    "rebet": discord.ButtonStyle.primary,
    "rebet2": discord.ButtonStyle.primary,
}
_PLAY_ACTIONS: Final[dict[str, Action]] = {
    "hit": Action.HIT,
    "stand": Action.STAND,
    "double": Action.DOUBLE,
    "split": Action.SPLIT,
    "surrender": Action.SURRENDER,
    "insurance": Action.INSURANCE,
    "no_insurance": Action.NO_INSURANCE,
}


@dataclass(frozen=True, slots=True)
class ButtonRef:
    """What a table button's custom id says."""

    table_id: str
    round_no: int
    action: str


def custom_id(table_id: str, round_no: int, action: str) -> str:
    """The custom id of a table button: ``bj:{table_id}:{round_no}:{action}``."""
    if action not in BUTTON_ACTIONS:
        raise ValueError(f"not a table button action: {action!r}")
    return f"bj:{table_id}:{round_no}:{action}"


def parse_custom_id(text: str) -> ButtonRef | None:
    """The table, round and action of a table button's custom id, or None if it is not one."""
    match = _CUSTOM_ID.fullmatch(text)
    if match is None:
        return None
    return ButtonRef(match["table_id"], int(match["round_no"]), match["action"])


@dataclass(frozen=True, slots=True)
class ButtonSpec:
    """One button of the table message, before it becomes a discord.ui.Button."""

    action: str
    label: str
    custom_id: str
    style: discord.ButtonStyle
    disabled: bool
    row: int

    def make(self) -> discord.ui.Button[discord.ui.View]:
        """A fresh discord.ui.Button for this spec (an item belongs to one view only)."""
        return discord.ui.Button(
            label=self.label,
            custom_id=self.custom_id,
            style=self.style,
            disabled=self.disabled,
            row=self.row,
        )


@dataclass(frozen=True, slots=True)
class RenderedTable:
    """The table message: one embed and the buttons under it."""

    embed: discord.Embed
    buttons: tuple[ButtonSpec, ...]

    def view(self) -> discord.ui.View:
        """A plain view of the buttons (the table cog wraps each in its DynamicItem)."""
        view = discord.ui.View(timeout=None)
        for spec in self.buttons:
            view.add_item(spec.make())
        return view

    def components(self) -> list[dict[str, object]]:
        """The components as sent to Discord (action rows of buttons)."""
        rows: list[dict[str, object]] = self.view().to_components()
        return rows

    def button(self, label: str) -> ButtonSpec:
        """The button with this label (KeyError if there is none)."""
        for spec in self.buttons:
            if spec.label == label:
                return spec
        raise KeyError(label)


# ---------------------------------------------------------------------------- text pieces


def chips(amount: int) -> str:
    """``1,250``."""
    return f"{amount:,}"


def signed(amount: int) -> str:
    """``+250``, ``-100``, ``±0``."""
    return "±0" if amount == 0 else f"{amount:+,}"


def card_text(cards: Iterable[CardView]) -> str:
    """``A♠ 10♥``: plain text, short enough for a phone."""
    return " ".join(card.text for card in cards)


def timestamp(unix: float) -> str:
    """A relative Discord timestamp that counts down on the reader's client."""
    return f"<t:{int(unix)}:R>"


def total_text(total: int, soft: bool, status: str) -> str:
    """``21``, ``soft 17``, ``BJ``, ``bust 24``."""
    if status == "blackjack":
        return "BJ"
    if total > 21:
        return f"bust {total}"
    return f"soft {total}" if soft and total < 21 else str(total)


def escape(name: str) -> str:
    """A player's name with Markdown made literal, so names cannot restyle the table."""
    return discord.utils.escape_mentions(discord.utils.escape_markdown(name))


_STATUS_SHOWN: Final[dict[str, str]] = {"playing": "", "standing": "stood", "bust": ""}


def hand_line(hand: HandView, deadline: float | None = None) -> str:
    """One hand: marker, cards, total, stake, then its status or its result."""
    marker = CURRENT_MARK if hand.is_current else "•"
    parts = [
        f"{marker} {card_text(hand.cards)}",
        f"**{total_text(hand.total, hand.soft, hand.status)}**",
        chips(hand.stake),
    ]
    if hand.outcome:
        paid = f"{hand.outcome} → {chips(hand.payout)}"
        if hand.rounded_down:
            paid += " (½ rounded down)"
        parts.append(paid)
    else:
        status = _STATUS_SHOWN.get(hand.status, hand.status)
        if status and status != "blackjack":
            parts.append(status)
        if hand.is_current and deadline is not None:
            parts.append(timestamp(deadline))
    return " · ".join(parts)


def seat_name(seat: SeatView) -> str:
    """The field title for a seat: the name, and what the seat is waiting for."""
    name = escape(seat.name)
    if seat.leaving:
        name += " (leaving)"
    return name


def seat_lines(seat: SeatView, phase: Phase) -> list[str]:
    """The lines under a seat's name."""
    lines: list[str] = []
    if seat.hands:
        current_deadline = seat.deadline if seat.legal else None
        lines += [hand_line(hand, current_deadline) for hand in seat.hands]
    elif seat.bet:
        spots = f" on {seat.spots} hands" if seat.spots > 1 else ""
        lines.append(f"Bet {chips(seat.bet)}{spots}")
    elif phase is Phase.BETTING:
        lines.append("No bet yet")
    else:
        lines.append("Sitting out this round")
    if seat.insurance is not None:
        lines.append(f"Insured {chips(seat.insurance)}" if seat.insurance else "No insurance")
    if seat.net is not None:
        lines.append(f"Net **{signed(seat.net)}**")
    return lines


def dealer_line(dealer: DealerView) -> str:
    """``**Dealer** A♠ ?? · shows 11`` or ``**Dealer** A♠ K♥ · **BJ**``."""
    cards = card_text(dealer.cards)
    if dealer.hole_hidden:
        return f"**Dealer** {cards} {HIDDEN_CARD} · shows {dealer.total}"
    total = total_text(dealer.total, dealer.soft, dealer.status)
    status = dealer.status if dealer.status not in ("", "blackjack", "bust", "standing") else ""
    return " · ".join(part for part in (f"**Dealer** {cards}", f"**{total}**", status) if part)


def phase_lines(snapshot: TableSnapshot) -> list[str]:
    """What the table is waiting for, and until when."""
    when = f" · {timestamp(snapshot.deadline)}" if snapshot.deadline is not None else ""
    if snapshot.phase is Phase.BETTING:
        return [
            f"**Place your bets**{when}",
            f"`/bet amount [hands]` · {chips(snapshot.min_bet)}–{chips(snapshot.max_bet)}"
            f" a hand, up to {snapshot.max_spots} hand{'s' if snapshot.max_spots > 1 else ''}",
        ]
    if snapshot.phase is Phase.INSURANCE:
        return [f"**Insurance?** The dealer shows an ace{when}"]
    if snapshot.phase is Phase.PLAYING:
        return [f"**Your move** · everyone plays at once{when}"]
    reason = f" · {snapshot.closed_reason}" if snapshot.closed_reason else ""
    return [f"**Table closed**{reason}"]


# ---------------------------------------------------------------------------- limits


def clip_lines(lines: Sequence[str], limit: int) -> str:
    """Join lines, dropping whole lines from the end (with an ellipsis) to stay within limit."""
    text = "\n".join(lines)
    if len(text) <= limit:
        return text
    kept: list[str] = []
    used = 1  # the ellipsis line
    for line in lines:
        cost = len(line) + (1 if kept else 0)
        if used + cost + 1 > limit:
            break
        kept.append(line)
        used += cost
    if not kept:
        return lines[0][: limit - 1] + "…" if lines else ""
    return "\n".join([*kept, "…"])


def clip(text: str, limit: int) -> str:
    """Cut a single line to ``limit`` characters, with an ellipsis."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def embed_size(embed: discord.Embed) -> int:
    """Characters Discord counts toward the 6000 limit (title, description, fields, footer)."""
    size = len(embed.title or "") + len(embed.description or "")
    size += sum(len(field.name or "") + len(field.value or "") for field in embed.fields)
    size += len(embed.footer.text or "") + len(embed.author.name or "")
    return size


# ---------------------------------------------------------------------------- the table


def render_table(snapshot: TableSnapshot) -> RenderedTable:
    """The table message for ``snapshot``: an embed within every Discord limit, and buttons."""
    return RenderedTable(embed=table_embed(snapshot), buttons=table_buttons(snapshot))


def table_embed(snapshot: TableSnapshot) -> discord.Embed:
    """The embed: phase and deadline, dealer, one field per seat, then news and results."""
    settled = any(seat.net is not None for seat in snapshot.seats)
    colour = SETTLED_COLOUR if settled and snapshot.phase is Phase.PLAYING else None
    embed = discord.Embed(
        title=clip(f"Blackjack · {snapshot.preset}", TITLE_LIMIT),
        colour=colour if colour is not None else COLOURS[snapshot.phase],
    )
    description = phase_lines(snapshot)
    if snapshot.dealer is not None:
        description.append(dealer_line(snapshot.dealer))
    elif snapshot.phase is not Phase.CLOSED:
        description.append("**Dealer** waiting for bets")
    embed.description = clip_lines(description, DESCRIPTION_LIMIT)
    embed.set_footer(
        text=clip(
            f"Table {snapshot.table_id} · round {snapshot.round_no}"
            + (f" · shoe {snapshot.commitment[:12]}" if snapshot.commitment else ""),
            FOOTER_LIMIT,
        )
    )
    for seat in snapshot.seats[: FIELD_LIMIT - 3]:
        embed.add_field(
            name=clip(seat_name(seat), FIELD_NAME_LIMIT),
            value=clip_lines(seat_lines(seat, snapshot.phase), FIELD_VALUE_LIMIT),
            inline=False,
        )
    if not snapshot.seats and snapshot.phase is not Phase.CLOSED:
        embed.add_field(name="Seats", value="Empty: press Join or `/bet`.", inline=False)
    # Extras in order of importance; each is added only if the whole embed still fits.
    extras: list[tuple[str, Sequence[str]]] = []
    if snapshot.shuffle_notice:
        extras.append(("Shuffled", snapshot.shuffle_notice))
    if snapshot.last_results:
        extras.append(("Last round", snapshot.last_results))
    if snapshot.events:
        extras.append(("Latest", snapshot.events[-EVENT_LINES:]))
    for name, lines in extras:
        room = EMBED_TOTAL_LIMIT - embed_size(embed) - len(name)
        if room < 20 or len(embed.fields) >= FIELD_LIMIT:
            break
        value = clip_lines([escape_line(line) for line in lines], min(FIELD_VALUE_LIMIT, room))
        embed.add_field(name=name, value=value, inline=False)
    return embed


def escape_line(line: str) -> str:
    """A service-written line may hold player names: keep mentions from pinging."""
    return discord.utils.escape_mentions(line)


def table_buttons(snapshot: TableSnapshot) -> tuple[ButtonSpec, ...]:
    """The buttons for this phase; an action is enabled if it is legal for at least one player.

    One message serves every player, so a press by someone who cannot take the
    action is refused by the service with an ephemeral reason.
    """
    if snapshot.phase is Phase.CLOSED:
        return ()
    legal: set[Action] = set()
    for seat in snapshot.seats:
        legal |= seat.legal
    seated = bool(snapshot.seats)
    layout: list[list[tuple[str, bool]]]
    if snapshot.phase is Phase.BETTING:
        layout = [[("rebet", True), ("rebet2", True), ("join", True), ("leave", seated)]]
    elif snapshot.phase is Phase.INSURANCE:
        layout = [
            [
                ("insurance", Action.INSURANCE in legal),
                ("no_insurance", Action.NO_INSURANCE in legal),
            ],
            [("join", True), ("leave", seated)],
        ]
    else:
        layout = [
            [(name, _PLAY_ACTIONS[name] in legal) for name in _ROW_PLAY],
            [("hint", bool(legal)), ("join", True), ("leave", seated)],
        ]
    specs: list[ButtonSpec] = []
    for row, names in enumerate(layout):
        for action, enabled in names:
            specs.append(
                ButtonSpec(
                    action=action,
                    label=LABELS[action],
                    custom_id=custom_id(snapshot.table_id, snapshot.round_no, action),
                    style=_STYLES[action],
                    disabled=not enabled,
                    row=row,
                )
            )
    return tuple(specs)


_ROW_PLAY: Final = ("hit", "stand", "double", "split", "surrender")


def play_action(action: str) -> Action | None:
    """The engine action a button stands for (None for hint, join, leave and the bet buttons)."""
    return _PLAY_ACTIONS.get(action)


# ---------------------------------------------------------------------------- after a restart


def voided_embed(result: VoidResult) -> discord.Embed:
    """What an old table message says once recovery voided its round and refunded the stakes."""
    embed = discord.Embed(
        title="Round voided",
        colour=COLOURS[Phase.CLOSED],
        description=(
            f"This round was voided: {result.reason}. Every stake was refunded.\n"
            "Start a new table with `/blackjack start`."
        ),
    )
    if result.refunds:
        lines = [
            f"<@{user_id}> {chips(amount)} back (balance {chips(result.balances[user_id])})"
            if user_id in result.balances
            else f"<@{user_id}> {chips(amount)} back"
            for user_id, amount in sorted(result.refunds.items())
        ]
        embed.add_field(name="Refunds", value=clip_lines(lines, FIELD_VALUE_LIMIT), inline=False)
    embed.set_footer(text=f"Round {result.round_id}")
    return embed
