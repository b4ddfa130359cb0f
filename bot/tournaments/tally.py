"""A tournament's standings: catalog lines, said in the reader's language when shown."""

from __future__ import annotations

from collections.abc import Sequence

from bot.i18n import _
from bot.shown_names import shown_name
from bot.tournaments.rules import Entry
from bot.tournaments.state import Tournament


def standings_lines(
    t: Tournament, ranking: Sequence[Entry], prizes: Sequence[int] | None = None
) -> list[str]:
    """Every player, best first; once it has ended, with each place's prize (``prizes``)."""
    lines: list[str] = []
    for place, entry in enumerate(ranking, start=1):
        e = t.entrant(entry.user_id)
        who = {"place": place, "player": shown_name(e.name if e else ""), "chips": entry.chips}
        prize = prizes[place - 1] if prizes is not None and place <= len(prizes) else 0
        if prize:
            line = _(
                "{place}. {player}: {chips} tournament chips, wins {prize} chips",
                prize=prize,
                **who,
            )
        elif prizes is not None:
            line = _("{place}. {player}: {chips} tournament chips", **who)
        elif entry.out_after is None:
            line = _("{place}. {player}: {chips} chips (still in)", **who)
        else:
            line = _(
                "{place}. {player}: {chips} chips (out after hand {hand})",
                hand=entry.out_after,
                **who,
            )
        lines.append(line)
    return lines
