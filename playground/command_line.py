"""The page's command box: the synced slash commands as a list, and a typed line made into options.

A Discord client offers the commands the bot synced, with their options and
choices, and sends typed values as the option's type. Here the page types a line
such as ``/bet amount:100 hands:2`` (or ``/bet 100``: a bare value fills the first
option not given yet); :func:`parse_line` finds the command and turns each value
into the option's type. Range, choice and required checks are left to the fake
Discord (:meth:`FakeDiscord.slash`), which rejects what a client would not send.
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


@dataclass(frozen=True, slots=True)
class CommandEntry:
    """One command a user can run: ``"blackjack start"`` and the options it declares."""

    path: str
    description: str
    options: tuple[Mapping[str, Any], ...]

    def as_json(self) -> dict[str, Any]:
        """What the page's command list needs."""
        return {
            "path": self.path,
            "description": self.description,
            "options": [
                {
                    "name": o["name"],
                    "type": o["type"],
                    "description": o.get("description", ""),
                    "required": bool(o.get("required")),
                    "choices": list(o.get("choices") or []),
                    **{key: o[key] for key in SHOWN_KEYS if key in o},
                }
                for o in self.options
            ],
        }


def catalogue(commands: Iterable[FakeCommand], permissions: int) -> list[CommandEntry]:
    """The chat-input commands and subcommands a member with ``permissions`` is offered.

    Sorted by path, as the client lists them. A command whose
    ``default_member_permissions`` the member lacks is hidden, as Discord hides it.
    """
    entries: list[CommandEntry] = []
    for command in commands:
        if command.type == 1 and offered(command, permissions):
            _walk(command.name, command.data, entries)
    return sorted(entries, key=lambda e: e.path)


def offered(command: FakeCommand, permissions: int) -> bool:
    """Discord's rule: no default permissions, everyone; else every bit of them, or Administrator.

    ``"0"`` hides a command from all but administrators.
    """
    needed = command.data.get("default_member_permissions")
    if needed is None or permissions & ADMINISTRATOR:
        return True
    bits = int(needed)
    return bits != 0 and permissions & bits == bits


def _walk(path: str, node: Mapping[str, Any], entries: list[CommandEntry]) -> None:
    options: list[Mapping[str, Any]] = list(node.get("options") or [])
    nested = [o for o in options if o.get("type") in (SUBCOMMAND, GROUP)]
    if not nested:
        entries.append(CommandEntry(path, str(node.get("description", "")), tuple(options)))
    for child in nested:
        _walk(f"{path} {child['name']}", child, entries)


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
    entry = _longest_match(words, entries)
    rest = " ".join(words[len(entry.path.split()) :])
    declared = {str(o["name"]): o for o in entry.options}
    raw = _split_options(rest, declared, entry)
    options = {name: _typed(declared[name], value, guild) for name, value in raw.items()}
    return ParsedLine(entry.path, options)


def _longest_match(words: list[str], entries: Sequence[CommandEntry]) -> CommandEntry:
    for size in range(min(3, len(words)), 0, -1):
        wanted = " ".join(words[:size]).lower()
        for entry in entries:
            if entry.path == wanted:
                return entry
    starts = sorted({e.path for e in entries if e.path.startswith(words[0].lower())})
    if starts:
        raise CommandLineError(f"/{words[0]} needs a subcommand: " + ", ".join(starts))
    raise CommandLineError(f"There is no command /{words[0]} here.")


def _split_options(
    rest: str, declared: Mapping[str, Mapping[str, Any]], entry: CommandEntry
) -> dict[str, str]:
    """``amount:100 hands:2`` -> ``{"amount": "100", "hands": "2"}``; a value may hold spaces.

    A leading value without a name fills the first option not named in the line.
    """
    if not rest:
        return {}
    names = "|".join(re.escape(name) for name in declared)
    marker = re.compile(rf"(?:^|\s)({names}):") if names else None
    found = list(marker.finditer(rest)) if marker else []
    values: dict[str, str] = {}
    leading = rest[: found[0].start()] if found else rest
    for index, match in enumerate(found):
        end = found[index + 1].start() if index + 1 < len(found) else len(rest)
        name = match.group(1)
        if name in values:
            raise CommandLineError(f"Option {name} is given twice.")
        values[name] = rest[match.end() : end].strip()
    if leading.strip():
        free = [name for name in declared if name not in values]
        if not free:
            raise CommandLineError(f"/{entry.path} takes no more options: {leading.strip()!r}")
        values = {free[0]: leading.strip(), **values}
    return values


def _typed(option: Mapping[str, Any], text: str, guild: FakeGuild) -> Any:
    """The value as the client sends it for the option's type.

    A value of the wrong shape is passed on as text, so the fake answers it as
    Discord's client would refuse it ("takes a number").
    """
    kind = option["type"]
    choices = option.get("choices") or []
    for choice in choices:
        if text.lower() in (str(choice["name"]).lower(), str(choice["value"]).lower()):
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
