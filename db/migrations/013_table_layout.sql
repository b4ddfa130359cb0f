-- How each server's table messages are laid out: 'embed' (one embed) or 'components'
-- (a Components V2 message). NULL means the code's default ('embed').
ALTER TABLE guild_settings ADD COLUMN layout TEXT;
