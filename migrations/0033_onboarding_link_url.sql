-- The URL an onboarding link answered (issue 33): the simulated processor's page URL carries a
-- random token beside the link id, and the page checks the token it is given against this stored
-- URL's (src/adapters/processors/simulated.ts). Links made before hold none: their simulated page
-- answers 404 (they end within an hour anyway). Stripe's account-link URL is kept too; erasure
-- deletes the seller's links with it.
ALTER TABLE onboarding_links ADD COLUMN url text;
