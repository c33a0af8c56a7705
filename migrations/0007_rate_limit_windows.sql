-- Each rate-limit counter carries the length of its window, so that old windows are
-- pruned by their own length (sign-in windows last 15 minutes, API windows one minute)
-- rather than by one age for every kind (src/storage/rate-limit-counters.ts).
ALTER TABLE rate_limit_counters ADD COLUMN window_ms int NOT NULL DEFAULT 60000;
UPDATE rate_limit_counters SET window_ms = 900000 WHERE key LIKE 'login:%';
