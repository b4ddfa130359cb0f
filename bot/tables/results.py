"""Turning a settled round into chips, statistics and the lines the table shows."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Final

import db
from bot.engine import Event, Outcome, Settlement, insurance_payout
from bot.shown_names import shown_name
from bot.tables.table import SeatState
from db.models import Outcome as StoredOutcome

#: The engine's outcomes as the store records them (a bust is a loss).
_STORED_OUTCOME: Final[dict[Outcome, StoredOutcome]] = {
    Outcome.WIN: "win",
    Outcome.BLACKJACK: "blackjack",
    Outcome.PUSH: "push",
    Outcome.LOSE: "loss",
    Outcome.BUST: "loss",
    Outcome.SURRENDER: "surrender",
}


def payouts_of(settlement: Settlement) -> dict[int, int]:
    """Every chip returned to each player for the round (stakes included)."""
    return {int(result.player_id): result.returned for result in settlement.players}


def hand_results(settlement: Settlement, bets: dict[str, int]) -> list[db.HandResult]:
    """One record per hand for the statistics, insurance counted on each spot's first hand.

    Insurance costs half of each spot's bet (rounded down), so each spot's share
    is ``bet // 2``; the store checks that the shares add up to the stakes.
    """
    insured = {result.player_id: result for result in settlement.insurance}
    records: list[db.HandResult] = []
    seen_spots: set[tuple[str, int]] = set()
    for hand in settlement.hands:
        wagered, payout = hand.stake, hand.payout
        insurance = insured.get(hand.player_id)
        if insurance is not None and (hand.player_id, hand.spot) not in seen_spots:
            seen_spots.add((hand.player_id, hand.spot))
            share = bets[hand.player_id] // 2
            if hand.hand_index == 0:
                # Whatever the per-spot shares miss of the whole insurance stake (nothing,
                # unless the rules change) goes on the first hand, so the totals agree.
                spots = len({h.spot for h in settlement.hands_of(hand.player_id)})
                share += insurance.stake - spots * share
            wagered += share
            if insurance.won:
                payout += insurance_payout(share, True)
        records.append(
            db.HandResult(
                user_id=int(hand.player_id),
                outcome=_STORED_OUTCOME[hand.outcome],
                wagered=wagered,
                payout=payout,
                hand_index=hand.hand_index,
            )
        )
    return records


def signed(amount: int) -> str:
    """A net amount with its sign: +1,500, -20, ±0."""
    return f"{amount:+,}" if amount else "±0"


def result_lines(
    settlement: Settlement,
    names: dict[str, str],
    unpaid: Mapping[str, int] | None = None,
    *,
    detailed: bool = True,
    side_lines: Sequence[str] = (),
) -> tuple[str, ...]:
    """The dealer's hand, each hand's outcome and payout, each insurance bet, net per player.

    ``unpaid``: chips a player was not paid because of the chip limit (see chip_limit).
    Not ``detailed``: the dealer's hand and one net line per player, for a table too
    full to show every hand. ``side_lines``: the side bets' results, shown after the
    hands (the net is the main game's).
    """
    dealer_cards = " ".join(str(card) for card in settlement.dealer_cards)
    if settlement.dealer_blackjack:
        dealer = f"Dealer has blackjack: {dealer_cards}"
    elif settlement.dealer_bust:
        dealer = f"Dealer busts: {dealer_cards} ({settlement.dealer_total})"
    else:
        dealer = f"Dealer: {dealer_cards} ({settlement.dealer_total})"
    lines = [dealer]
    for player in settlement.players:
        name = names.get(player.player_id, player.player_id)
        hands = settlement.hands_of(player.player_id)
        if not detailed:
            count = f" on {len(hands)} hands" if len(hands) > 1 else ""
            lines.append(f"{name}: net {signed(player.net)}{count}")
            hands = ()
        for hand in hands:
            which = f" (hand {hand.hand_index + 1})" if len(hands) > 1 else ""
            cards = " ".join(str(card) for card in hand.cards)
            lines.append(f"{name}{which}: {cards} — {hand.text}")
        for insurance in settlement.insurance:
            if detailed and insurance.player_id == player.player_id:
                winnings = insurance_payout(insurance.stake, True) - insurance.stake
                won = f"wins {winnings:,}" if insurance.won else "loses"
                lines.append(f"{name}: insurance of {insurance.stake:,} {won}")
        if detailed:
            lines.append(f"{name}: net {signed(player.net)}")
        if unpaid and unpaid.get(player.player_id):
            lines.append(unpaid_line(name, unpaid[player.player_id]))
    return tuple([*lines, *side_lines])


def unpaid_line(name: str, amount: int) -> str:
    """The line of chips a player was not paid because of the chip limit."""
    return "{name}: {amount} not paid: it would pass the chip limit of {limit}".format(
        name=name, amount=f"{amount:,}", limit=f"{db.MAX_BALANCE:,}"
    )


#: The last line of a player's result (``result_lines``): the net, and in the summary
#: the number of hands. Matched at the end, where a player's name cannot reach.
_NET_LINE: Final = re.compile(r": net (?:[+-][\d,]+|±0)(?: on \d+ hands)?$")
#: The end of the line that may follow a player's net: chips the chip limit kept back.
_NOT_PAID_END: Final = f"it would pass the chip limit of {db.MAX_BALANCE:,}"


def result_blocks(lines: Sequence[str]) -> list[list[str]]:
    """``result_lines`` grouped for showing: the dealer's line, then each player's lines
    (hands, insurance, net, chips not paid) together, so that no player's hands are
    shown apart."""
    blocks: list[list[str]] = []
    open_block = False
    for index, line in enumerate(lines):
        not_paid = line.endswith(_NOT_PAID_END)
        if blocks and (open_block or not_paid):
            blocks[-1].append(line)
        else:
            blocks.append([line])
        open_block = index > 0 and not not_paid and not _NET_LINE.search(line)
    return blocks


def shuffle_notice(seats: Iterable[SeatState], commitment: str) -> tuple[str, ...]:
    """The reshuffle announcement: each seated player's action and standing since sitting down."""
    lines = [f"Shuffle: a new shoe (commitment {commitment[:16]}…)."]
    for seat in seats:
        action, standing = seat.standing.action(seat.pid), seat.standing.standing(seat.pid)
        name = shown_name(seat.player.name)
        lines.append(f"{name}: action {action:,}, standing {signed(standing)}")
    return tuple(lines)


def event_lines(events: Sequence[Event], names: dict[str, str]) -> list[str]:
    """The round's event sentences, with players' shown names instead of their ids.

    A sentence that starts with a name keeps the name as written ("alice hits"); only
    the dealer's and the shoe's sentences get a capital.
    """
    lines = []
    for event in events:
        text = event.text
        if event.player:
            lines.append(text.replace(event.player, names.get(event.player, event.player), 1))
        else:
            lines.append(text[:1].upper() + text[1:])
    return lines
