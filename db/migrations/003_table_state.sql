-- Durable tables: what a table needs to resume after any stop of the bot.
--
-- A table's document (seats, bets, settings, shoe, deadlines, message) is
-- rewritten whenever the table changes outside the cards (a bet, a join, a
-- settlement), in the same transaction as the ledger rows that change moves.
-- The cards of a round in play are not rewritten at every click: each
-- decision is one appended row of table_actions, and the round is rebuilt by
-- replaying them through the engine from the shoe state its 'deal' row holds.
-- Rounds a database of schema 001 left open have no table: start-up voids and
-- refunds them once, as before.

CREATE TABLE live_tables (
    table_id TEXT PRIMARY KEY,
    guild_id BIGINT NOT NULL,
    channel_id BIGINT NOT NULL,
    message_id BIGINT,
    -- The round being bet on or played (NULL between rounds).
    round_id BIGINT REFERENCES rounds (id),
    -- SHARD_COUNT of the process that wrote it (1 unsharded): a changed count is refused.
    shard_count INTEGER NOT NULL,
    status TEXT NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'closed')),
    state_json TEXT NOT NULL,
    updated_at BIGINT NOT NULL
);

CREATE INDEX live_tables_open ON live_tables (guild_id) WHERE status = 'open';

-- Append-only: the decisions of each round, in order ('deal' first).
CREATE TABLE table_actions (
    id IDENTITY,
    table_id TEXT NOT NULL,
    round_id BIGINT NOT NULL REFERENCES rounds (id),
    player TEXT NOT NULL,
    action TEXT NOT NULL,
    detail TEXT,
    at BIGINT NOT NULL
);

CREATE INDEX table_actions_by_round ON table_actions (round_id, id);
