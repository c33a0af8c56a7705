-- Client uploads (POST /v1/media with a JSON body; docs/decisions/0009): a short-lived
-- token authorises resumable (tus) uploads of one declared file to /uploads/<id>.
-- The bytes are staged under <data dir>/uploads until the upload completes; then the
-- content type is checked against the bytes and the file moves to the media storage
-- backend, where it becomes a media_files row with the same id.
CREATE TABLE media_uploads (
  id             char(24) PRIMARY KEY,
  tenant_id      char(24) NOT NULL,
  user_id        char(24) NOT NULL,
  token_hash     bytea NOT NULL UNIQUE,          -- SHA-256 of the upload token; the token itself is never stored
  filename       text NOT NULL,
  content_type   text NOT NULL,                  -- as declared by the client (allow-listed)
  size           bigint NOT NULL CHECK (size > 0), -- declared size in bytes; the upload must be exactly this long
  status         text NOT NULL DEFAULT 'pending'
                 CHECK (status IN ('pending', 'uploading', 'processing', 'completed', 'failed', 'cancelled', 'expired')),
  error          text,
  media_file_id  char(24),
  expires_at     timestamptz NOT NULL,           -- the token is refused for new requests after this instant
  created_at     timestamptz NOT NULL DEFAULT now(),
  updated_at     timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX media_uploads_tenant_idx ON media_uploads (tenant_id, created_at DESC);
-- The sweep of abandoned uploads reads the unfinished ones by expiry.
CREATE INDEX media_uploads_open_idx ON media_uploads (expires_at) WHERE status IN ('pending', 'uploading');
