import { FileNotFoundError, type FileStore } from '@x/store';
import { z } from 'zod';
import type { A2aIncomingPart } from './a2a-requests.js';
import type { A2aPart } from './a2a-types.js';

/**
 * The side file, in the conversation's directory, that keeps the parts of the A2A messages that had data parts, by
 * the id of the MessageEvent each was recorded as. The event holds the text the agent read (a data part becomes a JSON
 * block of it) and no more: the reference's event files take no unknown field. A fork copies it (conversation-meta.ts `writeForkMeta`).
 */
export const A2A_PARTS_FILE = 'x_a2a_parts.json';

const storedPartSchema = z.union([
  z.object({ text: z.string() }),
  z.object({ data: z.unknown(), mediaType: z.string().optional() }),
]);
const storedPartsSchema = z.record(z.string(), z.array(storedPartSchema));

/** The parts of the messages recorded with data parts, by event id: none when the file is missing or unreadable. */
export type MessageParts = Readonly<Record<string, readonly A2aPart[]>>;

function partsPath(hex: string): string {
  return `${hex}/${A2A_PARTS_FILE}`;
}

/**
 * The stored parts of a conversation's A2A messages. A file that does not read as one (damaged by hand) gives none:
 * the history then shows those messages as the text the agent read, as for a message without data parts.
 */
export async function readMessageParts(store: FileStore, hex: string): Promise<MessageParts> {
  let text: string;
  try {
    text = await store.read(partsPath(hex));
  } catch (error) {
    if (FileNotFoundError.isInstance(error)) return {};
    throw error;
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return {};
  }
  const parsed = storedPartsSchema.safeParse(json);
  return parsed.success ? (parsed.data as MessageParts) : {};
}

/**
 * Keeps the message's text and data parts, in order, under the id of the event it was recorded as, when it has a data
 * part (the history of a text-only message is its text, as recorded). Messages to one task are recorded one at a time
 * (a working task refuses more), so reading and writing the file whole loses none.
 */
export async function keepMessageParts(
  store: FileStore,
  hex: string,
  eventId: string,
  parts: readonly A2aIncomingPart[],
): Promise<void> {
  if (!parts.some((part) => 'data' in part)) return;
  const kept: A2aPart[] = parts.flatMap((part): A2aPart[] => {
    if (part.text !== undefined) return [{ text: part.text }];
    if ('data' in part) {
      return [{ data: part.data ?? null, ...(part.mediaType ? { mediaType: part.mediaType } : {}) }];
    }
    return [];
  });
  const all = { ...(await readMessageParts(store, hex)), [eventId]: kept };
  await store.write(partsPath(hex), JSON.stringify(all));
}
