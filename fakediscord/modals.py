"""A modal's submission as a Discord client sends it (``MODAL_SUBMIT``, interaction type 5).

A modal holds text inputs in action rows (type 1) and, since Components V2, labels
(type 18) around one text input, select menu, radio group, checkbox group or checkbox,
and text displays (type 10). Each answer keeps its component's place and shape, as
Discord's "Interaction Response Structure" of each component describes it. What the
client would not send (a text longer than the field takes, a choice not offered) is
refused with :class:`InteractionRejected`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .interactions import InteractionRejected

ACTION_ROW, TEXT_INPUT, LABEL, TEXT_DISPLAY = 1, 4, 18, 10
STRING_SELECT, RADIO_GROUP, CHECKBOX_GROUP, CHECKBOX = 3, 21, 22, 23
#: The select menus a label may hold (string, user, role, mentionable, channel).
SELECTS = frozenset({STRING_SELECT, 5, 6, 7, 8})


def submission(modal: Mapping[str, Any], values: Mapping[str, Any]) -> dict[str, Any]:
    """The ``data`` of a submit of ``modal``: each field's value from ``values`` (keyed by its
    custom id or its label), else the value or choices it was shown with."""
    return {
        "custom_id": modal["custom_id"],
        "components": [_answer(item, values) for item in modal.get("components") or []],
    }


def _answer(item: Mapping[str, Any], values: Mapping[str, Any]) -> dict[str, Any]:
    kind = item.get("type")
    if kind == ACTION_ROW:
        children = item.get("components") or []
        return {"type": ACTION_ROW, "components": [_field(c, values, None) for c in children]}
    if kind == LABEL:
        child = _field(item["component"], values, item.get("label"))
        return {"type": LABEL, "component": child}
    return {"type": kind}  # a text display: shown, nothing to answer


def _field(
    field: Mapping[str, Any], values: Mapping[str, Any], label: str | None
) -> dict[str, Any]:
    kind = field["type"]
    custom_id = field["custom_id"]
    given = _given(values, custom_id, label or field.get("label"))
    answer: dict[str, Any] = {"type": kind, "custom_id": custom_id}
    if kind == TEXT_INPUT:
        answer["value"] = _text(field, given, label or field.get("label") or custom_id)
    elif kind == CHECKBOX:
        answer["value"] = bool(field.get("default")) if given is None else given is True
    elif kind == RADIO_GROUP:
        chosen = _chosen(field, given)
        answer["value"] = chosen[0] if chosen else None
    else:  # selects and checkbox groups: a list of the chosen values
        answer["values"] = _chosen(field, given)
        if kind in SELECTS:
            answer["component_type"] = kind
    return answer


def _text(field: Mapping[str, Any], given: Any, name: str) -> str:
    text = str(field.get("value", "")) if given is None else str(given)
    low, high = int(field.get("min_length") or 0), int(field.get("max_length") or 4000)
    if field.get("required", True) and not text:
        raise InteractionRejected(f"{name} is required")
    if text and not low <= len(text) <= high:
        raise InteractionRejected(f"{name} takes {low} to {high} characters")
    return text


def _chosen(field: Mapping[str, Any], given: Any) -> list[str]:
    """The values picked (the defaults when none are given); only offered ones, for the
    kinds that list their options."""
    if given is None:
        return _defaults(field)
    chosen = [given] if isinstance(given, str) else given
    if not isinstance(chosen, list) or not all(isinstance(v, str) for v in chosen):
        raise InteractionRejected(f"{field['custom_id']} takes a list of values")
    offered = {str(o["value"]) for o in field.get("options") or []}
    if "options" in field and not set(chosen) <= offered:
        raise InteractionRejected(f"{field['custom_id']} offers no such choice")
    return list(chosen)


def _given(values: Mapping[str, Any], custom_id: str, label: str | None) -> Any:
    if custom_id in values:
        return values[custom_id]
    return values.get(label) if label else None


def _defaults(field: Mapping[str, Any]) -> list[str]:
    return [str(o["value"]) for o in field.get("options") or [] if o.get("default")]
