"""The terminal table of ``python -m bot play`` drawn as text: cards as box art, the
dealer above, your hands side by side with their totals and stakes."""

from __future__ import annotations

from collections.abc import Sequence

from bot.engine import Card, Hand, Round, RoundPhase

#: The one player at the terminal table.
PLAYER = "you"


def card_lines(hand_cards: Sequence[Card], hidden: int = 0) -> list[str]:
    """A hand drawn as overlapping cards, the last one whole (like the rules screen)."""
    faces = [f"│{card.suit_symbol}{card.rank_name:>3}│" for card in hand_cards]
    faces += ["│░░░░│"] * hidden
    lines: list[str] = []
    for face in faces:
        lines += ["╭────╮", face]
    last_fill = "│░░░░│" if hidden else "│    │"
    return [*lines, last_fill, "╰────╯"]


def side_by_side(columns: Sequence[list[str]], width: int = 8) -> str:
    """Columns of text lines next to each other, top-aligned, each at least ``width``
    wide and a space wider than its longest line."""
    height = max(len(column) for column in columns)
    width = max(width, *(len(cell) + 1 for column in columns for cell in column))
    rows = []
    for row in range(height):
        cells = [column[row] if row < len(column) else "" for column in columns]
        rows.append("".join(f"{cell:<{width}}" for cell in cells).rstrip())
    return "\n".join(rows)


def hand_label(hand: Hand) -> str:
    if hand.is_blackjack:
        return "BJ"
    soft = "s" if hand.is_soft and hand.total < 21 else ""
    return f"{soft}{hand.total}"


def render(round_: Round) -> str:
    """The table: the dealer's cards, then the player's hands with totals and stakes."""
    settled = round_.phase is RoundPhase.SETTLED
    dealer = round_.dealer
    if settled:
        dealer_art = [*card_lines(dealer.cards), f"{hand_label(dealer):>5}"]
    else:
        dealer_art = [*card_lines(dealer.cards[:1], hidden=1), f"{dealer.cards[0].value:>5}"]
    hands = round_.hands(PLAYER)
    current = round_.current_hand_index(PLAYER)
    columns = []
    for index, hand in enumerate(hands):
        column = card_lines(hand.cards)
        column.append(f"{hand_label(hand):>5}")
        column.append(f"bet {hand.stake}")
        marker = "  ▲" if index == current else ""
        if settled:
            marker = f" {hand.outcome}"
        column.append(marker)
        columns.append(column)
    return "\n".join(
        ["Dealer", side_by_side([dealer_art]), "", "Your hands", side_by_side(columns)]
    )
