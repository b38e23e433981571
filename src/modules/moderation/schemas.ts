// Flag and moderation action records, and the bodies and queries of their operations.
import { Type, type Static } from '@sinclair/typebox';
import { Body, ListOf, ListQuery, Nullable, NullableTimestamp, StringEnum, Timestamp } from '../../http/schemas.js';
import { ACTION_TARGET_TYPE, TARGET_TYPES } from '../../contracts/moderation.js';
import { ModerationAction, ModerationActionKind } from '../parties/index.js';
import { Reason } from '../sellers/index.js';
import { FLAG_STATUSES } from './flag-status.js';

export { ModerationAction };

const Id = (description: string) => Type.String({ minLength: 1, maxLength: 100, description });

export const FlagTargetType = StringEnum(TARGET_TYPES);
export type FlagTargetType = Static<typeof FlagTargetType>;

export const FlagReason = StringEnum(['prohibited_item', 'fraud', 'offensive', 'spam', 'other']);
export type FlagReason = Static<typeof FlagReason>;

export const FlagStatus = StringEnum(FLAG_STATUSES);

/** How a flag is resolved: dismissed, or by the moderation action that fits its target. */
export const FlagResolutionAction = StringEnum(['dismiss', 'remove_listing', 'remove_review', 'suspend_seller']);
export type FlagResolutionAction = Static<typeof FlagResolutionAction>;

export const Flag = Type.Object(
  {
    object: Type.Literal('flag'),
    id: Type.String(),
    target_type: FlagTargetType,
    target: Type.String(),
    reporter: Nullable(Type.String({ description: 'The buyer or seller who reported it, or null (the platform).' })),
    reason: FlagReason,
    description: Nullable(Type.String({ description: "The reporter's words; null once the reporter is erased." })),
    status: FlagStatus,
    resolution: Nullable(
      Type.Object({
        action: FlagResolutionAction,
        note: Nullable(Type.String()),
        moderation_action: Nullable(Type.String({ description: 'The moderation action that resolved it; null when dismissed.' })),
      }),
    ),
    created_at: Timestamp,
    resolved_at: NullableTimestamp,
  },
  {
    examples: [
      {
        object: 'flag',
        id: 'flg_01jd2b7v8k0000000000000000',
        target_type: 'listing',
        target: 'lst_01jd2b7v8k0000000000000000',
        reporter: 'byr_01jd2b7v8k0000000000000000',
        reason: 'prohibited_item',
        description: 'Sells replica watches.',
        status: 'resolved',
        resolution: { action: 'remove_listing', note: 'Counterfeit goods.', moderation_action: 'mda_01jd2b7v8k0000000000000000' },
        created_at: '2026-11-21T09:30:00.000Z',
        resolved_at: '2026-11-21T10:05:00.000Z',
      },
    ],
  },
);
export type Flag = Static<typeof Flag>;

export const FlagList = ListOf(Flag);

export const CreateFlagBody = Body({
  target_type: FlagTargetType,
  target: Id('The id of the listing, review, seller or buyer flagged.'),
  reporter: Type.Optional(Id('The buyer or seller reporting it.')),
  reason: FlagReason,
  description: Type.Optional(Type.String({ maxLength: 2000 })),
});
Object.assign(CreateFlagBody, {
  examples: [
    {
      target_type: 'listing',
      target: 'lst_01jd2b7v8k0000000000000000',
      reporter: 'byr_01jd2b7v8k0000000000000000',
      reason: 'prohibited_item',
      description: 'Sells replica watches.',
    },
  ],
});
export type CreateFlagBody = Static<typeof CreateFlagBody>;

export const ListFlagsQuery = ListQuery({
  status: Type.Optional(FlagStatus),
  target: Type.Optional(Id('Only flags of this target.')),
  target_type: Type.Optional(FlagTargetType),
});
export type ListFlagsQuery = Static<typeof ListFlagsQuery>;

export const ResolveFlagBody = Body({
  action: FlagResolutionAction,
  note: Type.Optional(Type.String({ minLength: 1, maxLength: 500, pattern: '\\S', description: 'Why; kept as the reason of the moderation action.' })),
});
Object.assign(ResolveFlagBody, { examples: [{ action: 'remove_listing', note: 'Counterfeit goods.' }] });
export type ResolveFlagBody = Static<typeof ResolveFlagBody>;

export const ModerationActionList = ListOf(ModerationAction);

/** "remove_listing → listing, …", from the one table of actions, for the descriptions. */
export const ACTION_TARGET_TYPES_TEXT = Object.entries(ACTION_TARGET_TYPE)
  .map(([action, type]) => `\`${action}\` → \`${type}\``)
  .join(', ');

export const CreateModerationActionBody = Body({
  action: ModerationActionKind,
  target_type: Type.Optional(
    StringEnum(TARGET_TYPES, {
      description: `The target's type, as the moderation action answers it. It follows from the action (${ACTION_TARGET_TYPES_TEXT}); when given it must agree, else 400 \`invalid_request\` naming \`target_type\`.`,
    }),
  ),
  target: Id('The listing, review or seller acted on (its type follows from the action).'),
  reason: Reason,
});
Object.assign(CreateModerationActionBody, {
  examples: [{ action: 'remove_listing', target_type: 'listing', target: 'lst_01jd2b7v8k0000000000000000', reason: 'The category is now prohibited.' }],
});
export type CreateModerationActionBody = Static<typeof CreateModerationActionBody>;

export const ListModerationActionsQuery = ListQuery({ target: Type.Optional(Id('Only actions on this target.')) });
export type ListModerationActionsQuery = Static<typeof ListModerationActionsQuery>;
