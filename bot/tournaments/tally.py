"""A tournament table's panel (beside its hand) and the standings: catalog lines, said in
the reader's language when shown."""

from __future__ import annotations

from collections.abc import Sequence

from bot.engine import commitment
from bot.i18n import Text, _, joined, n_
from bot.shown_names import shown_name
from bot.tables.table import Table
from bot.tournaments.mode import stacks_of
from bot.tournaments.rules import Entry
from bot.tournaments.state import Status, Tournament


def panel_lines(t: Tournament, table: Table) -> tuple[str, ...]:
    """The table's title, the tournament's format (or hand), every stack, the pool."""
    index, fmt, stacks = stacks_of(table).index, t.fmt, stacks_of(table).stacks
    title = _("Tournament #{id}", id=str(t.tournament_id))
    if t.duplicate:
        number = {"number": index + 1, "count": len(t.channels)}
        title = _("Tournament #{id} · table {number} of {count}", id=str(t.tournament_id), **number)
    lines: list[str] = [title, *_stage(t, table.round_no)]
    for entrant in t.at(index):
        stack, name = stacks[entrant.user_id], shown_name(entrant.name)
        if stack.out_after is None:
            lines.append(_("**{player}** · {chips} chips", player=name, chips=stack.chips))
        else:
            out = {"hand": stack.out_after, "chips": stack.chips}
            lines.append(
                _("~~{player}~~ · out after hand {hand} ({chips} chips)", player=name, **out)
            )
    if t.duplicate:
        lines.append(_("Duplicate: every table gets the same cards in the same seats."))
    pool = {"pool": t.pool, "split": "/".join(str(p) for p in fmt.split)}
    if fmt.fee:
        lines.append(_("Prize pool {pool} ({split}) · entry {fee}", fee=fmt.fee, **pool))
    else:
        lines.append(_("Prize pool {pool} ({split})", **pool))
    return tuple(lines)


def _stage(t: Tournament, hand: int) -> list[Text]:
    """Before the start, the format and the shuffle's commitment; then the hand."""
    fmt, upcoming = t.fmt, t.fmt.next_elimination(hand)
    if t.status is Status.REGISTERING:
        terms = {"hands": fmt.hands, "stack": fmt.stack, "low": fmt.min_bet, "high": fmt.max_bet}
        lines = [_("{hands} hands, {stack} tournament chips each, bets {low} to {high}.", **terms)]
        if fmt.eliminations:
            after = joined([str(h) for h in fmt.eliminations])
            lines.append(
                n_(
                    "The fewest chips go out after hand {hands}.",
                    "The fewest chips go out after hands {hands}.",
                    len(fmt.eliminations),
                    hands=after,
                )
            )
        shuffle = _(
            "Shuffle commitment `{commitment}`: its seed is shown at the end.",
            commitment=commitment(t.seed),
        )
        return [*lines, shuffle]
    if upcoming is not None:
        return [
            _(
                "Hand {hand} of {hands} · next elimination after hand {upcoming}.",
                hand=hand,
                hands=fmt.hands,
                upcoming=upcoming,
            )
        ]
    return [
        _(
            "Hand {hand} of {hands} · no more eliminations: the most chips after the last "
            "hand wins.",
            hand=hand,
            hands=fmt.hands,
        )
    ]


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
