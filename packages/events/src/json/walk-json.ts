import type { EventParseIssue } from '../errors/event-parse-error.js';
import { formatPath, setOwn } from './format-path.js';
import { PROTOTYPE_KEY_PLACEHOLDER } from './prototype-key.js';

/**
 * How deeply objects and arrays may nest in an event (the event object itself is level 1). Far beyond
 * any real event, and below what the Python reference can read (its `json` module stops near 1000),
 * so every walk over an event stays bounded and no event we accept is one the reference cannot load.
 */
export const MAX_EVENT_DEPTH = 512;

/**
 * Keys whose values are free-form JSON owned by someone else, as the reference types them (`Any`,
 * `dict[str, Any]`): state values, hook inputs, an MCP call's arguments (`MCPToolAction.data`), tool
 * schemas and metadata. The reference's `exclude_none` drops only a model's own null fields, so nulls
 * inside these are data and are kept as they are (an MCP argument sent as null, a schema's
 * `"default": null`).
 */
const FREE_FORM_KEYS = new Set([
  'value',
  'hook_input',
  'raw_input',
  'raw_output',
  'metadata',
  'meta',
  'mcp_tool',
  'data',
  'input_schema',
  'response_schema',
]);

/** Top-level fields that are free-form only in one event kind (`ACPToolCallEvent.content` is `list[Any]`). */
const FREE_FORM_EVENT_FIELDS: Readonly<Record<string, string>> = { content: 'ACPToolCallEvent' };

export interface WalkJsonOptions {
  /** Return a copy (sharing nothing with the input); without it the input is only checked. */
  readonly copy: boolean;
  /** Drop null/undefined object fields, except inside free-form values (see `FREE_FORM_KEYS`). */
  readonly dropNulls: boolean;
  /**
   * The value may not come from `JSON.parse`: check for cycles and for values JSON cannot hold
   * (functions, symbols, bigints), and copy shared sub-values once.
   */
  readonly foreign: boolean;
  /**
   * Copy everything (free-form values of an owned input too) and write each `__proto__` key as
   * `PROTOTYPE_KEY_PLACEHOLDER`, so a schema keeps it as it would keep any other key.
   */
  readonly renamePrototypeKey?: boolean;
}

/**
 * `lossless` is false when a foreign value holds what JSON text cannot carry back (a non-finite number,
 * -0, an undefined array element or kept field): its JSON text parses to something slightly different.
 */
export type WalkJsonResult =
  | {
      ok: true;
      value: unknown;
      lossless: boolean;
      /** Some object of the value has an own `__proto__` key. */
      prototypeKey: boolean;
    }
  | { ok: false; issue: EventParseIssue };

interface Frame {
  readonly source: object;
  /** The copy being filled, or undefined when only checking. */
  readonly target: Record<string, unknown> | unknown[] | undefined;
  /** Own enumerable keys of an object; undefined for an array. */
  readonly keys: string[] | undefined;
  readonly length: number;
  next: number;
  /** Nulls are dropped at this level (false inside free-form values). */
  readonly dropNulls: boolean;
  /** This level is copied (a free-form value of an owned input is only checked: it is ours already). */
  readonly copying: boolean;
  readonly key: string | number | undefined;
}

/**
 * Walks a JSON-like value without recursion, so no input can overflow the stack: nesting past
 * `MAX_EVENT_DEPTH`, a cycle or a non-JSON value comes back as an issue naming its path. Object
 * keys are written as own data properties, so a `__proto__` key stays a field and never reaches a
 * prototype.
 */
export function walkJson(value: unknown, options: WalkJsonOptions): WalkJsonResult {
  const leafIssue = checkLeaf(value, options.foreign);
  if (leafIssue !== undefined) return { ok: false, issue: { path: '', message: leafIssue } };
  if (value === null || typeof value !== 'object')
    return { ok: true, value, lossless: isLosslessLeaf(value), prototypeKey: false };

  const stack: Frame[] = [];
  const onStack = options.foreign ? new Set<object>() : undefined;
  /**
   * Values already walked (with their copies), by null mode: a value shared within a foreign input is
   * walked and copied once, so sharing can never make the walk exponential.
   */
  const seen = options.foreign ? { dropped: new Map<object, unknown>(), kept: new Map<object, unknown>() } : undefined;

  const push = (source: object, key: string | number | undefined, dropNulls: boolean, copying: boolean): unknown => {
    const isArray = Array.isArray(source);
    const keys = isArray ? undefined : Object.keys(source);
    const length = isArray ? source.length : (keys as string[]).length;
    const target = copying ? (isArray ? [] : {}) : undefined;
    stack.push({ source, target, keys, length, next: 0, dropNulls, copying, key });
    onStack?.add(source);
    (dropNulls ? seen?.dropped : seen?.kept)?.set(source, target);
    return target;
  };
  const fail = (key: string | number, message: string): WalkJsonResult => {
    const path = [...stack.slice(1).map((frame) => frame.key as string | number), key];
    return { ok: false, issue: { path: shortPath(path), message } };
  };

  const rootKind = (value as { kind?: unknown }).kind;
  const root = push(value, undefined, options.dropNulls, options.copy);
  let lossless = true;
  let prototypeKey = false;
  const rename = options.renamePrototypeKey === true;
  while (stack.length > 0) {
    const frame = stack[stack.length - 1]!;
    if (frame.next === frame.length) {
      stack.pop();
      onStack?.delete(frame.source);
      continue;
    }
    const index = frame.next++;
    const key = frame.keys === undefined ? index : frame.keys[index]!;
    if (key === '__proto__') prototypeKey = true;
    const item = (frame.source as Record<string | number, unknown>)[key];
    if (frame.keys !== undefined && frame.dropNulls && (item === null || item === undefined)) continue;
    const issue = checkLeaf(item, options.foreign);
    if (issue !== undefined) return fail(key, issue);
    if (options.foreign && lossless && !isLosslessLeaf(item)) lossless = false;
    let copy = item;
    if (item !== null && typeof item === 'object') {
      if (onStack?.has(item)) return fail(key, 'the value contains itself (a cycle), which JSON cannot hold');
      const freeForm =
        typeof key === 'string' &&
        (FREE_FORM_KEYS.has(key) ||
          (stack.length === 1 &&
            Object.hasOwn(FREE_FORM_EVENT_FIELDS, key) &&
            FREE_FORM_EVENT_FIELDS[key] === rootKind));
      const dropNulls = frame.dropNulls && !freeForm;
      const copying = frame.copying && (options.foreign || rename || !freeForm);
      const walked = dropNulls ? seen?.dropped : seen?.kept;
      if (walked?.has(item)) {
        copy = walked.get(item);
      } else {
        if (stack.length >= MAX_EVENT_DEPTH) {
          return fail(key, `nested more than ${MAX_EVENT_DEPTH} levels deep (the limit for an event)`);
        }
        const target = push(item, key, dropNulls, copying);
        if (copying) copy = target;
      }
    }
    if (frame.target === undefined) continue;
    if (frame.keys === undefined) (frame.target as unknown[]).push(copy);
    else if (rename && key === '__proto__') (frame.target as Record<string, unknown>)[PROTOTYPE_KEY_PLACEHOLDER] = copy;
    else setOwn(frame.target as Record<string, unknown>, key as string, copy);
  }
  return { ok: true, value: options.copy ? root : value, lossless, prototypeKey };
}

/** Whether a leaf's JSON text parses back to the same value (objects are walked, so they count as such). */
function isLosslessLeaf(value: unknown): boolean {
  if (typeof value === 'number') return Number.isFinite(value) && !Object.is(value, -0);
  return value !== undefined;
}

/** The path of a deep value with its middle elided, so a message stays readable: `a.b[0]…(500 levels)…[0].c`. */
function shortPath(path: readonly (string | number)[]): string {
  if (path.length <= 16) return formatPath(path);
  const head = formatPath(path.slice(0, 8));
  const tail = formatPath(path.slice(-4));
  return `${head}…(${path.length - 12} levels)…${tail.startsWith('[') ? '' : '.'}${tail}`;
}

/** Why a value cannot be part of a JSON document, or undefined. Only foreign values are checked. */
function checkLeaf(value: unknown, foreign: boolean): string | undefined {
  if (!foreign) return undefined;
  const type = typeof value;
  if (type === 'function' || type === 'symbol' || type === 'bigint') return `a ${type} is not a JSON value`;
  return undefined;
}
