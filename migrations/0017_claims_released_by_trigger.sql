-- Duplicate protection's claims lose their foreign key to posts. Its check ran a row-lock query
-- on posts for every claim of every create (about a tenth of the create statement's PostgreSQL
-- time: bench/README.md, 2026-11-24); a claim is only ever written by the statement inserting
-- its post (src/modules/posts/repository.ts). What the foreign key's ON DELETE CASCADE did, a
-- statement-level trigger does: deleting posts (one or many per statement) drops their claims
-- in the same statement, so their content can be posted again at once.
ALTER TABLE post_content_claims DROP CONSTRAINT post_content_claims_post_id_fkey;

CREATE FUNCTION post_claims_release() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM post_content_claims c USING old_posts o WHERE c.post_id = o.id;
  RETURN NULL;
END $$;

CREATE TRIGGER posts_release_claims AFTER DELETE ON posts
  REFERENCING OLD TABLE AS old_posts FOR EACH STATEMENT EXECUTE FUNCTION post_claims_release();
