-- Side bets: 21+3, Perfect Pairs and Buster Blackjack.
--
-- Each server chooses which side bets its new tables offer, and at what pay
-- table (NULL: off, the default) and limits (NULL: the code's defaults). A side
-- bet is staked as a ledger row of kind 'side_bet' in the transaction of the
-- main bet, and what it wins is credited at the round's settlement as a row of
-- kind 'side_payout'. A voided round refunds it with the main bet.

ALTER TABLE guild_settings ADD COLUMN side_21plus3 TEXT;
ALTER TABLE guild_settings ADD COLUMN side_perfect_pairs TEXT;
ALTER TABLE guild_settings ADD COLUMN side_buster TEXT;
ALTER TABLE guild_settings ADD COLUMN side_min_bet BIGINT;
ALTER TABLE guild_settings ADD COLUMN side_max_bet BIGINT;

-- How each side bet of a settled round ended, for /stats (kept apart from hand_results).
CREATE TABLE side_bet_results (
    id IDENTITY,
    round_id BIGINT NOT NULL REFERENCES rounds (id),
    guild_id BIGINT NOT NULL,
    user_id BIGINT NOT NULL,
    spot INTEGER NOT NULL,
    bet TEXT NOT NULL CHECK (bet IN ('21+3', 'perfect-pairs', 'buster')),
    pay_table TEXT NOT NULL,
    -- The winning category, or NULL for a lost bet.
    category TEXT,
    wagered BIGINT NOT NULL CHECK (wagered > 0),
    payout BIGINT NOT NULL CHECK (payout >= 0),
    FOREIGN KEY (guild_id, user_id) REFERENCES accounts (guild_id, user_id)
);

CREATE INDEX side_bet_results_by_player ON side_bet_results (guild_id, user_id);

-- The ledger's kinds grow by two. PostgreSQL changes the check in place; SQLite
-- cannot, so it copies the ledger, ids and all, into a table with the new check.
/* postgresql only */ ALTER TABLE ledger DROP CONSTRAINT ledger_check;

/* postgresql only */ ALTER TABLE ledger ADD CONSTRAINT ledger_check CHECK (
    (kind IN ('bet', 'double', 'split', 'insurance', 'side_bet') AND delta < 0
        AND round_id IS NOT NULL)
    OR (kind IN ('payout', 'refund', 'side_payout') AND delta > 0 AND round_id IS NOT NULL)
    OR (kind IN ('grant', 'daily') AND delta > 0)
    OR (kind = 'admin' AND delta <> 0 AND actor_id IS NOT NULL)
);

/* sqlite only */ CREATE TABLE ledger_with_side_bets (
    id INTEGER PRIMARY KEY,
    guild_id BIGINT NOT NULL,
    user_id BIGINT NOT NULL,
    delta BIGINT NOT NULL,
    balance_after BIGINT NOT NULL CHECK (balance_after >= 0),
    kind TEXT NOT NULL,
    round_id BIGINT REFERENCES rounds (id),
    actor_id BIGINT,
    reason TEXT,
    created_at BIGINT NOT NULL,
    FOREIGN KEY (guild_id, user_id) REFERENCES accounts (guild_id, user_id),
    CHECK (
        (kind IN ('bet', 'double', 'split', 'insurance', 'side_bet') AND delta < 0
            AND round_id IS NOT NULL)
        OR (kind IN ('payout', 'refund', 'side_payout') AND delta > 0 AND round_id IS NOT NULL)
        OR (kind IN ('grant', 'daily') AND delta > 0)
        OR (kind = 'admin' AND delta <> 0 AND actor_id IS NOT NULL)
    )
);

/* sqlite only */ INSERT INTO ledger_with_side_bets
    SELECT id, guild_id, user_id, delta, balance_after, kind, round_id, actor_id, reason,
           created_at
    FROM ledger ORDER BY id;

/* sqlite only */ DROP TABLE ledger;

/* sqlite only */ ALTER TABLE ledger_with_side_bets RENAME TO ledger;

/* sqlite only */ CREATE INDEX ledger_by_account ON ledger (guild_id, user_id, id);

/* sqlite only */ CREATE INDEX ledger_by_round ON ledger (round_id, user_id)
    WHERE round_id IS NOT NULL;
