import type { SourceType } from './common.js';

/**
 * An event of a kind this reader does not know (written by a newer version or another
 * implementation). It keeps the original JSON object exactly, serializes back unchanged and is
 * skipped by LLM conversion. In memory its `kind` is the literal `'OpaqueEvent'` so that
 * `switch (event.kind)` narrows the known kinds; the original kind is in `opaque_kind`.
 */
export interface OpaqueEvent {
  readonly kind: 'OpaqueEvent';
  /** The `kind` written in the JSON (may be missing or not a string in broken input). */
  readonly opaque_kind: string;
  readonly id: string;
  readonly timestamp: string;
  readonly source?: SourceType;
  readonly parent_id?: string;
  /** The event's JSON exactly as read. */
  readonly json: Readonly<Record<string, unknown>>;
}
