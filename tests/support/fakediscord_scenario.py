"""One table scenario, run against the demo bot in-process and as a subprocess."""

from __future__ import annotations

from fakediscord import FakeChannel, FakeDiscord, FakeMember


async def play_table_scenario(
    fake: FakeDiscord, channel: FakeChannel, alice: FakeMember, bob: FakeMember
) -> None:
    """Start a table, hit, stand, grant chips, and post/edit/delete a channel message."""
    start = await fake.slash(alice, "blackjack start", channel, stake=25)
    assert start.response_type == 4
    table = start.original
    assert table is not None
    assert table.is_visible_to(bob)
    assert start.embed is not None
    assert start.embed["title"] == "Blackjack table"
    assert [b["label"] for b in table.buttons()] == ["Hit", "Stand", "Split"]

    hit = await fake.click(bob, table, label="Hit")
    assert hit.response_type == 7
    assert hit.original is table
    assert table.content == "Hits: 1"

    stand = await fake.click(alice, table, label="Stand")
    assert stand.response_type == 6
    (note,) = await stand.wait_for_followups(1)
    await fake.wait_for(lambda: note.content == "You stood. Good luck!")
    assert table.content == "Stood"
    assert table.components == []
    assert note.ephemeral
    assert note.is_visible_to(alice)
    assert not note.is_visible_to(bob)

    grant = await fake.slash(alice, "blackjack-admin grant", channel, member=bob, amount=50)
    assert grant.response_type == 5
    assert grant.ephemeral
    answer = await grant.wait_until_loaded()
    assert answer.content == "Granted 50 chips to Bob."

    post = await fake.slash(alice, "demo post", channel)
    assert post.ephemeral
    await post.wait_until(lambda: post.original is not None and post.original.deleted)
    assert fake.messages_in(channel) == [table]
