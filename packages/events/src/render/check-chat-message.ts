import { ChatImportError } from '../errors/chat-import-error.js';

/**
 * Checks the shape of one Chat Completions message before it is imported, so JSON from outside (a request body, a
 * file, another framework's history) that does not fit the wire type is refused with a `ChatImportError` naming the
 * message and the field, never a `TypeError` from deep in the import. Only the fields the import reads are checked;
 * roles and part types it does not support pass, to be refused by name where they are handled.
 */
export function checkChatMessage(message: unknown, index: number): void {
  const refuse: Refuse = (path, expected) => {
    throw new ChatImportError({ index, path, message: `expected ${expected}` });
  };
  if (!isRecord(message)) refuse('(message)', 'an object');
  const fields = message;
  if (typeof fields.role !== 'string') refuse('role', 'a string');
  if (fields.name !== undefined && fields.name !== null && typeof fields.name !== 'string') refuse('name', 'a string');
  switch (fields.role) {
    case 'system':
    case 'developer':
    case 'user':
    case 'tool':
      checkContent(fields.content, false, refuse);
      if (fields.role === 'tool' && typeof fields.tool_call_id !== 'string') refuse('tool_call_id', 'a string');
      break;
    case 'assistant':
      checkContent(fields.content, true, refuse);
      checkToolCalls(fields.tool_calls, refuse);
      if (fields.refusal !== undefined && fields.refusal !== null && typeof fields.refusal !== 'string') {
        refuse('refusal', 'a string or null');
      }
      break;
  }
}

type Refuse = (path: string, expected: string) => never;

function checkContent(content: unknown, absentAllowed: boolean, refuse: Refuse): void {
  if (typeof content === 'string') return;
  if (absentAllowed && (content === null || content === undefined)) return;
  if (!Array.isArray(content))
    refuse('content', absentAllowed ? 'a string, an array of parts or null' : 'a string or an array of parts');
  for (const [partIndex, part] of content.entries()) {
    const path = `content[${partIndex}]`;
    if (!isRecord(part)) refuse(path, 'an object');
    if (typeof part.type !== 'string') refuse(`${path}.type`, 'a string');
    if (part.type === 'text' && typeof part.text !== 'string') refuse(`${path}.text`, 'a string');
    if (part.type === 'refusal' && typeof part.refusal !== 'string') refuse(`${path}.refusal`, 'a string');
  }
}

function checkToolCalls(calls: unknown, refuse: Refuse): void {
  if (calls === undefined || calls === null) return;
  if (!Array.isArray(calls)) refuse('tool_calls', 'an array');
  for (const [callIndex, call] of calls.entries()) {
    const path = `tool_calls[${callIndex}]`;
    if (!isRecord(call)) refuse(path, 'an object');
    if (typeof call.id !== 'string') refuse(`${path}.id`, 'a string');
    if (typeof call.type !== 'string') refuse(`${path}.type`, 'a string');
    if (call.type !== 'function') continue;
    if (!isRecord(call.function)) refuse(`${path}.function`, 'an object');
    if (typeof call.function.name !== 'string') refuse(`${path}.function.name`, 'a string');
    if (typeof call.function.arguments !== 'string') refuse(`${path}.function.arguments`, 'a string');
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
