import fc from 'fast-check';
import { eventTimestamp } from '../create/ids.js';
import { deepFreeze } from '../json/deep-freeze.js';
import { parseEvent } from '../json/parse-event.js';
import { THINK_OBSERVATION_TEXT } from '../registry/builtin-kinds.js';
import { sourceTypeSchema } from '../schemas/common.js';
import { contentPartSchema, type Message, messageSchema } from '../schemas/content.js';
import { type AnyEvent, type BuiltinEventKind, builtinEventSchemas, type EventOfKind } from '../schemas/events.js';
import { arbitraryFromSchema, arbitraryJsonValue, arbitraryText } from './zod-arbitrary.js';

/** Every built-in event kind. */
export const builtinEventKinds = Object.keys(builtinEventSchemas) as BuiltinEventKind[];

/** Event ids: UUIDs (what we write) and other non-empty strings the reference accepts. */
export const arbitraryEventId = (): fc.Arbitrary<string> =>
  fc.oneof(
    fc.uuid({ version: 4 }),
    arbitraryText().filter((id) => id !== '' && id !== '__root__' && id !== '__proto__'),
  );

/** Timestamps in the reference format, and (rarely) any string, which the format allows. */
export const arbitraryTimestamp = (): fc.Arbitrary<string> =>
  fc.oneof(
    {
      weight: 4,
      arbitrary: fc
        .date({ min: new Date(2000, 0, 1), max: new Date(2100, 0, 1), noInvalidDate: true })
        .map((date) => eventTimestamp(date)),
    },
    { weight: 1, arbitrary: arbitraryText() },
  );

/** A kind name no reader knows: the prefix keeps it clear of built-in and registered kinds. */
const arbitraryUnknownKind = (prefix: string): fc.Arbitrary<string> =>
  fc.stringMatching(/^[A-Z][A-Za-z0-9]{0,10}$/).map((name) => `${prefix}${name}`);

/** Extra fields for payloads of unregistered kinds (no `kind`, no `__proto__`). */
const arbitraryExtraFields = (): fc.Arbitrary<Record<string, unknown>> =>
  fc.dictionary(
    fc.stringMatching(/^[a-z][a-z_]{0,8}$/).filter((key) => key !== 'kind'),
    arbitraryJsonValue().filter((value) => value !== null),
    { maxKeys: 3 },
  );

/** Actions: the built-in FinishAction/ThinkAction, or an unregistered kind with arbitrary fields. */
export const arbitraryAction = (): fc.Arbitrary<Record<string, unknown>> =>
  fc.oneof(
    arbitraryText().map((message) => ({ message, kind: 'FinishAction' })),
    arbitraryText().map((thought) => ({ thought, kind: 'ThinkAction' })),
    fc
      .tuple(arbitraryExtraFields(), arbitraryUnknownKind('FutureAction'))
      .map(([fields, kind]) => ({ ...fields, kind })),
  );

/** Observations: the built-in Finish/Think observations, or an unregistered kind with extra fields. */
export const arbitraryObservation = (): fc.Arbitrary<Record<string, unknown>> =>
  fc.oneof(
    arbitraryText().map((text) => ({ content: [{ type: 'text', text }], is_error: false, kind: 'FinishObservation' })),
    fc.constant({
      content: [{ type: 'text', text: THINK_OBSERVATION_TEXT }],
      is_error: false,
      kind: 'ThinkObservation',
    }),
    fc
      .tuple(
        fc.array(arbitraryFromSchema(contentPartSchema), { maxLength: 3 }),
        fc.boolean(),
        arbitraryExtraFields(),
        arbitraryUnknownKind('FutureObservation'),
      )
      .map(([content, isError, fields, kind]) => ({ content, is_error: isError, ...fields, kind })),
  );

/**
 * Frozen events of one built-in kind, derived from its schema and normalized by `parseEvent` (so
 * they are exactly what a reader holds): every field, optional ones sometimes absent.
 */
export function arbitraryEventOfKind<K extends BuiltinEventKind>(kind: K): fc.Arbitrary<EventOfKind<K>> {
  return arbitraryFromSchema(builtinEventSchemas[kind], {
    id: arbitraryEventId(),
    timestamp: arbitraryTimestamp(),
    source: fc.constantFrom(...sourceTypeSchema.options),
    parent_id: arbitraryEventId(),
    action: arbitraryAction(),
    observation: arbitraryObservation(),
  }).map((input) => parseEvent(input) as EventOfKind<K>);
}

/** Frozen events of any built-in kind. */
export function arbitraryEvent(): fc.Arbitrary<AnyEvent> {
  return fc.oneof(...builtinEventKinds.map((kind) => arbitraryEventOfKind(kind) as fc.Arbitrary<AnyEvent>));
}

/** Frozen LLM messages, as `messageSchema` parses them. */
export function arbitraryMessage(): fc.Arbitrary<Message> {
  return arbitraryFromSchema(messageSchema).map((input) => deepFreeze(messageSchema.parse(input)));
}

/**
 * The JSON object of an event of a kind no reader knows (as a newer version might write it):
 * base fields, arbitrary extra fields and values (nulls included), `kind` last.
 */
export function arbitraryOpaqueEventJson(): fc.Arbitrary<Record<string, unknown>> {
  return fc
    .record({
      id: arbitraryEventId(),
      timestamp: arbitraryTimestamp(),
      source: fc.constantFrom(...sourceTypeSchema.options),
      extra: fc.dictionary(
        fc.stringMatching(/^[a-z][a-z_]{0,8}$/).filter((key) => !['id', 'timestamp', 'source', 'kind'].includes(key)),
        arbitraryJsonValue(),
        { maxKeys: 4 },
      ),
      kind: arbitraryUnknownKind('FutureEvent'),
    })
    .map(({ id, timestamp, source, extra, kind }) => ({ id, timestamp, source, ...extra, kind }));
}
