// Category record, attribute schema and bodies. Types derive from them.
import { Type, type Static } from '@sinclair/typebox';
import { Body, ListOf, ListQuery, MAX_AMOUNT, Nullable, Timestamp } from '../../http/schemas.js';

export const CATEGORY_NAME_MAX = 120;
export const CATEGORY_DESCRIPTION_MAX = 2000;
export const ATTRIBUTE_DEFINITIONS_MAX = 50;
export const ATTRIBUTE_KEY_PATTERN = '^[A-Za-z0-9_][A-Za-z0-9_-]{0,39}$';
export const ATTRIBUTE_TYPES = ['string', 'number', 'integer', 'boolean', 'enum'] as const;
export type AttributeType = (typeof ATTRIBUTE_TYPES)[number];

const BOUND = Number.MAX_SAFE_INTEGER;

export const AttributeDefinition = Type.Object(
  {
    key: Type.String({
      pattern: ATTRIBUTE_KEY_PATTERN,
      description: 'Letters, digits, _ and -; up to 40 characters; unique within the schema.',
    }),
    label: Type.Optional(Nullable(Type.String({ maxLength: 200, description: 'For people.' }))),
    type: Type.Unsafe<AttributeType>({ type: 'string', enum: [...ATTRIBUTE_TYPES] }),
    required: Type.Optional(Type.Boolean({ description: 'A listing of the category must carry a non-blank value.' })),
    options: Type.Optional(
      Nullable(
        Type.Array(Type.String({ minLength: 1, maxLength: 500 }), {
          minItems: 1,
          maxItems: 200,
          uniqueItems: true,
          description: 'The allowed values; required for, and only for, type enum.',
        }),
      ),
    ),
    min: Type.Optional(Nullable(Type.Integer({ minimum: -BOUND, maximum: BOUND, description: 'Smallest value; number and integer only.' }))),
    max: Type.Optional(Nullable(Type.Integer({ minimum: -BOUND, maximum: BOUND, description: 'Largest value; number and integer only.' }))),
    max_length: Type.Optional(
      Nullable(Type.Integer({ minimum: 1, maximum: 500, description: 'Longest value in characters; string only.' })),
    ),
  },
  { additionalProperties: false },
);
export type AttributeDefinitionInput = Static<typeof AttributeDefinition>;

/** A definition as stored and returned: every field present. */
export interface StoredAttributeDefinition {
  key: string;
  label: string | null;
  type: AttributeType;
  required: boolean;
  options: string[] | null;
  min: number | null;
  max: number | null;
  max_length: number | null;
}

export interface AttributeSchemaValue {
  attributes: StoredAttributeDefinition[];
}

export const AttributeSchemaInput = Type.Object(
  {
    attributes: Type.Array(AttributeDefinition, {
      maxItems: ATTRIBUTE_DEFINITIONS_MAX,
      description: 'Up to 50 definitions.',
    }),
  },
  { additionalProperties: false },
);
Object.assign(AttributeSchemaInput, {
  examples: [
    {
      attributes: [
        { key: 'size_eu', label: 'Size (EU)', type: 'integer', required: true, min: 30, max: 50 },
        { key: 'color', label: 'Color', type: 'enum', options: ['red', 'blue'] },
      ],
    },
  ],
});
export type AttributeSchemaInput = Static<typeof AttributeSchemaInput>;

export const AttributeSchema = Type.Object(
  {
    attributes: Type.Array(
      Type.Object({
        key: Type.String(),
        label: Nullable(Type.String()),
        type: Type.Unsafe<AttributeType>({ type: 'string', enum: [...ATTRIBUTE_TYPES] }),
        required: Type.Boolean(),
        options: Nullable(Type.Array(Type.String())),
        min: Nullable(Type.Integer()),
        max: Nullable(Type.Integer()),
        max_length: Nullable(Type.Integer()),
      }),
    ),
  },
  {
    $id: 'AttributeSchema',
    examples: [
      {
        attributes: [
          { key: 'size_eu', label: 'Size (EU)', type: 'integer', required: true, options: null, min: 30, max: 50, max_length: null },
          { key: 'color', label: 'Color', type: 'enum', required: false, options: ['red', 'blue'], min: null, max: null, max_length: null },
        ],
      },
    ],
  },
);

const FeeInput = Nullable(
  Type.Object(
    {
      percent_bps: Type.Optional(
        Nullable(Type.Integer({ minimum: 0, maximum: 10_000, description: 'Basis points of the subtotal, 0 to 10000.' })),
      ),
      fixed_amount: Type.Optional(Nullable(Type.Integer({ minimum: 0, maximum: MAX_AMOUNT, description: 'Minor units, at least 0.' }))),
    },
    {
      additionalProperties: false,
      description: "Overrides the marketplace's platform fee for this category's listings; a null member counts as 0. null uses the marketplace fee.",
      examples: [{ percent_bps: 250, fixed_amount: 30 }],
    },
  ),
);

export const CategoryFee = Type.Object({ percent_bps: Nullable(Type.Integer()), fixed_amount: Nullable(Type.Integer()) });
export type CategoryFee = Static<typeof CategoryFee>;

const Name = Type.String({ minLength: 1, maxLength: CATEGORY_NAME_MAX, pattern: '\\S', description: 'Up to 120 characters, not blank.' });
const Description = Nullable(Type.String({ maxLength: CATEGORY_DESCRIPTION_MAX, description: 'Up to 2000 characters.' }));
const Parent = Nullable(Type.String({ minLength: 1, maxLength: 100, description: 'Id of another category of this marketplace and mode.' }));

export const Category = Type.Object(
  {
    object: Type.Literal('category'),
    id: Type.String(),
    key: Type.String(),
    name: Type.String(),
    description: Nullable(Type.String()),
    parent: Nullable(Type.String()),
    attribute_schema: AttributeSchema,
    fee: Nullable(CategoryFee),
    prohibited: Type.Boolean(),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  {
    $id: 'Category',
    examples: [
      {
        object: 'category',
        id: 'cat_01jd3k0a1b2c3d4e5f6g7h8j9k',
        key: 'shoes.running',
        name: 'Running shoes',
        description: null,
        parent: 'cat_01jd3jz9y8x7w6v5t4s3r2q1p0',
        attribute_schema: { attributes: [] },
        fee: { percent_bps: 250, fixed_amount: null },
        prohibited: false,
        created_at: '2026-11-21T09:30:00.000Z',
        updated_at: '2026-11-21T09:30:00.000Z',
      },
    ],
  },
);
export type Category = Static<typeof Category>;

export const CreateCategoryBody = Body(
  {
    key: Type.String({
      pattern: '^[a-z0-9][a-z0-9_.-]{0,99}$',
      description: 'Your name for it: lower-case letters, digits, _ . -; up to 100 characters; unique per marketplace and mode; fixed.',
      examples: ['shoes.running'],
    }),
    name: Name,
    description: Type.Optional(Description),
    parent: Type.Optional(Parent),
    attribute_schema: Type.Optional(AttributeSchemaInput),
    fee: Type.Optional(FeeInput),
    prohibited: Type.Optional(Type.Boolean({ description: 'Listings of a prohibited category cannot be published.' })),
  },
  'A new category.',
);
Object.assign(CreateCategoryBody, {
  examples: [
    {
      key: 'shoes.running',
      name: 'Running shoes',
      description: 'Road and trail.',
      parent: 'cat_01jd3jz9y8x7w6v5t4s3r2q1p0',
      attribute_schema: { attributes: [{ key: 'size_eu', label: 'Size (EU)', type: 'integer', required: true, min: 30, max: 50 }] },
      fee: { percent_bps: 250, fixed_amount: null },
      prohibited: false,
    },
  ],
});
export type CreateCategoryBody = Static<typeof CreateCategoryBody>;

export const UpdateCategoryBody = Body(
  {
    // Listed so that sending it is answered with why it is refused, not as an unknown field.
    key: Type.Optional(Type.Unknown({ description: 'Set at creation only: sending it is refused.' })),
    name: Type.Optional(Name),
    description: Type.Optional(Description),
    parent: Type.Optional(Parent),
    fee: Type.Optional(FeeInput),
    prohibited: Type.Optional(Type.Boolean()),
  },
  'Fields to change; the others stay. The key cannot be changed; the attribute schema has its own operation.',
);
Object.assign(UpdateCategoryBody, { examples: [{ name: 'Trail running shoes', prohibited: false }] });
export type UpdateCategoryBody = Static<typeof UpdateCategoryBody>;

export const ListCategoriesQuery = ListQuery({});
export type ListCategoriesQuery = Static<typeof ListCategoriesQuery>;

export const CategoryList = ListOf(Category);
