-- One open table per channel, enforced by the database.
--
-- A table whose write failed used to be dropped from memory while it stayed
-- open in the store, and /blackjack start then opened a second one in its
-- channel. Of such a pair the table changed last keeps the channel; the others
-- are marked closed here, and their rounds, which no open table owns any
-- more, are voided and refunded (with ledger rows) when the bot starts
-- (Store.recover).

UPDATE live_tables SET status = 'closed'
WHERE status = 'open' AND EXISTS (
    SELECT 1 FROM live_tables AS other
    WHERE other.status = 'open'
      AND other.channel_id = live_tables.channel_id
      AND (other.updated_at > live_tables.updated_at
           OR (other.updated_at = live_tables.updated_at
               AND other.table_id > live_tables.table_id))
);

CREATE UNIQUE INDEX live_tables_one_per_channel ON live_tables (channel_id)
    WHERE status = 'open';
