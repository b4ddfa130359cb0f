"""The pure blackjack rules engine: no discord, asyncio, database, clock or global random."""

from bot.engine.actions import Action
from bot.engine.cards import Card, cards
from bot.engine.rules import PRESETS, Rules, RulesError, preset

__all__ = ["PRESETS", "Action", "Card", "Rules", "RulesError", "cards", "preset"]
