"""Application emojis: the routes with Discord's validation, the CDN images, and the check that
every custom emoji in a message the bot sends is one it may use.

Discord documents the routes (``doc_emoji.mdx``) and the request schema (OpenAPI: name
2-32 long); the name pattern (letters, digits, underscore), the image rules (a data URI
of PNG, JPEG, GIF or WebP, at most 256 KiB) and the cap of 2,000 per application are
its documented limits. Discord does not document the inner error codes: those here
(``STRING_TYPE_REGEX``, ``IMAGE_INVALID``, ``BINARY_TYPE_MAX_SIZE``,
``APPLICATION_EMOJI_NAME_ALREADY_TAKEN``) are what Discord answers as seen by bots in
the wild, with the fake's best guess at the message text.
"""

from __future__ import annotations

import base64
import binascii
import io
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from aiohttp import web

from . import errors
from .errors import DiscordError, FormErrors
from .rest import Call, Reply, route, snowflake

if TYPE_CHECKING:
    from .records import FakeMessage
    from .server import FakeDiscord

#: Emojis one application may own.
APPLICATION_EMOJIS_MAX: Final = 2000
#: Largest emoji image, in bytes (256 KiB).
IMAGE_MAX_BYTES: Final = 256 * 1024
NAME_MIN, NAME_MAX = 2, 32
_NAME: Final = re.compile(r"[A-Za-z0-9_]+")
_DATA_URI: Final = re.compile(r"data:(image/(?:png|jpeg|gif|webp));base64,(.*)", re.DOTALL)
#: The bytes each image type starts with (WebP: "RIFF", 4 bytes of size, "WEBP").
_MAGIC: Final = {
    "image/png": lambda b: b.startswith(b"\x89PNG\r\n\x1a\n"),
    "image/jpeg": lambda b: b.startswith(b"\xff\xd8\xff"),
    "image/gif": lambda b: b.startswith((b"GIF87a", b"GIF89a")),
    "image/webp": lambda b: b.startswith(b"RIFF") and b[8:12] == b"WEBP",
}
#: ``<:name:id>`` and ``<a:name:id>`` in message text.
CUSTOM_EMOJI: Final = re.compile(r"<(a?):(\w+):(\d+)>")


@dataclass(eq=False)
class FakeEmoji:
    """An emoji of the application, with the image as uploaded."""

    id: int
    name: str
    image: bytes
    content_type: str

    @property
    def animated(self) -> bool:
        return self.content_type == "image/gif"

    def to_dict(self, fake: FakeDiscord) -> dict[str, Any]:
        """The emoji object (application emojis carry the uploader: the bot user)."""
        return {
            "id": str(self.id),
            "name": self.name,
            "roles": [],
            "user": fake.bot_user.to_dict(),
            "require_colons": True,
            "managed": False,
            "animated": self.animated,
            "available": True,
        }


@dataclass(frozen=True)
class ForeignEmoji:
    """A custom emoji the bot sent but may not use: Discord shows ``:name:`` as plain text."""

    message_id: int
    markup: str


def name_taken() -> DiscordError:
    """400, 50035: another emoji of the application has this name."""
    return errors.invalid_form_body(
        {
            "name": {
                "_errors": [
                    {
                        "code": "APPLICATION_EMOJI_NAME_ALREADY_TAKEN",
                        "message": "Emoji name already taken",
                    }
                ]
            }
        }
    )


def too_many_emojis() -> DiscordError:
    """400, 30008: the application owns 2,000 emojis already."""
    return DiscordError(400, 30008, f"Maximum number of emojis reached ({APPLICATION_EMOJIS_MAX})")


def unknown_emoji() -> DiscordError:
    """404, 10014."""
    return DiscordError(404, 10014, "Unknown Emoji")


def check_name(form: FormErrors, body: dict[str, Any], *, required: bool) -> str | None:
    """The name, if it is 2-32 letters, digits or underscores (errors recorded otherwise)."""
    name = body.get("name")
    if name is None:
        if required:
            form.required(("name",))
        return None
    if not isinstance(name, str):
        form.add(("name",), "BASE_TYPE_STRING", "Must be a string.")
        return None
    if not NAME_MIN <= len(name) <= NAME_MAX:
        form.bad_length(("name",), NAME_MIN, NAME_MAX)
    elif not _NAME.fullmatch(name):
        form.add(("name",), "STRING_TYPE_REGEX", "String value did not match validation regex.")
    return name


def check_image(form: FormErrors, body: dict[str, Any]) -> tuple[bytes, str] | None:
    """The image bytes and type from a data URI (errors recorded otherwise)."""
    image = body.get("image")
    if image is None:
        form.required(("image",))
        return None
    found = _DATA_URI.fullmatch(image) if isinstance(image, str) else None
    data = b""
    if found is not None:
        try:
            data = base64.b64decode(found[2], validate=True)
        except (binascii.Error, ValueError):
            found = None
    if found is None or not _MAGIC[found[1]](data):
        form.add(("image",), "IMAGE_INVALID", "Invalid image data")
        return None
    if len(data) > IMAGE_MAX_BYTES:
        form.add(("image",), "BINARY_TYPE_MAX_SIZE", "File cannot be larger than 256.0 kb.")
        return None
    return data, found[1]


def _application(fake: FakeDiscord, call: Call) -> None:
    if snowflake(call.params["application_id"], "application_id") != fake.application_id:
        raise errors.missing_access()


def _emoji(fake: FakeDiscord, call: Call) -> FakeEmoji:
    _application(fake, call)
    emoji = fake.app_emojis.get(snowflake(call.params["emoji_id"], "emoji_id"))
    if emoji is None:
        raise unknown_emoji()
    return emoji


def _object_body(call: Call) -> dict[str, Any]:
    if not isinstance(call.body, dict):
        raise errors.invalid_form_body(
            {"_errors": [{"code": "DICT_TYPE_CONVERT", "message": "Only dictionaries may be used"}]}
        )
    return call.body


def _is_taken(fake: FakeDiscord, name: str, but: FakeEmoji | None = None) -> bool:
    return any(e.name == name and e is not but for e in fake.app_emojis.values())


@route("GET", "/applications/{application_id}/emojis")
async def list_emojis(fake: FakeDiscord, call: Call) -> Reply:
    """``{"items": [...]}``: every emoji of the application."""
    _application(fake, call)
    return Reply({"items": [e.to_dict(fake) for e in fake.app_emojis.values()]})


@route("POST", "/applications/{application_id}/emojis")
async def create_emoji(fake: FakeDiscord, call: Call) -> Reply:
    """Upload an emoji: 201 with the emoji, or Discord's refusal."""
    _application(fake, call)
    body = _object_body(call)
    form = FormErrors()
    name = check_name(form, body, required=True)
    image = check_image(form, body)
    form.raise_if_any()
    assert name is not None
    assert image is not None
    if _is_taken(fake, name):
        raise name_taken()
    if len(fake.app_emojis) >= APPLICATION_EMOJIS_MAX:
        raise too_many_emojis()
    emoji = FakeEmoji(fake.snowflake(), name, image[0], image[1])
    fake.app_emojis[emoji.id] = emoji
    return Reply(emoji.to_dict(fake), status=201)


@route("GET", "/applications/{application_id}/emojis/{emoji_id}")
async def get_emoji(fake: FakeDiscord, call: Call) -> Reply:
    """One emoji of the application."""
    return Reply(_emoji(fake, call).to_dict(fake))


@route("PATCH", "/applications/{application_id}/emojis/{emoji_id}")
async def edit_emoji(fake: FakeDiscord, call: Call) -> Reply:
    """Rename an emoji (the name is the only field)."""
    emoji = _emoji(fake, call)
    form = FormErrors()
    name = check_name(form, _object_body(call), required=False)
    form.raise_if_any()
    if name is not None:
        if _is_taken(fake, name, but=emoji):
            raise name_taken()
        emoji.name = name
    return Reply(emoji.to_dict(fake))


@route("DELETE", "/applications/{application_id}/emojis/{emoji_id}")
async def delete_emoji(fake: FakeDiscord, call: Call) -> Reply:
    """Delete an emoji: 204."""
    emoji = _emoji(fake, call)
    del fake.app_emojis[emoji.id]
    return Reply(None)


# -- the CDN ------------------------------------------------------------------------------------

_FORMATS: Final = {"png": ("PNG", "image/png"), "webp": ("WEBP", "image/webp")}


async def serve_image(fake: FakeDiscord, request: web.Request) -> web.Response:
    """``GET /emojis/{id}.png`` (or ``.webp``): the image as Discord's CDN serves it."""
    stem, _, extension = request.match_info["file"].rpartition(".")
    emoji = fake.app_emojis.get(int(stem)) if stem.isdigit() else None
    if emoji is None or extension not in _FORMATS:
        return web.Response(status=404, text="404: Not Found")
    pillow_format, content_type = _FORMATS[extension]
    data = emoji.image
    if content_type != emoji.content_type:
        data = _convert(data, pillow_format)
    return web.Response(body=data, headers={"Content-Type": content_type})


def _convert(data: bytes, pillow_format: str) -> bytes:
    """Re-encode an image (Discord's CDN serves every emoji as PNG or WebP alike)."""
    from PIL import Image  # a development dependency: only the CDN route needs it

    out = io.BytesIO()
    with Image.open(io.BytesIO(data)) as image:
        image.save(out, format=pillow_format)
    return out.getvalue()


# -- custom emojis in messages ------------------------------------------------------------------


def message_texts(message: FakeMessage) -> list[str]:
    """Every piece of a message where a custom emoji shows as a picture."""
    texts = [message.content]
    for embed in message.embeds:
        texts += [embed.get("title") or "", embed.get("description") or ""]
        texts += [(embed.get("footer") or {}).get("text") or ""]
        texts += [(embed.get("author") or {}).get("name") or ""]
        for fld in embed.get("fields") or []:
            texts += [fld.get("name") or "", fld.get("value") or ""]
    return texts


def check_message_emojis(fake: FakeDiscord, message: FakeMessage) -> None:
    """Flag each custom emoji that is neither the application's nor a shared guild's."""
    usable = set(fake.app_emojis)
    for guild in fake.guilds.values():
        if fake.bot_user.id in guild.members:
            usable.update(guild.emojis)
    for text in message_texts(message):
        for found in CUSTOM_EMOJI.finditer(text):
            if int(found[3]) not in usable:
                fake.foreign_emojis.append(ForeignEmoji(message.id, found[0]))
