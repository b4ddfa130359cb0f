"""``python -m bot play``: one player, 1 to 7 hands, against the dealer in a terminal.

Reads every answer from stdin, so a whole session can be piped in; bad input gets a
clear message and the same question again; end of input leaves the table cleanly. A bet
is typed as ``/bet`` takes it (``500``, ``2.5k``, ``half``, ``max``, ``all``), and ``?``
shows what the Hint button shows: what each choice is worth.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Sequence
from typing import TextIO

from bot.bet_amount import BetAmountError, needs_balance, parse_bet
from bot.cli.play_art import PLAYER, render
from bot.cli.rule_flags import DEFAULT_PRESET
from bot.cli.seed_flag import add_seed_flag
from bot.engine import (
    PRESETS,
    Action,
    Card,
    IllegalAction,
    Round,
    RoundPhase,
    Rules,
    RulesError,
    Shoe,
    ShoeExhausted,
    StackedShoe,
    Standing,
    parse_cards,
    preset,
)
from bot.i18n import ENGLISH
from bot.rule_sentences import rules_lines
from bot.strategy_process import legal_values
from bot.tables.advice import exact_hint

#: Answer -> action, for the play prompt.
ANSWERS: dict[str, Action] = {
    "h": Action.HIT,
    "hit": Action.HIT,
    "s": Action.STAND,
    "stand": Action.STAND,
    "d": Action.DOUBLE,
    "double": Action.DOUBLE,
    "p": Action.SPLIT,
    "split": Action.SPLIT,
    "r": Action.SURRENDER,
    "surrender": Action.SURRENDER,
}
PROMPT_NAMES: dict[Action, str] = {
    Action.HIT: "[h]it",
    Action.STAND: "[s]tand",
    Action.DOUBLE: "[d]ouble",
    Action.SPLIT: "s[p]lit",
    Action.SURRENDER: "su[r]render",
}
#: Answers that ask for the Hint's figures instead of playing.
HINT_ANSWERS = frozenset({"?", "hint"})


#: The engine's sentences say "alice hits"; at the terminal the player is "you".
_SECOND_PERSON: dict[str, str] = {
    "is": "are",
    "has": "have",
    "hits": "hit",
    "stands": "stand",
    "doubles": "double",
    "splits": "split",
    "surrenders": "surrender",
    "takes": "take",
    "declines": "decline",
}
_YOU_VERB = re.compile(r"^you( \(hand \d+\))? (\w+)")


def second_person(text: str) -> str:
    """``you hits: 5♣ → 17`` -> ``you hit: 5♣ → 17``; ``you is dealt`` -> ``you are dealt``."""
    text = text.replace(" and gets back ", " and get back ")
    return _YOU_VERB.sub(
        lambda m: f"you{m.group(1) or ''} {_SECOND_PERSON.get(m.group(2), m.group(2))}", text
    )


class EndOfInput(Exception):
    """Stdin is closed: leave the table."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--preset",
        default=DEFAULT_PRESET,
        choices=sorted(PRESETS),
        help=f"table rules (default {DEFAULT_PRESET})",
    )
    parser.add_argument("--hands", type=int, default=1, help="hands to play each round, 1 to 7")
    add_seed_flag(parser, "the first shoe's seed, to replay a shoe (default: a random one)")
    parser.add_argument("--chips", type=int, default=1000, help="chips to start with")
    # Test-only: deal exactly these cards ("A♠ K♥ ..."), in casino order.
    parser.add_argument("--stack", help=argparse.SUPPRESS)


class Session:
    """One player's session at the terminal table."""

    def __init__(
        self,
        rules: Rules,
        hands: int,
        chips: int,
        out: TextIO,
        inp: TextIO,
        shoe: Shoe,
        preset: str = DEFAULT_PRESET,
    ) -> None:
        self.preset = preset
        self.rules = rules
        self.hands = hands
        self.chips = chips
        self.out = out
        self.inp = inp
        self.shoe = shoe
        self.standing = Standing()
        self.last_bet = rules.min_bet

    def say(self, text: str = "") -> None:
        print(text, file=self.out, flush=True)

    def ask(self, prompt: str) -> str:
        self.out.write(prompt)
        self.out.flush()
        line = self.inp.readline()
        if not line:
            raise EndOfInput
        if not self.inp.isatty():
            # Piped input is not echoed: echo it so the transcript reads like a session.
            self.out.write(line if line.endswith("\n") else line + "\n")
        return line.strip().lower()

    def play(self) -> int:
        hands = "one hand" if self.hands == 1 else f"{self.hands} hands"
        self.say(f"Blackjack ({self.preset}): {hands} a round. You have {self.chips} chips.")
        self.say("\n".join(f"  {line}" for line in rules_lines(self.rules)))
        self.announce_shoe()
        try:
            while True:
                if self.chips < self.rules.min_bet * self.hands:
                    self.say(f"You have {self.chips} chips: not enough for another round.")
                    break
                bet = self.ask_bet()
                if bet is None:
                    break
                self.play_round(bet)
        except (EndOfInput, KeyboardInterrupt):
            self.say()
        except ShoeExhausted:
            self.say("The stacked shoe has no more cards.")
        self.say(f"You leave the table with {self.chips} chips.")
        if self.standing.players:
            self.say(self.totals())
        self.reveal_seed(self.shoe, "This shoe's seed is")
        return 0

    def reveal_seed(self, shoe: Shoe, heading: str) -> None:
        """The seed of a shoe that is done with, and the command that checks it."""
        if isinstance(shoe, StackedShoe):
            return  # a stacked test shoe has no seed
        seed = shoe.seed.hex()
        self.say(
            f"{heading} {seed} (check it: python -m bot verify --seed {seed} --decks {shoe.decks})."
        )

    def totals(self) -> str:
        """What you bet in all so far, and how far up or down it leaves you."""
        staked, net = self.standing.action(PLAYER), self.standing.standing(PLAYER)
        result = "even" if net == 0 else f"{abs(net)} chips {'up' if net > 0 else 'down'}"
        return f"So far you have bet {staked} chips in all and are {result}."

    def announce_shoe(self) -> None:
        if not isinstance(self.shoe, StackedShoe):
            self.say(
                f"A new shoe is shuffled. Commitment (sha256 of its seed): {self.shoe.commitment}"
            )

    def new_shoe_if_due(self) -> None:
        if not self.shoe.cut_card_reached or isinstance(self.shoe, StackedShoe):
            return
        self.reveal_seed(self.shoe, "The cut card is out. The old shoe's seed was")
        if self.standing.players:
            self.say(self.totals())
        self.shoe = Shoe.fresh(self.rules.decks, self.rules.penetration)
        self.announce_shoe()

    def ask_bet(self) -> int | None:
        rules = self.rules
        low, high = rules.min_bet, min(rules.max_bet, self.chips // self.hands)
        while True:
            limits = str(low) if low == high else f"{low}-{high}"
            answer = self.ask(
                f"Bet per hand ({limits}, Enter for {min(self.last_bet, high)}, q to quit): "
            )
            if answer in ("q", "quit"):
                return None
            if answer == "":
                return min(self.last_bet, high)
            bet = self.read_bet(answer, high)
            if bet is not None:
                self.last_bet = bet
                return bet

    def read_bet(self, answer: str, high: int) -> int | None:
        """The stake per hand ``answer`` asks for, as ``/bet`` reads it; None, said why,
        when it is not one ``high`` (the most the table and your chips allow) covers."""
        balance = self.chips if needs_balance(answer, language=ENGLISH) else None
        try:
            bet = parse_bet(
                answer,
                language=ENGLISH,
                balance=balance,
                min_bet=self.rules.min_bet,
                max_bet=self.rules.max_bet,
                spots=self.hands,
            )
        except BetAmountError as refusal:
            self.say(f"{refusal} (q to leave the table)")
            return None
        if bet > high:
            per_hand = " per hand" if self.hands > 1 else ""
            self.say(f"You have {self.chips} chips: bet at most {high}{per_hand}.")
            return None
        return bet

    def play_round(self, bet: int) -> None:
        self.new_shoe_if_due()
        self.chips -= bet * self.hands
        round_ = Round.deal(self.rules, self.shoe, [(PLAYER, [bet] * self.hands)])
        self.show_events(round_, 0)
        try:
            while not round_.is_finished:
                self.say(render(round_))
                seen = len(round_.events)
                if round_.phase is RoundPhase.INSURANCE:
                    self.decide_insurance(round_)
                else:
                    self.decide(round_)
                self.show_events(round_, seen)
        except (EndOfInput, KeyboardInterrupt):
            # Leaving mid-round stands every hand, like a table's action timer would.
            self.say()
            seen = len(round_.events)
            round_.stand_all(PLAYER)
            self.show_events(round_, seen, left=True)
            self.finish_round(round_)
            raise
        self.finish_round(round_)

    def finish_round(self, round_: Round) -> None:
        self.say(render(round_))
        settlement = round_.settlement()
        result = settlement.player(PLAYER)
        self.chips += result.returned
        self.standing.record(settlement)
        self.say(f"Round over: net {result.net:+d}. You have {self.chips} chips.")
        self.say()

    def show_events(self, round_: Round, start: int, *, left: bool = False) -> None:
        """The round's new sentences, said to you; ``left``: you left, nothing timed out."""
        for event in round_.events[start:]:
            text = second_person(event.text)
            if left:
                text = text.replace("(timed out)", "(you left the table)")
            self.say(f"  {text}")

    def decide_insurance(self, round_: Round) -> None:
        cost = round_.cost(PLAYER, Action.INSURANCE)
        if cost > self.chips:
            self.say(f"The dealer shows an ace. Insurance costs {cost}: you have {self.chips}.")
            round_.act(PLAYER, Action.NO_INSURANCE)
            return
        while True:
            answer = self.ask(f"The dealer shows an ace. Insurance for {cost}? [y/n]: ")
            if answer in ("y", "yes"):
                if cost > self.chips:
                    self.say(f"You have only {self.chips} chips: insurance costs {cost}.")
                    continue
                self.chips -= cost
                round_.act(PLAYER, Action.INSURANCE)
                return
            if answer in ("n", "no", ""):
                round_.act(PLAYER, Action.NO_INSURANCE)
                return
            self.say("Please answer y or n.")

    def decide(self, round_: Round) -> None:
        index = round_.current_hand_index(PLAYER)
        assert index is not None  # the round is in play, so some hand is unfinished
        hand = round_.hands(PLAYER)[index]
        # Double and split are offered only when your chips cover them.
        legal = {a for a in round_.legal_actions(PLAYER) if round_.cost(PLAYER, a) <= self.chips}
        options = ", ".join(PROMPT_NAMES[a] for a in PROMPT_NAMES if a in legal)
        while True:
            answer = self.ask(f"Hand {index + 1} ({hand.describe()}): {options}, [?] hint? ")
            if answer in HINT_ANSWERS:
                self.hint(hand.cards, round_.dealer.cards[0], legal)
                continue
            action = ANSWERS.get(answer)
            if action is None:
                self.say(f"Please type one of: {options} (the letter in brackets is enough).")
                continue
            if action not in legal:
                try:
                    cost = round_.cost(PLAYER, action)
                except IllegalAction as refusal:
                    self.say(f"You can't {action.value} now: {refusal}.")
                else:
                    self.say(f"You have only {self.chips} chips: {action.value} costs {cost}.")
                continue
            cost = round_.cost(PLAYER, action)
            self.chips -= cost
            round_.act(PLAYER, action)
            return

    def hint(self, cards: Sequence[Card], up: Card, legal: set[Action]) -> None:
        """The Hint button's answer: the best choice and what each one is worth."""
        values = legal_values(self.rules, cards, up, legal)
        self.say("\n".join(f"  {line}" for line in exact_hint(values, cards, up).splitlines()))


def run(args: argparse.Namespace) -> int:
    try:
        rules = preset(args.preset)
    except RulesError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    if not 1 <= args.hands <= rules.max_spots:
        print(f"error: --hands must be 1 to {rules.max_spots} at this table", file=sys.stderr)
        return 2
    if args.chips < rules.min_bet * args.hands:
        print(f"error: --chips must be at least {rules.min_bet * args.hands}", file=sys.stderr)
        return 2
    shoe: Shoe
    if getattr(args, "stack", None):
        shoe = StackedShoe(parse_cards(args.stack))
    elif args.seed:
        shoe = Shoe(rules.decks, rules.penetration, args.seed)
    else:
        shoe = Shoe.fresh(rules.decks, rules.penetration)
    session = Session(rules, args.hands, args.chips, sys.stdout, sys.stdin, shoe, args.preset)
    return session.play()
