"""A modal's submission as a Discord client sends it (``MODAL_SUBMIT``, interaction type 5).

A modal holds text inputs in action rows (type 1) and, since Components V2, labels
(type 18) around one text input, select menu, radio group, checkbox group or checkbox,
and text displays (type 10). Each answer keeps its component's place and shape, as
Discord's "Interaction Response Structure" of each component describes it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

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
        answer["value"] = str(given) if given is not None else field.get("value", "")
    elif kind == CHECKBOX:
        answer["value"] = bool(given) if given is not None else bool(field.get("default"))
    elif kind == RADIO_GROUP:
        answer["value"] = given if given is not None else next(iter(_defaults(field)), None)
    else:  # selects and checkbox groups: a list of the chosen values
        chosen = _defaults(field) if given is None else given
        answer["values"] = [chosen] if isinstance(chosen, str) else list(chosen)
        if kind in SELECTS:
            answer["component_type"] = kind
    return answer


def _given(values: Mapping[str, Any], custom_id: str, label: str | None) -> Any:
    if custom_id in values:
        return values[custom_id]
    return values.get(label) if label else None


def _defaults(field: Mapping[str, Any]) -> list[str]:
    return [str(o["value"]) for o in field.get("options") or [] if o.get("default")]
