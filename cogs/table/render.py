"""The table message: a pure function from a table snapshot to one embed and its buttons.

Nothing here touches the network or the clock, so every picture of a table can be
tested without Discord. Countdowns are Discord timestamps (``<t:UNIX:R>``): the
client ticks them, the bot never edits a message just to move a clock.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

import discord

from bot.bet_amount import stake_words
from bot.i18n import ENGLISH, _, nspeak, number, speak, speaking, spoken, tr
from bot.shown_names import shown_name
from bot.tables.results import signed
from bot.tables.snapshot import DealerView, HandView, SeatView, TablePhase, TableSnapshot
from cogs.table.buttons import ButtonSpec, SentButtons, table_buttons
from cogs.table.card_art import Faces, card_row, hidden_card, picture_count
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
from cogs.table.render_panel import panel_lines
from cogs.table.render_results import (
    LAST_ROUND,
    add_last_round,
    escape_line,
    newest_lines,
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
#: What a closed table says of the round it voided, and under each seat that had a stake.
ROUND_REFUNDED: Final = _("The round in play was called off and every stake refunded.")
ROUND_REFUNDED_BUT_SIDE_BETS: Final = _(
    "The round in play was called off and every stake refunded, except the 21+3 and "
    "Perfect Pairs bets the deal had already settled."
)
STAKE_REFUNDED: Final = _("Stake refunded")
SHUFFLED: Final = _("Shuffled")
LATEST: Final = _("Latest")


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
    """``1,250`` (``1.250`` where the language being spoken writes it so)."""
    return number(amount)


def timestamp(unix: float) -> str:
    """A relative Discord timestamp that counts down on the reader's client."""
    return f"<t:{int(unix)}:R>"


def total_text(total: int, soft: bool, status: str) -> str:
    """``21``, ``soft 17``, ``BJ``, ``bust 24``."""
    if status == "blackjack":
        return speak("BJ")
    if total > 21:
        return speak("bust {total}", total=total)
    return speak("soft {total}", total=total) if soft and total < 21 else str(total)


#: How a hand ended (the engine's ``Outcome``), as its seat shows it.
_OUTCOMES: Final = {
    "win": _("win"),
    "lose": _("lose"),
    "push": _("push"),
    "blackjack": _("blackjack"),
    "surrender": _("surrender"),
    "bust": _("bust"),
}
#: A hand's status as its seat shows it ("" for none); a blackjack shows in its total.
_STATUS_SHOWN: Final = {
    "standing": _("stood"),
    "doubled": _("doubled"),
    "surrendered": _("surrendered"),
}


def hand_line(
    hand: HandView,
    deadline: float | None = None,
    faces: Faces | None = None,
    *,
    hidden: bool = False,
) -> str:
    """One hand: marker, cards (text, or pictures with ``faces``), total, stake (``hidden``:
    a secret bet's is not shown), then its status or its result."""
    marker = CURRENT_MARK if hand.is_current else "•"
    parts = [
        f"{marker} {card_row(hand.cards, faces)}",
        f"**{total_text(hand.total, hand.soft, hand.status)}**",
        speak("secret bet") if hidden else chips(hand.stake),
    ]
    if hand.outcome and not hidden:
        outcome = tr(_OUTCOMES.get(hand.outcome, hand.outcome))
        if hand.rounded_down:
            paid = speak(
                "{outcome} → {payout} (½ rounded down)", outcome=outcome, payout=hand.payout
            )
        else:
            paid = speak("{outcome} → {payout}", outcome=outcome, payout=hand.payout)
        parts.append(paid)
    else:
        status = _STATUS_SHOWN.get(hand.status)
        if status:
            parts.append(tr(status))
        if hand.is_current and deadline is not None:
            parts.append(timestamp(deadline))
    return " · ".join(parts)


def seat_name(seat: SeatView) -> str:
    """The field title for a seat: the name, and what the seat is waiting for."""
    name = shown_name(seat.name)
    if seat.leaving:
        return speak("{player} (leaving)", player=name)
    return name


def seat_lines(seat: SeatView, phase: TablePhase, faces: Faces | None = None) -> list[str]:
    """The lines under a seat's name."""
    if phase is TablePhase.CLOSED:  # no cards, totals or stakes: nothing is in play
        return [tr(STAKE_REFUNDED) if seat.spots else speak("Nothing at stake")]
    lines: list[str] = []
    if seat.hands:
        current_deadline = seat.deadline if seat.legal else None
        lines += [
            hand_line(hand, current_deadline, faces, hidden=seat.hidden) for hand in seat.hands
        ]
    elif seat.hidden and seat.spots:
        lines.append(speak("Bet sealed"))
    elif seat.bet:
        lines.append(speak("Bet {stake}", stake=stake_words(seat.bet, seat.spots)))
    elif phase is TablePhase.BETTING:
        lines.append(speak("No bet yet"))
    else:
        lines.append(speak("Sitting out this round"))
    if seat.insurance is not None:
        lines.append(
            speak("Insured {amount}", amount=seat.insurance)
            if seat.insurance
            else speak("No insurance")
        )
    for bet, stake in seat.side_bets:
        lines.append(speak("{bet}: {amount} a hand", bet=bet, amount=stake))
    if seat.net is not None:
        lines.append(speak("Net **{net}**", net=signed(seat.net)))
    return lines


def dealer_line(dealer: DealerView, faces: Faces | None = None) -> str:
    """``**Dealer** A♠ ?? · shows 11`` or ``**Dealer** A♠ K♥ · **BJ**`` (or in pictures)."""
    cards = card_row(dealer.cards, faces)
    if dealer.hole_hidden:
        gap = " " if faces is None else ""
        return speak(
            "**Dealer** {cards} · shows {total}",
            cards=f"{cards}{gap}{hidden_card(faces)}",
            total=dealer.total,
        )
    total = total_text(dealer.total, dealer.soft, dealer.status)
    return speak("**Dealer** {cards} · **{total}**", cards=cards, total=total)


def phase_lines(snapshot: TableSnapshot) -> list[str]:
    """What the table is waiting for, and until when."""
    when = f" · {timestamp(snapshot.deadline)}" if snapshot.deadline is not None else ""
    if snapshot.mode == "tournament" and snapshot.phase is TablePhase.BETTING:
        if not snapshot.round_no:
            return [speak("**Taking entries** · `/tournament join`") + when]
        return [
            speak("**Seal your bet**") + when,
            speak(
                "`/bet amount` or Bet · {low}–{high} · one secret bet: "
                "`/tournament bet secret:True`",
                low=snapshot.min_bet,
                high=snapshot.max_bet,
            ),
        ]
    if snapshot.phase is TablePhase.BETTING:
        return [
            speak("**Place your bets**") + when,
            nspeak(
                "`/bet amount [hands]` · {low}–{high} a hand, up to {count} hand",
                "`/bet amount [hands]` · {low}–{high} a hand, up to {count} hands",
                snapshot.max_spots,
                low=snapshot.min_bet,
                high=snapshot.max_bet,
                count=snapshot.max_spots,
            ),
        ]
    if snapshot.phase is TablePhase.INSURANCE:
        return [speak("**Insurance?** The dealer shows an ace") + when]
    if snapshot.phase is TablePhase.PLAYING:
        return [speak("**Your move** · everyone plays at once") + when]
    reason = snapshot.closed_reason
    if reason:
        lines = [speak("**Table closed** · {reason}", reason=tr(reason))]
    else:
        lines = [speak("**Table closed**")]
    # Bets are placed only in an open round, so a seat with one means it was voided and
    # refunded; a close after a failure already says so in its reason.
    if any(seat.spots for seat in snapshot.seats) and "refunded" not in reason:
        lines.append(
            tr(ROUND_REFUNDED_BUT_SIDE_BETS if snapshot.side_bets_settled else ROUND_REFUNDED)
        )
    return lines


# ---------------------------------------------------------------------------- the table


def render_table(
    snapshot: TableSnapshot, faces: Faces | None = None, language: str = ENGLISH
) -> RenderedTable:
    """The table message for ``snapshot``: an embed within every Discord limit, and buttons,
    in ``language`` (the table's: everyone at it reads the one message).

    ``faces`` (card code to emoji markup) shows the cards as pictures; None, as text.
    """
    with speaking(language):
        embed = table_embed(snapshot, faces)
    return RenderedTable(embed=embed, buttons=table_buttons(snapshot, language))


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
    tuple[int, TablePhase, int, str], tuple[SeatView, Faces | None, tuple[str, str, int]]
] = {}
_SEAT_FIELDS_KEPT: Final = 2048


def seat_field(seat: SeatView, phase: TablePhase, faces: Faces | None) -> tuple[str, str, int]:
    """A seat's field: its name, its lines, and how many card pictures they show.

    Remembered for the same view object: the table shows every seat after each change,
    and a click changes one."""
    key = (id(seat), phase, id(faces), spoken())
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

    title = speak("Blackjack · {preset}", preset=snapshot.preset)
    panel = [] if snapshot.panel is None else panel_lines(snapshot.panel)
    if panel:  # a tournament's own title and lines
        title = panel.pop(0)
    embed = discord.Embed(title=clip(title, TITLE_LIMIT), colour=COLOURS[snapshot.phase])
    description = phase_lines(snapshot) + panel
    if snapshot.dealer is not None:
        dealer = dealer_line(snapshot.dealer, faces_in(DEALER))
        shown[DEALER] = picture_count(dealer)
        description.append(dealer)
    elif snapshot.phase is not TablePhase.CLOSED:
        description.append(speak("**Dealer** waiting for bets"))
    embed.description = clip_lines(description, DESCRIPTION_LIMIT)
    if snapshot.commitment:
        footer = speak(
            "Table {table} · round {round} · shoe {shoe}",
            table=snapshot.table_id,
            round=str(snapshot.round_no),
            shoe=snapshot.commitment[:12],
        )
    else:
        footer = speak(
            "Table {table} · round {round}", table=snapshot.table_id, round=str(snapshot.round_no)
        )
    embed.set_footer(text=clip(footer, FOOTER_LIMIT))
    for index, seat in enumerate(snapshot.seats[: FIELD_LIMIT - 3]):
        name, value, shown[index] = seat_field(seat, snapshot.phase, faces_in(index))
        embed.add_field(name=name, value=value, inline=False)
    if not snapshot.seats and snapshot.phase is not TablePhase.CLOSED:
        embed.add_field(
            name=speak("Seats"), value=speak("Empty: press Join or `/bet`."), inline=False
        )
    # Extras in order of importance; each is added only if the whole embed still fits.
    extras: list[tuple[str, Sequence[str]]] = []
    if snapshot.shuffle_notice:
        extras.append((SHUFFLED, snapshot.shuffle_notice))
    if snapshot.last_results:
        extras.append((LAST_ROUND, snapshot.last_results))
    if snapshot.events and snapshot.phase is not TablePhase.CLOSED:
        extras.append((LATEST, snapshot.events[-EVENT_LINES:]))
    for heading, lines in extras:
        name = tr(heading)
        if heading is LAST_ROUND:
            added = add_last_round(embed, snapshot, faces if RESULTS in pictures else None)
            if added is not None:
                shown[RESULTS] = added
                continue
        room = EMBED_TOTAL_LIMIT - embed_size(embed) - len(name)
        if room < 20 or field_count(embed) >= FIELD_LIMIT:
            break
        limit = min(FIELD_VALUE_LIMIT, room)
        texts = [escape_line(tr(line)) for line in lines]
        # (Last round gets here only when not even one line a player fits: clipped text.)
        value = newest_lines(texts, limit) if heading is LATEST else clip_lines(texts, limit)
        if value:
            embed.add_field(name=name, value=value, inline=False)
    return embed, {section: count for section, count in shown.items() if count}
