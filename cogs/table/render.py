"""The table message: a pure function from a table snapshot to one embed and its buttons.

Nothing here touches the network or the clock, so every picture of a table can be
tested without Discord. Countdowns are Discord timestamps (``<t:UNIX:R>``): the
client ticks them, the bot never edits a message just to move a clock.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

import discord

from bot.bet_amount import stake_words
from bot.shown_names import shown_name
from bot.tables.results import result_blocks, signed
from bot.tables.snapshot import DealerView, HandView, SeatView, TablePhase, TableSnapshot
from cogs.table.buttons import ButtonSpec, SentButtons, table_buttons
from cogs.table.card_art import Faces, card_row, cards_in_line, hidden_card, picture_count
from cogs.table.embed_limits import (
    DESCRIPTION_LIMIT,
    EMBED_TOTAL_LIMIT,
    FIELD_LIMIT,
    FIELD_NAME_LIMIT,
    FIELD_VALUE_LIMIT,
    FOOTER_LIMIT,
    TITLE_LIMIT,
    clip,
    clip_lines,
    embed_size,
    field_count,
)

COLOURS: Final[dict[TablePhase, int]] = {
    TablePhase.BETTING: 0x5865F2,  # blurple: waiting for bets
    TablePhase.INSURANCE: 0xF1C40F,  # gold: a question for everyone
    TablePhase.PLAYING: 0x2ECC71,  # green: cards are out
    TablePhase.CLOSED: 0x95A5A6,  # grey: nothing more will happen
}

CURRENT_MARK: Final = "▶"
#: Lines of recent events shown under the seats (the newest last).
EVENT_LINES: Final = 4
LAST_ROUND: Final = "Last round"
#: The name of a field that carries on the one above it: blank to the reader (Discord
#: needs a name), so it does not read as a new section.
CONTINUED: Final = "\u200b"
#: What a closed table says of the round it voided, and under each seat that had a stake.
ROUND_REFUNDED: Final = "The round in play was called off and every stake refunded."
ROUND_REFUNDED_BUT_SIDE_BETS: Final = (
    "The round in play was called off and every stake refunded, except the 21+3 and "
    "Perfect Pairs bets the deal had already settled."
)
STAKE_REFUNDED: Final = "Stake refunded"
#: Kept free for the shuffle notice and the latest events when the last round is long.
EXTRAS_ROOM: Final = 400


@dataclass(frozen=True, slots=True)
class RenderedTable:
    """The table message: one embed and the buttons under it."""

    embed: discord.Embed
    buttons: tuple[ButtonSpec, ...]

    def view(self) -> discord.ui.View:
        """The buttons as a view to send (stopped: discord.py never stores it)."""
        return SentButtons(self.buttons)

    def components(self) -> list[dict[str, object]]:
        """The components as sent to Discord (action rows of buttons)."""
        return SentButtons(self.buttons).to_components()

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


_STATUS_SHOWN: Final[dict[str, str]] = {"playing": "", "standing": "stood", "bust": ""}


def hand_line(hand: HandView, deadline: float | None = None, faces: Faces | None = None) -> str:
    """One hand: marker, cards (text, or pictures with ``faces``), total, stake, then its
    status or its result."""
    marker = CURRENT_MARK if hand.is_current else "•"
    parts = [
        f"{marker} {card_row(hand.cards, faces)}",
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
    name = shown_name(seat.name)
    if seat.leaving:
        name += " (leaving)"
    return name


def seat_lines(seat: SeatView, phase: TablePhase, faces: Faces | None = None) -> list[str]:
    """The lines under a seat's name."""
    if phase is TablePhase.CLOSED:  # no cards, totals or stakes: nothing is in play
        return [STAKE_REFUNDED if seat.spots else "Nothing at stake"]
    lines: list[str] = []
    if seat.hands:
        current_deadline = seat.deadline if seat.legal else None
        lines += [hand_line(hand, current_deadline, faces) for hand in seat.hands]
    elif seat.bet:
        lines.append(f"Bet {stake_words(seat.bet, seat.spots)}")
    elif phase is TablePhase.BETTING:
        lines.append("No bet yet")
    else:
        lines.append("Sitting out this round")
    if seat.insurance is not None:
        lines.append(f"Insured {chips(seat.insurance)}" if seat.insurance else "No insurance")
    for bet, stake in seat.side_bets:
        lines.append(f"{bet}: {chips(stake)} a hand")
    if seat.net is not None:
        lines.append(f"Net **{signed(seat.net)}**")
    return lines


def dealer_line(dealer: DealerView, faces: Faces | None = None) -> str:
    """``**Dealer** A♠ ?? · shows 11`` or ``**Dealer** A♠ K♥ · **BJ**`` (or in pictures)."""
    cards = card_row(dealer.cards, faces)
    if dealer.hole_hidden:
        gap = " " if faces is None else ""
        return f"**Dealer** {cards}{gap}{hidden_card(faces)} · shows {dealer.total}"
    total = total_text(dealer.total, dealer.soft, dealer.status)
    status = dealer.status if dealer.status not in ("", "blackjack", "bust", "standing") else ""
    return " · ".join(part for part in (f"**Dealer** {cards}", f"**{total}**", status) if part)


def phase_lines(snapshot: TableSnapshot) -> list[str]:
    """What the table is waiting for, and until when."""
    when = f" · {timestamp(snapshot.deadline)}" if snapshot.deadline is not None else ""
    if snapshot.phase is TablePhase.BETTING:
        return [
            f"**Place your bets**{when}",
            f"`/bet amount [hands]` · {chips(snapshot.min_bet)}–{chips(snapshot.max_bet)}"
            f" a hand, up to {snapshot.max_spots} hand{'s' if snapshot.max_spots > 1 else ''}",
        ]
    if snapshot.phase is TablePhase.INSURANCE:
        return [f"**Insurance?** The dealer shows an ace{when}"]
    if snapshot.phase is TablePhase.PLAYING:
        return [f"**Your move** · everyone plays at once{when}"]
    reason = f" · {snapshot.closed_reason}" if snapshot.closed_reason else ""
    lines = [f"**Table closed**{reason}"]
    # Bets are placed only in an open round, so a seat with one means it was voided and
    # refunded; a close after a failure already says so in its reason.
    if any(seat.spots for seat in snapshot.seats) and "refunded" not in reason:
        lines.append(ROUND_REFUNDED_BUT_SIDE_BETS if snapshot.side_bets_settled else ROUND_REFUNDED)
    return lines


# ---------------------------------------------------------------------------- the table


def render_table(snapshot: TableSnapshot, faces: Faces | None = None) -> RenderedTable:
    """The table message for ``snapshot``: an embed within every Discord limit, and buttons.

    ``faces`` (card code to emoji markup) shows the cards as pictures; None, as text.
    """
    return RenderedTable(embed=table_embed(snapshot, faces), buttons=table_buttons(snapshot))


#: The parts of the table that show cards: the dealer's row, a seat (by index), the results.
Section = str | int
DEALER: Final = "dealer"
RESULTS: Final = "results"


def table_embed(snapshot: TableSnapshot, faces: Faces | None = None) -> discord.Embed:
    """The embed: phase and deadline, dealer, one field per seat, then news and results.

    Pictures cost about 35 characters a card against 3 for text. When the table does not
    fit Discord's limits, the older event lines give way first (the news keeps what room
    is left, newest last), then the busiest section shows its cards as text, and so on.
    """
    pictures: set[Section] = set()
    if faces is not None:
        pictures = {DEALER, RESULTS, *range(len(snapshot.seats))}
    while True:
        embed, shown = _compose(snapshot, faces, pictures)
        if embed_size(embed) <= EMBED_TOTAL_LIMIT or not shown:
            return embed
        busiest = max(shown, key=lambda section: shown[section])
        pictures.discard(busiest)


#: Seat fields already written, by the seat's view (a view is given again while the seat is
#: unchanged: ``snapshot_builder.seat_view``), the phase and the card pictures.
_SEAT_FIELDS: dict[
    tuple[int, TablePhase, int], tuple[SeatView, Faces | None, tuple[str, str, int]]
] = {}
_SEAT_FIELDS_KEPT: Final = 2048


def seat_field(seat: SeatView, phase: TablePhase, faces: Faces | None) -> tuple[str, str, int]:
    """A seat's field: its name, its lines, and how many card pictures they show.

    Remembered for the same view object: the table shows every seat after each change,
    and a click changes one."""
    key = (id(seat), phase, id(faces))
    known = _SEAT_FIELDS.get(key)
    if known is not None and known[0] is seat and known[1] is faces:
        return known[2]
    under = seat_lines(seat, phase, faces)
    if faces is not None and len("\n".join(under)) > FIELD_VALUE_LIMIT:
        under = seat_lines(seat, phase)  # a seat too busy for pictures
    field = (
        clip(seat_name(seat), FIELD_NAME_LIMIT),
        clip_lines(under, FIELD_VALUE_LIMIT),
        sum(picture_count(line) for line in under),
    )
    if len(_SEAT_FIELDS) >= _SEAT_FIELDS_KEPT:
        _SEAT_FIELDS.clear()
    _SEAT_FIELDS[key] = (seat, faces, field)
    return field


def _compose(
    snapshot: TableSnapshot, faces: Faces | None, pictures: set[Section]
) -> tuple[discord.Embed, dict[Section, int]]:
    """The embed with ``pictures`` in those sections, and how many pictures each shows."""
    shown: dict[Section, int] = {}

    def faces_in(section: Section) -> Faces | None:
        return faces if section in pictures else None

    embed = discord.Embed(
        title=clip(f"Blackjack · {snapshot.preset}", TITLE_LIMIT),
        colour=COLOURS[snapshot.phase],
    )
    description = phase_lines(snapshot)
    if snapshot.dealer is not None:
        dealer = dealer_line(snapshot.dealer, faces_in(DEALER))
        shown[DEALER] = picture_count(dealer)
        description.append(dealer)
    elif snapshot.phase is not TablePhase.CLOSED:
        description.append("**Dealer** waiting for bets")
    embed.description = clip_lines(description, DESCRIPTION_LIMIT)
    embed.set_footer(
        text=clip(
            f"Table {snapshot.table_id} · round {snapshot.round_no}"
            + (f" · shoe {snapshot.commitment[:12]}" if snapshot.commitment else ""),
            FOOTER_LIMIT,
        )
    )
    for index, seat in enumerate(snapshot.seats[: FIELD_LIMIT - 3]):
        name, value, shown[index] = seat_field(seat, snapshot.phase, faces_in(index))
        embed.add_field(name=name, value=value, inline=False)
    if not snapshot.seats and snapshot.phase is not TablePhase.CLOSED:
        embed.add_field(name="Seats", value="Empty: press Join or `/bet`.", inline=False)
    # Extras in order of importance; each is added only if the whole embed still fits.
    extras: list[tuple[str, Sequence[str]]] = []
    if snapshot.shuffle_notice:
        extras.append(("Shuffled", snapshot.shuffle_notice))
    if snapshot.last_results:
        extras.append((LAST_ROUND, snapshot.last_results))
    if snapshot.events and snapshot.phase is not TablePhase.CLOSED:
        extras.append(("Latest", snapshot.events[-EVENT_LINES:]))
    for name, lines in extras:
        if name == LAST_ROUND:
            added = add_last_round(embed, snapshot, faces if RESULTS in pictures else None)
            if added is not None:
                shown[RESULTS] = added
                continue
        room = EMBED_TOTAL_LIMIT - embed_size(embed) - len(name)
        if room < 20 or field_count(embed) >= FIELD_LIMIT:
            break
        limit = min(FIELD_VALUE_LIMIT, room)
        texts = [escape_line(line) for line in lines]
        # (Last round gets here only when not even one line a player fits: clipped text.)
        value = newest_lines(texts, limit) if name == "Latest" else clip_lines(texts, limit)
        if value:
            embed.add_field(name=name, value=value, inline=False)
    return embed, {section: count for section, count in shown.items() if count}


def newest_lines(lines: Sequence[str], limit: int) -> str:
    """The newest lines (the last ones) that fit in ``limit``: older news gives way first."""
    kept: list[str] = []
    used = 0
    for line in reversed(lines):
        cost = len(line) + (1 if kept else 0)
        if used + cost > limit:
            break
        kept.append(line)
        used += cost
    if not kept and lines:
        return clip(lines[-1], limit)
    return "\n".join(reversed(kept))


def hint_text(snapshot: TableSnapshot, user_id: int, advice: str, faces: Faces | None) -> str:
    """The Hint's answer: the player's hand against the dealer's up card, then the advice."""
    seat = next((s for s in snapshot.seats if s.user_id == user_id), None)
    hand = next((h for h in seat.hands if h.is_current), None) if seat is not None else None
    if hand is None or snapshot.dealer is None or not snapshot.dealer.cards:
        return advice
    up = card_row(snapshot.dealer.cards[:1], faces)
    return f"Your hand {card_row(hand.cards, faces)} against {up}\n{advice}"


def add_last_round(
    embed: discord.Embed, snapshot: TableSnapshot, faces: Faces | None = None
) -> int | None:
    """Every player's result: every hand over as many fields as it takes (with ``faces``,
    its cards as pictures first, then as text), else one line each.

    The number of pictures shown, or None if nothing fits (the caller then clips what it
    can into one field).
    """
    results = [escape_line(line) for line in snapshot.last_results]
    choices = [results, [escape_line(line) for line in snapshot.last_summary]]
    if faces is not None:
        choices.insert(0, [cards_in_line(line, faces) for line in results])
    for lines in choices:
        chunks = field_chunks(result_blocks(lines))
        names = [CONTINUED if index else LAST_ROUND for index in range(len(chunks))]
        size = sum(len(name) + len(chunk) for name, chunk in zip(names, chunks, strict=True))
        fits = field_count(embed) + len(chunks) < FIELD_LIMIT
        if chunks and fits and embed_size(embed) + size <= EMBED_TOTAL_LIMIT - EXTRAS_ROOM:
            for name, chunk in zip(names, chunks, strict=True):
                embed.add_field(name=name, value=chunk, inline=False)
            return sum(picture_count(chunk) for chunk in chunks)
    return None


def field_chunks(blocks: Sequence[Sequence[str]]) -> list[str]:
    """Whole blocks of lines packed into field values of at most FIELD_VALUE_LIMIT each;
    a block too long for a field of its own is packed line by line."""
    lines: list[str] = []
    for block in blocks:
        text = "\n".join(block)
        if len(text) <= FIELD_VALUE_LIMIT:
            lines.append(text)
        else:
            lines += block
    chunks: list[str] = []
    current: list[str] = []
    size = 0
    for line in (clip(line, FIELD_VALUE_LIMIT) for line in lines):
        cost = len(line) + (1 if current else 0)
        if current and size + cost > FIELD_VALUE_LIMIT:
            chunks.append("\n".join(current))
            current, size, cost = [], 0, len(line)
        current.append(line)
        size += cost
    if current:
        chunks.append("\n".join(current))
    return chunks


@functools.lru_cache(maxsize=4096)
def escape_line(line: str) -> str:
    """A service-written line may hold player names: keep mentions from pinging.

    Remembered: a table shows its latest lines again after every change."""
    return discord.utils.escape_mentions(line)
