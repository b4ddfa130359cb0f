"""A chip store that can be taken away: SQLite's file or a PostgreSQL server, for outage tests."""

from __future__ import annotations

from dataclasses import dataclass

from bot.app import BlackjackBot, build_bot
from bot.config import Config
from tests.outage import Outage
from tests.support.discord_world import World
from tests.support.shoes import ShoeQueue


@dataclass(frozen=True)
class Store:
    url: str
    outage: Outage


def bot_on(world: World, store: Store, shoes: ShoeQueue | None = None) -> BlackjackBot:
    config = Config(card_pictures=False, token=world.fake.token, database_url=store.url)
    return build_bot(config, clock=world.fake.clock, shoe_factory=shoes)
