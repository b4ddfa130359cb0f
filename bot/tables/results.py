"""Turning a settled round into chips, statistics and the lines the table shows."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Final

import db
from bot.engine import (
    Event,
    EventKind,
    Hand,
    HandResult,
    Note,
    Outcome,
    Settlement,
    insurance_payout,
    split_hands,
)
from bot.i18n import Text, _, joined
from bot.i18n import signed as signed
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


def dealer_result(settlement: Settlement) -> Text:
    """The dealer's hand as the round ended: ``Dealer busts: 9♦ 7♣ K♦ (26)``."""
    cards = " ".join(str(card) for card in settlement.dealer_cards)
    total = settlement.dealer_total
    if settlement.dealer_blackjack:
        return _("Dealer has blackjack: {cards}", cards=cards)
    if settlement.dealer_bust:
        return _("Dealer busts: {cards} ({total})", cards=cards, total=total)
    return _("Dealer: {cards} ({total})", cards=cards, total=total)


def player_account(
    settlement: Settlement, player_id: str, name: str, unpaid: Mapping[str, int] | None = None
) -> list[Text]:
    """A player's part of the account: each hand's outcome and payout, the insurance bet,
    the main game's net, and chips the chip limit did not pay."""
    hands = settlement.hands_of(player_id)
    lines: list[Text] = []
    for hand in hands:
        who = (
            _("{player} (hand {hand})", player=name, hand=hand.hand_index + 1)
            if len(hands) > 1
            else name
        )
        cards = " ".join(str(card) for card in hand.cards)
        lines.append(
            _(
                "{player}: {cards} — {result}",
                player=who,
                cards=cards,
                result=hand_result(hand, settlement),
            )
        )
    for insurance in settlement.insurance:
        if insurance.player_id != player_id:
            continue
        if insurance.won:
            lines.append(
                _(
                    "{player}: insurance of {stake} wins {amount}",
                    player=name,
                    stake=insurance.stake,
                    amount=insurance.payout - insurance.stake,
                )
            )
        else:
            lines.append(
                _("{player}: insurance of {stake} loses", player=name, stake=insurance.stake)
            )
    lines.append(
        _("{player}: net {net}", player=name, net=signed(settlement.player(player_id).net))
    )
    if unpaid and unpaid.get(player_id):
        lines.append(unpaid_line(name, unpaid[player_id]))
    return lines


def result_account(
    settlement: Settlement,
    names: Mapping[str, str],
    unpaid: Mapping[str, int] | None = None,
    side_lines: Mapping[str, Sequence[str]] | None = None,
) -> tuple[tuple[str, str], ...]:
    """The round's full account as (whose line, line): the dealer's ("" for whose), then
    each player's lines (``player_account``) followed by their side bets' (``side_lines``
    by player id), so that a player's lines can be shown together, and theirs first."""
    account: list[tuple[str, str]] = [("", dealer_result(settlement))]
    for player in settlement.players:
        pid = player.player_id
        lines: list[str] = [*player_account(settlement, pid, names.get(pid, pid), unpaid)]
        lines += (side_lines or {}).get(pid, ())
        account += [(pid, line) for line in lines]
    return tuple(account)


def result_lines(
    settlement: Settlement, names: Mapping[str, str], unpaid: Mapping[str, int] | None = None
) -> tuple[str, ...]:
    """The round's full account, line by line (``result_account`` without whose lines)."""
    return tuple(line for _, line in result_account(settlement, names, unpaid))


def unpaid_line(name: str, amount: int) -> Text:
    """The line of chips a player was not paid because of the chip limit."""
    return _(
        "{player}: {amount} not paid: it would pass the chip limit of {limit}",
        player=name,
        amount=amount,
        limit=db.MAX_BALANCE,
    )


def hand_result(hand: HandResult, settlement: Settlement) -> Text:
    """How a hand ended and what it paid: ``19 beats 18: wins 10, 20 back``."""
    outcome, payout, stake, total = hand.outcome, hand.payout, hand.stake, hand.total
    dealer = settlement.dealer_total
    if outcome == Outcome.SURRENDER:
        if hand.rounded_down:
            return _(
                "surrendered: {payout} back (a fraction of a chip was rounded down)", payout=payout
            )
        return _("surrendered: {payout} back", payout=payout)
    if outcome == Outcome.BUST:
        return _("busts with {total}: loses {stake}", total=total, stake=stake)
    if outcome == Outcome.BLACKJACK:
        if hand.rounded_down:
            return _(
                "blackjack: wins {won}, {payout} back (a fraction of a chip was rounded down)",
                won=payout - stake,
                payout=payout,
            )
        return _("blackjack: wins {won}, {payout} back", won=payout - stake, payout=payout)
    if settlement.dealer_blackjack:
        if outcome == Outcome.PUSH:
            return _("blackjack against dealer blackjack: push, stake back")
        return _("dealer blackjack: loses {stake}", stake=stake)
    if outcome == Outcome.WIN:
        if settlement.dealer_bust:
            return _("dealer busts: wins {stake}, {payout} back", stake=stake, payout=payout)
        return _(
            "{total} beats {dealer}: wins {stake}, {payout} back",
            total=total,
            dealer=dealer,
            stake=stake,
            payout=payout,
        )
    if outcome == Outcome.PUSH:
        return _(
            "{total} ties {dealer}: push, {payout} back", total=total, dealer=dealer, payout=payout
        )
    return _("{total} loses to {dealer}: loses {stake}", total=total, dealer=dealer, stake=stake)


def shuffle_notice(seats: Iterable[SeatState], commitment: str) -> tuple[str, ...]:
    """The reshuffle announcement: each seated player's action and standing since sitting down."""
    lines = [_("Shuffle: a new shoe (commitment {commitment}…).", commitment=commitment[:16])]
    for seat in seats:
        action, standing = seat.standing.action(seat.pid), seat.standing.standing(seat.pid)
        name = shown_name(seat.player.name)
        lines.append(
            _(
                "{player}: action {action}, standing {standing}",
                player=name,
                action=action,
                standing=signed(standing),
            )
        )
    return tuple(lines)


def event_lines(events: Sequence[Event], names: dict[str, str]) -> list[str]:
    """The round's event sentences, with players' shown names instead of their ids.

    A sentence that starts with a name keeps the name as written ("alice hits"); the
    dealer's and the shoe's sentences start with a capital. The hands' and insurance's
    results, the round's last events, are left out: the table says them from the
    settlement (the Last round and Round details).
    """
    return [
        event_line(event, names, event.who != event.player)
        for event in events
        if event.kind not in _RESULTS
    ]


_RESULTS: Final = frozenset({EventKind.RESULT, EventKind.INSURANCE_RESULT})


def _hands_text(event: Event) -> Text:
    """A split's two hands (``A♠ 6♥ (soft 17) | 6♦ 2♣ (8)``) in the reader's words."""
    return joined([_hand_words(hand) for hand in split_hands(event.cards)], " | ")


def _hand_words(hand: Hand) -> Text:
    """``A♠ 6♥ (soft 17)``, ``6♦ 2♣ (8)``."""
    cards = " ".join(str(card) for card in hand.cards)
    soft = hand.is_soft and hand.total < 21
    total: object = _("soft {total}", total=hand.total) if soft else hand.total
    return _("{cards} ({total})", cards=cards, total=total)


#: Each kind of event as a sentence, by (kind, whether the hand went bust); filled in with
#: the player, the cards, the total and the amount.
_EVENTS: Final[dict[tuple[EventKind, bool], Text]] = {
    (EventKind.DEAL, False): _("{player} is dealt {cards} ({total}), stake {amount}"),
    (EventKind.DEALER_UP, False): _("Dealer shows {cards}"),
    (EventKind.NATURAL, False): _("{player} has blackjack: {cards}"),
    (EventKind.TWENTY_ONE, False): _("{player} has 21"),
    (EventKind.INSURANCE_OFFERED, False): _("Dealer shows an ace: insurance is offered (pays 2:1)"),
    (EventKind.DECLINE_INSURANCE, False): _("{player} declines insurance"),
    (EventKind.PEEK, False): _("Dealer checks the hole card: no blackjack"),
    (EventKind.DEALER_NATURAL, False): _("Dealer has blackjack: {cards}"),
    (EventKind.HIT, False): _("{player} hits: {cards} → {total}"),
    (EventKind.HIT, True): _("{player} hits: {cards} → {total}, bust"),
    (EventKind.DOUBLE, False): _("{player} doubles: {cards} → {total}"),
    (EventKind.DOUBLE, True): _("{player} doubles: {cards} → {total}, bust"),
    (EventKind.SURRENDER, False): _("{player} surrenders and gets back {amount}"),
    (EventKind.REVEAL, False): _("Dealer turns over {cards}: {total}"),
    (EventKind.DEALER_HIT, False): _("Dealer draws {cards} → {total}"),
    (EventKind.DEALER_HIT, True): _("Dealer draws {cards} → {total}, bust"),
    (EventKind.DEALER_STANDS, False): _("Dealer stands on {total}"),
    (EventKind.DEALER_BUSTS, False): _("Dealer busts with {total}"),
}


#: A deal's sentence for a player whose stake is secret (a tournament's secret bet).
DEALT_SECRETLY: Final = _("{player} is dealt {cards} ({total})")


def without_stakes(lines: Sequence[str], players: set[str]) -> list[str]:
    """``lines`` with the stakes of ``players`` (shown names) left out of their deals."""
    dealt = _EVENTS[(EventKind.DEAL, False)].msgid
    return [
        DEALT_SECRETLY.filled(**line.params)
        if isinstance(line, Text) and line.msgid == dealt and line.params.get("player") in players
        else line
        for line in lines
    ]


def event_line(event: Event, names: dict[str, str], several: bool = False) -> Text:
    """One event as a sentence; ``several``: the player holds more than one hand."""
    kind, total, amount, note = event.kind, event.total, event.amount, event.note
    cards = " ".join(str(card) for card in event.cards)
    name = names.get(event.player, event.player)
    who: str = _("{player} (hand {hand})", player=name, hand=event.hand + 1) if several else name
    template = _EVENTS.get((kind, total > 21)) or _EVENTS.get((kind, False))
    if template is not None:
        return template.filled(player=who, cards=cards, total=total, amount=amount)
    if kind is EventKind.INSURE:
        if note == Note.EVEN_MONEY:
            return _("{player} takes even money for {amount}", player=name, amount=amount)
        return _("{player} takes insurance for {amount}", player=name, amount=amount)
    if kind is EventKind.STAND:
        if note == Note.TIMED_OUT:
            why = _("timed out")
            return _("{player} stands on {total} ({why})", player=who, total=total, why=why)
        return _("{player} stands on {total}", player=who, total=total)
    if kind is EventKind.SPLIT:
        return _("{player} splits: {hands}", player=who, hands=_hands_text(event))
    if kind is EventKind.CONTINUATION:
        return _(
            "The shoe ran out: dealing on from continuation shoe {shoe} "
            "(its seed is derived from this shoe's seed)",
            shoe=str(amount),
        )
    raise ValueError(f"a {kind} event is said from the settlement, not as an event")
