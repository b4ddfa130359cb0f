"""The rules of one table: a frozen, validated value, and the presets."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Final, Literal

DoubleOn = Literal["any", "9-11", "10-11", "none"]
SplitBy = Literal["value", "rank", "none"]
Surrender = Literal["none", "late"]

BLACKJACK_PAYS: Final = ("3:2", "6:5", "1:1", "2:1")
DOUBLE_ON: Final = ("any", "9-11", "10-11", "none")
SPLIT_BY: Final = ("value", "rank", "none")
SURRENDER: Final = ("none", "late")
MAX_SPOTS: Final = 7
MAX_PLAYERS: Final = 7
MAX_BET_CEILING: Final = 10**12
#: Cards the cut card must leave behind it: enough for a full table's round.
CARDS_BEHIND_CUT: Final = 15
#: The shoe sizes a table deals from.
DECK_COUNTS: Final = range(1, 9)


class RulesError(ValueError):
    """A rule value, or a combination of rule values, that cannot be played."""


@dataclass(frozen=True, slots=True)
class Rules:
    """Every rule of a table. Build with keywords; invalid combinations raise RulesError."""

    decks: int = 6
    #: Fraction of the shoe dealt before the cut card; 0 means a fresh shuffle every round.
    penetration: float = 0.75
    dealer_hits_soft_17: bool = False
    #: Whether a two-card 21 on an unsplit hand is a natural that beats any other 21.
    naturals: bool = True
    blackjack_pays: str = "3:2"
    #: US hole card: the dealer checks for blackjack before anyone acts. Without the
    #: peek (European no-hole-card), a dealer blackjack also takes doubles and splits.
    dealer_peeks: bool = True
    #: With the peek: the dealer checks only under an ace, not under a ten (a dealer
    #: blackjack under a ten then shows at the end and takes doubles and splits).
    peek_ace_only: bool = False
    #: Insurance (and even money) offered when the dealer shows an ace; pays 2:1.
    insurance: bool = True
    double_on: DoubleOn = "any"
    double_after_split: bool = True
    split_by: SplitBy = "value"
    #: Most hands one spot may be split into (2 = split once, 4 = split three times).
    max_hands: int = 4
    resplit_aces: bool = False
    hit_split_aces: bool = False
    surrender: Surrender = "late"
    #: Most spots (hands dealt at the start) one player may play at once.
    max_spots: int = 7
    #: Most players seated at one table.
    max_players: int = 7
    #: A beginner table: only hit and stand (no double, split, surrender or insurance).
    hit_stand_only: bool = False
    min_bet: int = 10
    max_bet: int = 10_000

    def __post_init__(self) -> None:
        for problem in self._problems():
            raise RulesError(problem)

    def _problems(self) -> list[str]:
        """What is wrong with these rules, stage by stage: each stage's checks need the
        earlier stages' to pass (a range needs a number; a combination, known values)."""
        for stage in (_type_problems, _range_problems, _combination_problems):
            problems = stage(self)
            if problems:
                return problems
        return []

    @staticmethod
    def deepest_penetration(decks: int) -> float:
        """The deepest cut card, in steps of 0.05, that leaves ``CARDS_BEHIND_CUT`` cards
        behind it in a ``decks``-deck shoe (0.7 for one deck, 0.85 for two); ``decks`` is
        one of ``DECK_COUNTS``."""
        steps = int((1 - CARDS_BEHIND_CUT / (decks * 52)) * 20)
        while steps and int(decks * 52 * (1 - steps / 20)) < CARDS_BEHIND_CUT:
            steps -= 1
        return min(steps / 20, 0.9)

    @property
    def blackjack_ratio(self) -> Fraction:
        """What a natural wins per chip staked: 3:2 is Fraction(3, 2)."""
        won, staked = self.blackjack_pays.split(":")
        return Fraction(int(won), int(staked))

    def replace(self, **changes: Any) -> Rules:
        """A copy with some fields changed, validated again."""
        return dataclasses.replace(self, **changes)

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Rules:
        fields = {f.name for f in dataclasses.fields(cls)}
        unknown = sorted(set(data) - fields)
        if unknown:
            raise RulesError(f"unknown rule field(s): {', '.join(unknown)}")
        return cls(**data)


# Each preset quotes the sentence of its text that decides each field it sets; a
# field with no sentence says so ("not in the text"). The texts (tests/data/rules/):
# classic, terminal-table-1-to-7-hands.txt; simple, simple-group-hit-stand.txt;
# reno-1972, unix-v3-bj-reno-1972.txt (Unix V3 bj(6), 1972); single-deck,
# single-deck-h17-casino.txt. vegas-shoe is the common modern six-deck shoe game, which
# no single text describes.
#: The rules that are whole numbers, and those that are true or false.
_WHOLE_NUMBERS: Final = ("decks", "max_hands", "max_spots", "max_players", "min_bet", "max_bet")
_SWITCHES: Final = (
    "dealer_hits_soft_17",
    "naturals",
    "dealer_peeks",
    "peek_ace_only",
    "insurance",
    "double_after_split",
    "resplit_aces",
    "hit_split_aces",
    "hit_stand_only",
)
#: The rules that are one of a few choices, with their choices.
_CHOICES: Final = (
    ("blackjack_pays", BLACKJACK_PAYS),
    ("double_on", DOUBLE_ON),
    ("split_by", SPLIT_BY),
    ("surrender", SURRENDER),
)


def _type_problems(rules: Rules) -> list[str]:
    """Numbers that are not whole numbers, switches that are not true or false."""
    problems = []
    for name in _WHOLE_NUMBERS:
        value = getattr(rules, name)
        if not isinstance(value, int) or isinstance(value, bool):
            problems.append(f"{name} must be a whole number, not {value!r}")
    for name in _SWITCHES:
        if not isinstance(getattr(rules, name), bool):
            problems.append(f"{name} must be true or false, not {getattr(rules, name)!r}")
    return problems


def _range_problems(rules: Rules) -> list[str]:
    """Each rule's value on its own: one of its choices, within its bounds."""
    problems = []
    if rules.decks not in DECK_COUNTS:
        problems.append(f"decks must be {DECK_COUNTS[0]} to {DECK_COUNTS[-1]}, not {rules.decks}")
    cut = rules.penetration
    if not isinstance(cut, int | float) or not (cut == 0 or 0.25 <= cut <= 0.9):
        problems.append(
            f"penetration must be 0 (fresh shoe every round) or 0.25 to 0.9, not {cut!r}"
        )
    for name, choices in _CHOICES:
        if (value := getattr(rules, name)) not in choices:
            problems.append(f"{name} must be one of {', '.join(choices)}, not {value!r}")
    if not 1 <= rules.max_spots <= MAX_SPOTS:
        problems.append(f"max_spots must be 1 to {MAX_SPOTS}, not {rules.max_spots}")
    if not 1 <= rules.max_players <= MAX_PLAYERS:
        problems.append(f"max_players must be 1 to {MAX_PLAYERS}, not {rules.max_players}")
    if not 1 <= rules.min_bet <= rules.max_bet <= MAX_BET_CEILING:
        problems.append(
            f"bet limits must satisfy 1 <= min_bet <= max_bet <= {MAX_BET_CEILING}, "
            f"not min_bet={rules.min_bet}, max_bet={rules.max_bet}"
        )
    return problems


def _combination_problems(rules: Rules) -> list[str]:
    """Rules that cannot be played together."""
    splits = rules.split_by != "none"
    checks = (
        (
            not splits or 2 <= rules.max_hands <= 8,
            f"max_hands must be 2 to 8 when splitting is allowed, not {rules.max_hands}",
        ),
        (splits or rules.max_hands == 1, "max_hands must be 1 when split_by is 'none'"),
        (
            not rules.resplit_aces or (splits and rules.max_hands >= 3),
            "resplit_aces needs splitting allowed and max_hands of 3 or more",
        ),
        (
            not rules.hit_split_aces or splits,
            "hit_split_aces needs splitting allowed (split_by is 'none')",
        ),
        (
            not rules.double_after_split or (splits and rules.double_on != "none"),
            "double_after_split needs both doubling and splitting allowed",
        ),
        (
            rules.naturals or rules.blackjack_pays == "1:1",
            "without naturals a two-card 21 is paid like any win: use 1:1",
        ),
        (
            rules.naturals or not rules.dealer_peeks,
            "without naturals the dealer has no blackjack to peek for",
        ),
        (
            rules.naturals or not rules.insurance,
            "without naturals there is no dealer blackjack to insure",
        ),
        (
            not rules.peek_ace_only or rules.dealer_peeks,
            "peek_ace_only needs dealer_peeks (it narrows the peek to an ace)",
        ),
    )
    problems = [problem for ok, problem in checks if not ok]
    return problems + _beginner_problems(rules, splits) + _cut_card_problems(rules)


def _beginner_problems(rules: Rules, splits: bool) -> list[str]:
    """A hit-and-stand-only table offering anything but hit and stand."""
    if not rules.hit_stand_only:
        return []
    offered = [
        name
        for name, on in (
            ("doubling", rules.double_on != "none"),
            ("splitting", splits),
            ("surrender", rules.surrender != "none"),
            ("insurance", rules.insurance),
        )
        if on
    ]
    return [f"a hit-and-stand-only table cannot offer {', '.join(offered)}"] if offered else []


def _cut_card_problems(rules: Rules) -> list[str]:
    """A cut card that leaves too few cards for a full table's round (of a real shoe)."""
    if not rules.penetration or rules.decks not in DECK_COUNTS:
        return []
    left = int(rules.decks * 52 * (1 - rules.penetration))
    if left >= CARDS_BEHIND_CUT:
        return []
    return [
        f"penetration {rules.penetration} leaves only {left} cards behind the cut card of a "
        f"{rules.decks}-deck shoe; leave at least {CARDS_BEHIND_CUT} "
        f"(penetration {rules.deepest_penetration(rules.decks)} or less)"
    ]


PRESETS: Final[dict[str, Rules]] = {
    # The common modern shoe game (no single text): the published six-deck chart's rules.
    "vegas-shoe": Rules(
        decks=6,
        penetration=0.75,
        dealer_hits_soft_17=False,
        blackjack_pays="3:2",
        dealer_peeks=True,
        insurance=True,
        double_on="any",
        double_after_split=True,
        split_by="value",
        max_hands=4,
        resplit_aces=False,
        hit_split_aces=False,
        surrender="late",
    ),
    # terminal-table-1-to-7-hands.txt
    "classic": Rules(
        decks=6,  # not in the text
        penetration=0.75,  # not in the text
        # "If the dealer has a total of 17 including an ace valued as 11 (a "soft
        # 17"), the dealer stops drawing cards."
        dealer_hits_soft_17=False,
        # "If the values of these two initial cards add up to 21, that is called a
        # "blackjack" and is the most valuable hand." (the payout is not in the text)
        blackjack_pays="3:2",
        # "After the players have finished playing, the dealer's hand is resolved."
        # and "A blackjack beats any hand that is not a blackjack (even a hand with a
        # value of 21)." No hole-card check is named: a dealer blackjack shows at the
        # end and beats every other hand, doubled and split stakes included.
        dealer_peeks=False,
        insurance=False,  # "the player has up to five options: hit, stand, double down,
        # split and surrender." (no insurance)
        # "DOUBLE DOWN: double the bet and draw a card." (on the initial two cards)
        double_on="any",
        # "The two hands are played out independently." (each a starting hand)
        double_after_split=True,
        # "SPLIT: if the two initial cards have the same value, split the hand into two."
        split_by="value",
        max_hands=2,  # "split the hand into two" (no resplit is named)
        resplit_aces=False,
        hit_split_aces=False,  # "HIT: you can't hit split aces"
        # "SURRENDER: forfeit half the bet and stop drawing cards" (initial two cards)
        surrender="late",
        # "This program allows a single player to play this game with one to seven hands."
        max_spots=7,
        max_players=1,
    ),
    # simple-group-hit-stand.txt
    "simple": Rules(
        # "Blackjack is played with a "deck" (pile) of 52 cards." / "The dealer
        # shuffles the deck and deals two cards" (each round)
        decks=1,
        penetration=0,
        # "If his score is less than 17, he must hit. If it is 17 or higher, he must stand."
        dealer_hits_soft_17=False,
        # "A player wins if he has a higher score than the dealer" (no natural named)
        naturals=False,
        blackjack_pays="1:1",
        dealer_peeks=False,  # "First, he turns his face-down card over." (at his turn)
        insurance=False,
        # "whether she wishes to "hit" (receive another card) or "stand"": nothing else
        double_on="none",
        double_after_split=False,
        split_by="none",
        max_hands=1,
        resplit_aces=False,
        hit_split_aces=False,
        surrender="none",
        max_spots=1,
        # "A game of blackjack may involve any number of players (but for our
        # purposes, three or fewer)"
        max_players=3,
        hit_stand_only=True,
    ),
    # unix-v3-bj-reno-1972.txt (Unix V3 bj(6), 1972)
    "reno-1972": Rules(
        decks=1,  # "Every time the deck is shuffled, the dealer so states"
        penetration=0.5,  # not in the text
        # "the dealer hits until he attains a total of seventeen or more."
        dealer_hits_soft_17=False,
        # "A player 'natural' (black jack) pays $3." (on a $2 bet)
        blackjack_pays="3:2",
        # "A dealer natural loses $2." (the bet, nothing more: settled before play)
        dealer_peeks=True,
        # "If the dealer has an ace up, the player is allowed to make an 'insurance' bet"
        insurance=True,
        # "If a dealt hand has a total of ten or eleven, the player may 'double down'."
        double_on="10-11",
        double_after_split=False,  # "a dealt hand" only
        # "If the player is dealt two cards of the same value, he is allowed to 'double'.
        # He is allowed to play two hands, each with one of these cards."
        split_by="value",
        max_hands=2,
        resplit_aces=False,
        # "the player may 'hit' (draw a card) as long as his total is not over
        # twenty-one." (no limit on split aces)
        hit_split_aces=True,
        surrender="none",  # not in the text
        max_spots=1,
        min_bet=2,  # "The bet is $2 every hand."
        max_bet=2,
    ),
    # single-deck-h17-casino.txt
    "single-deck": Rules(
        decks=1,  # "Decks: 1 deck (up to 8)"
        penetration=0.5,  # not in the text
        dealer_hits_soft_17=True,  # "Soft 17: dealer hits"
        blackjack_pays="3:2",  # "Blackjack pays: 3 : 2"
        # "If the dealer has an Ace exposed, then he checks for a blackjack"
        dealer_peeks=True,
        peek_ace_only=True,
        insurance=True,  # "Insurance: allowed if Dealer has an Ace face up"
        double_on="any",  # "Double Down: any two cards"
        double_after_split=False,  # "Double after split: not allowed"
        split_by="value",  # "Available for cards which are equally valued."
        # "Splits any pair of cards: a maximum of 3 times to make 4 hands"
        max_hands=4,
        resplit_aces=True,  # "any pair", aces included
        # "Split. Separate them into 2 hands. Each card is the first card of a new
        # hand." Each split hand then has the hit and stand of any hand; the text
        # limits no split ace to one card.
        hit_split_aces=True,
        surrender="none",  # "Surrender: not allowed"
    ),
}


def preset(name: str) -> Rules:
    """The preset called ``name``; the error lists the names there are."""
    try:
        return PRESETS[name]
    except KeyError:
        raise RulesError(
            f"no preset called {name!r}; choose one of {', '.join(sorted(PRESETS))}"
        ) from None
