"""The user install: which commands a person may install to their own account, and where."""

from __future__ import annotations

from pathlib import Path

from bot.app import BlackjackBot, build_bot
from bot.config import Config
from bot.user_install import POCKET_SCOPE
from cogs.economy import POCKET_BOARD_TITLE
from cogs.table.pocket import RENEW_BEFORE_S, TOKEN_LIFETIME_S, TOKEN_MARGIN_S
from fakediscord.harness import running_bot
from fakediscord.interactions import FakeInteraction
from fakediscord.models import FakePrivateChannel, FakeUser
from fakediscord.records import FakeMessage
from tests.db.invariants import check_invariants
from tests.support.discord_world import World, embed_text
from tests.support.pocket_tables import (
    answers_within_the_followup_cap,
    no_channel_messages,
    play_a_group_dm_round,
    press,
)
from tests.support.shoes import SPARE, START_CHIPS, ShoeQueue

#: Commands that make sense outside a server: both installs, every context.
ANYWHERE = ("blackjack", "bet", "balance", "daily", "stats", "leaderboard")
#: Commands of a server's own: its install only, in the server only.
SERVER_ONLY = ("blackjack-admin",)


async def test_synced_commands_say_where_they_may_be_installed_and_used(
    bot: BlackjackBot, world: World
) -> None:
    synced = {command.name: command.data for command in world.fake.commands[None]}
    for name in ANYWHERE:
        assert synced[name]["integration_types"] == [0, 1], name
        assert synced[name]["contexts"] == [0, 1, 2], name
    for name in SERVER_ONLY:
        assert synced[name]["integration_types"] == [0], name
        assert synced[name]["contexts"] == [0], name


async def test_a_group_dm_plays_a_full_round_from_a_user_installed_command(
    bot: BlackjackBot, world: World, shoes: ShoeQueue
) -> None:
    await play_a_group_dm_round(world, shoes)


async def test_the_pocket_wallet_has_its_own_daily_stats_and_board_of_table_mates(
    bot: BlackjackBot, world: World, shoes: ShoeQueue
) -> None:
    await play_a_group_dm_round(world, shoes)
    fake = world.fake
    alice, bob, carol = world.alice.user, world.bob.user, world.carol.user
    fake.install_app(carol)
    alone = fake.add_dm(carol)
    daily = await fake.slash(carol, "daily", alone)
    assert (daily.content or "").startswith("You claimed")
    assert await world.store.balance(POCKET_SCOPE, carol.id) > START_CHIPS
    assert await world.balance(world.carol) == START_CHIPS  # her server wallet: untouched

    alice_dm = fake.add_dm(alice)
    stats = await fake.slash(alice, "stats", alice_dm)
    assert stats.embed is not None
    fields = {f["name"]: f["value"] for f in stats.embed["fields"]}
    assert (fields["Hands"], fields["Wins"], fields["Net"]) == ("1", "1", "+100")

    board = await fake.slash(alice, "leaderboard", alice_dm)
    assert board.embed is not None
    assert board.embed["title"] == POCKET_BOARD_TITLE
    listed = board.embed["description"]
    assert f"<@{alice.id}>" in listed
    assert f"<@{bob.id}>" in listed
    assert f"<@{carol.id}>" not in listed  # she never played at a table with Alice


async def open_in_her_dm(world: World) -> tuple[FakePrivateChannel, FakeInteraction, FakeMessage]:
    """Alice installs the app and opens a table in her DM with the bot: the DM, the
    /blackjack start interaction and the table message."""
    fake, alice = world.fake, world.alice.user
    fake.install_app(alice)
    dm = fake.add_dm(alice)
    start = await fake.slash(alice, "blackjack start", dm)
    table = start.original
    assert table is not None
    await world.settle()
    return dm, start, table


async def bet_and_see_the_cards(
    world: World, who: FakeUser, place: FakePrivateChannel, table: FakeMessage
) -> None:
    """``who`` bets 100 by /bet; the deal is shown on the table message."""
    assert (await world.fake.slash(who, "bet", place, amount="100")).ephemeral
    await world.settle()
    assert "**Your move**" in embed_text(table)


async def waits_unseen(world: World, table: FakeMessage, seconds: float) -> None:
    """``seconds`` pass with no valid token: the hand timer does not act, nothing is edited."""
    edits = table.edits
    await world.tick(seconds)
    assert table.edits == edits
    assert "**Your move**" in embed_text(table)


#: One player's rounds that all push (10 7 against the dealer's 10 7): no chips move.
PUSHES = "Tc Td 7c 7d " * 12


def elapsed(start: FakeInteraction) -> float:
    """Seconds since ``start`` was created, on the fake's clock."""
    return start.fake.clock.now() - start.created_at


async def outlive_the_token(
    world: World, shoes: ShoeQueue
) -> tuple[FakePrivateChannel, FakeMessage]:
    """Alice plays in her DM by /bet, then nobody plays until the start's token, the only
    one that owns the table message, dies: the DM and the table."""
    shoes.add(PUSHES)
    fake, alice = world.fake, world.alice.user
    dm, start, table = await open_in_her_dm(world)
    assert (start.context, start.owners) == (1, {"0": "0", "1": str(alice.id)})
    # Rounds go on by /bet and the hand timer alone: every edit uses the start's token.
    for _ in range(2):
        await world.tick(250)
        assert (await fake.slash(alice, "bet", dm, amount="100")).ephemeral
        await world.settle()
        await world.tick(30)  # the hand timer stands
        assert "Place your bets" in embed_text(table)
    # A last /bet with just over RENEW_BEFORE_S of the token left (it is not renewed); its
    # round ends at 610 s, and the idle close would be due 5 minutes later, past the token.
    await world.tick(TOKEN_LIFETIME_S - TOKEN_MARGIN_S - RENEW_BEFORE_S - 10 - elapsed(start))
    assert (await fake.slash(alice, "bet", dm, amount="100")).ephemeral
    await world.settle()
    await world.tick(30)
    assert "Place your bets" in embed_text(table)
    assert await world.store.balance(POCKET_SCOPE, alice.id) == START_CHIPS
    # Nobody plays past the token's life: no timer may act, the table waits unseen.
    await world.tick(TOKEN_LIFETIME_S - elapsed(start))
    edits = table.edits
    await world.tick(60)
    assert table.edits == edits
    assert "Place your bets" in embed_text(table)
    return dm, table


async def test_a_table_that_outlives_its_last_token_ends_at_the_next_click(
    bot: BlackjackBot, world: World, shoes: ShoeQueue
) -> None:
    fake, alice = world.fake, world.alice.user
    dm, table = await outlive_the_token(world, shoes)

    ended = await fake.click(alice, table, label="Join")
    assert ended.response_type == 7
    (told,) = await ended.wait_for_followups(1)
    assert told.ephemeral
    assert told.content.startswith("This table ended: nobody played for 15 minutes")
    text = embed_text(table)
    assert "**Table closed**" in text
    assert table.buttons() == []
    assert await world.store.balance(POCKET_SCOPE, alice.id) == START_CHIPS
    assert world.running.tables.table_in(dm.id) is None
    no_channel_messages(fake)
    answers_within_the_followup_cap(fake)


async def test_playing_by_bet_alone_keeps_a_pocket_table_going_past_its_first_token(
    bot: BlackjackBot, world: World, shoes: ShoeQueue
) -> None:
    shoes.add(PUSHES)
    fake, alice = world.fake, world.alice.user
    dm, start, table = await open_in_her_dm(world)
    shown = table
    moves = []
    # A /bet every four minutes for half an hour, no click: the table never ends.
    for _ in range(8):
        await world.tick(240)
        bet = await fake.slash(alice, "bet", dm, amount="100")
        assert bet.ephemeral
        assert bet.original is not None
        assert bet.original.content.startswith("Bet 100.")
        await world.settle()
        moved = [m for m in bet.followups if not m.ephemeral and m.embed is not None]
        if moved:  # the start's token near its end: the table answers this /bet anew
            (shown,) = moved
            moves.append(fake.clock.now() - start.created_at)
        assert "**Your move**" in embed_text(shown)
        await world.tick(30)  # the hand timer stands; the round pushes
        assert "Place your bets" in embed_text(shown)
        assert world.running.tables.table_in(dm.id) is not None
    assert fake.clock.now() - start.created_at > 2 * TOKEN_LIFETIME_S
    # Moved only when a token was near its end: about every ten minutes, not at every bet.
    assert 2 <= len(moves) <= 3
    assert moves[0] > TOKEN_LIFETIME_S - 5 * 60 - 30
    assert await world.store.balance(POCKET_SCOPE, alice.id) == START_CHIPS
    no_channel_messages(fake)
    answers_within_the_followup_cap(fake)


#: One player: Ts 9s (19) stands against the dealer's 7c up and Kd in the hole (17).
ONE_PLAYER_ROUND = "Ts 7c 9s Kd " + SPARE


async def test_a_start_where_a_table_outlived_its_token_ends_it_and_opens_anew(
    bot: BlackjackBot, world: World, shoes: ShoeQueue
) -> None:
    fake, alice = world.fake, world.alice.user
    dm, old = await outlive_the_token(world, shoes)
    start = await fake.slash(alice, "blackjack start", dm)
    assert start.response_type == 4
    (told,) = await start.wait_for_followups(1)
    assert told.content.startswith("The table that was open here ended first")
    assert start.original is not None
    assert "Place your bets" in embed_text(start.original)
    assert "Place your bets" in embed_text(old)  # its token is gone: it stays as it was
    assert await world.store.balance(POCKET_SCOPE, alice.id) == START_CHIPS
    assert world.running.tables.table_in(dm.id) is not None  # the new one


async def test_a_server_with_external_apps_off_gets_a_private_table_that_plays(
    bot: BlackjackBot, world: World, shoes: ShoeQueue
) -> None:
    shoes.add(ONE_PLAYER_ROUND)
    fake = world.fake
    everyone = ["view_channel", "send_messages", "read_message_history", "use_application_commands"]
    club = fake.add_guild("Book club", everyone=everyone, with_bot=False)
    general = fake.add_text_channel(club, "general")
    reader = fake.add_member(club, "reader")
    other = fake.add_member(club, "other")
    fake.install_app(reader.user)

    start = await fake.slash(reader, "blackjack start", general)
    assert (start.context, start.owners) == (0, {"1": str(reader.id)})
    assert start.response_type == 4
    assert start.ephemeral  # Discord makes it private: no Use External Apps here
    table = start.original
    assert table is not None
    assert not table.is_visible_to(other)
    await world.settle()

    bet = await fake.slash(reader, "bet", general, amount="100")
    assert bet.ephemeral
    await world.settle()
    assert "**Your move**" in embed_text(table)  # edited through the start's token
    stood = await fake.click(reader, table, label="Stand")
    assert stood.response_type == 7
    await world.settle()
    text = embed_text(table)
    assert "Place your bets" in text
    assert "Reader: 10♠ 9♠ 19 wins · balance change +100" in text
    balance = await fake.slash(reader, "balance", general)
    assert balance.ephemeral
    assert await world.store.balance(POCKET_SCOPE, reader.id) == START_CHIPS + 100
    no_channel_messages(fake)


async def test_a_pocket_table_goes_on_after_a_restart_from_the_next_click(
    world: World, tmp_path: Path
) -> None:
    config = Config(
        card_pictures=False,
        token=world.fake.token,
        database_url=f"sqlite:///{tmp_path / 'chips.sqlite3'}",
    )
    fake, alice = world.fake, world.alice.user
    shoes = ShoeQueue()
    shoes.add(ONE_PLAYER_ROUND)
    async with running_bot(fake, build_bot(config, clock=fake.clock, shoe_factory=shoes)) as bot:
        world.bot = bot
        dm, _, table = await open_in_her_dm(world)
        await bet_and_see_the_cards(world, alice, dm, table)

    async with running_bot(fake, build_bot(config, clock=fake.clock)) as bot:
        world.bot = bot
        await world.settle()
        # No token owns the message yet: the hand timer waits, nothing is edited or voided.
        await waits_unseen(world, table, 120)
        stood = await fake.click(alice, table, label="Stand")
        assert stood.response_type == 7
        await world.settle()
        assert "Alice: 10♠ 9♠ 19 wins · balance change +100" in embed_text(table)
        assert await world.store.balance(POCKET_SCOPE, alice.id) == START_CHIPS + 100
    no_channel_messages(fake)
    await check_invariants(config.database_url)


async def test_a_pocket_table_near_its_messages_edit_cap_moves_to_a_click_answer(
    bot: BlackjackBot, world: World, shoes: ShoeQueue
) -> None:
    for _ in range(3):
        shoes.add(PUSHES)
    fake, alice = world.fake, world.alice.user
    dm, _, table = await open_in_her_dm(world)
    await bet_and_see_the_cards(world, alice, dm, table)
    await fake.click(alice, table, label="Stand")  # every round pushes
    await world.settle()
    # Rounds by clicks alone, every few minutes: each click's token is fresh, so the table
    # lives on; past 50 minutes its message is near Discord's cap on edits of an hour-old
    # message, and the next click answers with the table as a new message.
    moved = None
    for _ in range(30):
        await world.tick(240)
        again = await fake.click(alice, table, label="Bet again")
        await world.settle()
        if again.response_type == 4:
            moved = again
            break
        assert again.response_type == 7
        await fake.click(alice, table, label="Stand")
        await world.settle()
    assert moved is not None
    assert 3000 <= fake.clock.now() - table.timestamp < 3600
    new = moved.original
    assert new is not None
    assert new is not table
    assert not new.ephemeral
    (told,) = await moved.wait_for_followups(1)
    assert told.content.startswith("This table moved to a new message")
    assert "Place your bets" in embed_text(new)  # the click was not applied: press again
    await press(world, alice, new, "Bet again", shows="**Your move**")
    await press(world, alice, new, "Stand", shows="Place your bets")
    # The old message's buttons point to the new one.
    old_click = await fake.click(alice, table, label="Join")
    assert (old_click.content or "").startswith("This table moved to a new message:")
    assert (old_click.content or "").endswith(f"/@me/{dm.id}/{new.id}")
    assert await world.store.balance(POCKET_SCOPE, alice.id) == START_CHIPS
    no_channel_messages(fake)
