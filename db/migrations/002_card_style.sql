-- Each server's choice of how tables show cards: 'pictures' (the bot's card emojis)
-- or 'text'. NULL means the code's default (pictures).
ALTER TABLE guild_settings ADD COLUMN card_style TEXT;
