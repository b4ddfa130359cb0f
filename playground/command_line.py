"""The page's command box: the synced slash commands as a list, and a typed line made into options.

A Discord client offers the commands the bot synced, with their options and
choices, and sends typed values as the option's type. Here the page types a line
such as ``/bet amount:100 hands:2`` (or ``/bet 100``: a bare value fills the first
option not given yet); :func:`parse_line` finds the command and turns each value
into the option's type. Range, choice and required checks are left to the fake
Discord (:meth:`FakeDiscord.slash`), which rejects what a client would not send.

As Discord's client does, the list shows each command, option and choice in the
player's language (the ``*_localizations`` the bot synced, else the default), a
line may name them so (``/miser montant:100``) or by their default names, and
what is sent names them by their default names, as Discord sends an interaction.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from fakediscord.models import FakeChannel, FakeGuild, FakeMember, FakeRole
from fakediscord.records import FakeCommand

SUBCOMMAND, GROUP = 1, 2
STRING, INTEGER, BOOLEAN, USER, CHANNEL, ROLE, MENTIONABLE, NUMBER = 3, 4, 5, 6, 7, 8, 9, 10
ADMINISTRATOR = 1 << 3
#: Option keys the page shows beside a name (limits and choices).
SHOWN_KEYS = ("min_value", "max_value", "min_length", "max_length")
Thing = TypeVar("Thing", FakeMember, FakeChannel, FakeRole)


class CommandLineError(ValueError):
    """The typed line names no synced command, or a value the client could not send."""


def localized(node: Mapping[str, Any], key: str, locale: str | None) -> str:
    """A command's, option's or choice's ``name`` or ``description`` as a client in
    ``locale`` shows it: its localization for that locale, else the default."""
    localizations = node.get(f"{key}_localizations") or {}
    return str(localizations.get(locale) or node.get(key, ""))


@dataclass(frozen=True, slots=True)
class CommandEntry:
    """One command a user can run: ``"blackjack start"`` and the options it declares.

    ``path`` names it as Discord sends it; ``shown`` as the client lists it in the
    user's language (``"blackjack ouvrir"``), as are ``description`` and the options'
    and choices' names the page is given.
    """

    path: str
    description: str
    options: tuple[Mapping[str, Any], ...]
    shown: str = ""
    locale: str | None = None

    def option_names(self) -> dict[str, Mapping[str, Any]]:
        """Each name a line may give an option (shown, then default) to the option."""
        names = {str(o["name"]): o for o in self.options}
        return {localized(o, "name", self.locale): o for o in self.options} | names

    def as_json(self) -> dict[str, Any]:
        """What the page's command list needs, in the user's language."""
        return {
            "path": self.shown or self.path,
            "description": self.description,
            "options": [self._option_json(o) for o in self.options],
        }

    def _option_json(self, option: Mapping[str, Any]) -> dict[str, Any]:
        return {
            "name": localized(option, "name", self.locale),
            "type": option["type"],
            "description": localized(option, "description", self.locale),
            "required": bool(option.get("required")),
            "choices": [
                {"name": localized(choice, "name", self.locale), "value": choice["value"]}
                for choice in option.get("choices") or []
            ],
            **{key: option[key] for key in SHOWN_KEYS if key in option},
        }


def catalogue(
    commands: Iterable[FakeCommand], permissions: int, locale: str | None = None
) -> list[CommandEntry]:
    """The chat-input commands and subcommands a member with ``permissions`` is offered,
    as a client in ``locale`` lists them.

    Sorted by the path shown, as the client lists them. A command whose
    ``default_member_permissions`` the member lacks is hidden, as Discord hides it.
    """
    entries: list[CommandEntry] = []
    for command in commands:
        if command.type == 1 and offered(command, permissions):
            shown = localized(command.data, "name", locale)
            _walk((command.name, shown), command.data, entries, locale)
    return sorted(entries, key=lambda e: e.shown)


def offered(command: FakeCommand, permissions: int) -> bool:
    """Discord's rule: no default permissions, everyone; else every bit of them, or Administrator.

    ``"0"`` hides a command from all but administrators.
    """
    needed = command.data.get("default_member_permissions")
    if needed is None or permissions & ADMINISTRATOR:
        return True
    bits = int(needed)
    return bits != 0 and permissions & bits == bits


def _walk(
    path: tuple[str, str],
    node: Mapping[str, Any],
    entries: list[CommandEntry],
    locale: str | None,
) -> None:
    """Add the command ``node`` (its default and shown path) or each of its subcommands."""
    options: list[Mapping[str, Any]] = list(node.get("options") or [])
    nested = [o for o in options if o.get("type") in (SUBCOMMAND, GROUP)]
    if not nested:
        description = localized(node, "description", locale)
        entries.append(CommandEntry(path[0], description, tuple(options), path[1], locale))
    for child in nested:
        child_path = (f"{path[0]} {child['name']}", f"{path[1]} {localized(child, 'name', locale)}")
        _walk(child_path, child, entries, locale)


@dataclass(frozen=True, slots=True)
class ParsedLine:
    """A typed command line as :meth:`FakeDiscord.slash` takes it."""

    path: str
    options: dict[str, Any]


def parse_line(text: str, entries: Sequence[CommandEntry], guild: FakeGuild) -> ParsedLine:
    """``/blackjack start preset:classic`` -> ``("blackjack start", {"preset": "classic"})``."""
    words = text.strip().removeprefix("/").split()
    if not words:
        raise CommandLineError("Type a command, starting with /.")
    entry, size = _longest_match(words, entries)
    rest = " ".join(words[size:])
    declared = entry.option_names()
    raw = _split_options(rest, declared, entry)
    by_name = {str(o["name"]): o for o in entry.options}
    options = {
        name: _typed(by_name[name], value, guild, entry.locale) for name, value in raw.items()
    }
    return ParsedLine(entry.path, options)


def _longest_match(words: list[str], entries: Sequence[CommandEntry]) -> tuple[CommandEntry, int]:
    """The command the line names (as shown or by default), and how many words name it."""
    for size in range(min(3, len(words)), 0, -1):
        wanted = " ".join(words[:size]).lower()
        for entry in entries:
            if wanted in (entry.shown, entry.path):
                return entry, size
    first = words[0].lower()
    starts = sorted(
        {e.shown for e in entries if e.shown.startswith(first) or e.path.startswith(first)}
    )
    if starts:
        raise CommandLineError(f"/{words[0]} needs a subcommand: " + ", ".join(starts))
    raise CommandLineError(f"There is no command /{words[0]} here.")


def _split_options(
    rest: str, declared: Mapping[str, Mapping[str, Any]], entry: CommandEntry
) -> dict[str, str]:
    """``amount:100 hands:2`` -> ``{"amount": "100", "hands": "2"}``, by the options'
    default names whichever names the line gives; a value may hold spaces.

    A leading value without a name fills the first option not named in the line.
    """
    if not rest:
        return {}
    names = "|".join(re.escape(name) for name in sorted(declared, key=len, reverse=True))
    marker = re.compile(rf"(?:^|\s)({names}):") if names else None
    found = list(marker.finditer(rest)) if marker else []
    values: dict[str, str] = {}
    leading = rest[: found[0].start()] if found else rest
    for index, match in enumerate(found):
        end = found[index + 1].start() if index + 1 < len(found) else len(rest)
        name = str(declared[match.group(1)]["name"])
        if name in values:
            raise CommandLineError(f"Option {match.group(1)} is given twice.")
        values[name] = rest[match.end() : end].strip()
    if leading.strip():
        free = [str(o["name"]) for o in entry.options if o["name"] not in values]
        if not free:
            raise CommandLineError(f"/{entry.shown} takes no more options: {leading.strip()!r}")
        values = {free[0]: leading.strip(), **values}
    return values


def _typed(option: Mapping[str, Any], text: str, guild: FakeGuild, locale: str | None) -> Any:
    """The value as the client sends it for the option's type (a choice by its value,
    typed as its name, shown or default, or its value).

    A value of the wrong shape is passed on as text, so the fake answers it as
    Discord's client would refuse it ("takes a number").
    """
    kind = option["type"]
    choices = option.get("choices") or []
    for choice in choices:
        names = (choice["name"], localized(choice, "name", locale), choice["value"])
        if text.lower() in {str(name).lower() for name in names}:
            return choice["value"]
    if kind == INTEGER:
        return _number(text, int)
    if kind == NUMBER:
        return _number(text, float)
    if kind == BOOLEAN:
        return {"true": True, "yes": True, "false": False, "no": False}.get(text.lower(), text)
    if kind in (USER, MENTIONABLE):
        return _find(text, guild.members.values(), _member_names, "member")
    if kind == CHANNEL:
        return _find(text, guild.text_channels() + guild.threads(), _channel_names, "channel")
    if kind == ROLE:
        return _find(text, guild.roles, _role_names, "role")
    return text


def _number(text: str, kind: type[int] | type[float]) -> Any:
    for parse in (kind, float):
        try:
            return parse(text.replace(",", ""))
        except ValueError:
            continue
    return text


def _member_names(member: FakeMember) -> set[str]:
    user = member.user
    return {str(user.id), user.mention, user.username, f"@{user.username}"} | (
        {user.global_name, f"@{user.global_name}"} if user.global_name else set()
    )


def _channel_names(channel: FakeChannel) -> set[str]:
    return {str(channel.id), channel.mention, channel.name, f"#{channel.name}"}


def _role_names(role: FakeRole) -> set[str]:
    return {str(role.id), f"<@&{role.id}>", role.name, f"@{role.name}"}


def _find(
    text: str, things: Iterable[Thing], names: Callable[[Thing], set[str]], what: str
) -> Thing:
    wanted = text.strip().lower()
    for thing in things:
        if wanted in {n.lower() for n in names(thing)}:
            return thing
    raise CommandLineError(f"There is no {what} {text!r} in this server.")
