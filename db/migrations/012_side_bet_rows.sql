-- A server's side bets are rows, one per bet it offers, with its pay table: a new bet
-- needs no column and no CHECK of its own. Today's three columns are carried over and
-- dropped; the limits (side_min_bet, side_max_bet, side_max_edge_pct) stay the server's.
CREATE TABLE guild_side_bets (
    guild_id BIGINT NOT NULL,
    bet TEXT NOT NULL,
    pay_table TEXT NOT NULL,
    PRIMARY KEY (guild_id, bet)
);

INSERT INTO guild_side_bets (guild_id, bet, pay_table)
    SELECT guild_id, '21+3', side_21plus3 FROM guild_settings WHERE side_21plus3 IS NOT NULL;
INSERT INTO guild_side_bets (guild_id, bet, pay_table)
    SELECT guild_id, 'perfect-pairs', side_perfect_pairs FROM guild_settings
    WHERE side_perfect_pairs IS NOT NULL;
INSERT INTO guild_side_bets (guild_id, bet, pay_table)
    SELECT guild_id, 'buster', side_buster FROM guild_settings WHERE side_buster IS NOT NULL;

ALTER TABLE guild_settings DROP COLUMN side_21plus3;
ALTER TABLE guild_settings DROP COLUMN side_perfect_pairs;
ALTER TABLE guild_settings DROP COLUMN side_buster;

-- A side bet's result names any bet of the code's registry: the CHECK listing three goes.
-- PostgreSQL drops it in place; SQLite copies the table, ids and all, into one without it.
/* postgresql only */ ALTER TABLE side_bet_results DROP CONSTRAINT side_bet_results_bet_check;

/* sqlite only */ CREATE TABLE side_bet_results_any_bet (
    id INTEGER PRIMARY KEY,
    round_id BIGINT NOT NULL REFERENCES rounds (id),
    guild_id BIGINT NOT NULL,
    user_id BIGINT NOT NULL,
    spot INTEGER NOT NULL,
    bet TEXT NOT NULL,
    pay_table TEXT NOT NULL,
    category TEXT,
    wagered BIGINT NOT NULL CHECK (wagered > 0),
    payout BIGINT NOT NULL CHECK (payout >= 0),
    FOREIGN KEY (guild_id, user_id) REFERENCES accounts (guild_id, user_id)
);

/* sqlite only */ INSERT INTO side_bet_results_any_bet
    SELECT id, round_id, guild_id, user_id, spot, bet, pay_table, category, wagered, payout
    FROM side_bet_results ORDER BY id;

/* sqlite only */ DROP TABLE side_bet_results;

/* sqlite only */ ALTER TABLE side_bet_results_any_bet RENAME TO side_bet_results;

/* sqlite only */ CREATE INDEX side_bet_results_by_player ON side_bet_results (guild_id, user_id);
