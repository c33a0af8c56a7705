-- Profile-scoped API keys (docs/decisions/0063-validation-error-categories-scoped-keys.md): a key
-- limited to some profiles, as a team member invited with scope "profiles" is. NULL: the key
-- reaches every profile its user does (scope "full"); otherwise only these profiles (and, for a
-- team member's key, only those of them the member may see).
ALTER TABLE api_keys ADD COLUMN profile_ids char(24)[];
