"""The UnbelievaBoat client against the fake UnbelievaBoat: answers, its three kinds of
failure, 429s waited out on the bot's clock, and a token that is never printed."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator

import pytest

from bot.bridge.client import Balance, Refused, Token, UnbClient, UnknownOutcome, Unreachable
from fakediscord.clock import ManualClock
from fakeunb import ECONOMY, FakeUnbelievaBoat, Fault

GUILD, USER = 111_111_111_111_111_111, 222_222_222_222_222_222
TOKEN = Token("secret-token-abc123")


@pytest.fixture
async def unb() -> AsyncIterator[FakeUnbelievaBoat]:
    async with FakeUnbelievaBoat() as fake:
        fake.authorize(TOKEN.reveal(), GUILD)
        yield fake


@pytest.fixture
async def client(unb: FakeUnbelievaBoat) -> AsyncIterator[UnbClient]:
    made = UnbClient(unb.url, ManualClock(), timeout=0.5)
    yield made
    await made.close()


async def test_a_change_answers_the_new_balance_and_may_go_below_zero(
    unb: FakeUnbelievaBoat, client: UnbClient
) -> None:
    unb.set_balance(GUILD, USER, cash=30, bank=5)
    assert await client.balance(TOKEN, GUILD, USER) == Balance(30, 5)
    assert await client.change_cash(TOKEN, GUILD, USER, -50, "blackjack") == Balance(-20, 5)
    assert unb.changes()[0].body == {"cash": -50, "reason": "blackjack"}
    assert unb.changes()[0].authorization == TOKEN.reveal()


async def test_permissions_are_read_for_an_authorized_server_only(
    unb: FakeUnbelievaBoat, client: UnbClient
) -> None:
    assert await client.permissions(TOKEN, GUILD) == ECONOMY
    with pytest.raises(Refused) as refused:
        await client.permissions(TOKEN, GUILD + 1)
    assert refused.value.status == 403
    with pytest.raises(Refused) as unknown:
        await client.balance(Token("not-a-token"), GUILD, USER)
    assert unknown.value.status == 401


async def test_an_error_answer_is_refused_and_changes_nothing(
    unb: FakeUnbelievaBoat, client: UnbClient
) -> None:
    unb.set_balance(GUILD, USER, cash=100)
    unb.fail_next(Fault.ERROR)
    with pytest.raises(Refused):
        await client.change_cash(TOKEN, GUILD, USER, -10, "blackjack")
    assert unb.cash(GUILD, USER) == 100


@pytest.mark.parametrize(
    ("fault", "cash_after"), [(Fault.TIMEOUT_AFTER, 90), (Fault.TIMEOUT_BEFORE, 100)]
)
async def test_a_timeout_is_an_unknown_outcome(
    unb: FakeUnbelievaBoat, client: UnbClient, fault: Fault, cash_after: int
) -> None:
    unb.set_balance(GUILD, USER, cash=100)
    unb.fail_next(fault)
    with pytest.raises(UnknownOutcome) as unknown:
        await client.change_cash(TOKEN, GUILD, USER, -10, "blackjack")
    assert unb.cash(GUILD, USER) == cash_after
    assert TOKEN.reveal() not in str(unknown.value)


async def test_a_closed_port_is_unreachable() -> None:
    async with FakeUnbelievaBoat() as fake:
        url = fake.url
    client = UnbClient(url, ManualClock())
    with pytest.raises(Unreachable):
        await client.balance(TOKEN, GUILD, USER)
    await client.close()


async def test_a_429_is_waited_out_on_the_clock_then_sent_again(unb: FakeUnbelievaBoat) -> None:
    clock = ManualClock()
    client = UnbClient(unb.url, clock)
    unb.set_balance(GUILD, USER, cash=100)
    unb.rate_limit_next(2500)
    change = asyncio.create_task(client.change_cash(TOKEN, GUILD, USER, -10, "blackjack"))
    await clock.wait_for_sleepers()
    assert clock.next_wakeup() == clock.now() + 2.5
    assert not change.done()
    assert unb.cash(GUILD, USER) == 100
    clock.advance(2.5)
    assert await change == Balance(90, 0)
    assert len(unb.changes()) == 2
    await client.close()


async def test_the_token_is_never_logged_or_shown(
    unb: FakeUnbelievaBoat, client: UnbClient, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    unb.rate_limit_next(0)
    await client.balance(TOKEN, GUILD, USER)
    with pytest.raises(Refused) as refused:
        await client.permissions(TOKEN, GUILD + 1)
    shown = [caplog.text, repr(TOKEN), str(TOKEN), repr(client), str(refused.value)]
    assert caplog.records
    assert all(TOKEN.reveal() not in text for text in shown)
