-- The dashboard's searches (issue 34): GET /v1/sellers and /v1/buyers ?name= (starts with,
-- case-insensitively) and ?email= (case-insensitively), GET /v1/listings ?title= (starts with).
-- A name prefix is `lower(name) LIKE 'ada%'`, which a text_pattern_ops index answers as a range
-- whatever the database's collation; the page is then the newest of those rows. A listing's title
-- changes only by PATCH, so a reservation's update (quantity_reserved) stays a HOT update.
CREATE INDEX sellers_name_prefix_idx ON sellers (marketplace_id, mode, lower(name) text_pattern_ops);
CREATE INDEX sellers_email_lower_idx ON sellers (marketplace_id, mode, lower(email));
CREATE INDEX buyers_name_prefix_idx ON buyers (marketplace_id, mode, lower(name) text_pattern_ops);
CREATE INDEX buyers_email_lower_idx ON buyers (marketplace_id, mode, lower(email));
CREATE INDEX listings_title_prefix_idx ON listings (marketplace_id, mode, lower(title) text_pattern_ops);
