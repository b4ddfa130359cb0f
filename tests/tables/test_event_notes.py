"""The engine's notes are codes (how insurance was taken, why a hand stood; a split's
hands are its cards), worded by the catalogs; a round stored with the English notes of
before reads the same, and says the same in every language."""

from __future__ import annotations

import json

from bot.engine import Action, EventKind, Note, Round, preset, split_hands
from bot.i18n import LANGUAGES
from bot.tables.results import event_lines
from tests.support.shoes import stacked

NAMES = {"ann": "Ann", "bea": "Bea"}
# Ann A♠ K♠ and Bea 8♠ 8♥ against the dealer's A♦ (7♣ under): Ann takes even money, Bea
# splits (8 3, then 8 A) and her timer runs out on both hands.
CARDS = "As 8s Ad Ks 8h 7c 3c Ah " + " ".join(["2c"] * 20)
#: What the notes said before they were codes, as rounds were stored then.
OLD_NOTES = {"insure": "even money", "stand": "timed out", "split": "8♠ 3♣ (11) | 8♥ A♥ (soft 19)"}


def played() -> Round:
    round_ = Round.deal(preset("vegas-shoe"), stacked(CARDS), [("ann", [10]), ("bea", [10])])
    round_.act("ann", Action.INSURANCE)
    round_.act("bea", Action.NO_INSURANCE)
    round_.act("bea", Action.SPLIT)
    round_.stand_all("bea")
    assert round_.is_finished
    return round_


def test_notes_are_codes_and_a_split_shows_its_hands_from_its_cards() -> None:
    events = played().events
    # (A result's note is the engine's own English for its terminal game, made when read
    # and never stored; the table words results from the settlement.)
    results = {EventKind.RESULT, EventKind.INSURANCE_RESULT}
    notes = {(e.kind, e.note) for e in events if e.note and e.kind not in results}
    assert notes == {(EventKind.INSURE, Note.EVEN_MONEY), (EventKind.STAND, Note.TIMED_OUT)}
    (split,) = [event for event in events if event.kind is EventKind.SPLIT]
    hand, twin = split_hands(split.cards)
    assert (hand.describe(), twin.describe()) == ("8♠ 3♣ (11)", "8♥ A♥ (soft 19)")
    lines = event_lines(events, NAMES)
    assert "Ann takes even money for 5" in lines
    assert "Bea (hand 1) splits: 8♠ 3♣ (11) | 8♥ A♥ (soft 19)" in lines
    assert "Bea (hand 2) stands on 19 (timed out)" in lines
    spanish = [line.in_language("es-ES") for line in lines if "splits" in line]
    assert spanish == ["Bea (mano 1) separa: 8♠ 3♣ (11) | 8♥ A♥ (19 blando)"]
    assert not [line for line in lines if "wins" in line or "loses" in line]


def test_a_round_stored_with_english_notes_reads_and_says_the_same() -> None:
    round_ = played()
    stored = json.loads(round_.to_json())
    for event in stored["events"]:
        if event[0] in OLD_NOTES and (event[6] or event[0] == "split"):
            event[6] = OLD_NOTES[event[0]]
    assert {event[6] for event in stored["events"]} >= set(OLD_NOTES.values())
    old = Round.from_json(json.dumps(stored))
    assert old.events == round_.events
    for language in LANGUAGES:
        said = [line.in_language(language) for line in event_lines(old.events, NAMES)]
        assert said == [line.in_language(language) for line in event_lines(round_.events, NAMES)]
