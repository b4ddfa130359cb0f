"""The discord.py items of one table's message, given again to its next message while what
they show stays the same.

A table's message is sent anew after every change, and a change shows little that is new:
one seat's lines, a line of news, now and then a button that turns off. discord.py builds
an item's underlying component as the item is made (a ``Button`` about 20 us, a
``Separator`` 15 us, an ``ActionRow`` and its ``add_item`` 10 us a button), and a table's
message carries up to 8 buttons, and in the Components V2 layout 2 action rows, 6
separators and a text display a seat more. A 5-seat table whose seats change one at a
time (a click each), render and serialization per payload, best of 6 on the shared
machine: the embed 80-89 us; the V2 message 254-279 us with every item made afresh,
126-137 us with these given again (3.1 times the embed's, then 1.6). In ``bench/load.py``
(40 tables, both layouts, two runs alternated) a V2 payload went from 1.47 to 1.27 times
an embed's, and the discord.py components built a V2 payload from 13.4 to 2.0 (cProfile
call counts).

Every view a table sends is stopped as soon as it is made, so discord.py never stores or
dispatches it (table clicks route by custom id); an item in it is only read, by
``to_component_dict``, when the view is sent. So an item that shows the same thing may
sit in the next view too: adding it there points it at its new view and parent, and
nothing reads those of a stopped view.
"""

from __future__ import annotations

import discord

from cogs.table.buttons import ButtonSpec, SentButtons, ui_button

Button = discord.ui.Button[discord.ui.View]
Row = discord.ui.ActionRow[discord.ui.LayoutView]
Text = discord.ui.TextDisplay[discord.ui.LayoutView]


class MadeItems:
    """The items of one table's last message, for its next."""

    def __init__(self) -> None:
        #: The buttons of the last message, by spec and by whether they carry their row
        #: (an embed's view places a button by its row; a V2 action row places it itself).
        self._buttons: dict[tuple[ButtonSpec, bool], Button] = {}
        self._view: tuple[tuple[ButtonSpec, ...], SentButtons] | None = None
        self._rows: tuple[tuple[ButtonSpec, ...], tuple[Row, ...]] | None = None
        self._separators: list[discord.ui.Separator[discord.ui.LayoutView]] = []
        #: The text displays of the last V2 message, and of the one being made, by text.
        self._texts: dict[str, Text] = {}
        self._making: dict[str, Text] = {}

    def _buttons_of(self, specs: tuple[ButtonSpec, ...], rows: bool) -> list[Button]:
        """The buttons for ``specs``, the last message's where a spec is the same."""
        kept = self._buttons
        made: dict[tuple[ButtonSpec, bool], Button] = {}
        for spec in specs:
            key = (spec, rows)
            button = kept.get(key)
            made[key] = ui_button(spec, spec.row if rows else None) if button is None else button
        self._buttons = made
        return list(made.values())

    def view(self, specs: tuple[ButtonSpec, ...]) -> SentButtons:
        """The embed layout's view of ``specs``: the last one while the buttons are the
        same (within a phase they rarely change)."""
        if self._view is not None and self._view[0] == specs:
            return self._view[1]
        view = SentButtons(specs, self._buttons_of(specs, rows=True))
        self._view = (specs, view)
        return view

    def action_rows(self, specs: tuple[ButtonSpec, ...]) -> tuple[Row, ...]:
        """A V2 message's buttons as its action rows, row by row: the last ones while the
        buttons are the same."""
        if self._rows is not None and self._rows[0] == specs:
            return self._rows[1]
        rows: dict[int, Row] = {}
        for spec, button in zip(specs, self._buttons_of(specs, rows=False), strict=True):
            row = rows.get(spec.row)
            if row is None:
                row = rows[spec.row] = discord.ui.ActionRow()
            row.add_item(button)
        made = tuple(rows.values())
        self._rows = (specs, made)
        return made

    def separator(self, index: int) -> discord.ui.Separator[discord.ui.LayoutView]:
        """A V2 message's ``index``-th separator (they all look alike)."""
        while len(self._separators) <= index:
            self._separators.append(discord.ui.Separator())
        return self._separators[index]

    def new_message(self) -> None:
        """A V2 message is being made: the last one's text displays are the ones to reuse."""
        self._texts, self._making = self._making, {}

    def text(self, content: str) -> Text:
        """A text display of ``content`` for the message being made: the last message's
        where it said the same (a seat that did not change), each given once."""
        display = self._texts.pop(content, None)
        if display is None:
            display = discord.ui.TextDisplay(content)
        self._making[content] = display
        return display
