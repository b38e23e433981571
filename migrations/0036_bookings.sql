-- Bookings (issue 37): listings that sell time. A listing's unit (item: counted units, as before;
-- day: nights, dates end exclusive; time: slots of slot_minutes) and its seats; its availability
-- (a time zone, weekly rules, exceptions, buffer, notice, horizon); an order's booking; and the
-- reserved intervals, one row per seat an order holds, under an exclusion constraint so that no
-- two bookings can ever hold the same seat of a listing at the same instant (docs/bookings.md,
-- docs/decisions/bookings.md). btree_gist lets the constraint compare the text columns with = in
-- the same GiST index as the range's &&.
CREATE EXTENSION IF NOT EXISTS btree_gist;

ALTER TABLE listings
  ADD COLUMN unit_type text NOT NULL DEFAULT 'item' CHECK (unit_type IN ('item', 'day', 'time')),
  ADD COLUMN seats integer NOT NULL DEFAULT 1 CHECK (seats BETWEEN 1 AND 1000),
  ADD COLUMN slot_minutes integer CHECK (slot_minutes BETWEEN 5 AND 1440);
ALTER TABLE listings ADD CONSTRAINT listings_slot_minutes_of_time CHECK ((unit_type = 'time') = (slot_minutes IS NOT NULL));

-- An order of a listing that sells time holds no counted units ('none'); its time is in
-- booked_seats while it is open, and its booking (fixed at creation, like its amounts) is here.
ALTER TABLE orders DROP CONSTRAINT orders_units_check;
ALTER TABLE orders ADD CONSTRAINT orders_units_check CHECK (units IN ('reserved', 'returned', 'sold', 'none'));
ALTER TABLE orders
  ADD COLUMN booking_start timestamptz(3),
  ADD COLUMN booking_end timestamptz(3),
  ADD COLUMN booking_seats integer,
  ADD COLUMN booking_time_zone text;
ALTER TABLE orders ADD CONSTRAINT orders_booking_whole CHECK (
  (booking_start IS NULL AND booking_end IS NULL AND booking_seats IS NULL AND booking_time_zone IS NULL)
  OR (booking_start < booking_end AND booking_seats >= 1 AND booking_time_zone IS NOT NULL));

-- A listing's availability: one row per listing that sells time (its rules and exceptions as
-- JSON, the exceptions' times in UTC). The row is also the lock a booking takes before it picks
-- its seats (FOR UPDATE), so bookings of one listing pick in turn.
CREATE TABLE listing_availability (
  marketplace_id text NOT NULL,
  mode text NOT NULL,
  listing_id text NOT NULL,
  time_zone text NOT NULL,
  rules jsonb NOT NULL,
  exceptions jsonb NOT NULL,
  buffer_minutes integer NOT NULL CHECK (buffer_minutes BETWEEN 0 AND 10080),
  min_notice_minutes integer NOT NULL CHECK (min_notice_minutes BETWEEN 0 AND 525600),
  max_advance_days integer NOT NULL CHECK (max_advance_days BETWEEN 1 AND 1095),
  created_at timestamptz(3) NOT NULL,
  updated_at timestamptz(3) NOT NULL,
  PRIMARY KEY (marketplace_id, mode, listing_id),
  FOREIGN KEY (marketplace_id, mode, listing_id) REFERENCES listings (marketplace_id, mode, id)
);

-- The time an open booking holds: one row per seat, `during` = [start, end + the buffer). The
-- exclusion constraint is the guarantee: one seat index of a listing is never held twice at the
-- same instant, whatever the code above it does, so a listing of n seats never has more than n
-- bookings' seats at an instant. A booking picks the lowest free indexes under the listing's lock.
CREATE TABLE booked_seats (
  marketplace_id text NOT NULL,
  mode text NOT NULL,
  order_id text NOT NULL,
  seat_index integer NOT NULL CHECK (seat_index >= 0),
  listing_id text NOT NULL,
  during tstzrange NOT NULL CHECK (NOT isempty(during)),
  PRIMARY KEY (marketplace_id, mode, order_id, seat_index),
  FOREIGN KEY (marketplace_id, mode, order_id) REFERENCES orders (marketplace_id, mode, id),
  CONSTRAINT booked_seats_no_overlap EXCLUDE USING gist (marketplace_id WITH =, mode WITH =, listing_id WITH =, seat_index WITH =, during WITH &&)
);
