-- The bridge's automatic transfers (issue 42), each off (NULL or 0) by default and used
-- only while the server is connected to UnbelievaBoat:
-- bridge_buy_in: a player who sits down with fewer chips than this buys the difference;
-- bridge_cash_out_on_leave: 1, a player's chips go back as cash when they leave a table;
-- bridge_idle_cash_out_min: a player's chips go back as cash after this many minutes
-- without a bet, a payout or a transfer.
ALTER TABLE guild_settings ADD COLUMN bridge_buy_in BIGINT;

ALTER TABLE guild_settings ADD COLUMN bridge_cash_out_on_leave BIGINT;

ALTER TABLE guild_settings ADD COLUMN bridge_idle_cash_out_min BIGINT;
