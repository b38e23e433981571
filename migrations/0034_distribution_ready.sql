-- The schema stays ready to be sharded by tenant (docs/deployment.md, "Sharding"; the rule is
-- test/db/distribution.test.ts): a tenant table keeps a key unique only within its tenant, since
-- a table distributed by marketplace_id cannot hold a unique index without it.
--
-- onboarding_links had a unique index on id alone, for the simulated processor's onboarding page,
-- which finds a link by its id (the page has no API key, so no tenant is known). The primary key
-- (marketplace_id, mode, id) keeps an id unique within its tenant; across tenants an id is unique
-- by construction (48 bits of milliseconds and 80 random bits, src/ids.ts). The page's lookup by
-- id keeps an index, now not unique.
CREATE INDEX onboarding_links_id_idx ON onboarding_links (id);
DROP INDEX onboarding_links_id_key;
