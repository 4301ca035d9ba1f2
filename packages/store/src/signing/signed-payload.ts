import { createHash } from 'node:crypto';
import {
  type AnyEvent,
  getEventText,
  getEventToolCalls,
  isRoundTripSafe,
  parseEventJson,
  serializeEvent,
} from '@x/events';
import { canonicalJson } from './canonical-json.js';
import { parseJsonKeepingNumbers } from './json-number-text.js';

/** Names the payload layout, so a later layout can never verify against a signature made over this one. */
export const SIGNED_PAYLOAD_VERSION = 'x-event-sig-v1';

/**
 * What an event's signature covers (after orxhestra's `Event.signable_payload`: the envelope, the text, and
 * fingerprints of the heavy fields rather than the fields themselves). Every field is always present:
 *
 * | field | value |
 * |---|---|
 * | `v` | `x-event-sig-v1` |
 * | `id`, `kind`, `timestamp`, `source` | the event's own fields |
 * | `parent_id` | the event's `parent_id`, or `""` (orxhestra's `branch`: where in the tree it sits) |
 * | `content_text` | the event's text (`getEventText`: a message's text, an action's thought, an observation's output, …) |
 * | `tool_calls` | per tool call (`getEventToolCalls`), `{ tool_call_id, tool_name, args_hash }`, `args_hash` = sha256 (hex) of the canonical JSON of the parsed arguments (of the raw text when they are not JSON), `""` for empty arguments |
 * | `event_hash` | sha256 (hex) of the canonical JSON of the whole event as stored: every other field (observations, images, security risk, …) is covered too; a number `JSON.parse` would round (an integer past 2^53, an overflow) as written (`parseJsonKeepingNumbers`) |
 */
export interface SignedPayload {
  readonly v: typeof SIGNED_PAYLOAD_VERSION;
  readonly id: string;
  readonly kind: string;
  readonly timestamp: string;
  readonly source: string;
  readonly parent_id: string;
  readonly content_text: string;
  readonly tool_calls: readonly { tool_call_id: string; tool_name: string; args_hash: string }[];
  readonly event_hash: string;
}

/** The payload an event's signature is made over (see `SignedPayload` for exactly what it covers). */
export function signedPayload(given: AnyEvent): SignedPayload {
  const text = serializeEvent(given);
  // The event as a log reads it back from that text (a hand-built one gets its schema's defaults, such as a
  // message's `extended_content`), so signer and verifier take its text and calls from the same event; an invalid
  // one is refused here (EventParseError), not met as a TypeError further on.
  const event = isRoundTripSafe(given) ? given : parseEventJson(text);
  const stored = JSON.parse(text) as Record<string, unknown>;
  return {
    v: SIGNED_PAYLOAD_VERSION,
    id: event.id,
    kind: event.kind,
    timestamp: String(stored.timestamp ?? ''),
    source: String(stored.source ?? ''),
    parent_id: typeof stored.parent_id === 'string' ? stored.parent_id : '',
    content_text: getEventText(event),
    tool_calls: getEventToolCalls(event).map((call) => ({
      tool_call_id: call.id,
      tool_name: call.name,
      args_hash: argumentsHash(call.arguments),
    })),
    // Read again keeping the numbers JSON.parse would round: `stored` alone hashes `…890` and `…891` alike.
    event_hash: sha256(canonicalJson(parseJsonKeepingNumbers(text))),
  };
}

/** The exact bytes signed: the UTF-8 canonical JSON (sorted keys, no whitespace) of `signedPayload(event)`. */
export function signedPayloadBytes(event: AnyEvent): Buffer {
  return Buffer.from(canonicalJson(signedPayload(event)), 'utf8');
}

function argumentsHash(text: string): string {
  if (text.trim() === '' || text.trim() === '{}') return '';
  let value: unknown;
  try {
    value = parseJsonKeepingNumbers(text);
  } catch {
    return sha256(text);
  }
  return sha256(canonicalJson(value));
}

function sha256(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}
