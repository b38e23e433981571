// PUT and GET /v1/listings/{id}/availability, GET /v1/listings/{id}/timeslots (docs/bookings.md).
import { IdParams } from '../../http/schemas.js';
import type { RouteModule } from '../../contracts/wiring.js';
import { Availability, PutAvailabilityBody, TimeslotList, TimeslotsQuery } from '../../modules/bookings/index.js';
import { listListingTimeslots, readListingAvailability, setListingAvailability } from '../listing-availability.js';

export const putAvailabilityRoute: RouteModule = (app) => {
  app.put(
    '/listings/:id/availability',
    {
      schema: {
        tags: ['Availability'],
        summary: "Set a listing's availability",
        description:
          'Replaces the availability of a listing of unit_type day or time: an IANA time zone, weekly rules (days, local start and end; a day ' +
          "listing's rules name days only: whole days), exceptions that open or close time (dates are local midnights), buffer_minutes kept free " +
          'after each booking, min_notice_minutes, max_advance_days. Bookings already made keep their time. An item listing, or a removed one, answers 409 `invalid_state`.',
        params: IdParams,
        body: PutAvailabilityBody,
        response: { 200: Availability },
      },
    },
    async (request) => setListingAvailability(request.ctx, request.params.id, request.body),
  );
};

export const getAvailabilityRoute: RouteModule = (app) => {
  app.get(
    '/listings/:id/availability',
    {
      schema: {
        tags: ['Availability'],
        summary: "Retrieve a listing's availability",
        description: "Exceptions carry their times in UTC and in the listing's time zone. A listing whose availability was never set offers nothing (`updated_at` null). With a publishable key only a published listing is found. An item listing answers 409 `invalid_state`.",
        params: IdParams,
        response: { 200: Availability },
      },
    },
    async (request) => readListingAvailability(request.ctx, request.params.id),
  );
};

export const listTimeslotsRoute: RouteModule = (app) => {
  app.get(
    '/listings/:id/timeslots',
    {
      schema: {
        tags: ['Availability'],
        summary: "List a listing's bookable time slots",
        description:
          'The slots that start in [start, end) (at most 90 days) with at least `seats` seats free, by start: computed from the rules, ' +
          'exceptions, bookings and their buffers, the notice and the horizon, on the mode\'s clock. A day listing\'s slot is one local day ' +
          "(23 or 25 hours across a clock change); a time listing's lasts slot_minutes. Paged by `starting_after` (the previous page's next_cursor, a slot's start). An item listing answers 409 `invalid_state`.",
        params: IdParams,
        querystring: TimeslotsQuery,
        response: { 200: TimeslotList },
      },
    },
    async (request) => listListingTimeslots(request.ctx, request.params.id, request.query),
  );
};
