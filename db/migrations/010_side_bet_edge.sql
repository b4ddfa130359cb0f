-- The largest house edge, in whole percent, a side bet may have at a table of this
-- server: a table leaves off a side bet whose edge at its own rules is above it.
-- NULL means the code's default (25).
ALTER TABLE guild_settings ADD COLUMN side_max_edge_pct BIGINT;
