-- Seasons and achievements.
--
-- A season is a span of time [starts_at, ends_at) of one server. Its standings are
-- the net chips each player won in the rounds settled within it (rounds.closed_at),
-- from the ledger's stakes and payouts; grants, dailies and admin rows are not play.
-- One season per server is 'current'; when it ends it is archived once, with its
-- final standings copied into season_standings, and the next one starts where it ended.

-- 'week', 'month', 'quarter' or 'year' (calendar spans, UTC); NULL is a month.
ALTER TABLE guild_settings ADD COLUMN season_length TEXT;

CREATE TABLE seasons (
    guild_id BIGINT NOT NULL,
    -- "2026-11" (a month), "2026-W48", "2026-Q4", "2026".
    name TEXT NOT NULL,
    starts_at BIGINT NOT NULL,
    ends_at BIGINT NOT NULL CHECK (ends_at > starts_at),
    status TEXT NOT NULL DEFAULT 'current' CHECK (status IN ('current', 'archived')),
    archived_at BIGINT,
    PRIMARY KEY (guild_id, name)
);

-- One current season per server, even when two processes start one at once.
CREATE UNIQUE INDEX seasons_one_current ON seasons (guild_id) WHERE status = 'current';

CREATE TABLE season_standings (
    guild_id BIGINT NOT NULL,
    season TEXT NOT NULL,
    user_id BIGINT NOT NULL,
    net BIGINT NOT NULL,
    rounds BIGINT NOT NULL CHECK (rounds > 0),
    PRIMARY KEY (guild_id, season, user_id),
    FOREIGN KEY (guild_id, season) REFERENCES seasons (guild_id, name)
);

CREATE INDEX season_standings_by_net ON season_standings (guild_id, season, net DESC, user_id);
CREATE INDEX rounds_settled_by_time ON rounds (guild_id, closed_at) WHERE status = 'settled';

-- Each achievement once per player and server, with what earned it: a round, or
-- another source (a tournament) named in words.
CREATE TABLE achievements (
    guild_id BIGINT NOT NULL,
    user_id BIGINT NOT NULL,
    achievement TEXT NOT NULL,
    round_id BIGINT REFERENCES rounds (id),
    source TEXT NOT NULL,
    awarded_at BIGINT NOT NULL,
    PRIMARY KEY (guild_id, user_id, achievement)
);

-- A player's rounds, newest first, for streaks (blackjacks in a row).
CREATE INDEX hand_results_by_player_round ON hand_results (guild_id, user_id, round_id);
