-- A server's bridge to UnbelievaBoat's economy: the application token its owner gave and
-- the rate (rate_chips chips for rate_cash of its cash). A server without a row plays with
-- the bot's own chips.
CREATE TABLE economy_bridges (
    guild_id BIGINT PRIMARY KEY,
    token TEXT NOT NULL,
    rate_cash BIGINT NOT NULL DEFAULT 1 CHECK (rate_cash > 0),
    rate_chips BIGINT NOT NULL DEFAULT 1 CHECK (rate_chips > 0),
    connected_by BIGINT NOT NULL,
    connected_at BIGINT NOT NULL
);

-- Each move between the two books, written 'pending' before UnbelievaBoat is called, with
-- the member's cash read just before (cash_before): an unknown outcome is told by reading
-- the cash again. 'held': the cash matched neither outcome, an admin settles it.
CREATE TABLE bridge_transfers (
    id IDENTITY,
    guild_id BIGINT NOT NULL,
    user_id BIGINT NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('cash_in', 'cash_out')),
    cash BIGINT NOT NULL CHECK (cash > 0),
    chips BIGINT NOT NULL CHECK (chips > 0),
    cash_before BIGINT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('pending', 'held', 'done', 'rolled_back')),
    cash_after BIGINT,
    created_at BIGINT NOT NULL,
    settled_at BIGINT,
    settled_by BIGINT
);

CREATE INDEX bridge_transfers_open ON bridge_transfers (guild_id, status);

-- The ledger's kinds grow by three: chips bought with cash (cash_in), chips paid out as
-- cash (cash_out), and a cash-out's chips given back when UnbelievaBoat refused it
-- (cash_return). PostgreSQL changes the check in place; SQLite rebuilds the ledger with it,
-- ids, indexes and all (db/table_rebuild.py).
ALTER TABLE ledger DROP CONSTRAINT ledger_check, ADD CONSTRAINT ledger_check CHECK (
    (kind IN ('bet', 'double', 'split', 'insurance', 'side_bet') AND delta < 0
        AND round_id IS NOT NULL)
    OR (kind IN ('payout', 'refund', 'side_payout') AND delta > 0 AND round_id IS NOT NULL)
    OR (kind IN ('grant', 'daily', 'cash_in', 'cash_return') AND delta > 0)
    OR (kind = 'cash_out' AND delta < 0)
    OR (kind = 'admin' AND delta <> 0 AND actor_id IS NOT NULL)
);
