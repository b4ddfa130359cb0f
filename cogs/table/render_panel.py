"""A tournament table's panel (``TableSnapshot.panel``) as lines: its title first, then the
format or the hand, every stack and the prize pool, in the reader's language."""

from __future__ import annotations

from bot.i18n import joined, nspeak, speak
from bot.shown_names import shown_name
from bot.tables.snapshot import TournamentPanel


def panel_lines(panel: TournamentPanel) -> list[str]:
    """The panel's title, then its lines (the title alone once the tournament has ended)."""
    title = speak("Tournament #{id}", id=str(panel.tournament_id))
    if panel.tables:
        where = {"number": panel.table, "count": panel.tables}
        title = speak(
            "Tournament #{id} · table {number} of {count}", id=str(panel.tournament_id), **where
        )
    if not panel.hands:
        return [title]
    lines = [title, *_stage(panel)]
    for stack in panel.stacks:
        name = shown_name(stack.name)
        if stack.out_after is None:
            lines.append(speak("**{player}** · {chips} chips", player=name, chips=stack.chips))
        else:
            out = {"hand": stack.out_after, "chips": stack.chips}
            lines.append(
                speak("~~{player}~~ · out after hand {hand} ({chips} chips)", player=name, **out)
            )
    if panel.tables:
        lines.append(speak("Duplicate: every table gets the same cards in the same seats."))
    pool = {"pool": panel.pool, "split": "/".join(str(p) for p in panel.split)}
    if panel.fee:
        lines.append(speak("Prize pool {pool} ({split}) · entry {fee}", fee=panel.fee, **pool))
    else:
        lines.append(speak("Prize pool {pool} ({split})", **pool))
    return lines


def _stage(panel: TournamentPanel) -> list[str]:
    """Before the start, the format and the shuffle's commitment; then the hand."""
    if panel.registering:
        terms = {"hands": panel.hands, "stack": panel.stack}
        bets = {"low": panel.min_bet, "high": panel.max_bet}
        lines = [
            speak(
                "{hands} hands, {stack} tournament chips each, bets {low} to {high}.",
                **terms,
                **bets,
            )
        ]
        if panel.eliminations:
            lines.append(
                nspeak(
                    "The fewest chips go out after hand {hands}.",
                    "The fewest chips go out after hands {hands}.",
                    len(panel.eliminations),
                    hands=joined([str(h) for h in panel.eliminations]),
                )
            )
        shuffle = speak(
            "Shuffle commitment `{commitment}`: its seed is shown at the end.",
            commitment=panel.commitment,
        )
        return [*lines, shuffle]
    hand = {"hand": panel.hand, "hands": panel.hands}
    upcoming = min((h for h in panel.eliminations if h >= panel.hand), default=None)
    if upcoming is not None:
        return [
            speak(
                "Hand {hand} of {hands} · next elimination after hand {upcoming}.",
                upcoming=upcoming,
                **hand,
            )
        ]
    return [
        speak(
            "Hand {hand} of {hands} · no more eliminations: the most chips after the last "
            "hand wins.",
            **hand,
        )
    ]
