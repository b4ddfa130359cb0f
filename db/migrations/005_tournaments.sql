-- Tournaments: a live tournament's document, and what it left behind when it ended.
--
-- Tournament chips never touch the economy. Economy chips move only through the
-- tournament's prize pool, which is a round of its own (pool_round_id): an entry
-- fee (or the host's funding of the pool) is a 'bet' ledger row on that round, a
-- prize a 'payout' row, and a cancel voids the round, which refunds every fee
-- exactly once ('refund' rows). The pool round stays open while the tournament
-- is open, so start-up resumes it instead of voiding it.
--
-- A tournament's document (players, stacks, the hand in play, bets, deadlines,
-- its tables) is rewritten at every change, in the transaction of the ledger
-- rows that change moves.

CREATE TABLE tournaments (
    id IDENTITY,
    guild_id BIGINT NOT NULL,
    -- Where it was created: its first table.
    channel_id BIGINT NOT NULL,
    host_id BIGINT NOT NULL,
    status TEXT NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'finished', 'cancelled')),
    pool_round_id BIGINT NOT NULL REFERENCES rounds (id),
    state_json TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    closed_at BIGINT
);

CREATE INDEX tournaments_open ON tournaments (guild_id) WHERE status = 'open';

-- Final places of a finished tournament, one row a player (every table of a
-- duplicate tournament ranked together): place 1 won it.
CREATE TABLE tournament_places (
    tournament_id BIGINT NOT NULL REFERENCES tournaments (id),
    guild_id BIGINT NOT NULL,
    user_id BIGINT NOT NULL,
    channel_id BIGINT NOT NULL,
    place INTEGER NOT NULL CHECK (place >= 1),
    chips BIGINT NOT NULL CHECK (chips >= 0),
    -- The elimination hand the player went out after; NULL for those who lasted.
    out_after INTEGER,
    prize BIGINT NOT NULL DEFAULT 0 CHECK (prize >= 0),
    finished_at BIGINT NOT NULL,
    PRIMARY KEY (tournament_id, user_id)
);

CREATE INDEX tournament_places_by_player ON tournament_places (guild_id, user_id);

-- Every elimination hand at every table: each player still in, their stack at
-- the start of the hand and after it, and whether it put them out. "Survived an
-- elimination hand with the smallest stack" is a row with eliminated = 0 whose
-- chips_before is the smallest of its (tournament, channel, hand).
CREATE TABLE tournament_eliminations (
    tournament_id BIGINT NOT NULL REFERENCES tournaments (id),
    guild_id BIGINT NOT NULL,
    channel_id BIGINT NOT NULL,
    hand_no INTEGER NOT NULL,
    user_id BIGINT NOT NULL,
    chips_before BIGINT NOT NULL CHECK (chips_before >= 0),
    chips_after BIGINT NOT NULL CHECK (chips_after >= 0),
    eliminated INTEGER NOT NULL CHECK (eliminated IN (0, 1)),
    at BIGINT NOT NULL,
    PRIMARY KEY (tournament_id, channel_id, hand_no, user_id)
);

CREATE INDEX tournament_eliminations_by_player ON tournament_eliminations (guild_id, user_id);
