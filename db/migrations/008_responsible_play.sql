-- Play responsibly: player limits, self-exclusion, linked accounts, the no-value
-- notice, and the server gates.
--
-- A player's limits are theirs wherever they play with this bot: set in one server,
-- they hold in every server, and a day's losses count every server's chips (so a
-- limit reached at a table of one shard refuses a bet at a table of another).
-- play_limits has a row per player who set a limit, was linked, or saw the notice.
-- principal_id names the row whose limits count for the player: their own, or, for
-- linked accounts, one row shared by the whole group (the smallest user id of it).
-- A raise or a removal waits: the *_next columns hold the value and *_next_at when it
-- applies (NULL: nothing pending). Times are microseconds since the epoch, UTC.

CREATE TABLE play_limits (
    user_id BIGINT PRIMARY KEY,
    principal_id BIGINT NOT NULL,
    -- Chips a day (UTC) the player may lose, net of returns; NULL: no limit.
    daily_loss BIGINT CHECK (daily_loss > 0),
    daily_loss_next BIGINT CHECK (daily_loss_next > 0),
    daily_loss_next_at BIGINT,
    -- Seconds of play before a reality check; NULL: none.
    session_s BIGINT CHECK (session_s > 0),
    session_s_next BIGINT CHECK (session_s_next > 0),
    session_s_next_at BIGINT,
    -- Excluded until then; until_admin = 1: until an admin lifts it.
    excluded_until BIGINT,
    until_admin INTEGER NOT NULL DEFAULT 0 CHECK (until_admin IN (0, 1)),
    -- The session the reality check measures: when it began, and the last bet in it.
    session_started_at BIGINT,
    last_bet_at BIGINT,
    -- When the player was shown the notice that chips have no value (once).
    notice_shown_at BIGINT,
    updated_at BIGINT NOT NULL
);

CREATE INDEX play_limits_by_principal ON play_limits (principal_id);

-- Append-only: every link, unlink and lifted exclusion, with the moderator and the reason.
CREATE TABLE play_moderation (
    id IDENTITY,
    guild_id BIGINT NOT NULL,
    user_id BIGINT NOT NULL,
    other_id BIGINT,
    action TEXT NOT NULL CHECK (action IN ('link', 'unlink', 'lift')),
    actor_id BIGINT NOT NULL,
    reason TEXT NOT NULL,
    created_at BIGINT NOT NULL
);

CREATE INDEX play_moderation_by_user ON play_moderation (guild_id, user_id, id);

-- A day's losses are summed from the ledger by player and time, over every server.
CREATE INDEX ledger_by_player_time ON ledger (user_id, created_at);

-- The server gates (NULL: the code's default).
ALTER TABLE guild_settings ADD COLUMN min_account_age_days BIGINT;
ALTER TABLE guild_settings ADD COLUMN table_channels TEXT;
ALTER TABLE guild_settings ADD COLUMN play_role_id BIGINT;
ALTER TABLE guild_settings ADD COLUMN play_stopped BIGINT;
