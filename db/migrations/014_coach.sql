-- The coach: every decision of a settled round graded exactly, in the strategy worker,
-- from the round's journal (table_actions). A round is graded once: coach_rounds marks
-- it graded (with no decision row when nobody decided anything), and a settled round
-- without its mark is graded after a restart. Rounds this schema finds closed are
-- marked graded as they stand: the coach's figures start with it.
CREATE TABLE coach_rounds (
    round_id BIGINT PRIMARY KEY REFERENCES rounds (id),
    guild_id BIGINT NOT NULL,
    graded_at BIGINT NOT NULL
);

INSERT INTO coach_rounds (round_id, guild_id, graded_at)
    SELECT id, guild_id, COALESCE(closed_at, opened_at) FROM rounds WHERE status <> 'open';

-- One graded decision: in the round's order (id), with what the coach shows of it.
CREATE TABLE coach_decisions (
    id IDENTITY,
    round_id BIGINT NOT NULL REFERENCES rounds (id),
    guild_id BIGINT NOT NULL,
    user_id BIGINT NOT NULL,
    -- The round's settlement (rounds.closed_at): the season the decision counts in.
    settled_at BIGINT NOT NULL,
    -- JSON: the hand's cards, the up card and each legal choice's value per chip bet.
    detail TEXT NOT NULL,
    chosen TEXT NOT NULL,
    best TEXT NOT NULL,
    -- The hand's stake, and what the choice gave away in millionths of it (0: the best).
    stake BIGINT NOT NULL CHECK (stake > 0),
    cost_ppm BIGINT NOT NULL CHECK (cost_ppm >= 0)
);

CREATE INDEX coach_decisions_by_player ON coach_decisions (guild_id, user_id, round_id);
CREATE INDEX coach_decisions_by_time ON coach_decisions (guild_id, settled_at);

-- A player's coach settings in a server: teach (1) sends a private note after a round.
CREATE TABLE coach_settings (
    guild_id BIGINT NOT NULL,
    user_id BIGINT NOT NULL,
    teach INTEGER NOT NULL DEFAULT 0 CHECK (teach IN (0, 1)),
    PRIMARY KEY (guild_id, user_id)
);

-- A practice table's count quiz: each player's answer once per finished shoe (its
-- commitment), with the shoe's true final Hi-Lo running count. Kept apart from play.
CREATE TABLE count_quiz_answers (
    guild_id BIGINT NOT NULL,
    user_id BIGINT NOT NULL,
    shoe TEXT NOT NULL,
    answer BIGINT NOT NULL,
    running_count BIGINT NOT NULL,
    answered_at BIGINT NOT NULL,
    PRIMARY KEY (guild_id, user_id, shoe)
);

-- 1: every table opened in the server is a practice table (a counting trainer); NULL or 0:
-- only those opened with practice:True.
ALTER TABLE guild_settings ADD COLUMN practice_tables BIGINT;
