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

-- A link holds in the server whose admin made it, and only there: play_links has a row
-- per linked account and server, and the accounts of one group_id are one person's
-- there. Their limits are no longer merged into one row: each account keeps the limits
-- its player set, and a server reads the stricter of each across its group.
CREATE TABLE play_links (
    guild_id BIGINT NOT NULL,
    user_id BIGINT NOT NULL,
    group_id BIGINT NOT NULL,
    PRIMARY KEY (guild_id, user_id)
);

CREATE INDEX play_links_by_group ON play_links (guild_id, group_id);

-- Links made before: each account of a group is linked again in every server whose
-- log shows a link naming it, in the group it was in.
INSERT INTO play_links (guild_id, user_id, group_id)
    SELECT DISTINCT m.guild_id, l.user_id, l.principal_id
    FROM play_limits l
    JOIN play_moderation m
        ON m.action = 'link' AND (m.user_id = l.user_id OR m.other_id = l.user_id)
    WHERE l.principal_id <> l.user_id
        OR EXISTS (
            SELECT 1 FROM play_limits o WHERE o.principal_id = l.user_id AND o.user_id <> l.user_id
        )
    ON CONFLICT (guild_id, user_id) DO NOTHING;

-- Each account of a group keeps the group's limits as its own (nobody's are loosened),
-- and becomes its own principal.
UPDATE play_limits SET (
    daily_loss, daily_loss_next, daily_loss_next_at, session_s, session_s_next,
    session_s_next_at, excluded_until, until_admin
) = (
    SELECT p.daily_loss, p.daily_loss_next, p.daily_loss_next_at, p.session_s,
        p.session_s_next, p.session_s_next_at, p.excluded_until, p.until_admin
    FROM play_limits p WHERE p.user_id = play_limits.principal_id
)
WHERE principal_id <> user_id;

UPDATE play_limits SET principal_id = user_id WHERE principal_id <> user_id;
