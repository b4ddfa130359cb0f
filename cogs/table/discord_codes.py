"""The Discord error codes a table's message upkeep answers (Discord's JSON error codes)."""

from __future__ import annotations

from typing import Final

#: The table message can never be edited again: it, or its channel, is gone.
UNKNOWN_MESSAGE: Final = 10008
UNKNOWN_CHANNEL: Final = 10003
#: The bot lost sight of the channel, or a permission it needs there.
MISSING_ACCESS: Final = 50001
MISSING_PERMISSIONS: Final = 50013
#: Too many edits of a message older than an hour: the table needs a fresh message.
OLD_MESSAGE_EDITS: Final = 30046
#: The interaction was answered already: a retried answer whose first try Discord did
#: apply (and then answered 5xx). The presser saw that answer; nothing more to say.
ALREADY_ACKNOWLEDGED: Final = 40060
