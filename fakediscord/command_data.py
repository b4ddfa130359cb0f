"""A slash command's data as Discord sends it: the synced command found by its path, and
each option checked against its declaration (type, range, choices) and resolved (members,
channels, roles) as the client would."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .interactions import InteractionRejected
from .models import FakeChannel, FakeMember, FakeRole
from .records import FakeCommand


def find_command(commands: list[FakeCommand], path: str) -> tuple[FakeCommand, list[str]]:
    """The synced chat-input command for ``"name sub ..."``; reject if never synced."""
    name, *rest = path.split()
    for command in commands:
        if command.type == 1 and command.name == name:
            return command, rest
    synced = sorted(c.name for c in commands if c.type == 1)
    raise InteractionRejected(f"/{name} was never synced here (synced: {synced})")


def build_command_data(
    command: FakeCommand,
    subpath: list[str],
    options: Mapping[str, Any],
    typed: tuple[str, str] | None = None,
) -> dict[str, Any]:
    """The ``data`` of an APPLICATION_COMMAND interaction, options checked like the client does.

    ``typed``: (option, text) for an AUTOCOMPLETE interaction, the option being typed.
    """
    top: list[dict[str, Any]] = []
    declared, holder, walked = _walk_subcommands(command, subpath, top)
    if typed is not None:
        # The option being typed, as the client sends it: its partial text, unchecked.
        name, text = typed
        decl = next((o for o in declared if o["name"] == name), None)
        if decl is None or not decl.get("autocomplete"):
            raise InteractionRejected(f"/{' '.join(walked)} has no autocomplete option {name!r}")
        holder.append({"type": decl["type"], "name": name, "value": text, "focused": True})
    resolved = _fill_options(declared, options, holder, walked)
    data: dict[str, Any] = {
        "id": str(command.id),
        "name": command.name,
        "type": 1,
        "options": top,
    }
    if resolved:
        data["resolved"] = resolved
    if command.guild_id is not None:
        data["guild_id"] = str(command.guild_id)
    return data


def _walk_subcommands(
    command: FakeCommand, subpath: list[str], top: list[dict[str, Any]]
) -> tuple[list[dict[str, Any]], list[dict[str, Any]], list[str]]:
    """Follow ``subpath`` down the command's subcommands, adding a node for each to ``top``:
    the options the last one declares, the list its given options go in, and the path."""
    declared: list[dict[str, Any]] = list(command.data.get("options") or [])
    holder = top
    walked = [command.name]
    for part in subpath:
        match = next(
            (o for o in declared if o.get("name") == part and o.get("type") in (1, 2)), None
        )
        if match is None:
            raise InteractionRejected(f"/{' '.join(walked)} has no subcommand {part!r}")
        walked.append(part)
        node: dict[str, Any] = {"type": match["type"], "name": part, "options": []}
        holder.append(node)
        holder = node["options"]
        declared = list(match.get("options") or [])
    if any(o.get("type") in (1, 2) for o in declared):
        raise InteractionRejected(f"/{' '.join(walked)} needs a subcommand")
    return declared, holder, walked


def _fill_options(
    declared: list[dict[str, Any]],
    options: Mapping[str, Any],
    holder: list[dict[str, Any]],
    walked: list[str],
) -> dict[str, dict[str, Any]]:
    """Add each given option to ``holder`` in declared order, checked like the client does;
    the ``resolved`` objects (members, channels, roles) they name."""
    resolved: dict[str, dict[str, Any]] = {}
    by_name = {o["name"]: o for o in declared}
    for key in options:
        if key not in by_name:
            raise InteractionRejected(
                f"/{' '.join(walked)} declares no option {key!r} (declared: {sorted(by_name)})"
            )
    for decl in declared:
        name = decl["name"]
        if name not in options:
            if decl.get("required"):
                raise InteractionRejected(f"/{' '.join(walked)} requires option {name!r}")
            continue
        holder.append(
            {
                "type": decl["type"],
                "name": name,
                "value": _option_value(decl, options[name], resolved),
            }
        )
    return resolved


def _option_value(decl: dict[str, Any], value: Any, resolved: dict[str, dict[str, Any]]) -> Any:
    kind, name = decl["type"], decl["name"]
    choices = decl.get("choices")
    if kind == 3:
        if not isinstance(value, str):
            raise InteractionRejected(f"option {name!r} takes text, got {value!r}")
        low, high = decl.get("min_length", 0), decl.get("max_length", 6000)
        if not low <= len(value) <= high:
            raise InteractionRejected(f"option {name!r} must be {low}-{high} characters")
    elif kind in (4, 10):
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise InteractionRejected(f"option {name!r} takes a number, got {value!r}")
        if kind == 4 and not isinstance(value, int):
            raise InteractionRejected(f"option {name!r} takes a whole number, got {value!r}")
        if "min_value" in decl and value < decl["min_value"]:
            raise InteractionRejected(f"option {name!r} must be at least {decl['min_value']}")
        if "max_value" in decl and value > decl["max_value"]:
            raise InteractionRejected(f"option {name!r} must be at most {decl['max_value']}")
    elif kind == 5:
        if not isinstance(value, bool):
            raise InteractionRejected(f"option {name!r} takes true/false, got {value!r}")
    elif kind in (6, 9) and isinstance(value, FakeMember):
        resolved.setdefault("users", {})[str(value.id)] = value.user.to_dict()
        resolved.setdefault("members", {})[str(value.id)] = {
            **value.to_dict(with_user=False),
            "permissions": str(value.base_permissions()),
        }
        return str(value.id)
    elif kind == 7 and isinstance(value, FakeChannel):
        resolved.setdefault("channels", {})[str(value.id)] = {
            **value.to_dict(),
            "permissions": str(ALL_VIEW),
        }
        return str(value.id)
    elif kind in (8, 9) and isinstance(value, FakeRole):
        resolved.setdefault("roles", {})[str(value.id)] = value.to_dict()
        return str(value.id)
    else:
        raise InteractionRejected(f"option {name!r} (type {kind}) cannot take {value!r}")
    if choices and value not in [c["value"] for c in choices]:
        listed = ", ".join(str(c["value"]) for c in choices)
        raise InteractionRejected(f"option {name!r} must be one of: {listed}")
    return value


ALL_VIEW = (1 << 10) | (1 << 16)
