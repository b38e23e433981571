// Trust and safety operations: flags (raised, listed, resolved) and moderation actions (applied
// directly, listed). Each owns its transaction and emits its events in it. What a target is and
// how an action is carried out on it is declared by the target's owner (ctx.hooks.moderationTargets,
// src/contracts/moderation.ts); the
// record of actions is src/modules/parties/moderation-actions.ts. Lock order: the target's flags
// in id order, then the target (by its owner's operation), so two resolutions of one target queue.
import type { Tx } from '../../db/db.js';
import { emitMove, move } from '../../domain/state-machine.js';
import { pageRequest, toList, type ListEnvelope } from '../../db/paging.js';
import { DomainError, errors } from '../../errors.js';
import { emitEvent } from '../../outbox/emit.js';
import { newId } from '../../ids.js';
import { modeNow, type Scope } from '../../scope.js';
import type { OperationContext } from '../../contracts/context.js';
import { ACTION_TARGET_TYPE, type ModerationTargets, type TargetType } from '../../contracts/moderation.js';
import {
  findModerationAction,
  findModerationActions,
  recordModerationAction,
  type ModerationAction,
} from '../parties/index.js';
import { FLAG_MACHINE } from './flag-status.js';
import * as queries from './queries.js';
import type {
  CreateFlagBody,
  FlagResolutionAction,
  CreateModerationActionBody,
  Flag,
  ListFlagsQuery,
  ListModerationActionsQuery,
  ResolveFlagBody,
} from './schemas.js';
import { serializeFlag } from './serialize.js';

// ---- flags ----

/** 404 (param `target`) unless the target is in this scope. */
async function assertTargetExists(targets: ModerationTargets, tx: Tx, scope: Scope, type: TargetType, id: string): Promise<void> {
  if ((await targets[type].find(tx, scope, id)) === null) throw errors.missing(type, id, 'target');
}

/**
 * Who may report a flag: a seller or a buyer of the scope, found (share-locked, so its erasure
 * waits for the flag or comes first) by id, or null; an erased party is found with erased_at set.
 */
async function findReporter(targets: ModerationTargets, tx: Tx, scope: Scope, id: string): Promise<{ erased: boolean } | null> {
  const type = id.startsWith('sel_') ? 'seller' : id.startsWith('byr_') ? 'buyer' : null;
  const party = type === null ? null : await targets[type].find(tx, scope, id);
  if (party === null) return null;
  return { erased: 'erased_at' in party && party.erased_at !== null };
}

export async function createFlag(ctx: OperationContext, body: CreateFlagBody): Promise<Flag> {
  const { scope } = ctx;
  return ctx.db.transaction(async (tx) => {
    await assertTargetExists(ctx.hooks.moderationTargets, tx, scope, body.target_type, body.target);
    const reporterId = body.reporter ?? null;
    if (reporterId !== null) {
      const reporter = await findReporter(ctx.hooks.moderationTargets, tx, scope, reporterId);
      if (!reporter) throw errors.missing('buyer or seller', reporterId, 'reporter');
      // An erased party's words would outlive its erasure: it reports nothing more.
      if (reporter.erased) {
        throw new DomainError('invalid_state', `The reporter ${reporterId} is erased; it cannot report a flag.`, 'reporter');
      }
    }
    const now = await modeNow(tx, ctx.clock, scope);
    const row = await queries.insertFlag(
      tx,
      scope,
      newId('flag'),
      {
        target_type: body.target_type,
        target_id: body.target,
        reporter_id: reporterId,
        reason: body.reason,
        description: body.description ?? null,
      },
      now,
    );
    const flag = serializeFlag(row);
    await emitEvent(tx, scope, now, 'flag.created', flag);
    return flag;
  });
}

export async function retrieveFlag(ctx: OperationContext, id: string): Promise<Flag> {
  const row = await queries.selectFlag(ctx.db, ctx.scope, id);
  if (!row) throw errors.missing('flag', id);
  return serializeFlag(row);
}

export async function listFlags(ctx: OperationContext, query: ListFlagsQuery): Promise<ListEnvelope<Flag>> {
  const page = pageRequest(query, 'flag');
  const rows = await queries.selectFlags(ctx.db, ctx.scope, page, {
    status: query.status,
    target: query.target,
    targetType: query.target_type,
  });
  return toList(rows.map(serializeFlag), page.limit);
}

/**
 * Resolves the flag: `dismiss` resolves it alone; an action that fits its target (remove_listing
 * for a listing, remove_review for a review, suspend_seller for a seller; 400 `action` otherwise)
 * is carried out, recorded as one moderation action pointing to this flag (its reason: the note,
 * else the flag's reason), and resolves every open flag of the target with it. 409 when resolved.
 */
export async function resolveFlag(ctx: OperationContext, id: string, body: ResolveFlagBody): Promise<Flag> {
  const { scope } = ctx;
  return ctx.db.transaction(async (tx) => {
    const found = await queries.selectFlag(tx, scope, id);
    if (!found) throw errors.missing('flag', id);
    const locked = await queries.lockFlagsOfTarget(tx, scope, found.target_id, id);
    const flag = locked.find((row) => row.id === id)!;
    const resolve = move(FLAG_MACHINE, flag.status, 'resolve', 'platform');
    const note = body.note ?? null;
    const now = await modeNow(tx, ctx.clock, scope);
    if (body.action === 'dismiss') {
      const resolved = await queries.updateFlagResolved(tx, scope, id, { action: 'dismiss', note, moderation_action_id: null }, now);
      await emitMove(tx, scope, now, resolve, serializeFlag(resolved));
      return serializeFlag(resolved);
    }
    const actsOn: TargetType = ACTION_TARGET_TYPE[body.action];
    const apply = actsOn === flag.target_type ? ctx.hooks.moderationTargets[actsOn].actions[body.action] : undefined;
    if (!apply) {
      throw errors.invalidRequest(`A flag on a ${flag.target_type} cannot be resolved with ${body.action}.`, 'action');
    }
    const reason = note ?? flag.reason;
    await apply(tx, scope, flag.target_id, reason, now);
    const action = await recordModerationAction(tx, scope, now, {
      action: body.action,
      targetType: ACTION_TARGET_TYPE[body.action],
      target: flag.target_id,
      reason,
      flag: id,
    });
    const open = locked.filter((row) => row.status === 'open');
    const resolved = await resolveWith(tx, scope, open, { action: body.action, note, moderation_action_id: action.id }, now);
    return resolved.find((one) => one.id === id)!;
  });
}

/** Each flag resolved the same way, with its flag.resolved, in id order. */
async function resolveWith(tx: Tx, scope: Scope, flags: queries.FlagRow[], resolution: queries.FlagResolution, now: Date): Promise<Flag[]> {
  const out: Flag[] = [];
  for (const row of flags) {
    const resolve = move(FLAG_MACHINE, row.status, 'resolve', 'platform');
    const flag = serializeFlag(await queries.updateFlagResolved(tx, scope, row.id, resolution, now));
    await emitMove(tx, scope, now, resolve, flag);
    out.push(flag);
  }
  return out;
}

// ---- moderation actions ----

/** The actions that answer reports against their target, so they resolve the target's open flags. */
const RESOLVING = ['remove_listing', 'remove_review', 'suspend_seller'] as const satisfies readonly FlagResolutionAction[];
type ResolvingAction = (typeof RESOLVING)[number];
const resolvesFlags = (action: ModerationAction['action']): action is ResolvingAction => (RESOLVING as readonly string[]).includes(action);

/** The target owner's 404 (which names no field) as the body's `target`. */
async function namingTarget<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof DomainError && error.code === 'resource_missing' && error.param === undefined) {
      throw new DomainError('resource_missing', error.message, 'target');
    }
    throw error;
  }
}

/**
 * POST /v1/moderation_actions: carries the action out on its target (the target's type follows
 * from the action; 404 `target` when there is no such target), records it, and resolves the
 * target's open flags with it when it takes the target down or suspends it.
 */
export async function createModerationAction(ctx: OperationContext, body: CreateModerationActionBody): Promise<ModerationAction> {
  const { scope } = ctx;
  const { action: kind, target, reason } = body;
  const targetType = ACTION_TARGET_TYPE[kind];
  // Optional, so a client may send the object's own shape back; a disagreeing type is a mistake of
  // the caller's (it meant another action or another target), not something to act on.
  if (body.target_type !== undefined && body.target_type !== targetType) {
    throw errors.invalidRequest(`target_type '${body.target_type}' does not fit the action ${kind}, which acts on a ${targetType}.`, 'target_type');
  }
  return ctx.db.transaction(async (tx) => {
    const open = resolvesFlags(kind) ? await queries.lockFlagsOfTarget(tx, scope, target, null) : [];
    const apply = ctx.hooks.moderationTargets[targetType].actions[kind];
    if (!apply) throw errors.missing(targetType, target, 'target');
    const now = await modeNow(tx, ctx.clock, scope);
    await namingTarget(() => apply(tx, scope, target, reason, now));
    const action = await recordModerationAction(tx, scope, now, { action: kind, targetType, target, reason });
    if (resolvesFlags(kind)) {
      const ofTarget = open.filter((row) => row.target_type === targetType);
      await resolveWith(tx, scope, ofTarget, { action: kind, note: null, moderation_action_id: action.id }, now);
    }
    return action;
  });
}

export async function retrieveModerationAction(ctx: OperationContext, id: string): Promise<ModerationAction> {
  const action = await findModerationAction(ctx.db, ctx.scope, id);
  if (!action) throw errors.missing('moderation action', id);
  return action;
}

export async function listModerationActions(ctx: OperationContext, query: ListModerationActionsQuery): Promise<ListEnvelope<ModerationAction>> {
  const page = pageRequest(query, 'moderationAction');
  const actions = await findModerationActions(ctx.db, ctx.scope, page, { target: query.target });
  return toList(actions, page.limit);
}
