-- The largest house edge, in whole percent, a side bet may have at a table of this
-- server: a table leaves off a side bet whose edge at its own rules is above it.
-- NULL means the code's default (25).
ALTER TABLE guild_settings ADD COLUMN side_max_edge_pct BIGINT;

-- An admin's lift of a break "until an admin lifts it" holds in the admin's server
-- only: the break the player took holds everywhere else. A row per player and server
-- where it was lifted; a new such break the player takes clears them.
CREATE TABLE play_lifts (
    user_id BIGINT NOT NULL,
    guild_id BIGINT NOT NULL,
    lifted_at BIGINT NOT NULL,
    PRIMARY KEY (user_id, guild_id)
);
