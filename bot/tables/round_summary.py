"""A settled round at a glance: the dealer's hand, then one line per player whose net is
the change of their balance (main bets, doubles, splits, insurance and side bets).

The table shows these lines; the full account, hand by hand and bet by bet
(``results.result_lines``), is one button away (Round details).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Final

from bot.engine import HandResult, Outcome, Settlement
from bot.i18n import Text, _, joined, signed
from bot.tables.results import dealer_result, unpaid_line
from bot.tables.side_bets import SHOWN, SideBetOutcome, category_words

#: How a hand ended, in short, by its outcome; filled with its total.
_SHORT: Final[dict[Outcome, Text]] = {
    Outcome.WIN: _("{total} wins"),
    Outcome.BLACKJACK: _("blackjack"),
    Outcome.PUSH: _("{total} push"),
    Outcome.LOSE: _("{total} loses"),
    Outcome.BUST: _("bust {total}"),
    Outcome.SURRENDER: _("surrendered"),
}
#: Between the parts of a player's line.
SEPARATOR: Final = " · "


def side_net(outcomes: Sequence[SideBetOutcome], player_id: str) -> int:
    """What a player's side bets of the round changed their balance by."""
    return sum(o.payout - o.stake for o in outcomes if o.player_id == player_id)


def balance_change(
    settlement: Settlement,
    side: Sequence[SideBetOutcome],
    player_id: str,
    unpaid: Mapping[str, int] | None = None,
) -> int:
    """The round's change of a player's balance: the main game's net (bets, doubles,
    splits, insurance), the side bets', less what the chip limit did not pay."""
    kept_back = (unpaid or {}).get(player_id, 0)
    return settlement.player(player_id).net + side_net(side, player_id) - kept_back


def short_hand(hand: HandResult, with_cards: bool) -> Text:
    """``19 wins``, ``bust 24``, ``blackjack``; with its cards first when ``with_cards``."""
    result = _SHORT[hand.outcome].filled(total=hand.total)
    if not with_cards:
        return result
    cards = " ".join(str(card) for card in hand.cards)
    return _("{cards} {result}", cards=cards, result=result)


def counted(parts: Sequence[Text]) -> list[Text]:
    """Equal parts once, counted (``18 wins ×3``), in the order they first come."""
    counts: dict[Text, int] = {}
    for part in parts:
        counts[part] = counts.get(part, 0) + 1
    return [
        _("{result} ×{count}", result=part, count=count) if count > 1 else part
        for part, count in counts.items()
    ]


def hand_parts(hands: Sequence[HandResult]) -> list[Text]:
    """A player's hands in short, equal results counted. The cards of the hand that
    matters only: the one hand, or of several the one that won the most."""
    if len(hands) == 1:
        return [short_hand(hands[0], True)]
    best: HandResult | None = max(hands, key=lambda hand: hand.payout - hand.stake)
    if best is not None and best.payout <= best.stake:
        best = None
    others = counted([short_hand(hand, False) for hand in hands if hand is not best])
    return [short_hand(best, True), *others] if best is not None else others


def side_parts(outcomes: Sequence[SideBetOutcome]) -> list[Text]:
    """A player's side bets in short: each win (``21+3 straight +45``), the losses summed."""
    parts: list[Text] = []
    lost = 0
    for outcome in outcomes:
        if outcome.category is None:
            lost += outcome.stake
            continue
        parts.append(
            _(
                "{bet} {category} {amount}",
                bet=SHOWN[outcome.bet],
                category=category_words(outcome.category),
                amount=signed(outcome.winnings),
            )
        )
    parts = counted(parts)
    if lost:
        parts.append(_("side bets lost {amount}", amount=lost))
    return parts


def player_line(
    settlement: Settlement,
    player_id: str,
    name: str,
    side: Sequence[SideBetOutcome],
    unpaid: Mapping[str, int] | None = None,
) -> Text:
    """``alice: K♠ Q♥ 20 wins · 21+3 straight +45 · balance change +145``."""
    parts = hand_parts(settlement.hands_of(player_id))
    for insurance in settlement.insurance:
        if insurance.player_id == player_id:
            net = insurance.payout - insurance.stake
            parts.append(_("insurance {amount}", amount=signed(net)))
    parts += side_parts([o for o in side if o.player_id == player_id])
    return _(
        "{player}: {results} · balance change {net}",
        player=name,
        results=joined(parts, SEPARATOR),
        net=signed(balance_change(settlement, side, player_id, unpaid)),
    )


def summary_lines(
    settlement: Settlement,
    names: Mapping[str, str],
    side: Sequence[SideBetOutcome] = (),
    unpaid: Mapping[str, int] | None = None,
) -> tuple[Text, ...]:
    """The dealer's line, then one line per player (and one for chips the limit kept)."""
    lines = [dealer_result(settlement)]
    for player in settlement.players:
        pid = player.player_id
        name = names.get(pid, pid)
        lines.append(player_line(settlement, pid, name, side, unpaid))
        if unpaid and unpaid.get(pid):
            lines.append(unpaid_line(name, unpaid[pid]))
    return tuple(lines)
