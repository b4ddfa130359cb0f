"""Discord's documented limits on messages, embeds, components and command definitions.

Every check records a field error in Discord's shape; the caller raises 400
Invalid Form Body (50035) when any were found.
"""

from __future__ import annotations

import re
from typing import Any

from .errors import FormErrors, invalid_form_body

CONTENT_MAX = 2000
EMBEDS_MAX = 10
EMBED_TOTAL_MAX = 6000
EMBED_TITLE_MAX = 256
EMBED_DESCRIPTION_MAX = 4096
EMBED_FIELDS_MAX = 25
EMBED_FIELD_NAME_MAX = 256
EMBED_FIELD_VALUE_MAX = 1024
EMBED_FOOTER_MAX = 2048
EMBED_AUTHOR_MAX = 256
ACTION_ROWS_MAX = 5
BUTTONS_PER_ROW_MAX = 5
CUSTOM_ID_MAX = 100
BUTTON_LABEL_MAX = 80
BUTTON_URL_MAX = 512
SELECT_OPTIONS_MAX = 25
SELECT_PLACEHOLDER_MAX = 150

EPHEMERAL = 1 << 6
LOADING = 1 << 7
SUPPRESS_EMBEDS = 1 << 2
SUPPRESS_NOTIFICATIONS = 1 << 12
IS_COMPONENTS_V2 = 1 << 15

ACTION_ROW, BUTTON, STRING_SELECT = 1, 2, 3
SELECT_TYPES = {3, 5, 6, 7, 8}
LINK_STYLE, PREMIUM_STYLE = 5, 6


def check_string(errors: FormErrors, path: tuple[str | int, ...], value: Any, limit: int) -> int:
    """Check one string field (trimmed, as Discord measures) and return its length."""
    if value is None:
        return 0
    if not isinstance(value, str):
        errors.add(path, "BASE_TYPE_STRING", "Must be a string.")
        return 0
    length = len(value.strip())
    if length > limit:
        errors.max_length(path, limit)
    return length


def _check_required_string(
    errors: FormErrors, path: tuple[str | int, ...], value: Any, limit: int
) -> int:
    """A string field Discord requires: missing or blank (trimmed) is an error too."""
    if not (isinstance(value, str) and value.strip()):
        errors.required(path)
    return check_string(errors, path, value, limit)


def check_embeds(errors: FormErrors, embeds: Any) -> None:
    """Embed count, per-field limits and the 6000-character total."""
    if not isinstance(embeds, list):
        errors.add(("embeds",), "BASE_TYPE_ARRAY", "Must be an array.")
        return
    if len(embeds) > EMBEDS_MAX:
        errors.max_length(("embeds",), EMBEDS_MAX)
    total = 0
    for i, embed in enumerate(embeds):
        at: tuple[str | int, ...] = ("embeds", i)
        if not isinstance(embed, dict):
            errors.add(at, "MODEL_TYPE_CONVERT", "Only dictionaries may be used in a ModelType")
            continue
        total += check_string(errors, (*at, "title"), embed.get("title"), EMBED_TITLE_MAX)
        total += check_string(
            errors, (*at, "description"), embed.get("description"), EMBED_DESCRIPTION_MAX
        )
        footer = embed.get("footer")
        if isinstance(footer, dict):
            total += _check_required_string(
                errors, (*at, "footer", "text"), footer.get("text"), EMBED_FOOTER_MAX
            )
        author = embed.get("author")
        if isinstance(author, dict):
            total += _check_required_string(
                errors, (*at, "author", "name"), author.get("name"), EMBED_AUTHOR_MAX
            )
        fields = embed.get("fields") or []
        if len(fields) > EMBED_FIELDS_MAX:
            errors.max_length((*at, "fields"), EMBED_FIELDS_MAX)
        for j, fld in enumerate(fields):
            fat = (*at, "fields", j)
            for key, limit in (("name", EMBED_FIELD_NAME_MAX), ("value", EMBED_FIELD_VALUE_MAX)):
                total += _check_required_string(errors, (*fat, key), fld.get(key), limit)
    if total > EMBED_TOTAL_MAX:
        errors.add(
            ("embeds",),
            "MAX_EMBED_SIZE_EXCEEDED",
            f"Embed size exceeds maximum size of {EMBED_TOTAL_MAX}",
        )


def _check_custom_id(
    errors: FormErrors, path: tuple[str | int, ...], custom_id: Any, seen: set[str]
) -> None:
    if not isinstance(custom_id, str) or not 1 <= len(custom_id) <= CUSTOM_ID_MAX:
        errors.bad_length((*path, "custom_id"), 1, CUSTOM_ID_MAX)
        return
    if custom_id in seen:
        errors.add(
            (*path, "custom_id"),
            "COMPONENT_CUSTOM_ID_DUPLICATED",
            "Component custom id cannot be duplicated",
        )
    seen.add(custom_id)


def _check_button(
    errors: FormErrors, at: tuple[str | int, ...], button: dict[str, Any], seen: set[str]
) -> None:
    style = button.get("style")
    if style not in (1, 2, 3, 4, 5, 6):
        errors.add((*at, "style"), "BASE_TYPE_CHOICES", "Value must be one of {1, 2, 3, 4, 5, 6}.")
        return
    if button.get("label") is not None:
        check_string(errors, (*at, "label"), button["label"], BUTTON_LABEL_MAX)
    if style == LINK_STYLE:
        if "custom_id" in button:
            errors.add(
                (*at, "custom_id"),
                "BUTTON_COMPONENT_CUSTOM_ID_INVALID",
                "A custom id cannot be set on link buttons",
            )
        url = button.get("url")
        if not isinstance(url, str) or not url:
            errors.required((*at, "url"))
        else:
            check_string(errors, (*at, "url"), url, BUTTON_URL_MAX)
    elif style != PREMIUM_STYLE:
        if "url" in button:
            errors.add(
                (*at, "url"),
                "BUTTON_COMPONENT_URL_INVALID",
                "A url can only be set on link buttons",
            )
        _check_custom_id(errors, at, button.get("custom_id"), seen)
    if style != PREMIUM_STYLE and not button.get("label") and not button.get("emoji"):
        errors.add(
            at, "BUTTON_COMPONENT_LABEL_OR_EMOJI_REQUIRED", "A label or an emoji is required"
        )


def check_components(errors: FormErrors, components: Any, flags: int) -> None:
    """Action rows (5 max), buttons (5 per row), selects, custom_id length and uniqueness."""
    if flags & IS_COMPONENTS_V2:
        errors.add(
            ("flags",),
            "FAKE_DISCORD_NOT_MODELLED",
            "The fake does not model components v2 (IS_COMPONENTS_V2)",
        )
        return
    if not isinstance(components, list):
        errors.add(("components",), "BASE_TYPE_ARRAY", "Must be an array.")
        return
    if len(components) > ACTION_ROWS_MAX:
        errors.max_length(("components",), ACTION_ROWS_MAX)
    seen: set[str] = set()
    for i, row in enumerate(components):
        at: tuple[str | int, ...] = ("components", i)
        if not isinstance(row, dict) or row.get("type") != ACTION_ROW:
            errors.add(
                (*at, "type"),
                "UNION_TYPE_CHOICES",
                'Value of field "type" must be one of (1,).',
            )
            continue
        children = row.get("components") or []
        if not children:
            errors.add((*at, "components"), "BASE_TYPE_MIN_LENGTH", "Must be 1 or more in length.")
        selects = [c for c in children if c.get("type") in SELECT_TYPES]
        if selects and len(children) > 1:
            errors.max_length((*at, "components"), 1)
        elif len(children) > BUTTONS_PER_ROW_MAX:
            errors.max_length((*at, "components"), BUTTONS_PER_ROW_MAX)
        for j, child in enumerate(children):
            cat = (*at, "components", j)
            kind = child.get("type")
            if kind == BUTTON:
                _check_button(errors, cat, child, seen)
            elif kind in SELECT_TYPES:
                _check_custom_id(errors, cat, child.get("custom_id"), seen)
                check_string(
                    errors, (*cat, "placeholder"), child.get("placeholder"), SELECT_PLACEHOLDER_MAX
                )
                options = child.get("options") or []
                if kind == STRING_SELECT and not 1 <= len(options) <= SELECT_OPTIONS_MAX:
                    errors.bad_length((*cat, "options"), 1, SELECT_OPTIONS_MAX)
            else:
                errors.add(
                    (*cat, "type"),
                    "COMPONENT_TYPE_INVALID",
                    f"Component type {kind} is not valid in an action row",
                )


def check_message(errors: FormErrors, payload: dict[str, Any], *, allowed_flags: int) -> None:
    """Content, embeds, components and flags of a create or edit payload."""
    content = payload.get("content")
    if content is not None:
        if not isinstance(content, str):
            errors.add(("content",), "BASE_TYPE_STRING", "Must be a string.")
        elif len(content) > CONTENT_MAX:
            errors.max_length(("content",), CONTENT_MAX)
    if payload.get("embeds") is not None:
        check_embeds(errors, payload["embeds"])
    flags = payload.get("flags") or 0
    if not isinstance(flags, int) or flags & ~allowed_flags:
        errors.add(("flags",), "MESSAGE_FLAGS_INVALID", "Invalid message flags")
        flags = 0
    if payload.get("components") is not None:
        check_components(errors, payload["components"], flags)


def validate_message(payload: Any, *, allowed_flags: int) -> dict[str, Any]:
    """Raise 50035 if ``payload`` breaks a limit; return it as a dict."""
    if not isinstance(payload, dict):
        raise invalid_form_body(
            {"_errors": [{"code": "MODEL_TYPE_CONVERT", "message": "Expected an object"}]}
        )
    errors = FormErrors()
    check_message(errors, payload, allowed_flags=allowed_flags)
    errors.raise_if_any()
    return payload


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
    names: set[str] = set()
    #: Each locale's option names: the localized ones, then the defaults of the others.
    localized: dict[str, set[str]] = {}
    defaults = {o.get("name") for o in options if isinstance(o, dict)}
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
        _check_name(errors, oat, opt.get("name"))
        _check_description(errors, oat, opt.get("description"))
        if opt.get("name") in names:
            errors.add(
                (*oat, "name"),
                "APPLICATION_COMMAND_OPTION_NAME_ALREADY_EXISTS",
                "Option name already exists",
            )
        names.add(opt.get("name"))
        _check_texts(
            errors, oat, "description_localizations", opt.get("description_localizations"), 100
        )
        option_names = _check_name_localizations(
            errors, oat, opt.get("name_localizations"), per_locale=True
        )
        for locale, name in option_names.items():
            taken = localized.setdefault(locale, set())
            if name in taken or (name in defaults and name != opt.get("name")):
                errors.add(
                    (*oat, "name_localizations", locale),
                    "APPLICATION_COMMAND_OPTION_NAME_ALREADY_EXISTS",
                    "Option name already exists",
                )
            taken.add(name)
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
        choices = opt.get("choices") or []
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
