import type { EventParseIssue } from '../errors/event-parse-error.js';
import { setOwn, toIssues } from '../json/format-path.js';
import type { EventRegistry } from './event-registry.js';

type Payload = Record<string, unknown> & { kind: string };
type PayloadResult = { value: Payload } | { issues: EventParseIssue[] };

/**
 * Validates an ActionEvent's `action` against its registered schema. Unregistered kinds pass as
 * they are (forward compatibility: a reader need not know every tool). Fields the schema does not
 * declare are kept, as on events, and `kind` stays last.
 */
export function validateAction(action: Payload, registry: EventRegistry): PayloadResult {
  const options = registry.getActionKindOptions(action.kind);
  const { kind, ...fields } = action;
  if (options === undefined) return { value: assemble({}, fields, fields, kind) };
  const parsed = options.schema.safeParse('kind' in options.schema.shape ? action : fields);
  if (!parsed.success) return { issues: toIssues(parsed.error, ['action']) };
  return { value: assemble({}, parsed.data, fields, kind) };
}

/**
 * Validates an ObservationEvent's `observation` (already checked against the base observation
 * schema) against its registered schema, keeping `content` and `is_error` first as the reference does.
 */
export function validateObservation(observation: Payload, registry: EventRegistry): PayloadResult {
  const options = registry.getObservationKindOptions(observation.kind);
  const { kind, ...fields } = observation;
  if (options === undefined) return { value: assemble({}, fields, fields, kind) };
  const parsed = options.schema.safeParse('kind' in options.schema.shape ? observation : fields);
  if (!parsed.success) return { issues: toIssues(parsed.error, ['observation']) };
  const base = { content: observation.content, is_error: observation.is_error };
  return { value: assemble(base, parsed.data, fields, kind) };
}

function assemble(
  base: Record<string, unknown>,
  data: Record<string, unknown>,
  input: Record<string, unknown>,
  kind: string,
): Payload {
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(data)) if (key !== 'kind') setOwn(out, key, value);
  for (const [key, value] of Object.entries(input)) if (!Object.hasOwn(out, key)) setOwn(out, key, value);
  out.kind = kind;
  return out as Payload;
}
