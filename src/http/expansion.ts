// `expand[]`: an answer's fields that hold the id of another object hold that object instead, at
// most two levels deep (`expand[]=order.listing`). A route opts in with `config: { expand: '<object>' }`
// (the object it answers, alone or as a list's `data`); the API scope's onRoute hook then adds the
// `expand` and `expand[]` query parameters (each path listed as an enum), rewrites the 200 schema so
// each expandable field is the id or the object, checks the paths before validation (so an unknown
// one is named `expand[<i>]`), and expands the handler's answer. Objects are read one batch per
// object kind and level (src/contracts/expansion.ts), never one read per row.
import { Type, type TSchema } from '@sinclair/typebox';
import type { FastifyRequest, RouteOptions } from 'fastify';
import type { OperationContext } from '../contracts/context.js';
import type { ExpandableObject, ExpandableObjects } from '../contracts/expansion.js';
import { errors } from '../errors.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The expandable object this route answers (alone or as a list's data): it takes `expand[]`. */
    expand?: string;
  }
}

/** How deep a path may go: `a.b`. */
export const MAX_EXPAND_DEPTH = 2;
/** How many paths one request may name. */
export const MAX_EXPAND_PATHS = 20;

/** The paths of each request, read and checked before validation. */
// cache: per request (weak: gone with it), the expand paths read before validation.
const requested = new WeakMap<FastifyRequest, readonly string[]>();

/** Every path `expand[]` accepts on an answer of this object, shortest first. */
export function expandPaths(objects: ExpandableObjects, object: string, depth = MAX_EXPAND_DEPTH): string[] {
  const fields = Object.entries(objects[object]?.fields ?? {});
  if (depth === 0) return [];
  const first = fields.map(([field]) => field);
  const deeper = fields.flatMap(([field, target]) => expandPaths(objects, target, depth - 1).map((rest) => `${field}.${rest}`));
  return [...first, ...deeper];
}

/** The values of `expand[]` and `expand` (each once or repeated), in the order the query string gives them. */
function readPaths(query: unknown): string[] {
  const values: unknown[] = [];
  for (const [key, value] of Object.entries((query ?? {}) as Record<string, unknown>)) {
    if (key === 'expand' || key === 'expand[]') values.push(...(Array.isArray(value) ? value : [value]));
  }
  return values.map(String);
}

/** The object a path leads to, or the 400 naming it. */
function checkPath(objects: ExpandableObjects, object: string, given: string, param: string, viewer: OperationContext['viewer']): void {
  const segments = given.split('.');
  // The message quotes the path: a long one (the query string may hold 16 KiB) is cut.
  const path = given.length > 100 ? `${given.slice(0, 100)}…` : given;
  if (segments.length > MAX_EXPAND_DEPTH) {
    throw errors.invalidRequest(`Cannot expand '${path}': expand goes at most ${MAX_EXPAND_DEPTH} levels deep (a.b).`, param);
  }
  let at = objects[object]!;
  for (const segment of segments) {
    const target = Object.hasOwn(at.fields, segment) ? objects[at.fields[segment]!] : undefined;
    if (!target) {
      const accepted = expandPaths(objects, object).join(', ');
      throw errors.invalidRequest(`Cannot expand '${path}' on a ${object}: the paths are ${accepted}.`, param);
    }
    if (viewer === 'publishable' && !target.publishable) {
      throw errors.invalidRequest(`Cannot expand '${path}' with a publishable key: a ${target.object} is read with a secret key only.`, param);
    }
    at = target;
  }
}

/** Reads and checks the request's paths (a preValidation hook: before the enum of the schema refuses them unnamed). */
function readExpand(objects: ExpandableObjects, object: string) {
  return async (request: FastifyRequest) => {
    const paths = readPaths(request.query);
    if (paths.length === 0) return;
    if (paths.length > MAX_EXPAND_PATHS) throw errors.invalidRequest(`At most ${MAX_EXPAND_PATHS} expand paths may be named.`, `expand[${MAX_EXPAND_PATHS}]`);
    paths.forEach((path, i) => checkPath(objects, object, path, `expand[${i}]`, request.ctx.viewer));
    requested.set(request, [...new Set(paths)]);
  };
}

/** A path tree: each field to expand, with the fields to expand inside it. */
interface Tree {
  [field: string]: Tree;
}

function treeOf(paths: readonly string[]): Tree {
  const tree: Tree = {};
  for (const path of paths) {
    let node = tree;
    for (const segment of path.split('.')) node = node[segment] ??= {};
  }
  return tree;
}

type Item = Record<string, unknown>;

/** Objects of one kind at one level, with the fields to expand in them. */
interface Level {
  items: Item[];
  object: ExpandableObject;
  tree: Tree;
}

/**
 * Expands the items in place, level by level: at each level the ids of every field that names one
 * kind of object are read in one batch, whatever the number of items or fields (buyer and
 * seller are two kinds; listing on two paths of one level is one). An id the caller may not read
 * stays an id; null stays null.
 */
export async function expandItems(ctx: OperationContext, objects: ExpandableObjects, object: string, items: Item[], paths: readonly string[]) {
  let levels: Level[] = [{ items, object: objects[object]!, tree: treeOf(paths) }];
  while (levels.length > 0) {
    const wanted = new Map<string, Set<string>>();
    for (const level of levels) {
      for (const field of Object.keys(level.tree)) {
        const target = level.object.fields[field]!;
        const ids = wanted.get(target) ?? new Set<string>();
        for (const item of level.items) if (typeof item[field] === 'string') ids.add(item[field]);
        wanted.set(target, ids);
      }
    }
    const loaded = new Map<string, ReadonlyMap<string, object>>();
    await Promise.all(
      [...wanted].map(async ([target, ids]) => {
        loaded.set(target, ids.size === 0 ? new Map() : await objects[target]!.load(ctx, [...ids]));
      }),
    );
    const next: Level[] = [];
    for (const level of levels) {
      for (const [field, inner] of Object.entries(level.tree)) {
        const target = level.object.fields[field]!;
        const found = loaded.get(target)!;
        const expanded: Item[] = [];
        for (const item of level.items) {
          const value = typeof item[field] === 'string' ? found.get(item[field]) : undefined;
          if (value === undefined) continue;
          // A copy per place: the same object may sit under two items and be expanded differently.
          const copy = { ...(value as Item) };
          item[field] = copy;
          expanded.push(copy);
        }
        if (Object.keys(inner).length > 0 && expanded.length > 0) next.push({ items: expanded, object: objects[target]!, tree: inner });
      }
    }
    levels = next;
  }
}

/** The schema of an object whose expandable fields are the id or the object, `depth` levels down. */
function expandableSchema(objects: ExpandableObjects, object: string, depth: number): TSchema {
  const expandable = objects[object]!;
  const base = withoutIds(expandable.schema) as TSchema & { properties: Record<string, TSchema> };
  if (depth === 0) return base;
  const properties = { ...base.properties };
  for (const [field, target] of Object.entries(expandable.fields)) {
    const original = properties[field]!;
    const ids = (original.anyOf as TSchema[] | undefined) ?? [original];
    properties[field] = Type.Union([...ids, expandableSchema(objects, target, depth - 1)], {
      description: `${original.description ? `${original.description} ` : ''}The ${target}'s id, or the ${target} itself when expanded (\`expand[]=${field}\`).`,
    });
  }
  return { ...base, properties } as TSchema;
}

/** A copy of a schema without `$id`s: an expanded schema may hold one object twice (a seller under an order and its listing). */
function withoutIds(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(withoutIds);
  if (schema === null || typeof schema !== 'object') return schema;
  const copy: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) if (key !== '$id') copy[key] = key === 'examples' ? value : withoutIds(value);
  return copy;
}

/** The answer's schema with the object (or the list's data items) made expandable. */
function expandableAnswer(objects: ExpandableObjects, object: string, answer: TSchema): TSchema {
  const expanded = expandableSchema(objects, object, MAX_EXPAND_DEPTH);
  const properties = answer.properties as Record<string, TSchema> | undefined;
  if (properties?.object?.const !== 'list') return expanded;
  return { ...answer, properties: { ...properties, data: Type.Array(expanded) } };
}

function pathsParameter(paths: string[], name: string): TSchema {
  const path = Type.String({ enum: paths });
  return Type.Union([path, Type.Array(path, { maxItems: MAX_EXPAND_PATHS })], {
    description: `Fields to answer as objects instead of ids (\`${name}=a&${name}=b\`; at most ${MAX_EXPAND_DEPTH} levels, ${MAX_EXPAND_PATHS} paths). See docs/expand.md.`,
  });
}

/** The onRoute hook of the /v1 scopes: a route with `config.expand` takes `expand[]` and answers expanded. */
export function expandableRoutes(objects: ExpandableObjects) {
  return (route: RouteOptions) => {
    const object = (route.config as { expand?: string } | undefined)?.expand;
    if (object === undefined) return;
    if (!objects[object]) throw new Error(`${route.method} ${route.url}: no module declares the expandable object '${object}'`);
    const schema = (route.schema ?? {}) as Record<string, unknown>;
    const querystring = (schema.querystring ?? Type.Object({}, { additionalProperties: false })) as TSchema;
    const paths = expandPaths(objects, object);
    const response = schema.response as Record<string, TSchema> | undefined;
    if (!response?.[200]) throw new Error(`${route.method} ${route.url}: a route that expands declares its 200 answer`);
    route.schema = {
      ...schema,
      querystring: {
        ...querystring,
        properties: { ...(querystring.properties as object), expand: pathsParameter(paths, 'expand'), 'expand[]': pathsParameter(paths, 'expand[]') },
      },
      response: { ...response, 200: expandableAnswer(objects, object, response[200]!) },
    };
    const hooks = route.preValidation === undefined ? [] : Array.isArray(route.preValidation) ? route.preValidation : [route.preValidation];
    route.preValidation = [readExpand(objects, object), ...hooks];
    const handler = route.handler;
    route.handler = async function (this: unknown, request, reply) {
      const answer = (await handler.call(this as never, request, reply)) as Item;
      const paths = requested.get(request);
      if (paths === undefined || answer === undefined || answer === null) return answer;
      const items = answer.object === 'list' ? (answer.data as Item[]) : [answer];
      await expandItems(request.ctx, objects, object, items, paths);
      return answer;
    };
  };
}
