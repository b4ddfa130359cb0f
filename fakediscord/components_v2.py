"""Components V2 (``IS_COMPONENTS_V2``, ``1 << 15``) as Discord documents them
(developers/components/reference, developers/resources/message), with the limits of
discord-openapi.json's ``*ComponentForMessageRequest`` schemas (tests/data/
components_v2_schemas.json keeps the extract the tests compare these figures with).

A V2 message holds components only: content, embeds, stickers and polls are refused. Its
components are layout (section 9, separator 14, container 17, action row 1), content (text
display 10, thumbnail 11, media gallery 12, file 13) and the interactive ones of action
rows. At most 40 components in all, nested ones counted, and 4,000 characters across its
text displays. Once a message has the flag it keeps it: an edit cannot take it away.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, Final

from .errors import FormErrors

Path = tuple[str | int, ...]

ACTION_ROW, BUTTON, SECTION, TEXT_DISPLAY, THUMBNAIL = 1, 2, 9, 10, 11
MEDIA_GALLERY, FILE, SEPARATOR, CONTAINER = 12, 13, 14, 17
#: What a V2 message may hold at its top level, and what a container may hold.
TOP_LEVEL: Final = frozenset(
    {ACTION_ROW, SECTION, TEXT_DISPLAY, MEDIA_GALLERY, FILE, SEPARATOR, CONTAINER}
)
IN_CONTAINER: Final = TOP_LEVEL - {CONTAINER}
#: Limits (documented, and in the openapi schemas).
TOTAL_COMPONENTS_MAX: Final = 40
TEXT_TOTAL_MAX: Final = 4000
TEXT_DISPLAY_MAX: Final = 4000
SECTION_TEXTS: Final = (1, 3)
CONTAINER_CHILDREN: Final = (1, 40)
GALLERY_ITEMS: Final = (1, 10)
DESCRIPTION_MAX: Final = 1024
MEDIA_URL_MAX: Final = 2048
ACCENT_MAX: Final = 0xFFFFFF
SPACINGS: Final = (1, 2)


def walk(components: Any) -> Iterator[dict[str, Any]]:
    """Every component of a message, nested ones and section accessories included."""
    if not isinstance(components, list):
        return
    for component in components:
        if not isinstance(component, dict):
            continue
        yield component
        yield from walk(component.get("components"))
        accessory = component.get("accessory")
        if isinstance(accessory, dict):
            yield accessory
        yield from (item for item in component.get("items") or [] if isinstance(item, dict))


def text_of(components: Any) -> str:
    """The text displays' contents, in order, a line between each."""
    return "\n".join(
        str(c.get("content", "")) for c in walk(components) if c.get("type") == TEXT_DISPLAY
    )


def check_legacy_fields(errors: FormErrors, payload: dict[str, Any]) -> None:
    """With the flag, a message is components only (an empty content or embeds is a reset)."""
    for name in ("content", "embeds", "sticker_ids", "poll"):
        if payload.get(name):
            errors.add(
                (name,),
                "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
                "The 'content', 'embeds', 'sticker_ids' and 'poll' fields cannot be used "
                "when using MessageFlags.IS_COMPONENTS_V2",
            )


def check_v2_message(message: dict[str, Any]) -> None:
    """Raise 50035 unless a V2 message (as an edit leaves it) holds components only."""
    errors = FormErrors()
    check_legacy_fields(errors, message)
    errors.raise_if_any()


def check_v2(errors: FormErrors, components: Any, check_row: Any) -> None:
    """Every component of a V2 message, and the message's totals. ``check_row(errors, at,
    row, seen)`` checks an action row as a legacy message's (limits.py)."""
    if not isinstance(components, list):
        errors.add(("components",), "BASE_TYPE_ARRAY", "Must be an array.")
        return
    seen: set[str] = set()
    for i, component in enumerate(components):
        _check(errors, ("components", i), component, TOP_LEVEL, check_row, seen)
    every = list(walk(components))
    if len(every) > TOTAL_COMPONENTS_MAX:
        errors.add(
            ("components",),
            "MAX_COMPONENTS_EXCEEDED",
            f"Must be {TOTAL_COMPONENTS_MAX} or fewer components in total.",
        )
    text = sum(len(str(c.get("content", ""))) for c in every if c.get("type") == TEXT_DISPLAY)
    if text > TEXT_TOTAL_MAX:
        errors.add(
            ("components",),
            "MAX_TEXT_DISPLAY_LENGTH_EXCEEDED",
            f"Text displays must hold {TEXT_TOTAL_MAX} or fewer characters in total.",
        )


def _check(
    errors: FormErrors,
    at: Path,
    component: Any,
    allowed: frozenset[int],
    check_row: Any,
    seen: set[str],
) -> None:
    kind = component.get("type") if isinstance(component, dict) else None
    if kind not in allowed:
        errors.add(
            (*at, "type"),
            "UNION_TYPE_CHOICES",
            f'Value of field "type" must be one of {tuple(sorted(allowed))}.',
        )
        return
    assert isinstance(component, dict)
    if kind == ACTION_ROW:
        check_row(errors, at, component, seen)
    elif kind == TEXT_DISPLAY:
        _text_display(errors, at, component)
    elif kind == SECTION:
        _section(errors, at, component, check_row, seen)
    elif kind == CONTAINER:
        _container(errors, at, component, check_row, seen)
    elif kind == SEPARATOR:
        if component.get("spacing") not in (None, *SPACINGS):
            errors.add((*at, "spacing"), "BASE_TYPE_CHOICES", "Value must be one of (1, 2).")
    elif kind == MEDIA_GALLERY:
        items = component.get("items")
        if not isinstance(items, list) or not GALLERY_ITEMS[0] <= len(items) <= GALLERY_ITEMS[1]:
            errors.bad_length((*at, "items"), *GALLERY_ITEMS)
            return
        for j, item in enumerate(items):
            _media(errors, (*at, "items", j), item)
    elif kind == FILE:
        _url(errors, (*at, "file", "url"), (component.get("file") or {}).get("url"))


def _text_display(errors: FormErrors, at: Path, component: dict[str, Any]) -> None:
    content = component.get("content")
    if not isinstance(content, str) or not 1 <= len(content) <= TEXT_DISPLAY_MAX:
        errors.bad_length((*at, "content"), 1, TEXT_DISPLAY_MAX)


def _section(
    errors: FormErrors, at: Path, component: dict[str, Any], check_row: Any, seen: set[str]
) -> None:
    texts = component.get("components")
    if not isinstance(texts, list) or not SECTION_TEXTS[0] <= len(texts) <= SECTION_TEXTS[1]:
        errors.bad_length((*at, "components"), *SECTION_TEXTS)
    else:
        for j, text in enumerate(texts):
            _check(errors, (*at, "components", j), text, frozenset({TEXT_DISPLAY}), check_row, seen)
    accessory = component.get("accessory")
    if not isinstance(accessory, dict):
        errors.required((*at, "accessory"))
    elif accessory.get("type") == BUTTON:
        check_row(errors, at, {"type": ACTION_ROW, "components": [accessory]}, seen)
    elif accessory.get("type") == THUMBNAIL:
        _media(errors, (*at, "accessory"), accessory)
    else:
        errors.add((*at, "accessory", "type"), "UNION_TYPE_CHOICES", "Must be one of (2, 11).")


def _container(
    errors: FormErrors, at: Path, component: dict[str, Any], check_row: Any, seen: set[str]
) -> None:
    colour = component.get("accent_color")
    if colour is not None and (not isinstance(colour, int) or not 0 <= colour <= ACCENT_MAX):
        errors.add((*at, "accent_color"), "NUMBER_TYPE_MAX", f"Must be 0 to {ACCENT_MAX}.")
    children = component.get("components")
    low, high = CONTAINER_CHILDREN
    if not isinstance(children, list) or not low <= len(children) <= high:
        errors.bad_length((*at, "components"), low, high)
        return
    for j, child in enumerate(children):
        _check(errors, (*at, "components", j), child, IN_CONTAINER, check_row, seen)


def _media(errors: FormErrors, at: Path, item: Any) -> None:
    if not isinstance(item, dict):
        errors.add(at, "MODEL_TYPE_CONVERT", "Only dictionaries may be used in a ModelType")
        return
    _url(errors, (*at, "media", "url"), (item.get("media") or {}).get("url"))
    description = item.get("description")
    if description is not None and (
        not isinstance(description, str) or not 1 <= len(description) <= DESCRIPTION_MAX
    ):
        errors.bad_length((*at, "description"), 1, DESCRIPTION_MAX)


def _url(errors: FormErrors, at: Path, url: Any) -> None:
    if not isinstance(url, str) or not url:
        errors.required(at)
    elif len(url) > MEDIA_URL_MAX:
        errors.max_length(at, MEDIA_URL_MAX)
