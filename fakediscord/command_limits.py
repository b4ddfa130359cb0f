"""Discord's documented limits on application command definitions (names, options,
choices, localizations, installation and interaction contexts).

Every check records a field error in Discord's shape; the caller raises 400 Invalid Form
Body (50035) when any were found.
"""

from __future__ import annotations

import re
from typing import Any

from .errors import FormErrors, invalid_form_body

# -- application commands ---------------------------------------------------------------

COMMANDS_MAX = 100
COMMAND_OPTIONS_MAX = 25
CHOICES_MAX = 25
NAME_RE = re.compile(r"^[-_'\w]{1,32}$")
SUB_COMMAND, SUB_COMMAND_GROUP = 1, 2
OPTION_TYPES = set(range(1, 12))


#: The locales a localization dictionary may name (Discord's reference, "Locales").
LOCALES = frozenset(
    [
        "id",
        "da",
        "de",
        "en-GB",
        "en-US",
        "es-ES",
        "es-419",
        "fr",
        "hr",
        "it",
        "lt",
        "hu",
        "nl",
        "no",
        "pl",
        "pt-BR",
        "ro",
        "fi",
        "sv-SE",
        "vi",
        "tr",
        "cs",
        "el",
        "bg",
        "ru",
        "uk",
        "hi",
        "th",
        "zh-CN",
        "ja",
        "zh-TW",
        "ko",
    ]
)


def _valid_name(name: Any) -> bool:
    return isinstance(name, str) and bool(NAME_RE.match(name)) and name == name.lower()


def _check_name(errors: FormErrors, at: tuple[str | int, ...], name: Any) -> None:
    if not _valid_name(name):
        errors.add(
            (*at, "name"),
            "APPLICATION_COMMAND_INVALID_NAME",
            "Command name is invalid",
        )


def _localizations(
    errors: FormErrors, at: tuple[str | int, ...], field: str, value: Any
) -> dict[str, Any]:
    """A ``name_localizations`` or ``description_localizations`` dictionary: null or an
    object whose keys are Discord's locales. Its usable entries (each value still to be
    checked by the caller)."""
    if value is None:
        return {}
    if not isinstance(value, dict):
        errors.add((*at, field), "DICT_TYPE_CONVERT", "Only dictionaries may be used in a DictType")
        return {}
    known: dict[str, Any] = {}
    for locale, text in value.items():
        if locale in LOCALES:
            known[locale] = text
        else:
            errors.add(
                (*at, field, locale),
                "BASE_TYPE_CHOICES",
                f"Value must be one of {sorted(LOCALES)}.",
            )
    return known


def _check_name_localizations(
    errors: FormErrors, at: tuple[str | int, ...], value: Any, *, per_locale: bool
) -> dict[str, Any]:
    """Each localized name follows the name's rules. A command's bad one is reported on
    the whole dictionary (as Discord does), an option's on its locale."""
    names = _localizations(errors, at, "name_localizations", value)
    for locale, name in names.items():
        if not _valid_name(name):
            path = (
                (*at, "name_localizations", locale) if per_locale else (*at, "name_localizations")
            )
            errors.add(path, "APPLICATION_COMMAND_INVALID_NAME", "Command name is invalid")
            if not per_locale:
                break
    return names


def _check_texts(
    errors: FormErrors, at: tuple[str | int, ...], field: str, value: Any, high: int
) -> None:
    """Localized descriptions or choice names: 1 to ``high`` characters each."""
    for locale, text in _localizations(errors, at, field, value).items():
        if not isinstance(text, str) or not 1 <= len(text) <= high:
            errors.bad_length((*at, field, locale), 1, high)


def _check_description(errors: FormErrors, at: tuple[str | int, ...], text: Any) -> None:
    if not isinstance(text, str) or not 1 <= len(text) <= 100:
        errors.bad_length((*at, "description"), 1, 100)


def _check_options(errors: FormErrors, at: tuple[str | int, ...], options: Any, depth: int) -> None:
    if not isinstance(options, list):
        errors.add((*at, "options"), "BASE_TYPE_ARRAY", "Must be an array.")
        return
    if len(options) > COMMAND_OPTIONS_MAX:
        errors.max_length((*at, "options"), COMMAND_OPTIONS_MAX)
    names = _OptionNames({o.get("name") for o in options if isinstance(o, dict)})
    seen_optional = False
    kinds = {o.get("type") for o in options if isinstance(o, dict)}
    if kinds & {SUB_COMMAND, SUB_COMMAND_GROUP} and kinds - {SUB_COMMAND, SUB_COMMAND_GROUP}:
        errors.add(
            (*at, "options"),
            "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID",
            "Sub-command and sub-command group option types are mutually exclusive "
            "to all other types",
        )
    for i, opt in enumerate(options):
        oat = (*at, "options", i)
        kind = opt.get("type")
        if kind not in OPTION_TYPES:
            errors.add(
                (*oat, "type"), "BASE_TYPE_CHOICES", f"Value must be one of {sorted(OPTION_TYPES)}."
            )
            continue
        names.check(errors, oat, opt)
        if (kind == SUB_COMMAND_GROUP and depth > 0) or (kind == SUB_COMMAND and depth > 1):
            errors.add(
                (*oat, "type"),
                "APPLICATION_COMMAND_OPTION_TYPE_INVALID",
                "Sub-commands cannot be nested this deep",
            )
        if kind in (SUB_COMMAND, SUB_COMMAND_GROUP):
            _check_options(errors, oat, opt.get("options") or [], depth + 1)
            continue
        if opt.get("required"):
            if seen_optional:
                errors.add(
                    (*oat, "required"),
                    "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID",
                    "Required options must be placed before non-required options",
                )
        else:
            seen_optional = True
        _check_choices(errors, oat, opt.get("choices") or [])


class _OptionNames:
    """The names of one level's options, each checked as it comes: unique, by default and
    in every locale."""

    def __init__(self, defaults: set[Any]) -> None:
        self.names: set[Any] = set()
        #: Each locale's option names: the localized ones, then the defaults of the others.
        self.localized: dict[str, set[str]] = {}
        self.defaults = defaults

    def check(self, errors: FormErrors, oat: tuple[str | int, ...], opt: dict[str, Any]) -> None:
        """The option's name, description and their localizations."""
        _check_name(errors, oat, opt.get("name"))
        _check_description(errors, oat, opt.get("description"))
        if opt.get("name") in self.names:
            errors.add(
                (*oat, "name"),
                "APPLICATION_COMMAND_OPTION_NAME_ALREADY_EXISTS",
                "Option name already exists",
            )
        self.names.add(opt.get("name"))
        _check_texts(
            errors, oat, "description_localizations", opt.get("description_localizations"), 100
        )
        option_names = _check_name_localizations(
            errors, oat, opt.get("name_localizations"), per_locale=True
        )
        for locale, name in option_names.items():
            taken = self.localized.setdefault(locale, set())
            if name in taken or (name in self.defaults and name != opt.get("name")):
                errors.add(
                    (*oat, "name_localizations", locale),
                    "APPLICATION_COMMAND_OPTION_NAME_ALREADY_EXISTS",
                    "Option name already exists",
                )
            taken.add(name)


def _check_choices(errors: FormErrors, oat: tuple[str | int, ...], choices: list[Any]) -> None:
    if len(choices) > CHOICES_MAX:
        errors.max_length((*oat, "choices"), CHOICES_MAX)
    for j, choice in enumerate(choices):
        if isinstance(choice, dict):
            _check_texts(
                errors,
                (*oat, "choices", j),
                "name_localizations",
                choice.get("name_localizations"),
                100,
            )


#: Installation contexts (``integration_types``): GUILD_INSTALL, USER_INSTALL.
GUILD_INSTALL, USER_INSTALL = 0, 1
#: Interaction contexts (``contexts``): GUILD, BOT_DM, PRIVATE_CHANNEL.
GUILD_CONTEXT, BOT_DM, PRIVATE_CHANNEL = 0, 1, 2
INTERACTION_CONTEXTS = frozenset({GUILD_CONTEXT, BOT_DM, PRIVATE_CHANNEL})


def _check_id_list(
    errors: FormErrors, at: tuple[str | int, ...], value: Any, allowed: frozenset[int]
) -> None:
    """``integration_types`` or ``contexts``: null, or a list of distinct values of ``allowed``."""
    if value is None:
        return
    if not isinstance(value, list):
        errors.add(at, "BASE_TYPE_ARRAY", "Must be an array.")
        return
    choices = "{" + ", ".join(str(v) for v in sorted(allowed)) + "}"
    seen: set[int] = set()
    for j, item in enumerate(value):
        if type(item) is not int or item not in allowed:
            errors.add((*at, j), "BASE_TYPE_CHOICES", f"Value must be one of {choices}.")
        elif item in seen:
            errors.add(
                (*at, j), "SET_TYPE_ALREADY_CONTAINS_VALUE", "The set already contains this value."
            )
        else:
            seen.add(item)


def _check_install_contexts(
    errors: FormErrors, at: tuple[str | int, ...], cmd: dict[str, Any], installs: frozenset[int]
) -> None:
    """Discord's checks of where a command may be used: ``integration_types`` names only
    installation contexts the application supports (its ``integration_types_config``),
    ``contexts`` only interaction contexts."""
    _check_id_list(errors, (*at, "integration_types"), cmd.get("integration_types"), installs)
    _check_id_list(errors, (*at, "contexts"), cmd.get("contexts"), INTERACTION_CONTEXTS)


def validate_commands(
    payload: Any, installs: frozenset[int] = frozenset({GUILD_INSTALL, USER_INSTALL})
) -> list[dict[str, Any]]:
    """Check a bulk-overwrite payload (names, descriptions, options, and where each command
    may be used; ``installs``: the installation contexts the application supports); raise
    50035 if bad."""
    if not isinstance(payload, list):
        raise invalid_form_body(
            {"_errors": [{"code": "BASE_TYPE_ARRAY", "message": "Must be an array."}]}
        )
    errors = FormErrors()
    if len(payload) > COMMANDS_MAX:
        errors.max_length((), COMMANDS_MAX)
    seen: set[tuple[int, str]] = set()
    for i, cmd in enumerate(payload):
        at: tuple[str | int, ...] = (i,)
        kind = cmd.get("type", 1)
        if kind not in (1, 2, 3):
            errors.add((*at, "type"), "BASE_TYPE_CHOICES", "Value must be one of {1, 2, 3}.")
            continue
        if kind == 1:
            _check_name(errors, at, cmd.get("name"))
            _check_description(errors, at, cmd.get("description"))
            _check_name_localizations(errors, at, cmd.get("name_localizations"), per_locale=False)
            _check_texts(
                errors, at, "description_localizations", cmd.get("description_localizations"), 100
            )
            _check_options(errors, at, cmd.get("options") or [], 0)
        elif not isinstance(cmd.get("name"), str) or not 1 <= len(cmd["name"]) <= 32:
            errors.bad_length((*at, "name"), 1, 32)
        _check_install_contexts(errors, at, cmd, installs)
        key = (kind, str(cmd.get("name")))
        if key in seen:
            errors.add(
                (*at, "name"),
                "APPLICATION_COMMAND_ALREADY_EXISTS",
                "Application command with that name already exists",
            )
        seen.add(key)
    errors.raise_if_any()
    return payload
