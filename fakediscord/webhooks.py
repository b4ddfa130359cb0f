"""Interaction callbacks and the interaction webhook routes (@original and followups)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from . import errors
from .errors import DiscordError, FormErrors
from .interactions import (
    ALLOWED_CALLBACKS,
    APPLICATION_COMMAND,
    AUTOCOMPLETE_RESULT,
    CHANNEL_MESSAGE,
    DEFERRED_CHANNEL_MESSAGE,
    DEFERRED_UPDATE,
    FOLLOWUP_CAP,
    MAX_CHOICES,
    MODAL,
    RESPONSE_WINDOW,
    TOKEN_LIFETIME,
    UPDATE_MESSAGE,
    FakeInteraction,
    command_path,
)
from .limits import (
    EPHEMERAL,
    IS_COMPONENTS_V2,
    LOADING,
    SUPPRESS_EMBEDS,
    SUPPRESS_NOTIFICATIONS,
    validate_message,
)
from .messages import (
    EDIT_FLAGS,
    announce_create,
    announce_delete,
    announce_update,
    apply_edit,
    is_empty,
    new_message,
)
from .records import FakeMessage
from .rest import Call, Reply, route, snowflake

if TYPE_CHECKING:
    from .server import FakeDiscord

RESPONSE_FLAGS = EPHEMERAL | SUPPRESS_EMBEDS | SUPPRESS_NOTIFICATIONS | IS_COMPONENTS_V2
CHAT_INPUT_COMMAND_MESSAGE = 20


def _metadata(interaction: FakeInteraction) -> dict[str, Any]:
    data: dict[str, Any] = {
        "id": str(interaction.id),
        "type": interaction.type,
        "user": interaction.user.to_dict(),
        "authorizing_integration_owners": interaction.owners,
    }
    if interaction.type == APPLICATION_COMMAND:
        data["name"] = command_path(interaction.data)
        data["command_type"] = 1
    elif interaction.message is not None:
        data["interacted_message_id"] = str(interaction.message.id)
    return data


def _respond_message(
    fake: FakeDiscord, interaction: FakeInteraction, payload: dict[str, Any], flags: int
) -> FakeMessage:
    if interaction.forced_ephemeral:
        flags |= EPHEMERAL
    ephemeral = bool(flags & EPHEMERAL)
    message = new_message(
        fake,
        interaction.channel,
        payload,
        author=fake.bot_user,
        flags=flags,
        visible_to=interaction.user if ephemeral else None,
        type=CHAT_INPUT_COMMAND_MESSAGE if interaction.type == APPLICATION_COMMAND else 0,
        webhook_id=fake.application_id,
        application_id=fake.application_id,
        interaction_metadata=_metadata(interaction),
    )
    announce_create(fake, message)
    return message


def _live_channel(interaction: FakeInteraction) -> None:
    if interaction.channel.gone:
        raise errors.unknown_channel()


def _callback_type_error(kind: Any, interaction: FakeInteraction) -> DiscordError:
    allowed = sorted(ALLOWED_CALLBACKS[interaction.type])
    form = FormErrors()
    form.add(
        ("type",),
        "INTERACTION_CALLBACK_TYPE_INVALID",
        f"Interaction callback type {kind} is not valid for interaction type "
        f"{interaction.type}; must be one of {allowed}.",
    )
    return errors.invalid_form_body(form.tree)


@route("POST", "/interactions/{interaction_id}/{interaction_token}/callback", auth=False)
async def create_response(fake: FakeDiscord, call: Call) -> Reply:
    """The first response: within 3 s, once, of a type this interaction allows."""
    interaction = fake.interactions.get(snowflake(call.params["interaction_id"], "interaction_id"))
    if interaction is None or interaction.token != call.params["interaction_token"]:
        raise errors.unknown_interaction()
    try:
        return _create_response(fake, interaction, call)
    except DiscordError as exc:
        interaction.errors.append(exc)
        raise
    finally:
        interaction.note_answer()


def _create_response(fake: FakeDiscord, interaction: FakeInteraction, call: Call) -> Reply:
    if interaction.responded:
        raise errors.already_acknowledged()
    now = fake.clock.now()
    if now - interaction.created_at > RESPONSE_WINDOW:
        raise errors.unknown_interaction()
    body = call.body if isinstance(call.body, dict) else {}
    kind = body.get("type")
    if kind not in ALLOWED_CALLBACKS[interaction.type]:
        raise _callback_type_error(kind, interaction)
    data = body.get("data") or {}
    resource: dict[str, Any] = {"type": kind}
    if kind == CHANNEL_MESSAGE:
        payload = validate_message(data, allowed_flags=RESPONSE_FLAGS)
        if is_empty(payload.get("content"), payload.get("embeds"), payload.get("components")):
            raise errors.empty_message()
        _live_channel(interaction)
        interaction.original = _respond_message(
            fake, interaction, payload, payload.get("flags") or 0
        )
        resource["message"] = interaction.original.to_dict()
    elif kind == DEFERRED_CHANNEL_MESSAGE:
        payload = validate_message(data, allowed_flags=EPHEMERAL)
        _live_channel(interaction)
        flags = LOADING | ((payload.get("flags") or 0) & EPHEMERAL)
        interaction.original = _respond_message(fake, interaction, {}, flags)
    elif kind in (DEFERRED_UPDATE, UPDATE_MESSAGE):
        target = interaction.message
        assert target is not None
        if target.deleted:
            raise errors.unknown_message()
        if kind == UPDATE_MESSAGE:
            payload = validate_message(data, allowed_flags=EDIT_FLAGS)
            apply_edit(fake, target, payload)
            announce_update(fake, target)
            resource["message"] = target.to_dict()
        interaction.original = target
    elif kind == MODAL:
        _check_modal(data)
        interaction.modal = data
    elif kind == AUTOCOMPLETE_RESULT:
        choices = data.get("choices")
        if not isinstance(choices, list) or len(choices) > MAX_CHOICES:
            form = FormErrors()
            form.bad_length(("data", "choices"), 0, MAX_CHOICES)
            form.raise_if_any()
        interaction.choices = choices
    interaction.response_type = kind
    interaction.responded_at = now
    if call.query.get("with_response", "").lower() not in ("1", "true"):
        return Reply(None)
    summary: dict[str, Any] = {"id": str(interaction.id), "type": interaction.type}
    if interaction.original is not None and kind in (CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE):
        summary.update(
            response_message_id=str(interaction.original.id),
            response_message_loading=interaction.original.loading,
            response_message_ephemeral=interaction.original.ephemeral,
        )
    return Reply({"interaction": summary, "resource": resource})


def _check_modal(data: dict[str, Any]) -> None:
    form = FormErrors()
    custom_id = data.get("custom_id")
    if not isinstance(custom_id, str) or not 1 <= len(custom_id) <= 100:
        form.bad_length(("data", "custom_id"), 1, 100)
    title = data.get("title")
    if not isinstance(title, str) or not 1 <= len(title) <= 45:
        form.bad_length(("data", "title"), 1, 45)
    rows = data.get("components") or []
    if not 1 <= len(rows) <= 5:
        form.bad_length(("data", "components"), 1, 5)
    for r, row in enumerate(rows):
        for c, item in enumerate(row.get("components") or []):
            label = item.get("label")
            if item.get("type") == 4 and (not isinstance(label, str) or not 1 <= len(label) <= 45):
                form.bad_length(("data", "components", r, "components", c, "label"), 1, 45)
    form.raise_if_any()


# -- webhook routes with the interaction token ----------------------------------------------


def token_interaction(fake: FakeDiscord, call: Call) -> FakeInteraction:
    """The interaction behind ``/webhooks/{application_id}/{token}``, while its token is valid."""
    if snowflake(call.params["application_id"], "application_id") != fake.application_id:
        raise errors.unknown_webhook()
    interaction = fake.interactions_by_token.get(call.params["interaction_token"])
    if interaction is None:
        raise errors.unknown_webhook()
    if fake.clock.now() - interaction.created_at > TOKEN_LIFETIME:
        raise errors.invalid_webhook_token()
    if not interaction.responded:
        # Not acknowledged (in time): the token never became a webhook.
        raise errors.unknown_webhook()
    return interaction


def _webhook_message(interaction: FakeInteraction, raw_id: str) -> FakeMessage:
    if raw_id == "@original":
        message = interaction.original
    else:
        wanted = snowflake(raw_id, "message_id")
        message = next((m for m in interaction.all_messages() if m.id == wanted), None)
    if message is None or message.deleted:
        raise errors.unknown_message()
    return message


async def _guarded(
    fake: FakeDiscord, call: Call, action: Callable[[FakeInteraction], Awaitable[Reply]]
) -> Reply:
    interaction = None
    try:
        interaction = token_interaction(fake, call)
        return await action(interaction)
    except DiscordError as exc:
        if interaction is None:
            interaction = fake.interactions_by_token.get(call.params["interaction_token"])
        if interaction is not None:
            interaction.errors.append(exc)
            interaction.note_answer()
        raise


@route("GET", "/webhooks/{application_id}/{interaction_token}/messages/{message_id}", auth=False)
@route("GET", "/webhooks/{application_id}/{interaction_token}/messages/@original", auth=False)
async def get_webhook_message(fake: FakeDiscord, call: Call) -> Reply:
    """The original response or a followup."""

    async def action(interaction: FakeInteraction) -> Reply:
        raw = call.params.get("message_id", "@original")
        return Reply(_webhook_message(interaction, raw).to_dict())

    return await _guarded(fake, call, action)


@route("PATCH", "/webhooks/{application_id}/{interaction_token}/messages/{message_id}", auth=False)
@route("PATCH", "/webhooks/{application_id}/{interaction_token}/messages/@original", auth=False)
async def edit_webhook_message(fake: FakeDiscord, call: Call) -> Reply:
    """Edit the original response (filling in a deferral) or a followup."""

    async def action(interaction: FakeInteraction) -> Reply:
        message = _webhook_message(interaction, call.params.get("message_id", "@original"))
        _live_channel(interaction)
        payload = validate_message(call.body or {}, allowed_flags=EDIT_FLAGS)
        was_loading = message.loading
        apply_edit(fake, message, payload)
        message.flags &= ~LOADING
        if was_loading:
            message.edited_timestamp = None
        announce_update(fake, message)
        return Reply(message.to_dict())

    return await _guarded(fake, call, action)


@route("DELETE", "/webhooks/{application_id}/{interaction_token}/messages/{message_id}", auth=False)
@route("DELETE", "/webhooks/{application_id}/{interaction_token}/messages/@original", auth=False)
async def delete_webhook_message(fake: FakeDiscord, call: Call) -> Reply:
    """Delete the original response or a followup."""

    async def action(interaction: FakeInteraction) -> Reply:
        message = _webhook_message(interaction, call.params.get("message_id", "@original"))
        message.deleted = True
        announce_delete(fake, message)
        return Reply(None)

    return await _guarded(fake, call, action)


@route("POST", "/webhooks/{application_id}/{interaction_token}", auth=False)
async def create_followup(fake: FakeDiscord, call: Call) -> Reply:
    """A followup; right after a type 5 deferral it fills in the "thinking" message instead."""

    async def action(interaction: FakeInteraction) -> Reply:
        _live_channel(interaction)
        payload = validate_message(call.body or {}, allowed_flags=RESPONSE_FLAGS)
        if is_empty(payload.get("content"), payload.get("embeds"), payload.get("components")):
            raise errors.empty_message()
        original = interaction.original
        if (
            interaction.response_type == DEFERRED_CHANNEL_MESSAGE
            and original is not None
            and original.loading
            and not original.deleted
        ):
            flags = (payload.get("flags") or 0) & IS_COMPONENTS_V2  # a V2 followup stays V2
            apply_edit(fake, original, {**payload, "flags": flags})
            original.flags &= ~LOADING
            original.edited_timestamp = None
            announce_update(fake, original)
            return Reply(original.to_dict())
        if interaction.user_install_only and len(interaction.followups) >= FOLLOWUP_CAP:
            raise errors.max_followups()
        message = _respond_message(fake, interaction, payload, payload.get("flags") or 0)
        message.type = 0
        interaction.followups.append(message)
        return Reply(message.to_dict())

    return await _guarded(fake, call, action)
