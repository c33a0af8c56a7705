-- Hashtags and mentions of a post, as the client sent them (without duplicates); the
-- publisher adds the missing ones to the text on the platforms that take them
-- (docs/decisions/0022-hashtags-and-mentions.md).
ALTER TABLE posts ADD COLUMN hashtags text[] NOT NULL DEFAULT '{}';
ALTER TABLE posts ADD COLUMN mentions text[] NOT NULL DEFAULT '{}';
