import { z } from 'zod';
import { type HookConfigField, type HookEventType, hookConfigFields, hookEventTypes } from './hook-event-type.js';
import type { HookFunction } from './hook-input.js';
import { InvalidHookConfigError } from './invalid-hook-config-error.js';

/** Seconds a hook may run before it is killed (reference default). */
export const DEFAULT_HOOK_TIMEOUT_SECONDS = 60;

/** A shell command hook, in the reference's `HookDefinition` shape (only `type: "command"` is supported). */
export const commandHookSchema = z
  .object({
    type: z.literal('command').default('command'),
    name: z.string().nullish(),
    /** Run with `/bin/sh -c` in the workspace; the hook input arrives as JSON on stdin. */
    command: z.string().trim().min(1, "'command' is required when type is 'command'"),
    /** Seconds before the hook's process group is killed. */
    timeout: z.number().int().positive().default(DEFAULT_HOOK_TIMEOUT_SECONDS),
    /** Fire and forget: the hook runs in the background and can neither block nor add context. */
    async: z.boolean().optional(),
    async_: z.boolean().optional(),
  })
  .transform(({ async, async_, name, ...rest }) => ({
    ...rest,
    ...(name === null || name === undefined ? {} : { name }),
    async: async ?? async_ ?? false,
  }));

export type CommandHookDefinition = z.output<typeof commandHookSchema>;

export interface FunctionHookDefinition {
  type: 'function';
  /** Shown as `function:<name>` in HookExecutionEvent.hook_command. */
  name: string;
  run: HookFunction;
  timeout: number;
}

export type HookDefinition = CommandHookDefinition | FunctionHookDefinition;

/** How a hook is written in a configuration: a command definition, a function, or `{ run, name?, timeout? }`. */
export type HookDefinitionInput =
  | z.input<typeof commandHookSchema>
  | HookFunction
  | { type?: 'function'; name?: string; run: HookFunction; timeout?: number };

export interface HookMatcher {
  /** Tool name, `*`, or a regular expression (see `hookMatcherMatches`). */
  matcher: string;
  hooks: HookDefinition[];
}

export interface HookMatcherInput {
  matcher?: string;
  hooks?: HookDefinitionInput[];
}

/** A parsed configuration: the matchers of each event type, keyed as the reference's HookConfig fields. */
export type HookConfig = { readonly [Field in HookConfigField]: readonly HookMatcher[] };

/**
 * A configuration as written: PascalCase (`PreToolUse`) or snake_case (`pre_tool_use`) keys, optionally
 * wrapped in `{ "hooks": { ... } }` (the Claude Code / `.openhands/hooks.json` format).
 */
export type HookConfigInput =
  | { readonly [Key in HookEventType | HookConfigField]?: readonly HookMatcherInput[] }
  | { hooks: { readonly [Key in HookEventType | HookConfigField]?: readonly HookMatcherInput[] } };

const fieldByKey = new Map<string, HookConfigField>(
  hookEventTypes.flatMap((type) => [
    [type, hookConfigFields[type]],
    [hookConfigFields[type], hookConfigFields[type]],
  ]),
);

export function emptyHookConfig(): HookConfig {
  return { pre_tool_use: [], post_tool_use: [], user_prompt_submit: [], session_start: [], session_end: [], stop: [] };
}

/** Validates a hook configuration; throws `InvalidHookConfigError` naming the offending entry. */
export function parseHookConfig(input: unknown, where = 'hook config'): HookConfig {
  if (!isRecord(input)) throw new InvalidHookConfigError(where, 'expected an object of event types');
  const body = 'hooks' in input ? unwrapHooks(input, where) : input;
  const config: Record<HookConfigField, HookMatcher[]> = { ...emptyHookConfig() } as Record<
    HookConfigField,
    HookMatcher[]
  >;
  const seen = new Set<HookConfigField>();
  for (const [key, value] of Object.entries(body)) {
    const field = fieldByKey.get(key);
    if (field === undefined) {
      throw new InvalidHookConfigError(
        where,
        `unknown event type '${key}'. Valid types: ${hookEventTypes.join(', ')} (or their snake_case names)`,
      );
    }
    if (seen.has(field)) throw new InvalidHookConfigError(where, `event type '${key}' is given twice`);
    seen.add(field);
    if (value === undefined || value === null) continue;
    if (!Array.isArray(value)) throw new InvalidHookConfigError(`${where}: ${key}`, 'expected a list of matchers');
    config[field] = value.map((matcher, index) => parseMatcher(matcher, `${where}: ${key}[${index}]`));
  }
  return config;
}

/**
 * The event types of a `{ "hooks": { ... } }` file. Its other top-level keys are ignored as the reference ignores
 * them (a Claude Code plugin's hooks.json carries a `description`), except an event type: a hook left beside the
 * wrapper would silently never run.
 */
function unwrapHooks(input: Record<string, unknown>, where: string): Record<string, unknown> {
  const stray = Object.keys(input).find((key) => key !== 'hooks' && fieldByKey.has(key));
  if (stray !== undefined) {
    throw new InvalidHookConfigError(where, `event type '${stray}' must be inside 'hooks', not beside it`);
  }
  if (!isRecord(input.hooks)) throw new InvalidHookConfigError(where, "'hooks' must be an object of event types");
  return input.hooks;
}

function parseMatcher(input: unknown, where: string): HookMatcher {
  if (!isRecord(input)) throw new InvalidHookConfigError(where, 'expected { matcher, hooks }');
  const matcher = input.matcher ?? '*';
  if (typeof matcher !== 'string') throw new InvalidHookConfigError(where, "'matcher' must be a string");
  const hooks = input.hooks ?? [];
  if (!Array.isArray(hooks)) throw new InvalidHookConfigError(where, "'hooks' must be a list");
  return { matcher, hooks: hooks.map((hook, index) => parseDefinition(hook, `${where}.hooks[${index}]`)) };
}

function parseDefinition(input: unknown, where: string): HookDefinition {
  if (typeof input === 'function') {
    return functionHook({ run: input as HookFunction }, where);
  }
  if (isRecord(input) && typeof input.run === 'function') {
    return functionHook(input as { run: HookFunction; name?: unknown; timeout?: unknown }, where);
  }
  if (isRecord(input) && (input.type === 'prompt' || input.type === 'agent')) {
    throw new InvalidHookConfigError(where, `hooks of type '${input.type}' are not supported; use 'command'`);
  }
  const parsed = commandHookSchema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new InvalidHookConfigError(where, `${issue?.path.join('.') || '(hook)'}: ${issue?.message ?? 'invalid'}`);
  }
  return parsed.data;
}

function functionHook(
  input: { run: HookFunction; name?: unknown; timeout?: unknown },
  where: string,
): FunctionHookDefinition {
  const timeout = input.timeout ?? DEFAULT_HOOK_TIMEOUT_SECONDS;
  if (typeof timeout !== 'number' || !(timeout > 0)) {
    throw new InvalidHookConfigError(where, "'timeout' must be a positive number of seconds");
  }
  const name = typeof input.name === 'string' && input.name !== '' ? input.name : input.run.name || 'anonymous';
  return { type: 'function', name, run: input.run, timeout };
}

/** What HookExecutionEvent.hook_command shows for a hook (reference `display_command`). */
export function hookDisplayCommand(hook: HookDefinition): string {
  return hook.type === 'command' ? hook.command : `function:${hook.name}`;
}

/**
 * The configuration as the reference serializes HookConfig (base_state.json `hook_config`, the server's
 * ConversationInfo): snake_case keys, command hooks only (function hooks exist only in the process).
 * `null` when nothing serializable is configured.
 */
export function hookConfigToJSON(config: HookConfig): Record<string, unknown> | null {
  const json: Record<string, unknown> = {};
  let any = false;
  for (const field of Object.values(hookConfigFields)) {
    const matchers = config[field]
      .map((matcher) => ({
        matcher: matcher.matcher,
        hooks: matcher.hooks
          .filter((hook): hook is CommandHookDefinition => hook.type === 'command')
          .map((hook) => ({
            type: 'command',
            ...(hook.name === undefined ? {} : { name: hook.name }),
            command: hook.command,
            tools: [],
            timeout: hook.timeout,
            max_iterations: 3,
            async: hook.async,
          })),
      }))
      .filter((matcher) => matcher.hooks.length > 0);
    json[field] = matchers;
    if (matchers.length > 0) any = true;
  }
  return any ? json : null;
}

/** Whether the configuration has any hook at all. */
export function isHookConfigEmpty(config: HookConfig): boolean {
  return Object.values(hookConfigFields).every((field) => config[field].every((matcher) => matcher.hooks.length === 0));
}

/** Concatenates configurations per event type (reference `HookConfig.merge`): every hook runs, in order. */
export function mergeHookConfigs(configs: readonly HookConfig[]): HookConfig {
  const merged = emptyHookConfig() as Record<HookConfigField, HookMatcher[]>;
  for (const config of configs) {
    for (const field of Object.values(hookConfigFields)) merged[field] = [...merged[field], ...config[field]];
  }
  return merged;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
