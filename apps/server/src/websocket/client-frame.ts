import { type Message, messageSchema } from '@x/events';
import { imageProblems } from '../internal/image-url.js';
import { InvalidClientFrameError } from './invalid-client-frame-error.js';

/** What a client frame asks for: a message to send, or nothing (a redundant auth frame). */
export type ClientFrame = { readonly kind: 'message'; readonly message: Message } | { readonly kind: 'ignored' };

/**
 * Parses a client → server frame: a Message JSON (unknown keys dropped, string content coerced, as
 * the reference) or a redundant auth frame, which is ignored. Anything else throws
 * `InvalidClientFrameError` naming what was wrong.
 */
export function parseClientFrame(text: string): ClientFrame {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new InvalidClientFrameError(`the frame is not JSON (${(error as Error).message})`, { cause: error });
  }
  if (isAuthFrame(value)) return { kind: 'ignored' };
  const parsed = messageSchema.safeParse(value);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`);
    throw new InvalidClientFrameError(`the frame is not a Message: ${issues.join('; ')}`, { cause: parsed.error });
  }
  const images = imageProblems(parsed.data);
  if (images.length > 0) throw new InvalidClientFrameError(`the frame is not a Message: ${images.join('; ')}`);
  return { kind: 'message', message: parsed.data };
}

/** `{"type":"auth", "session_api_key"?: ...}` and no other keys. */
export function isAuthFrame(value: unknown): value is { type: 'auth'; session_api_key?: unknown } {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const record = value as Record<string, unknown>;
  return record.type === 'auth' && Object.keys(record).every((key) => key === 'type' || key === 'session_api_key');
}
