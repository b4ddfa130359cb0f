"""A round to JSON and back, exactly: the restored round compares equal."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, TypeVar

import orjson

from bot.engine.cards import DECK, Card
from bot.engine.events import EventKind, RawEvent, stored_note
from bot.engine.hand import Hand
from bot.engine.round_state import RoundPhase, RoundState
from bot.engine.rules import Rules
from bot.engine.seat import Seat
from bot.engine.shoe import Shoe, shoe_from_dict

R = TypeVar("R", bound=RoundState)

FORMAT_VERSION = 1


#: Each card's text, made once (a round is saved after every action).
_CARD_TEXT: dict[Card, str] = {card: str(card) for card in DECK}


def _cards(cards: list[Card] | tuple[Card, ...]) -> list[str]:
    return [_CARD_TEXT.get(card) or str(card) for card in cards]


def _parse(texts: list[str]) -> list[Card]:
    return [Card.parse(text) for text in texts]


def _hand_to_dict(hand: Hand) -> dict[str, Any]:
    return {
        "cards": _cards(hand.cards),
        "stake": hand.stake,
        "spot": hand.spot,
        "split": hand.split,
        "split_aces": hand.split_aces,
        "doubled": hand.doubled,
        "surrendered": hand.surrendered,
        "finished": hand.is_finished,
        "outcome": hand.outcome,
        "payout": hand.payout,
        "rounded_down": hand.rounded_down,
    }


def _hand_from_dict(data: dict[str, Any], naturals: bool) -> Hand:
    hand = Hand(int(data["stake"]), int(data["spot"]), naturals=naturals, split=data["split"])
    for card in _parse(data["cards"]):
        hand.add(card)
    hand.split_aces = bool(data["split_aces"])
    hand.doubled = bool(data["doubled"])
    hand.surrendered = bool(data["surrendered"])
    hand.is_finished = bool(data["finished"])
    hand.outcome = str(data["outcome"])
    hand.payout = int(data["payout"])
    hand.rounded_down = bool(data["rounded_down"])
    return hand


#: Each Rules value as a dict, made once: a table saves its round after every action, and
#: ``dataclasses.asdict`` was most of that cost. Rules are frozen, so the dict never goes stale.
_RULES_DICTS: dict[Rules, dict[str, Any]] = {}


def _rules_dict(rules: Rules) -> dict[str, Any]:
    cached = _RULES_DICTS.get(rules)
    if cached is None:
        if len(_RULES_DICTS) >= 1024:  # tables with their own bet limits: keep it bounded
            _RULES_DICTS.clear()
        cached = _RULES_DICTS[rules] = rules.to_dict()
    return dict(cached)


def round_to_dict(round_: RoundState) -> dict[str, Any]:
    """Everything that makes up the round, as plain JSON-ready values."""
    return {
        "version": FORMAT_VERSION,
        "rules": _rules_dict(round_.rules),
        "shoe": round_.shoe.to_dict(),
        "phase": round_.phase.value,
        "dealer": _cards(round_.dealer.cards),
        **({"dealer_plays_out": True} if round_.dealer_plays_out else {}),
        "seats": [
            {
                "player": seat.player_id,
                "insurance": seat.insurance,
                "insurance_decided": seat.insurance_decided,
                "timed_out": seat.timed_out,
                "hands": [_hand_to_dict(hand) for hand in seat.hands],
            }
            for seat in round_.seats
        ],
        "events": [
            [kind.value, player, hand, _cards(cards), total, amount, note]
            for kind, player, hand, cards, total, amount, note in round_._log
        ],
    }


def round_to_json(round_: RoundState) -> str:
    """The round as a JSON text: compact, UTF-8 as is (what ``json.dumps`` writes with
    ``ensure_ascii=False`` and no spaces), by orjson, several times faster."""
    return orjson.dumps(round_to_dict(round_)).decode()


def round_from_json(text: str, make: Callable[[Rules, Shoe], R]) -> R:
    """Restore a round from ``round_to_json`` output into ``make(rules, shoe)`` (a Round)."""
    data = json.loads(text)
    if data.get("version") != FORMAT_VERSION:
        raise ValueError(f"unknown round format version {data.get('version')!r}")
    rules = Rules.from_dict(data["rules"])
    round_ = make(rules, shoe_from_dict(data["shoe"]))
    round_.phase = RoundPhase(data["phase"])
    for card in _parse(data["dealer"]):
        round_.dealer.add(card)
    round_.dealer_plays_out = bool(data.get("dealer_plays_out", False))
    live = 0
    for seat_data in data["seats"]:
        hands = [_hand_from_dict(hand, rules.naturals) for hand in seat_data["hands"]]
        seat = Seat(str(seat_data["player"]), hands)
        seat.insurance = int(seat_data["insurance"])
        seat.insurance_decided = bool(seat_data["insurance_decided"])
        seat.timed_out = bool(seat_data["timed_out"])
        round_.seats.append(seat)
        round_._seat_of[seat.player_id] = seat
        live += sum(1 for hand in hands if not hand.is_finished)
    round_._live = live
    # A round stored before notes were codes has English ones: read as their codes.
    events: list[RawEvent] = [
        (
            EventKind(kind),
            str(player),
            int(hand),
            tuple(_parse(cards)),
            int(total),
            int(amount),
            stored_note(EventKind(kind), str(note)),
        )
        for kind, player, hand, cards, total, amount, note in data["events"]
    ]
    round_._log = events
    return round_
