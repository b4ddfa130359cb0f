"""Discord's documented limits on messages, embeds and components (command definitions:
command_limits.py).

Every check records a field error in Discord's shape; the caller raises 400
Invalid Form Body (50035) when any were found.
"""

from __future__ import annotations

from typing import Any

from .components_v2 import check_legacy_fields, check_v2
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
        check_v2(errors, components, check_action_row)
        return
    if not isinstance(components, list):
        errors.add(("components",), "BASE_TYPE_ARRAY", "Must be an array.")
        return
    if len(components) > ACTION_ROWS_MAX:
        errors.max_length(("components",), ACTION_ROWS_MAX)
    seen: set[str] = set()
    for i, row in enumerate(components):
        check_action_row(errors, ("components", i), row, seen)


def check_action_row(
    errors: FormErrors, at: tuple[str | int, ...], row: Any, seen: set[str]
) -> None:
    """One action row: buttons (5 at most) or one select, their custom ids unique in ``seen``."""
    if not isinstance(row, dict) or row.get("type") != ACTION_ROW:
        errors.add(
            (*at, "type"),
            "UNION_TYPE_CHOICES",
            'Value of field "type" must be one of (1,).',
        )
        return
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
    if flags & IS_COMPONENTS_V2:
        check_legacy_fields(errors, payload)
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
