-- The media library as a workspace (dashboard issue, item 15): uploads are deduplicated by
-- content (the SHA-256 of the bytes, per tenant: an identical upload answers the stored file)
-- and files carry free-form tags for searching. Rows from before this migration have no hash
-- and are never matched.
ALTER TABLE media_files ADD COLUMN content_hash bytea;
ALTER TABLE media_files ADD COLUMN tags text[] NOT NULL DEFAULT '{}';
CREATE INDEX media_files_content_hash_idx ON media_files (tenant_id, content_hash) WHERE content_hash IS NOT NULL;
