import { PROTOTYPE_KEY, ROOT_PARENT_ID } from '../schemas/event-base.js';

/**
 * Hand-written checks for the event kinds a conversation creates at every step (ActionEvent,
 * ObservationEvent, ConversationStateUpdateEvent), used by `createEvent` instead of the zod schema:
 * zod's generic object walk was ~15% of a 1,000-step loop's CPU (bench/peers.bench.ts in @x/agent).
 *
 * Each returns exactly what `schema.safeParse(value).data` returns (same fields, same key order, the
 * same defaults), or `undefined` whenever it cannot prove the value valid: then the caller runs the
 * zod schema, so an invalid value still gets zod's issues and the same `EventParseError`, and rare
 * shapes (thinking blocks, images, critic results) take zod's path too. It validates; it only skips
 * zod's machinery. `fast-parse.test.ts` checks the equivalence on generated and mutated events.
 *
 * The value is the output of `walkJson` (plain objects and arrays, nulls dropped), so a field that is
 * `undefined` is absent.
 */
type Json = Record<string, unknown>;
type FastParse = (value: Json) => Json | undefined;

const sources: ReadonlySet<unknown> = new Set(['agent', 'user', 'environment', 'hook']);
const securityRisks: ReadonlySet<unknown> = new Set(['UNKNOWN', 'LOW', 'MEDIUM', 'HIGH']);
const origins: ReadonlySet<unknown> = new Set(['completion', 'responses']);

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The base fields of `eventSchema`, in its order; `undefined` when one is not valid. */
function base(value: Json, defaultSource: string): Json | undefined {
  const { id, timestamp, parent_id } = value;
  const source = value.source ?? defaultSource;
  if (typeof id !== 'string' || id === '' || id === ROOT_PARENT_ID || id === PROTOTYPE_KEY) return undefined;
  if (typeof timestamp !== 'string' || !sources.has(source)) return undefined;
  const out: Json = { id, timestamp, source };
  if (parent_id !== undefined) {
    if (typeof parent_id !== 'string') return undefined;
    out.parent_id = parent_id;
  }
  return out;
}

/** `textContentSchema`; `undefined` when not valid. */
function textContent(value: unknown): Json | undefined {
  if (!isObject(value)) return undefined;
  const cachePrompt = value.cache_prompt ?? false;
  if (typeof cachePrompt !== 'boolean' || value.type !== 'text' || typeof value.text !== 'string') return undefined;
  return { cache_prompt: cachePrompt, type: 'text', text: value.text };
}

/** `z.array(textContentSchema)`, with `.default([])` when `optional`. */
function textContents(value: unknown, optional: boolean): Json[] | undefined {
  if (value === undefined) return optional ? [] : undefined;
  if (!Array.isArray(value)) return undefined;
  const out: Json[] = [];
  for (const item of value) {
    const parsed = textContent(item);
    if (parsed === undefined) return undefined;
    out.push(parsed);
  }
  return out;
}

/** A `z.looseObject`: the declared fields (already parsed) first, then the others as given. */
function loose(declared: Json, value: Json): Json | undefined {
  const out = declared;
  for (const key of Object.keys(value)) {
    if (Object.hasOwn(declared, key)) continue;
    const item = value[key];
    // Left to zod: a field it would keep as `undefined`, and the key that is also a prototype setter.
    if (item === undefined || key === '__proto__') return undefined;
    out[key] = item;
  }
  return out;
}

function toolCall(value: unknown): Json | undefined {
  if (!isObject(value)) return undefined;
  const { id, responses_item_id, name, arguments: args, origin } = value;
  if (typeof id !== 'string' || typeof name !== 'string' || typeof args !== 'string' || !origins.has(origin)) {
    return undefined;
  }
  if (responses_item_id === undefined) return { id, name, arguments: args, origin };
  if (typeof responses_item_id !== 'string') return undefined;
  return { id, responses_item_id, name, arguments: args, origin };
}

function actionEvent(value: Json): Json | undefined {
  const out = base(value, 'agent');
  if (out === undefined) return undefined;
  const thought = textContents(value.thought, false);
  if (thought === undefined) return undefined;
  out.thought = thought;
  const { reasoning_content, thinking_blocks, action, summary } = value;
  if (reasoning_content !== undefined) {
    if (typeof reasoning_content !== 'string') return undefined;
    out.reasoning_content = reasoning_content;
  }
  if (thinking_blocks !== undefined && !(Array.isArray(thinking_blocks) && thinking_blocks.length === 0)) {
    return undefined;
  }
  out.thinking_blocks = [];
  if (value.responses_reasoning_item !== undefined) return undefined;
  if (action !== undefined) {
    if (!isObject(action) || typeof action.kind !== 'string') return undefined;
    const parsed = loose({ kind: action.kind }, action);
    if (parsed === undefined) return undefined;
    out.action = parsed;
  }
  const { tool_name, tool_call_id, llm_response_id } = value;
  if (typeof tool_name !== 'string' || typeof tool_call_id !== 'string') return undefined;
  out.tool_name = tool_name;
  out.tool_call_id = tool_call_id;
  const call = toolCall(value.tool_call);
  if (call === undefined || typeof llm_response_id !== 'string') return undefined;
  out.tool_call = call;
  out.llm_response_id = llm_response_id;
  const securityRisk = value.security_risk ?? 'UNKNOWN';
  if (!securityRisks.has(securityRisk)) return undefined;
  out.security_risk = securityRisk;
  if (value.critic_result !== undefined) return undefined;
  if (summary !== undefined) {
    if (typeof summary !== 'string') return undefined;
    out.summary = summary;
  }
  out.kind = 'ActionEvent';
  return out;
}

function observationEvent(value: Json): Json | undefined {
  const out = base(value, 'environment');
  const { tool_name, tool_call_id, observation, action_id } = value;
  if (out === undefined || typeof tool_name !== 'string' || typeof tool_call_id !== 'string') return undefined;
  out.tool_name = tool_name;
  out.tool_call_id = tool_call_id;
  if (!isObject(observation)) return undefined;
  // Image parts take zod's path: only text parts are checked here.
  const content = textContents(observation.content, true);
  const isError = observation.is_error ?? false;
  if (content === undefined || typeof isError !== 'boolean' || typeof observation.kind !== 'string') return undefined;
  const parsed = loose({ content, is_error: isError, kind: observation.kind }, observation);
  if (parsed === undefined || typeof action_id !== 'string') return undefined;
  out.observation = parsed;
  out.action_id = action_id;
  const extended = textContents(value.extended_content, true);
  if (extended === undefined) return undefined;
  out.extended_content = extended;
  out.kind = 'ObservationEvent';
  return out;
}

function conversationStateUpdateEvent(value: Json): Json | undefined {
  const out = base(value, 'environment');
  if (out === undefined || typeof value.key !== 'string') return undefined;
  out.key = value.key;
  out.value = value.value === undefined ? {} : value.value;
  out.kind = 'ConversationStateUpdateEvent';
  return out;
}

const fastParsers: ReadonlyMap<string, FastParse> = new Map<string, FastParse>([
  ['ActionEvent', actionEvent],
  ['ObservationEvent', observationEvent],
  ['ConversationStateUpdateEvent', conversationStateUpdateEvent],
]);

/** The kinds `fastParseEvent` knows (the test covers each). */
export const fastParsedKinds: readonly string[] = [...fastParsers.keys()];

/**
 * The built-in schema's output for `value` of kind `kind`, or `undefined`: not a kind checked here, or
 * not proven valid (then the zod schema decides). `value.kind` must already be `kind`.
 */
export function fastParseEvent(kind: string, value: Json): Json | undefined {
  return fastParsers.get(kind)?.(value);
}
