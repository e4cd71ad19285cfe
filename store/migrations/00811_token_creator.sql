-- +goose Up
-- An API token is tied to the member who created it (NULL: created by the operator on the command
-- line): it works only while that person is still a member of its organization, with no more than
-- their current role allows, and removing the member revokes it. Existing tokens are tied to the
-- account of their created_by address; a token whose creator is not found, or is no longer a
-- member of the token's organization, is revoked now.
ALTER TABLE api_tokens ADD COLUMN created_by_user_id INTEGER REFERENCES users (id) ON DELETE CASCADE;
UPDATE api_tokens SET created_by_user_id = (SELECT u.id FROM users u WHERE u.email = lower(api_tokens.created_by))
WHERE created_by <> 'operator';
UPDATE api_tokens SET revoked_at = strftime('%Y-%m-%dT%H:%M:%SZ', 'now')
WHERE revoked_at IS NULL AND created_by <> 'operator' AND NOT EXISTS (SELECT 1 FROM organizer_members m
    WHERE m.organizer_id = api_tokens.organizer_id AND m.user_id = api_tokens.created_by_user_id);
CREATE INDEX api_tokens_creator ON api_tokens (organizer_id, created_by_user_id);

-- +goose Down
DROP INDEX api_tokens_creator;
ALTER TABLE api_tokens DROP COLUMN created_by_user_id;
