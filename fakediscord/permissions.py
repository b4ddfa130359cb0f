"""Discord's permission bits, by name, and what @everyone may do in a fresh guild."""

from __future__ import annotations

#: Permission bits the fake checks or that tests commonly set (Discord's values).
PERMISSIONS: dict[str, int] = {
    "create_instant_invite": 1 << 0,
    "kick_members": 1 << 1,
    "ban_members": 1 << 2,
    "administrator": 1 << 3,
    "manage_channels": 1 << 4,
    "manage_guild": 1 << 5,
    "add_reactions": 1 << 6,
    "view_channel": 1 << 10,
    "send_messages": 1 << 11,
    "manage_messages": 1 << 13,
    "embed_links": 1 << 14,
    "attach_files": 1 << 15,
    "read_message_history": 1 << 16,
    "mention_everyone": 1 << 17,
    "use_external_emojis": 1 << 18,
    "manage_roles": 1 << 28,
    "use_application_commands": 1 << 31,
    "manage_threads": 1 << 34,
    "create_public_threads": 1 << 35,
    "create_private_threads": 1 << 36,
    "send_messages_in_threads": 1 << 38,
    # Public answers from apps a member installed to their own account (not the server's).
    "use_external_apps": 1 << 50,
}
ALL_PERMISSIONS = (1 << 51) - 1


def permission_bits(*names: str) -> int:
    """OR together permissions by name (``"send_messages"``, ``"embed_links"``, ...)."""
    bits = 0
    for name in names:
        try:
            bits |= PERMISSIONS[name]
        except KeyError:
            raise ValueError(f"unknown permission {name!r}; known: {sorted(PERMISSIONS)}") from None
    return bits


#: What @everyone may do in a fresh guild (Discord's defaults, the relevant part).
EVERYONE_DEFAULT = permission_bits(
    "create_instant_invite",
    "add_reactions",
    "view_channel",
    "send_messages",
    "embed_links",
    "attach_files",
    "read_message_history",
    "mention_everyone",
    "use_external_emojis",
    "use_application_commands",
    "create_public_threads",
    "create_private_threads",
    "send_messages_in_threads",
    "use_external_apps",
)
