"""Settings a bot process started by a test runs with: none from the developer's .env."""

from __future__ import annotations

#: Settings a developer's .env might hold that would point the bot elsewhere (a set
#: variable, even empty, wins over .env).
NO_DOTENV = {"DEV_GUILD_ID": "", "SHARD_COUNT": "", "SHARD_IDS": "", "LOG_LEVEL": "INFO"}
