"""Large JSON payloads: the application object and GUILD_CREATE."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from .gateway import GUILD_MEMBERS_INTENT
from .models import FakeGuild, iso

if TYPE_CHECKING:
    from .server import FakeDiscord


def application(fake: FakeDiscord) -> dict[str, Any]:
    """``GET /oauth2/applications/@me``."""
    return {
        "id": str(fake.application_id),
        "name": fake.bot_user.username,
        "icon": None,
        "description": "",
        "summary": "",
        "type": None,
        "hook": True,
        "bot_public": True,
        "bot_require_code_grant": False,
        "verify_key": "0" * 64,
        "owner": fake.owner_user.to_dict(),
        "team": None,
        "flags": fake.application_flags,
        "bot": fake.bot_user.to_dict(),
        "rpc_origins": [],
        "interactions_endpoint_url": None,
        "redirect_uris": [],
        "tags": [],
        "install_params": None,
        "integration_types_config": {str(kind): {} for kind in sorted(fake.installs)},
        "approximate_guild_count": len(fake.guilds),
    }


#: What GUILD_CREATE says the same of every fake guild (no icon, no boosts, no AFK channel).
_GUILD_PLAIN: Final[dict[str, Any]] = {
    "icon": None,
    "splash": None,
    "discovery_splash": None,
    "banner": None,
    "description": None,
    "afk_channel_id": None,
    "afk_timeout": 300,
    "verification_level": 0,
    "default_message_notifications": 0,
    "explicit_content_filter": 0,
    "mfa_level": 0,
    "nsfw_level": 0,
    "premium_tier": 0,
    "premium_subscription_count": 0,
    "premium_progress_bar_enabled": False,
    "system_channel_id": None,
    "system_channel_flags": 0,
    "rules_channel_id": None,
    "public_updates_channel_id": None,
    "safety_alerts_channel_id": None,
    "vanity_url_code": None,
    "max_members": 500000,
    "max_video_channel_users": 25,
    "application_id": None,
    "large": False,
    "unavailable": False,
    "lazy": True,
    "nsfw": False,
    "incidents_data": None,
}


def guild_create(fake: FakeDiscord, guild: FakeGuild, intents: int) -> dict[str, Any]:
    """GUILD_CREATE: the whole guild; members only with the GUILD_MEMBERS intent."""
    members = list(guild.members.values())
    if not intents & GUILD_MEMBERS_INTENT:
        members = [guild.members[fake.bot_user.id]]
    return {
        **_GUILD_PLAIN,
        "id": str(guild.id),
        "name": guild.name,
        "owner_id": str(guild.owner_id),
        "preferred_locale": guild.preferred_locale,
        "features": [],
        "roles": [r.to_dict() for r in guild.roles],
        "emojis": [_guild_emoji(emoji_id, name) for emoji_id, name in guild.emojis.items()],
        "stickers": [],
        "joined_at": iso(guild.created_at),
        "member_count": len(guild.members),
        "members": [m.to_dict() for m in members],
        "channels": [c.to_dict() for c in guild.text_channels()],
        "threads": [c.to_dict() for c in guild.threads()],
        "voice_states": [],
        "presences": [],
        "stage_instances": [],
        "guild_scheduled_events": [],
        "soundboard_sounds": [],
    }


def _guild_emoji(emoji_id: int, name: str) -> dict[str, Any]:
    return {
        "id": str(emoji_id),
        "name": name,
        "roles": [],
        "require_colons": True,
        "managed": False,
        "animated": False,
        "available": True,
    }
