import type { TextContent } from '@x/events';
import type { EventLogLike } from '@x/store';
import { z } from 'zod';
import { AgUiRunError } from './ag-ui-run-error.js';
import { lastRecordedTexts } from './last-recorded-texts.js';

/** The most entries a run input's `context` may have, and the most UTF-8 bytes of their text together. */
export const MAX_CONTEXT_ENTRIES = 100;
export const MAX_CONTEXT_BYTES = 64 * 1024;

/** How the text of a run's context begins: how the log's context texts are told from other extended content. */
export const CONTEXT_OPENING = "<context>\nContext the user's application gives for this request:\n\n";

/** AG-UI `Context`: a piece of the client application's context for the run. */
const agUiContextSchema = z.array(z.looseObject({ description: z.string(), value: z.string() }));

/**
 * A run input's `context` as text for the model: it goes in the `extended_content` of the user message recorded for
 * the run, so it is in the log, in the model's messages, and a replay gives the model the same. Undefined when there
 * is none. Not an array of `{ description, value }` strings, or over the bounds: `invalid_context`.
 */
export function runContextContent(context: unknown): TextContent | undefined {
  if (context === undefined || context === null) return undefined;
  const parsed = agUiContextSchema.safeParse(context);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = ['context', ...(issue?.path ?? [])].join('.');
    throw new AgUiRunError(
      'invalid_context',
      `${where}: ${issue?.message ?? 'invalid'} (context is an array of { description: string, value: string })`,
    );
  }
  const entries = parsed.data;
  if (entries.length === 0) return undefined;
  if (entries.length > MAX_CONTEXT_ENTRIES) {
    throw new AgUiRunError('invalid_context', `context: ${entries.length} entries, more than ${MAX_CONTEXT_ENTRIES}`);
  }
  const body = entries.map((entry) => `${entry.description}:\n${entry.value}`).join('\n\n');
  const bytes = Buffer.byteLength(body);
  if (bytes > MAX_CONTEXT_BYTES) {
    throw new AgUiRunError('invalid_context', `context: ${bytes} bytes of text, more than ${MAX_CONTEXT_BYTES}`);
  }
  return {
    cache_prompt: false,
    type: 'text',
    text: `${CONTEXT_OPENING}${body}\n</context>`,
  };
}

/**
 * The text of the last context the log gave the model (on a user message's `extended_content`), or undefined when
 * there is none since the last condensation (`last-recorded-texts.ts`).
 */
export async function lastRecordedContext(log: EventLogLike): Promise<string | undefined> {
  return (await lastRecordedTexts(log, [CONTEXT_OPENING])).get(CONTEXT_OPENING);
}
