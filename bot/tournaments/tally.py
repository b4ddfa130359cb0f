"""A tournament table's panel (beside its hand) and the standings: catalog lines, said in
the reader's language when shown."""

from __future__ import annotations

from collections.abc import Sequence

from bot.engine import commitment
from bot.i18n import _, joined, n_
from bot.shown_names import shown_name
from bot.tables.table import Table
from bot.tournaments.mode import stacks_of
from bot.tournaments.rules import Entry
from bot.tournaments.state import Status, Tournament
from db.tournament_store import Place


def panel_lines(t: Tournament, table: Table) -> tuple[str, ...]:
    """The table's title, the tournament's format (or hand), every stack, the pool."""
    index, fmt, stacks = stacks_of(table).index, t.fmt, stacks_of(table).stacks
    title = _("Tournament #{id}", id=str(t.tournament_id))
    if t.duplicate:
        title = _(
            "Tournament #{id} · table {number} of {count}",
            id=str(t.tournament_id),
            number=index + 1,
            count=len(t.channels),
        )
    lines: list[str] = [title]
    hand, upcoming = table.round_no, fmt.next_elimination(table.round_no)
    if t.status is Status.REGISTERING:
        terms = {"hands": fmt.hands, "stack": fmt.stack, "low": fmt.min_bet, "high": fmt.max_bet}
        lines.append(
            _("{hands} hands, {stack} tournament chips each, bets {low} to {high}.", **terms)
        )
        if fmt.eliminations:
            out = joined([str(h) for h in fmt.eliminations])
            lines.append(
                n_(
                    "The fewest chips go out after hand {hands}.",
                    "The fewest chips go out after hands {hands}.",
                    len(fmt.eliminations),
                    hands=out,
                )
            )
        lines.append(
            _(
                "Shuffle commitment `{commitment}`: its seed is shown at the end.",
                commitment=commitment(t.seed),
            )
        )
    elif upcoming is not None:
        lines.append(
            _(
                "Hand {hand} of {hands} · next elimination after hand {upcoming}.",
                hand=hand,
                hands=fmt.hands,
                upcoming=upcoming,
            )
        )
    else:
        lines.append(
            _(
                "Hand {hand} of {hands} · no more eliminations: the most chips after the last "
                "hand wins.",
                hand=hand,
                hands=fmt.hands,
            )
        )
    for entrant in t.at(index):
        stack, name = stacks[entrant.user_id], shown_name(entrant.name)
        if stack.out_after is None:
            lines.append(_("**{player}** · {chips} chips", player=name, chips=stack.chips))
        else:
            lines.append(
                _(
                    "~~{player}~~ · out after hand {hand} ({chips} chips)",
                    player=name,
                    hand=stack.out_after,
                    chips=stack.chips,
                )
            )
    if t.duplicate:
        lines.append(_("Duplicate: every table gets the same cards in the same seats."))
    pool = {"pool": t.pool, "split": "/".join(str(p) for p in fmt.split)}
    if fmt.fee:
        lines.append(_("Prize pool {pool} ({split}) · entry {fee}", fee=fmt.fee, **pool))
    else:
        lines.append(_("Prize pool {pool} ({split})", **pool))
    return tuple(lines)


def finish_lines(places: Sequence[Place], names: dict[int, str]) -> list[str]:
    """The final standings, first place first."""
    lines: list[str] = []
    for p in places:
        who = {"place": p.place, "player": shown_name(names.get(p.user_id, "")), "chips": p.chips}
        if p.prize:
            line = _(
                "{place}. {player}: {chips} tournament chips, wins {prize} chips",
                prize=p.prize,
                **who,
            )
        else:
            line = _("{place}. {player}: {chips} tournament chips", **who)
        lines.append(line)
    return lines


def standings_lines(t: Tournament, ranking: Sequence[Entry]) -> list[str]:
    """Every player so far, best first (``/tournament standings``)."""
    lines: list[str] = [_("Tournament #{id} standings:", id=str(t.tournament_id))]
    for place, entry in enumerate(ranking, start=1):
        e = t.entrant(entry.user_id)
        who = {"place": place, "player": shown_name(e.name if e else ""), "chips": entry.chips}
        if entry.out_after is None:
            lines.append(_("{place}. {player}: {chips} chips (still in)", **who))
        else:
            lines.append(
                _(
                    "{place}. {player}: {chips} chips (out after hand {hand})",
                    hand=entry.out_after,
                    **who,
                )
            )
    return lines
