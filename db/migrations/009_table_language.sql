-- Each server's language for its table messages: 'server' (the server's preferred
-- locale) or a Discord locale code the bot speaks ('en-US', 'es-ES', 'pt-BR').
-- NULL means the code's default ('server').
ALTER TABLE guild_settings ADD COLUMN language TEXT;
