-- Presigned uploads (docs/decisions/0066-presigned-uploads.md).
--
-- `media_uploads.flow`: 'tus' (the resumable client upload of POST /v1/media, decision 0009) or
-- 'presign' (POST /v1/media/presign: one PUT of the whole file). For a presigned upload `size` is
-- the largest size the PUT may have (the declared size, else 5 GB) and `storage_key` the key reserved
-- at presign time, so that the public URL answered then is the file's URL afterwards.
ALTER TABLE media_uploads ADD COLUMN flow text NOT NULL DEFAULT 'tus' CHECK (flow IN ('tus', 'presign'));
ALTER TABLE media_uploads ADD COLUMN storage_key text;
ALTER TABLE media_uploads ADD CONSTRAINT media_uploads_presign_key CHECK (flow = 'tus' OR storage_key IS NOT NULL);
-- S3 presigned uploads: the ETag of the object Herald checked, and when the cleanup saw it again after
-- the URL expired (an S3 presigned URL may PUT again within its hour; a changed object is checked again).
ALTER TABLE media_uploads ADD COLUMN object_etag text;
ALTER TABLE media_uploads ADD COLUMN rechecked_at timestamptz;
-- S3 presigned uploads are confirmed later (a HEAD of the key): the open ones per tenant.
CREATE INDEX media_uploads_presign_open_idx ON media_uploads (tenant_id, expires_at) WHERE flow = 'presign' AND status = 'pending';

-- Temporary files of POST /v1/media/upload-direct: stored under `storage_key`, not in the media
-- library (media_files), deleted with their row by the worker's hourly cleanup after `expires_at`
-- (7 days after the upload).
CREATE TABLE media_temp_files (
  id          char(24) PRIMARY KEY,
  tenant_id   char(24) NOT NULL,
  user_id     char(24) NOT NULL,
  storage_key text NOT NULL UNIQUE,
  filename    text NOT NULL,
  mime_type   text NOT NULL,
  size        bigint NOT NULL CHECK (size > 0),
  expires_at  timestamptz NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX media_temp_files_expiry_idx ON media_temp_files (expires_at);
