"""A table's rules in plain sentences (catalog messages): for ``/blackjack rules`` and ``play``."""

from __future__ import annotations

from bot.engine import Rules
from bot.i18n import Figure, Text, _, n_

_DOUBLE: dict[str, Text] = {
    "any": _("Double on any first two cards"),
    "9-11": _("Double on a first-two-card total of 9, 10 or 11"),
    "10-11": _("Double on a first-two-card total of 10 or 11"),
}


def _decks(rules: Rules) -> Text:
    if rules.penetration:
        cut = Figure(round(rules.penetration * 100), "0")
        if rules.decks == 1:
            return _("One deck, reshuffled after {percent}% is dealt (announced).", percent=cut)
        return _(
            "{count} decks, reshuffled after {percent}% is dealt (announced).",
            count=rules.decks,
            percent=cut,
        )
    if rules.decks == 1:
        return _("One deck, shuffled fresh every round.")
    return _("{count} decks, shuffled fresh every round.", count=rules.decks)


def _splits(rules: Rules) -> Text:
    equal = rules.split_by == "rank"
    if rules.hit_split_aces:
        if rules.resplit_aces:
            aces = _("Split aces may be hit and may be split again.")
        else:
            aces = _("Split aces may be hit.")
    elif rules.resplit_aces:
        aces = _("Split aces get one card each and may be split again.")
    else:
        aces = _("Split aces get one card each.")
    if equal:
        return _("Split equal ranks up to {count} hands. {aces}", count=rules.max_hands, aces=aces)
    return _(
        "Split equal values (10-J-Q-K) up to {count} hands. {aces}",
        count=rules.max_hands,
        aces=aces,
    )


def _limits(rules: Rules) -> Text:
    if rules.min_bet == rules.max_bet:
        bets = _("Every bet is {amount} a hand", amount=rules.min_bet)
    else:
        bets = _("Bets {low} to {high} a hand", low=rules.min_bet, high=rules.max_bet)
    hands = n_(
        "up to {count} hand each",
        "up to {count} hands each",
        rules.max_spots,
        count=rules.max_spots,
    )
    players = n_(
        "{count} player a table",
        "{count} players a table",
        rules.max_players,
        count=rules.max_players,
    )
    return _("{bets}; {hands}, {players}.", bets=bets, hands=hands, players=players)


def rules_lines(rules: Rules) -> list[str]:
    """One short sentence per rule, the way a dealer would explain the table."""
    lines: list[str] = [
        _decks(rules),
        _("The dealer hits soft 17.")
        if rules.dealer_hits_soft_17
        else _("The dealer stands on soft 17."),
    ]
    if rules.naturals:
        lines.append(_("Blackjack pays {ratio}.", ratio=rules.blackjack_pays))
    else:
        lines.append(_("A two-card 21 is just 21: every win pays 1:1."))
    if rules.naturals:
        lines.append(
            (
                _("The dealer checks for blackjack under an ace (not a ten) before you act.")
                if rules.peek_ace_only
                else _("The dealer checks for blackjack before you act.")
            )
            if rules.dealer_peeks
            else _("No hole-card check: a dealer blackjack also takes doubles and splits.")
        )
    if rules.insurance:
        lines.append(_("Insurance (half your bet) is offered on a dealer ace and pays 2:1."))
    if rules.hit_stand_only:
        lines.append(_("Hit and stand only: no doubling, splitting, surrender or insurance."))
    else:
        if rules.double_on != "none":
            if rules.double_after_split:
                lines.append(_("{double}; after a split allowed.", double=_DOUBLE[rules.double_on]))
            else:
                lines.append(
                    _("{double}; after a split not allowed.", double=_DOUBLE[rules.double_on])
                )
        if rules.split_by != "none":
            lines.append(_splits(rules))
            lines.append(_("21 on a split hand is not a blackjack."))
        lines.append(
            _("Late surrender: give up half your bet on your first two cards.")
            if rules.surrender == "late"
            else _("No surrender.")
        )
    lines.append(_limits(rules))
    return lines
