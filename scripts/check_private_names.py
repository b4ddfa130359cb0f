"""Fail on any use, in bot/, cogs/, db/ or playground/, of a private name of discord.py,
aiohttp or aiosqlite, or of one of their non-public helpers (``make lint`` runs this).

Usage: ``python scripts/check_private_names.py [--root DIR]``. Exit status 1, with one
line per finding (``path:line:col: what``), when anything is found; 0 otherwise.

What is a private name. Python marks one with a single leading underscore (``_state``;
a dunder such as ``__init__`` is not one). What is non-public: a helper the library
leaves out of its documentation although it has no underscore (:data:`NON_PUBLIC`).

What is flagged, read from each file's syntax tree (standard library only):

1. Imports: ``import discord._x``, ``from discord.x import _y``, and any import of a
   :data:`NON_PUBLIC` name from those libraries.
2. A dotted name rooted in one of the libraries, as the file imported it
   (``discord.utils._to_json``, ``web._run_app``, ``discord.http.Route``): any private
   or non-public part.
3. ``obj._name`` (and ``getattr(obj, "_name")``, ``setattr``, ``hasattr``) on any other
   expression, whose type cannot be known without running the code. The rule: flagged
   when ``_name`` is a private name those libraries use (collected from the installed
   packages' source: attribute names, functions, classes, ``__slots__``) and our own
   code does not define it: for ``self``/``cls``, no class of the scanned tree or of
   fakediscord/ defines it (so a subclass reaching a library base class's private
   attribute, such as a bot's ``self._connection``, is caught); for any other
   receiver, the file itself does not define it (so ``interaction._state`` is caught
   even though the engine has a method ``_state`` of its own). Collecting the names
   from the installed source keeps the rule in step with the library version the suite
   runs against, without a list to maintain.

Left alone: the documented methods of :func:`collections.namedtuple` results
(``_replace``, ``_asdict``, ``_make``, ``_field_defaults``), which carry an underscore
only so as not to clash with field names. :data:`ALLOWED` holds at most two reasoned
exceptions; an entry that no longer matches anything fails the check too.
"""

from __future__ import annotations

import argparse
import ast
import importlib.util
import re
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Final

#: The libraries whose insides the bot must not reach.
LIBRARIES: Final = ("discord", "aiohttp", "aiosqlite")
#: The folders checked, relative to the root.
CHECKED: Final = ("bot", "cogs", "db", "playground")
#: Where the project's own classes live (their private names are ours to use).
OURS: Final = (*CHECKED, "fakediscord")

#: Helpers without an underscore that the libraries leave out of their documentation.
NON_PUBLIC: Final[dict[str, str]] = {
    "handle_message_parameters": "discord.http's builder of a request's body",
    "async_context": "discord.webhook.async_'s adapter context",
    "AsyncWebhookAdapter": "discord.webhook.async_'s request adapter",
    "interaction_message_response_params": "discord.webhook.async_'s builder of a callback",
    "interaction_response_params": "discord.webhook.async_'s builder of a callback",
    "MultipartParameters": "discord.http's request body",
    "ConnectionState": "discord.state: the client's internal state",
    "Route": "discord.http.Route: undocumented",
    "DiscordWebSocket": "discord.gateway.DiscordWebSocket: undocumented",
}

#: namedtuple's documented methods: public despite the underscore.
NAMEDTUPLE_METHODS: Final = frozenset({"_replace", "_asdict", "_make", "_field_defaults"})

#: Built-ins that reach an attribute by its name as a string.
_REFLECTIVE: Final = frozenset({"getattr", "setattr", "hasattr", "delattr"})

#: A name mangled from ``__name`` inside a class (``_View__stopped``).
_MANGLED: Final = re.compile(r"_[A-Za-z0-9]+__\w+")


@dataclass(frozen=True)
class Allowed:
    """One reasoned exception: these names, in this file only."""

    path: str
    names: tuple[str, ...]
    reason: str


#: At most two entries, each with its reason.
ALLOWED: Final = (
    Allowed(
        "bot/endpoints.py",
        ("Route", "DiscordWebSocket"),
        "DISCORD_API_BASE and DISCORD_GATEWAY_URL point the client at a local Discord (the"
        " tests' and the playground's fake): discord.py offers no public setting for the"
        " REST base or the gateway URL of a plain Client, so Route.BASE and"
        " DiscordWebSocket.DEFAULT_GATEWAY are set, in this one module.",
    ),
)


@dataclass(frozen=True)
class Finding:
    path: str
    line: int
    col: int
    name: str
    what: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}:{self.col}: {self.what}"


def is_private(name: str) -> bool:
    """One leading underscore (a dunder is not private)."""
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def _python_files(root: Path, folders: Iterable[str]) -> Iterator[Path]:
    for folder in folders:
        base = root / folder
        if base.is_dir():
            yield from sorted(p for p in base.rglob("*.py") if "__pycache__" not in p.parts)


def _parse(path: Path) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"), filename=str(path))


def library_private_names() -> frozenset[str]:
    """Every private name the installed libraries use: attributes, functions, classes and
    ``__slots__`` entries (any identifier-like string constant)."""
    names: set[str] = set()
    for library in LIBRARIES:
        spec = importlib.util.find_spec(library)
        if spec is None or spec.submodule_search_locations is None:
            continue  # not installed: nothing can use it either
        for location in spec.submodule_search_locations:
            for path in _python_files(Path(location), ["."]):
                for node in ast.walk(_parse(path)):
                    if isinstance(node, ast.Attribute):
                        names.add(node.attr)
                    elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                        names.add(node.name)
                    elif isinstance(node, ast.Constant) and isinstance(node.value, str):
                        names.add(node.value)
    return frozenset(name for name in names if name.isidentifier() and is_private(name))


def defined_names(tree: ast.Module) -> set[str]:
    """The private names a module defines: functions and classes, class attributes and
    ``__slots__``, and attributes assigned on ``self`` or ``cls``."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
        if isinstance(node, ast.ClassDef):
            for statement in node.body:
                targets: list[ast.expr] = []
                if isinstance(statement, ast.Assign):
                    targets = statement.targets
                elif isinstance(statement, ast.AnnAssign):
                    targets = [statement.target]
                for target in targets:
                    if not isinstance(target, ast.Name):
                        continue
                    names.add(target.id)
                    if target.id == "__slots__" and statement.value is not None:
                        names.update(
                            c.value
                            for c in ast.walk(statement.value)
                            if isinstance(c, ast.Constant) and isinstance(c.value, str)
                        )
        elif (
            isinstance(node, ast.Attribute)
            and isinstance(node.ctx, ast.Store)
            and _is_self(node.value)
        ):
            names.add(node.attr)
    return {name for name in names if is_private(name)}


def _is_self(node: ast.expr) -> bool:
    if isinstance(node, ast.Name):
        return node.id in ("self", "cls")
    return (
        isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "super"
    )


def _library_aliases(tree: ast.Module) -> dict[str, str]:
    """Local names bound to the libraries or to something imported from them."""
    aliases: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                root = alias.name.split(".")[0]
                if root in LIBRARIES:
                    if alias.asname:
                        aliases[alias.asname] = alias.name
                    else:
                        aliases[root] = root
        elif (
            isinstance(node, ast.ImportFrom)
            and node.module
            and node.level == 0
            and node.module.split(".")[0] in LIBRARIES
        ):
            for alias in node.names:
                aliases[alias.asname or alias.name] = f"{node.module}.{alias.name}"
    return aliases


def _dotted(node: ast.expr) -> list[str] | None:
    """``a.b.c`` as ``["a", "b", "c"]``; None for anything but names and attributes."""
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    parts.append(node.id)
    return parts[::-1]


class _Checker:
    def __init__(
        self, path: str, tree: ast.Module, library: frozenset[str], ours: frozenset[str]
    ) -> None:
        self.path = path
        self.tree = tree
        self.library = library
        self.ours = ours
        self.here = defined_names(tree)
        self.aliases = _library_aliases(tree)
        self.findings: list[Finding] = []

    def flag(self, node: ast.AST, name: str, what: str) -> None:
        line, col = getattr(node, "lineno", 0), getattr(node, "col_offset", 0)
        self.findings.append(Finding(self.path, line, col + 1, name, what))

    def banned(self, name: str) -> str | None:
        """Why a name reached inside a library is not for us, or None."""
        if is_private(name):
            return "private"
        if name in NON_PUBLIC:
            return f"non-public ({NON_PUBLIC[name]})"
        return None

    def run(self) -> list[Finding]:
        for node in ast.walk(self.tree):
            if isinstance(node, ast.Import):
                self.check_import(node)
            elif isinstance(node, ast.ImportFrom):
                self.check_import_from(node)
            elif isinstance(node, ast.Attribute):
                self.check_attribute(node)
            elif isinstance(node, ast.Call):
                self.check_getattr(node)
        return self.findings

    def check_import(self, node: ast.Import) -> None:
        for alias in node.names:
            parts = alias.name.split(".")
            if parts[0] in LIBRARIES:
                for part in parts[1:]:
                    if (why := self.banned(part)) is not None:
                        self.flag(node, part, f"imports {alias.name}: {part} is {why}")

    def check_import_from(self, node: ast.ImportFrom) -> None:
        if not node.module or node.level or node.module.split(".")[0] not in LIBRARIES:
            return
        for part in node.module.split(".")[1:]:
            if (why := self.banned(part)) is not None:
                self.flag(node, part, f"imports from {node.module}: {part} is {why}")
        for alias in node.names:
            if (why := self.banned(alias.name)) is not None:
                self.flag(node, alias.name, f"imports {alias.name} from {node.module}: {why}")

    def check_attribute(self, node: ast.Attribute) -> None:
        parts = _dotted(node)
        if parts is not None and parts[0] in self.aliases:
            why = self.banned(node.attr)
            if why is not None:
                full = ".".join([self.aliases[parts[0]], *parts[1:]])
                self.flag(node, node.attr, f"{full}: {node.attr} is {why}")
            return
        self.check_member(node, node.value, node.attr)

    def check_getattr(self, node: ast.Call) -> None:
        function = node.func
        reflective = isinstance(function, ast.Name) and function.id in _REFLECTIVE
        if not reflective or len(node.args) < 2:
            return
        name = node.args[1]
        if isinstance(name, ast.Constant) and isinstance(name.value, str):
            self.check_member(node, node.args[0], name.value)

    def check_member(self, node: ast.AST, receiver: ast.expr, name: str) -> None:
        """``receiver.name`` where the receiver's type is unknown: see the module's rule 3."""
        if not is_private(name) or name in NAMEDTUPLE_METHODS:
            return
        mangled = _MANGLED.fullmatch(name) is not None
        if name not in self.library and not mangled:
            return
        if _is_self(receiver):
            if name in self.ours or name in self.here:
                return
        elif name in self.here:
            return
        what = "a name mangled private" if mangled else f"a private name of {'/'.join(LIBRARIES)}"
        self.flag(node, name, f"{ast.unparse(receiver)}.{name}: {what}")


def check(root: Path) -> list[str]:
    """The findings (and stale allow-list entries) under ``root``, as lines to print."""
    library = library_private_names()
    ours: set[str] = set()
    trees: dict[Path, ast.Module] = {}
    for path in _python_files(root, OURS):
        tree = _parse(path)
        ours |= defined_names(tree)
        if path.relative_to(root).parts[0] in CHECKED:
            trees[path] = tree
    findings: list[Finding] = []
    for path, tree in trees.items():
        relative = path.relative_to(root).as_posix()
        findings += _Checker(relative, tree, library, frozenset(ours)).run()
    used: set[Allowed] = set()
    out: list[str] = []
    for finding in findings:
        entry = next(
            (a for a in ALLOWED if a.path == finding.path and finding.name in a.names), None
        )
        if entry is None:
            out.append(str(finding))
        else:
            used.add(entry)
    for entry in ALLOWED:
        if entry not in used and (root / entry.path).is_file():
            out.append(f"{entry.path}: allow-list entry {entry.names} matches nothing: remove it")
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--root", type=Path, default=Path(__file__).resolve().parent.parent)
    args = parser.parse_args(argv)
    if len(ALLOWED) > 2:
        print("the allow-list holds at most two entries", file=sys.stderr)
        return 2
    lines = check(args.root)
    for line in lines:
        print(line)
    if lines:
        print(
            f"{len(lines)} use(s) of private or non-public names of {', '.join(LIBRARIES)}:"
            " use the documented API instead (scripts/check_private_names.py says why)",
            file=sys.stderr,
        )
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
