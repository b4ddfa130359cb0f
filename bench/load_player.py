"""The ``bench/load.py`` players: each reads its table message and bets or presses as a
person would, through the fake Discord; and the tables they sit at."""

from __future__ import annotations

import asyncio
import time
from collections import Counter
from collections.abc import Awaitable
from dataclasses import dataclass, field

from load_kit import BenchDiscord, Pacer
from table_reading import decide, message_state, seat_value

from bot.engine import Action
from cogs.table.buttons import custom_id, parse_custom_id
from fakediscord.interactions import FakeInteraction, InteractionRejected
from fakediscord.models import FakeChannel, FakeGuild, FakeMember
from fakediscord.records import FakeMessage

PLAYERS = 5
BUTTON_OF = {
    Action.HIT: "hit",
    Action.STAND: "stand",
    Action.DOUBLE: "double",
    Action.SPLIT: "split",
    Action.SURRENDER: "surrender",
    Action.INSURANCE: "insurance",
    Action.NO_INSURANCE: "no_insurance",
}
#: Real seconds after which a missing answer or a table that stopped moving is a failure
#: (Discord's window is 3 s; this only turns a hang into an error on a crowded machine).
MAX_WAIT = 120.0
#: Real seconds a waiting player looks at the table again even without an edit.
RECHECK = 5.0
#: Real seconds a player told "busy" waits before trying again.
BUSY_RETRY = 1.0


@dataclass
class Tally:
    """What the driver saw in the measured phase."""

    interactions: int = 0
    kinds: Counter[str] = field(default_factory=Counter)
    #: Real seconds from the driver sending an interaction to the fake having the answer.
    round_trips: list[float] = field(default_factory=list)

    pacer: Pacer | None = None

    async def send(self, kind: str, action: Awaitable[FakeInteraction]) -> FakeInteraction:
        """Send (when the pacer allows), wait for the answer, count it."""
        if self.pacer is not None:
            await self.pacer.wait()
        began = time.perf_counter()
        reply = await action
        self.round_trips.append(time.perf_counter() - began)
        self.interactions += 1
        self.kinds[kind] += 1
        if reply.response_type == 6:
            self.kinds["deferred (type 6)"] += 1
        if reply.errors:
            raise AssertionError(f"{reply.describe()} got {reply.errors}")
        return reply


class Player:
    """One player at one table message: bets on each of ``rounds`` as the message opens it,
    acts whenever they may (``run``); with ``coach``, asks ``/blackjack coach`` once a round,
    after the bet; with ``bet_again``, bets by the table's Bet again button where it is
    offered (the same 10 as the round before), by ``/bet 10`` otherwise."""

    def __init__(
        self,
        fake: BenchDiscord,
        tally: Tally,
        member: FakeMember,
        message: FakeMessage,
        rounds: range,
        coach: bool = False,
        bet_again: bool = False,
    ) -> None:
        self.fake, self.tally, self.member, self.message = fake, tally, member, message
        self.rounds = rounds
        #: Ask ``/blackjack coach`` once a round, after the bet.
        self.coach = coach
        #: Bet by pressing Bet again where the table offers it.
        self.bet_again = bet_again
        self.bet_on = rounds.start - 1  # the round this player last bet on
        self.name = member.nick or member.user.global_name or member.user.username
        #: The hand ("round:seat") and the actions refused on it.
        self.refused: tuple[str, set[Action]] = ("", set())
        #: Real seconds the table has stood still.
        self.quiet = 0.0

    async def run(self) -> None:
        """Bet, act or wait, until the last round is played."""
        while True:
            shown_round, phase = message_state(self.message)
            if phase == "betting" and shown_round > self.bet_on:
                if self.bet_on == self.rounds.stop - 1:
                    return
                await self.bet(shown_round)
                continue
            if phase != "betting" and shown_round == self.bet_on and await self.act(shown_round):
                continue
            await self.wait_for_change()

    async def bet(self, shown_round: int) -> None:
        """``/bet`` on the round the message shows open (or Bet again: ``bet_again``)."""
        if self.bet_again and await self.press_bet_again(shown_round):
            return
        reply = await self.tally.send(
            "bet",
            self.fake.slash(
                self.member, "bet", self.message.channel, amount="10", max_wait=MAX_WAIT
            ),
        )
        if reply.response_type == 5:  # deferred: the answer replaces "thinking"
            await reply.wait_until_loaded(max_wait=MAX_WAIT)
        if (reply.content or "").startswith(("Bet ", "You already bet")):
            await self.placed(shown_round)
        else:
            await self.refused_with(reply.content or "")

    async def placed(self, shown_round: int) -> None:
        """The bet on ``shown_round`` is in; with ``coach``, ask ``/blackjack coach``."""
        self.bet_on = shown_round
        if self.coach:
            asked = self.fake.slash(
                self.member, "blackjack coach", self.message.channel, max_wait=MAX_WAIT
            )
            await self.tally.send("coach", asked)

    async def press_bet_again(self, shown_round: int) -> bool:
        """Press Bet again if the message offers it this round: False when it does not, or
        the bot refused it for a reason other than being busy (then ``/bet`` it is)."""
        wanted = None
        for button in self.message.buttons():
            ref = parse_custom_id(button["custom_id"])
            if ref is not None and ref.action == "rebet" and ref.round_no == shown_round:
                wanted = None if button.get("disabled") else button["custom_id"]
        if wanted is None:
            return False
        try:
            refusal = await self.press("bet again", wanted)
        except InteractionRejected:
            self.tally.kinds["not on the message yet"] += 1
            return False
        if not refusal or refusal.startswith("You already bet"):
            await self.placed(shown_round)
            return True
        return await self.refused_with(refusal)

    async def act(self, shown_round: int) -> bool:
        """Press what basic strategy says, if anything: False when there is nothing to do
        but wait for the message to change."""
        hand_key = f"{shown_round}:{seat_value(self.message, self.name)}"
        if self.refused[0] != hand_key:
            self.refused = (hand_key, set())
        action = decide(self.message, self.name, self.refused[1])
        if action is None:
            return False
        table_id = parse_custom_id(self.message.buttons()[0]["custom_id"])
        assert table_id is not None
        cid = custom_id(table_id.table_id, shown_round, BUTTON_OF[action])
        try:
            refusal = await self.press(BUTTON_OF[action], cid)
        except InteractionRejected as rejected:
            if "disabled" in str(rejected):
                # Nobody may take it now (a pair on a fourth hand: no more splits).
                # Treated as refused: waiting for a change here would stall the table.
                self.tally.kinds[f"disabled: {BUTTON_OF[action]}"] += 1
                self.refused[1].add(action)
                return True
            self.tally.kinds["not on the message yet"] += 1
            return False
        if refusal and not await self.refused_with(refusal):
            self.refused[1].add(action)
        return True

    async def press(self, kind: str, button: str) -> str:
        """Press the message's button of custom id ``button`` (counted as ``kind``): what the bot
        refused it with, "" when it took it; InteractionRejected when the message has no
        such button to press."""
        shown = (message_state(self.message), seat_value(self.message, self.name))
        click = self.fake.click(self.member, self.message, custom_id=button, max_wait=MAX_WAIT)
        reply = await self.tally.send(kind, click)
        return await self.refusal(reply, shown)

    async def refused_with(self, refusal: str) -> bool:
        """Count a refusal; when the table was busy, wait as asked ("in a moment") before
        trying again. Whether it was busy."""
        self.tally.kinds[f"refused: {refusal}"] += 1
        busy = "busy" in refusal
        if busy:
            await asyncio.sleep(BUSY_RETRY)
        return busy

    async def refusal(self, reply: FakeInteraction, shown: object) -> str:
        """What the bot refused a press with; "" when it took it."""
        if reply.response_type == 7:
            return ""
        if reply.response_type != 6:
            return reply.content or ""
        # Deferred: the table edit or a refusal follows. Wait for this player's own change
        # (another player's edit is not it); after RECHECK s look again, as a waiting
        # player does.
        try:
            await self.fake.wait_for(
                lambda: (
                    bool(reply.followups)
                    or (message_state(self.message), seat_value(self.message, self.name)) != shown
                ),
                max_wait=RECHECK,
            )
        except TimeoutError:
            self.tally.kinds["re-checked 5 s after a deferral"] += 1
        return reply.followups[0].content if reply.followups else ""

    async def wait_for_change(self) -> None:
        """Wait for the next edit of the message; fail if the table stood still MAX_WAIT s."""
        try:
            await self.fake.message_changed(self.message, RECHECK)
            self.quiet = 0.0
        except AssertionError:
            # Nothing changed for RECHECK s: look again (a wake-up may have been missed), with
            # the refusals forgotten (each was true of its moment), and fail only when the
            # table stood still for MAX_WAIT s.
            self.tally.kinds["re-checked after a quiet 5 s"] += 1
            self.refused = ("", set())
            self.quiet += RECHECK
            if self.quiet >= MAX_WAIT:
                raise AssertionError(
                    f"stuck: message shows {message_state(self.message)}, bet_on {self.bet_on},"
                    f" seat {seat_value(self.message, self.name)!r};"
                    f" table: {self.message.embed!r}"
                ) from None


def seat_players(
    fake: BenchDiscord, guilds: list[FakeGuild], prefix: str, tables: int
) -> list[tuple[FakeChannel, list[FakeMember]]]:
    """``tables`` text channels ``{prefix}-{t}`` spread over ``guilds``, each with its PLAYERS."""
    seats = []
    for t in range(tables):
        guild = guilds[t % len(guilds)]
        channel = fake.add_text_channel(guild, f"{prefix}-{t}")
        seats.append((channel, [fake.add_member(guild, f"p{t}-{p}") for p in range(PLAYERS)]))
    return seats


async def open_tables(
    fake: BenchDiscord, seats: list[tuple[FakeChannel, list[FakeMember]]]
) -> list[FakeMessage]:
    """Each host opens a table and the other four join; returns the table messages."""

    async def open_one(channel: FakeChannel, members: list[FakeMember]) -> FakeMessage:
        start = await fake.slash(members[0], "blackjack start", channel, max_wait=MAX_WAIT)
        assert start.response_type == 4, start.errors
        assert start.original is not None
        for member in members[1:]:
            joined = await fake.slash(member, "blackjack join", channel, max_wait=MAX_WAIT)
            assert joined.response_type == 4, joined.errors
        return start.original

    # A few at a time: setup is not measured, and fewer waiters keep fake.wait_for cheap.
    gate = asyncio.Semaphore(20)

    async def gated(channel: FakeChannel, members: list[FakeMember]) -> FakeMessage:
        async with gate:
            return await open_one(channel, members)

    return list(await asyncio.gather(*(gated(c, m) for c, m in seats)))
