// Listing record and bodies. Types derive from them.
import { Type, type Static } from '@sinclair/typebox';
import { Amount, Body, Currency, ListOf, MAX_AMOUNT, Metadata, Nullable, PageQuery, StringEnum, Timestamp } from '../../http/schemas.js';
import { Media } from '../media/index.js';
import { LISTING_STATUSES } from './status.js';

export const LISTING_TITLE_MAX = 200;
export const LISTING_DESCRIPTION_MAX = 20_000;
export const LISTING_QUANTITY_MAX = 100_000;
export const REMOVE_REASON_MAX = 500;
export const BULK_MAX = 100;
export const ATTRIBUTE_VALUE_MAX = 500;
export const ATTRIBUTES_MAX = 50;

export const UNIT_TYPES = ['item', 'day', 'time'] as const;
export const LISTING_SEATS_MAX = 1000;
export const UnitTypeSchema = StringEnum(UNIT_TYPES, {
  description:
    'What the listing sells: `item` counted units (quantity; the default), `day` nights (a booking names dates, end exclusive; the price is per night), ' +
    '`time` slots of `slot_minutes` (a booking is one or more consecutive slots; the price is per slot). docs/bookings.md.',
});
const Seats = Type.Integer({ minimum: 1, maximum: LISTING_SEATS_MAX, description: 'How many bookings may hold the same time (1 for a flat, 12 for a class), 1 to 1000; day and time listings only.' });
const SlotMinutes = Type.Integer({ minimum: 5, maximum: 1440, description: "The length of a time listing's slot in minutes, 5 to 1440; required for `time`, refused for the others." });

export const ListingStatus = StringEnum(LISTING_STATUSES, { description: 'draft, published, sold, expired or removed.' });

export const Price = Type.Object(
  {
    amount: Amount,
    currency: Currency,
  },
  { additionalProperties: false, description: 'Minor units of the marketplace currency.', examples: [{ amount: 2500, currency: 'USD' }] },
);

const Title = Type.String({ minLength: 1, maxLength: LISTING_TITLE_MAX, pattern: '\\S', description: 'Up to 200 characters, not blank.' });
const Description = Nullable(Type.String({ maxLength: LISTING_DESCRIPTION_MAX, description: 'Up to 20000 characters.' }));
const Quantity = Type.Integer({ minimum: 1, maximum: LISTING_QUANTITY_MAX, description: 'Total units, 1 to 100000.' });

export const Attributes = Type.Record(
  Type.String({ minLength: 1, maxLength: 40 }),
  Type.String({ maxLength: ATTRIBUTE_VALUE_MAX }),
  {
    maxProperties: ATTRIBUTES_MAX,
    // TypeBox turns the key schema into patternProperties, which loses its bounds.
    propertyNames: { minLength: 1, maxLength: 40 },
    description:
      "Up to 50 values of up to 500 characters, as text. With a category they are checked against its attribute schema; an update replaces the whole object.",
    examples: [{ color: 'red', size_eu: '42' }],
  },
);

const ExpiresAt = Nullable(
  Type.String({
    format: 'date-time',
    description: 'When a published listing expires. Must be in the future (on the test clock in test mode), or null.',
    examples: ['2026-12-31T23:59:59.000Z'],
  }),
);

export const Listing = Type.Object(
  {
    object: Type.Literal('listing'),
    id: Type.String({ examples: ['lst_01jd3k5v8w9x0y1z2a3b4c5d6e'] }),
    seller: Type.String({ examples: ['sel_01jd3k5v8w9x0y1z2a3b4c5d6e'] }),
    category: Nullable(Type.String()),
    title: Type.String(),
    description: Nullable(Type.String()),
    price: Type.Object({ amount: Type.Integer(), currency: Type.String() }),
    quantity: Type.Integer(),
    quantity_available: Type.Integer({ description: 'quantity minus units held by open orders and units sold.' }),
    unit_type: UnitTypeSchema,
    seats: Type.Integer({ description: 'How many bookings may hold the same time; 1 for an item listing.' }),
    slot_minutes: Nullable(Type.Integer({ description: "A time listing's slot length; null for the others." })),
    status: ListingStatus,
    attributes: Type.Record(Type.String(), Type.String()),
    media: Type.Array(Media, { description: 'Ready media by position, then age.' }),
    metadata: Type.Record(Type.String(), Type.String()),
    published_at: Nullable(Timestamp),
    expires_at: Nullable(Timestamp),
    removed_reason: Nullable(Type.String()),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  {
    $id: 'Listing',
    examples: [
      {
        object: 'listing',
        id: 'lst_01jd3k5v8w9x0y1z2a3b4c5d6e',
        seller: 'sel_01jd3k2p1q0r9s8t7u6v5w4x3y',
        category: 'cat_01jd3k0a1b2c3d4e5f6g7h8j9k',
        title: 'Trail running shoes',
        description: 'Worn twice.',
        price: { amount: 4500, currency: 'USD' },
        quantity: 1,
        quantity_available: 1,
        unit_type: 'item',
        seats: 1,
        slot_minutes: null,
        status: 'published',
        attributes: { size_eu: '42', color: 'red' },
        media: [],
        metadata: {},
        published_at: '2026-11-21T09:31:00.000Z',
        expires_at: null,
        removed_reason: null,
        created_at: '2026-11-21T09:30:00.000Z',
        updated_at: '2026-11-21T09:31:00.000Z',
      },
    ],
  },
);
export type Listing = Static<typeof Listing>;

export const CreateListingBody = Body(
  {
    seller: Type.String({ minLength: 1, maxLength: 100, description: 'The seller id.' }),
    category: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 100 }))),
    title: Title,
    description: Type.Optional(Description),
    price: Price,
    quantity: Type.Optional(Quantity),
    unit_type: Type.Optional(UnitTypeSchema),
    seats: Type.Optional(Seats),
    slot_minutes: Type.Optional(SlotMinutes),
    attributes: Type.Optional(Attributes),
    metadata: Type.Optional(Metadata),
    expires_at: Type.Optional(ExpiresAt),
  },
  'A new listing, created as a draft. A day or time listing (unit_type) takes seats (default 1) and no quantity; a time listing needs slot_minutes.',
);
Object.assign(CreateListingBody, {
  examples: [
    {
      seller: 'sel_01jd3k2p1q0r9s8t7u6v5w4x3y',
      category: 'cat_01jd3k0a1b2c3d4e5f6g7h8j9k',
      title: 'Trail running shoes',
      description: 'Worn twice.',
      price: { amount: 4500, currency: 'USD' },
      quantity: 1,
      attributes: { size_eu: '42' },
      metadata: { sku: 'TRS-42' },
      expires_at: '2026-12-31T23:59:59.000Z',
    },
  ],
});
export type CreateListingBody = Static<typeof CreateListingBody>;

export const UpdateListingBody = Body(
  {
    category: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 100 }))),
    title: Type.Optional(Title),
    description: Type.Optional(Description),
    price: Type.Optional(Price),
    quantity: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: LISTING_QUANTITY_MAX,
        description: 'The new total, 1 to 100000; not below the units held by open orders and sold.',
      }),
    ),
    seats: Type.Optional(Seats),
    slot_minutes: Type.Optional(SlotMinutes),
    attributes: Type.Optional(Attributes),
    metadata: Type.Optional(Metadata),
    expires_at: Type.Optional(ExpiresAt),
  },
  'Fields to change; the others stay (unit_type is fixed at creation). Allowed while the listing is draft, published or expired.',
);
Object.assign(UpdateListingBody, { examples: [{ price: { amount: 3900, currency: 'USD' }, quantity: 2 }] });
export type UpdateListingBody = Static<typeof UpdateListingBody>;

export const BulkCreateListingsBody = Body(
  {
    listings: Type.Array(CreateListingBody, {
      minItems: 1,
      maxItems: BULK_MAX,
      description: '1 to 100 listings; all are created or none.',
    }),
  },
  'Listings to create together, in one transaction.',
);
Object.assign(BulkCreateListingsBody, {
  examples: [
    {
      listings: [
        { seller: 'sel_01jd3k2p1q0r9s8t7u6v5w4x3y', title: 'Trail running shoes', price: { amount: 4500, currency: 'USD' }, quantity: 2 },
        {
          seller: 'sel_01jd3k2p1q0r9s8t7u6v5w4x3y',
          category: 'cat_01jd3k0a1b2c3d4e5f6g7h8j9k',
          title: 'Road running shoes',
          price: { amount: 5200, currency: 'USD' },
          attributes: { size_eu: '43' },
        },
      ],
    },
  ],
});
export type BulkCreateListingsBody = Static<typeof BulkCreateListingsBody>;

export const RemoveListingBody = Body(
  {
    reason: Type.String({
      minLength: 1,
      maxLength: REMOVE_REASON_MAX,
      pattern: '\\S',
      description: 'Why, up to 500 characters, not blank; kept as removed_reason.',
    }),
  },
  'Takes the listing down for good.',
);
Object.assign(RemoveListingBody, { examples: [{ reason: 'Counterfeit item reported by buyers.' }] });
export type RemoveListingBody = Static<typeof RemoveListingBody>;

export const ListListingsQuery = Type.Object(
  {
    ...PageQuery,
    seller: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'Only this seller’s listings.' })),
    category: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'Only listings of exactly this category.' })),
    status: Type.Optional(ListingStatus),
    title: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Only listings whose title starts with this text, case-insensitively (`GET /v1/search/listings?q=` searches the words of published listings).' })),
  },
  { additionalProperties: false },
);
export type ListListingsQuery = Static<typeof ListListingsQuery>;

export const ListingList = ListOf(Listing);

/** The listings a bulk create made, in the order of the request; not a page. */
export const BulkListingList = Type.Object(
  { object: Type.Literal('list'), data: Type.Array(Listing) },
  {
    examples: [
      {
        object: 'list',
        data: [
          {
            ...Listing.examples[0],
            id: 'lst_01jd3k5v8w9x0y1z2a3b4c5d6f',
            category: null,
            description: null,
            quantity: 2,
            quantity_available: 2,
            status: 'draft',
            attributes: {},
            published_at: null,
            updated_at: '2026-11-21T09:30:00.000Z',
          },
          {
            ...Listing.examples[0],
            id: 'lst_01jd3k5v8w9x0y1z2a3b4c5d6g',
            title: 'Road running shoes',
            description: null,
            price: { amount: 5200, currency: 'USD' },
            status: 'draft',
            attributes: { size_eu: '43' },
            published_at: null,
            updated_at: '2026-11-21T09:30:00.000Z',
          },
        ],
      },
    ],
  },
);

// ---- search (GET /v1/search/listings) ----

export const SEARCH_Q_MAX = 200;
export const SEARCH_SORTS = ['relevance', 'newest', 'price_asc', 'price_desc'] as const;
export type SearchSort = (typeof SEARCH_SORTS)[number];

/**
 * `attributes[key]=value` and `attributes[key][gte|lte]=n`: the query string arrives flat, with
 * the brackets in the parameter's name, so each such name is a property of its own.
 */
export const SEARCH_ATTRIBUTE_PARAM = '^attributes\\[([A-Za-z0-9_][A-Za-z0-9_-]{0,39})\\](?:\\[(gte|lte)\\])?$';

export const SearchListingsQuery = Type.Object(
  {
    q: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: SEARCH_Q_MAX,
        description:
          'Full text over title (weighted higher) and description, in web-search syntax: words, "quoted phrases", -word, or. ' +
          'Case and accents are ignored (café finds cafe).',
        examples: ['trail shoes -kids'],
      }),
    ),
    category: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'This category and its descendants.' })),
    seller: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'Only this seller’s listings.' })),
    min_price: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_AMOUNT, description: 'Lowest price, minor units.' })),
    max_price: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_AMOUNT, description: 'Highest price, minor units.' })),
    sort: Type.Optional(
      StringEnum(SEARCH_SORTS, { description: 'newest (default), price_asc, price_desc, or relevance (needs q).', default: 'newest' }),
    ),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
    cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 1000, description: 'The next_cursor of the previous page, with the same filters and sort.' })),
    starting_after: Type.Optional(
      Type.String({ minLength: 1, maxLength: 1000, description: 'The same as `cursor`, under the name every list takes; give one of the two.' }),
    ),
  },
  {
    additionalProperties: false,
    patternProperties: {
      [SEARCH_ATTRIBUTE_PARAM]: Type.String({
        maxLength: ATTRIBUTE_VALUE_MAX,
        description:
          '`attributes[key]=value` keeps listings whose attribute has exactly that text; `attributes[key][gte]=n` and ' +
          '`attributes[key][lte]=n` bound a number or integer attribute of `category`’s schema (they need `category`).',
      }),
    },
  },
);
export type SearchListingsQuery = Static<typeof SearchListingsQuery>;
