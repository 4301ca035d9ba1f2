import { z } from 'zod';
import { KindRegistrationError } from '../errors/kind-registration-error.js';
import type { Observation, SourceType } from '../schemas/common.js';
import { sourceTypeSchema } from '../schemas/common.js';
import type { ContentPart, Message } from '../schemas/content.js';
import { eventIdSchema } from '../schemas/event-base.js';
import { type AnyEvent, builtinEventSchemas } from '../schemas/events.js';
import {
  finishActionSchema,
  finishObservationSchema,
  thinkActionSchema,
  thinkObservationSchema,
} from './builtin-kinds.js';
import { terminalLlmContent, terminalObservationReadSchema } from './reference-kinds/terminal-observation-kind.js';
import { renderedToolObservationKinds } from './reference-kinds/tool-observation-kinds.js';
import { workspaceToolActionKinds, workspaceToolObservationKinds } from './reference-kinds/workspace-tool-kinds.js';

/** Any zod object schema (plain, strict or loose). */
export type ObjectSchema = z.ZodObject<z.ZodRawShape, z.core.$ZodObjectConfig>;

export interface ActionKindOptions {
  readonly kind: string;
  /** The action's fields; `kind` may be declared (as its literal) or left out. */
  readonly schema: ObjectSchema;
}

export interface ObservationKindOptions {
  readonly kind: string;
  /** The observation's own fields; `content`, `is_error` and `kind` are handled by the base schema. */
  readonly schema: ObjectSchema;
  /** Content sent to the LLM instead of the default (error header + `content`). */
  readonly toLlmContent?: (observation: Observation) => readonly ContentPart[];
}

export interface EventKindOptions {
  readonly kind: string;
  /** The whole event: base fields (`id`, `timestamp`, `source`, `parent_id`) first, then the kind's fields, `kind` last. */
  readonly schema: ObjectSchema;
  /**
   * The LLM message of an event of this kind; `undefined` (or no hook) keeps it out of the LLM
   * input. Typed for any event because conversion code calls it after checking the kind.
   */
  readonly toLlmMessage?: (event: AnyEvent) => Message | undefined;
}

/**
 * The action, observation and custom event kinds a reader knows. Parsing validates the payload of an
 * ActionEvent/ObservationEvent whose kind is registered; unregistered payload kinds are kept as they
 * are. `createEventRegistry()` makes an isolated one; the module functions use the default registry.
 */
export interface EventRegistry {
  /** Validates the `action` of ActionEvents whose `action.kind` is `kind`. */
  registerActionKind(kind: string, schema: ObjectSchema): void;
  /** Validates the `observation` of ObservationEvents whose `observation.kind` is `kind`. */
  registerObservationKind<S extends ObjectSchema>(
    kind: string,
    schema: S,
    options?: { toLlmContent?: (observation: Observation & z.infer<S>) => readonly ContentPart[] },
  ): void;
  /** Registers a custom event kind: it then parses, validates and serializes like a built-in kind. */
  registerEventKind<const K extends string, S extends ObjectSchema>(
    kind: K,
    schema: S,
    options?: { toLlmMessage?: (event: CustomEventOf<K, S>) => Message | undefined },
  ): EventKindHandle<CustomEventOf<K, S>>;
  getActionKindOptions(kind: string): ActionKindOptions | undefined;
  getObservationKindOptions(kind: string): ObservationKindOptions | undefined;
  getEventKindOptions(kind: string): EventKindOptions | undefined;
  /** Registered kinds, in registration order. */
  kinds(): { actions: string[]; observations: string[]; events: string[] };
}

interface BaseEventFields {
  readonly id: string;
  readonly timestamp: string;
  readonly source: SourceType;
  readonly parent_id?: string;
}

/** The value type of a custom event kind: base fields, the schema's fields, and `kind`. */
export type CustomEventOf<K extends string, S extends ObjectSchema> = Omit<BaseEventFields, keyof z.infer<S>> &
  Readonly<Omit<z.infer<S>, 'kind'>> & { readonly kind: K };

/**
 * What `registerEventKind` returns. `AnyEvent` names only the built-in kinds (a string-typed member
 * would break narrowing on `kind`), so a parsed custom event is typed as `AnyEvent`: narrow it with `is`.
 */
export interface EventKindHandle<E> {
  readonly kind: string;
  /** The full schema: base fields, the kind's fields, `kind`. */
  readonly schema: ObjectSchema;
  /** Type guard for values typed `unknown` (narrowing an `AnyEvent` with it gives `never`: use `match`). */
  is(event: unknown): event is E;
  /** The event typed as this kind when it is one, else undefined. */
  match(event: unknown): E | undefined;
}

/** Base fields of every event, in the reference's key order; a custom schema may redeclare them. */
const baseEventShape = {
  id: eventIdSchema,
  timestamp: z.string(),
  source: sourceTypeSchema,
  parent_id: z.string().optional(),
};

const reservedEventKinds = new Set<string>([...Object.keys(builtinEventSchemas), 'OpaqueEvent']);

/**
 * A new registry holding the built-in action and observation kinds (finish, think, the terminal's observation, those
 * of apply_patch, glob, grep and invoke_skill, and the browser, task and ToM observations) and nothing else.
 */
export function createEventRegistry(): EventRegistry {
  const actions = new Map<string, ActionKindOptions>();
  const observations = new Map<string, ObservationKindOptions>();
  const events = new Map<string, EventKindOptions & { readonly userSchema: ObjectSchema }>();

  const registry: EventRegistry = {
    registerActionKind(kind, schema) {
      checkKindName(kind);
      checkKindField(kind, schema);
      checkSameSchema(kind, actions.get(kind)?.schema, schema);
      actions.set(kind, Object.freeze({ kind, schema }));
    },
    registerObservationKind(kind, schema, options = {}) {
      checkKindName(kind);
      checkKindField(kind, schema);
      checkSameSchema(kind, observations.get(kind)?.schema, schema);
      const entry = { kind, schema, ...definedOnly(options) } as ObservationKindOptions;
      observations.set(kind, Object.freeze(entry));
    },
    registerEventKind(kind, schema, options = {}) {
      checkKindName(kind);
      if (reservedEventKinds.has(kind)) throw new KindRegistrationError(kind, 'it is a built-in event kind');
      checkKindField(kind, schema);
      const existing = events.get(kind);
      checkSameSchema(kind, existing?.userSchema, schema);
      const full = existing?.schema ?? z.object({ ...baseEventShape, ...schema.shape, kind: z.literal(kind) });
      const entry = { kind, schema: full, userSchema: schema, ...definedOnly(options) } as EventKindOptions & {
        userSchema: ObjectSchema;
      };
      events.set(kind, Object.freeze(entry));
      const is = (event: unknown): event is never =>
        typeof event === 'object' && event !== null && (event as { kind?: unknown }).kind === kind;
      return Object.freeze({ kind, schema: full, is, match: (event: unknown) => (is(event) ? event : undefined) });
    },
    getActionKindOptions: (kind) => actions.get(kind),
    getObservationKindOptions: (kind) => observations.get(kind),
    getEventKindOptions(kind) {
      const entry = events.get(kind);
      if (entry === undefined) return undefined;
      const { userSchema: _, ...options } = entry;
      return options;
    },
    kinds: () => ({ actions: [...actions.keys()], observations: [...observations.keys()], events: [...events.keys()] }),
  };

  registry.registerActionKind('FinishAction', finishActionSchema);
  registry.registerActionKind('ThinkAction', thinkActionSchema);
  registry.registerObservationKind('FinishObservation', finishObservationSchema);
  registry.registerObservationKind('ThinkObservation', thinkObservationSchema);
  // The reference renders a terminal observation with its metadata lines: every reader must, not only a
  // process that created a terminal tool.
  registry.registerObservationKind('TerminalObservation', terminalObservationReadSchema, {
    toLlmContent: terminalLlmContent,
  });
  // apply_patch, glob, grep, invoke_skill: validated on read, rendered as every observation is.
  for (const [kind, schema] of Object.entries(workspaceToolActionKinds)) registry.registerActionKind(kind, schema);
  for (const [kind, schema] of Object.entries(workspaceToolObservationKinds)) {
    registry.registerObservationKind(kind, schema);
  }
  // Browser, sub-agent task and ToM observations: the reference renders them its own way.
  for (const [kind, { schema, toLlmContent }] of Object.entries(renderedToolObservationKinds)) {
    registry.registerObservationKind(kind, schema, { toLlmContent });
  }
  return registry;
}

function checkKindName(kind: string): void {
  if (typeof kind !== 'string' || kind === '')
    throw new KindRegistrationError(String(kind), 'a kind must be a non-empty string');
}

/** A schema may declare `kind`, but only as the literal it is registered under. */
function checkKindField(kind: string, schema: ObjectSchema): void {
  if (!(schema instanceof z.ZodObject)) throw new KindRegistrationError(kind, 'the schema must be a zod object schema');
  const field = schema.shape.kind;
  if (field === undefined) return;
  if (!(field instanceof z.ZodLiteral) || field.values.size !== 1 || !field.values.has(kind)) {
    throw new KindRegistrationError(kind, `its schema declares "kind" as something other than the literal "${kind}"`);
  }
}

/** Registering the same schema again (e.g. a module evaluated twice) is allowed; a different one is a conflict. */
function checkSameSchema(kind: string, existing: ObjectSchema | undefined, schema: ObjectSchema): void {
  if (existing !== undefined && existing !== schema) {
    throw new KindRegistrationError(kind, 'it is already registered with a different schema');
  }
}

function definedOnly<T extends object>(options: T): Partial<T> {
  return Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined)) as Partial<T>;
}
