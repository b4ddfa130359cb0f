-- A void round's stakes that could not be refunded because the refund would have taken a
-- player past the chip ceiling (MAX_BALANCE): recorded, so the round's books still add up
-- (refunds + unrefunded = stakes less the side bets settled at the deal).
ALTER TABLE rounds ADD COLUMN unrefunded BIGINT NOT NULL DEFAULT 0 CHECK (unrefunded >= 0);
