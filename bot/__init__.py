"""Blackjack table bot: a Discord bot that deals group blackjack."""

__version__ = "0.1.0"
