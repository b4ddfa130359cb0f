"""Every achievement: its key, its name and the exact words of what earns it.

Each is awarded once per player and server. The ones a round earns are read from the
settled round itself (its cards, as the journal rebuilds them), so a round replayed
after a restart earns exactly what the lost one did, and the store records them in
the settlement's transaction: a round settled once awards once. The streak (blackjacks
in rounds in a row) needs the player's earlier rounds: the store checks it from the
hand results it holds (db.ops.achievements). A tournament's hands are checked too, by
``TOURNAMENT_HAND_CHECKS``, and its two own achievements are read from its recorded
results; the store records both with the tournament's results (db.ops.tournaments).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Final

import db
from bot.engine import Hand, Outcome, Round
from bot.i18n import Text, _


@dataclass(frozen=True, slots=True)
class Achievement:
    """One achievement: ``wording`` says exactly what earns it, as players read it."""

    key: str
    name: Text
    wording: Text


@dataclass(frozen=True, slots=True)
class PlayerRound:
    """One player's part of a settled round, as the checks read it."""

    hands: tuple[Hand, ...]
    #: Chips the player put on insurance (0 if none).
    insurance: int
    dealer_blackjack: bool
    #: Chips won (negative: lost) in the round, insurance included.
    net: int
    #: Players in the round, this one included.
    players: int


#: The table's line for a new achievement (in its Latest line).
ANNOUNCEMENT: Final = _("🏆 {player} earned an achievement: {name}. {wording}")

#: A check of one settled round for one player.
Check = Callable[[PlayerRound], bool]

#: Rounds in a row with a blackjack paid, for HAT_TRICK.
HAT_TRICK_ROUNDS: Final = 3
#: Net chips in one round, for BIG_ROUND.
BIG_ROUND_NET: Final = 1000
#: Players in one round (this one and four others), for FULL_TABLE.
FULL_TABLE_PLAYERS: Final = 5

FIRST_BLACKJACK = Achievement(
    "first_blackjack",
    _("First blackjack"),
    _("Be paid for a blackjack (an ace and a ten-value card as your first two cards)."),
)
SUITED_BLACKJACK = Achievement(
    "suited_blackjack",
    _("Suited blackjack"),
    _("Be paid for a blackjack whose ace and ten-value card are of the same suit."),
)
HAT_TRICK = Achievement(
    "hat_trick",
    _("Hat trick"),
    _("Be paid for a blackjack in each of three rounds in a row that you play in this server."),
)
FIVE_CARD_21 = Achievement(
    "five_card_21", _("Five-card 21"), _("Finish a hand of exactly five cards that totals 21.")
)
SEVEN_CARDS = Achievement(
    "seven_cards", _("Seven cards"), _("Finish a hand of seven or more cards without going bust.")
)
SPLIT_ACES_SWEEP = Achievement(
    "split_aces_sweep",
    _("Aces split, both won"),
    _("Split a pair of aces and win every hand that split made."),
)
DOUBLE_WIN = Achievement("double_win", _("Doubled up"), _("Win a hand you doubled down on."))
INSURANCE_PAID = Achievement(
    "insurance_paid",
    _("Well insured"),
    _("Take insurance (or even money) in a round where the dealer has blackjack."),
)
BLACKJACK_STANDOFF = Achievement(
    "blackjack_standoff",
    _("Standoff"),
    _("Have a blackjack pushed by the dealer's blackjack."),
)
BIG_ROUND = Achievement(
    "big_round",
    _("Big round"),
    _("Win {amount} chips or more, net, in a single round.", amount=BIG_ROUND_NET),
)
SURRENDERED = Achievement(
    "surrendered", _("Live to play again"), _("Surrender a hand (and get half your bet back).")
)
FULL_TABLE = Achievement(
    "full_table", _("Full table"), _("Play a round with at least four other players at the table.")
)
TOURNAMENT_SURVIVOR = Achievement(
    "tournament_survivor",
    _("Against the odds"),
    _("In a tournament, survive an elimination hand that you started with the smallest stack."),
)
TOURNAMENT_WINNER = Achievement("tournament_winner", _("Champion"), _("Win a tournament."))


def _paid_blackjacks(hands: tuple[Hand, ...]) -> list[Hand]:
    return [hand for hand in hands if hand.outcome == Outcome.BLACKJACK]


def _split_aces_swept(hands: tuple[Hand, ...]) -> bool:
    """A spot whose aces were split, every hand of it won."""
    spots = {hand.spot for hand in hands if hand.split_aces}
    return any(
        all(hand.outcome == Outcome.WIN for hand in hands if hand.spot == spot) for spot in spots
    )


#: The achievements one settled round earns, each with its check.
ROUND_CHECKS: Final[tuple[tuple[Achievement, Check], ...]] = (
    (FIRST_BLACKJACK, lambda p: bool(_paid_blackjacks(p.hands))),
    (
        SUITED_BLACKJACK,
        lambda p: any(h.cards[0].suit == h.cards[1].suit for h in _paid_blackjacks(p.hands)),
    ),
    (FIVE_CARD_21, lambda p: any(len(h.cards) == 5 and h.total == 21 for h in p.hands)),
    (SEVEN_CARDS, lambda p: any(len(h.cards) >= 7 and h.total <= 21 for h in p.hands)),
    (SPLIT_ACES_SWEEP, lambda p: _split_aces_swept(p.hands)),
    (DOUBLE_WIN, lambda p: any(h.doubled and h.outcome == Outcome.WIN for h in p.hands)),
    (INSURANCE_PAID, lambda p: p.insurance > 0 and p.dealer_blackjack),
    (
        BLACKJACK_STANDOFF,
        lambda p: (
            p.dealer_blackjack and any(h.natural and h.outcome == Outcome.PUSH for h in p.hands)
        ),
    ),
    (BIG_ROUND, lambda p: p.net >= BIG_ROUND_NET),
    (SURRENDERED, lambda p: any(h.outcome == Outcome.SURRENDER for h in p.hands)),
    (FULL_TABLE, lambda p: p.players >= FULL_TABLE_PLAYERS),
)

#: Every achievement, in the order /stats lists them.
ACHIEVEMENTS: Final[tuple[Achievement, ...]] = (
    FIRST_BLACKJACK,
    SUITED_BLACKJACK,
    HAT_TRICK,
    FIVE_CARD_21,
    SEVEN_CARDS,
    SPLIT_ACES_SWEEP,
    DOUBLE_WIN,
    INSURANCE_PAID,
    BLACKJACK_STANDOFF,
    BIG_ROUND,
    SURRENDERED,
    FULL_TABLE,
    TOURNAMENT_SURVIVOR,
    TOURNAMENT_WINNER,
)
BY_KEY: Final[Mapping[str, Achievement]] = {a.key: a for a in ACHIEVEMENTS}


def player_round(round_: Round, pid: str) -> PlayerRound:
    """The player's part of the settled round."""
    return PlayerRound(
        hands=round_.hands(pid),
        insurance=round_.insurance_stake(pid),
        dealer_blackjack=round_.dealer.natural,
        net=round_.net(pid),
        players=len(round_.players),
    )


#: The checks a tournament hand is held to. Its cards and plays are as real as a
#: table's, its chips are not the economy's: Big round (chips won) does not count, and
#: Hat trick counts the rounds of the server's tables only (their hand results).
TOURNAMENT_HAND_CHECKS: Final = tuple(
    (achievement, check) for achievement, check in ROUND_CHECKS if achievement is not BIG_ROUND
)


def earned(
    round_: Round, checks: tuple[tuple[Achievement, Check], ...]
) -> dict[int, tuple[str, ...]]:
    """The achievement keys each player of the settled round earns by ``checks``."""
    found: dict[int, tuple[str, ...]] = {}
    for pid in round_.players:
        seen = player_round(round_, pid)
        keys = tuple(achievement.key for achievement, check in checks if check(seen))
        if keys:
            found[int(pid)] = keys
    return found


class HeldAwards:
    """The round achievements this process has seen each player hold (in a server): an
    achievement is awarded once and never taken back, so a round's checks skip them and
    the settlement asks the store for none of them again."""

    #: Players remembered at most; past it the memory starts afresh (and refills).
    LIMIT: Final = 100_000

    def __init__(self) -> None:
        self._held: dict[tuple[int, int], frozenset[str]] = {}

    def of(self, guild_id: int, user_id: int) -> frozenset[str]:
        """What the player is known to hold here (perhaps not all they hold)."""
        return self._held.get((guild_id, user_id), frozenset())

    def settled(self, awards: db.RoundAwards, awarded: Mapping[int, tuple[str, ...]]) -> None:
        """A settlement that recorded ``awards`` committed: each of them is held now (new,
        or held before), and so is each achievement it ``awarded`` (a streak)."""
        if len(self._held) > self.LIMIT:
            self._held.clear()
        for user_id in {*awards.earned, *awarded}:
            key = (awards.guild_id, user_id)
            new = (*awards.earned.get(user_id, ()), *awarded.get(user_id, ()))
            self._held[key] = self._held.get(key, frozenset()).union(new)


def round_awards(guild_id: int, round_: Round, held: HeldAwards | None = None) -> db.RoundAwards:
    """What the settled round earns each of its players, for the store to award once;
    with ``held``, only the achievements the players are not known to hold."""
    found: dict[int, tuple[str, ...]] = {}
    blackjacks: list[int] = []
    for pid in round_.players:
        have = frozenset() if held is None else held.of(guild_id, int(pid))
        checks = [(a, check) for a, check in ROUND_CHECKS if a.key not in have]
        if checks:
            seen = player_round(round_, pid)
            keys = tuple(achievement.key for achievement, check in checks if check(seen))
            if keys:
                found[int(pid)] = keys
        if HAT_TRICK.key not in have and _paid_blackjacks(round_.hands(pid)):
            blackjacks.append(int(pid))
    streaks = ((HAT_TRICK.key, HAT_TRICK_ROUNDS),)
    return db.RoundAwards(guild_id, found, tuple(blackjacks), streaks)


def announcements(awarded: Mapping[int, tuple[str, ...]], names: Mapping[str, str]) -> list[str]:
    """The table's lines for achievements just awarded: one a player and achievement."""
    return [
        ANNOUNCEMENT.filled(
            player=names.get(str(user_id), str(user_id)),
            name=BY_KEY[key].name,
            wording=BY_KEY[key].wording,
        )
        for user_id, keys in awarded.items()
        for key in keys
    ]
