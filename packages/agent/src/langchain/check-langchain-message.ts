import { ChatImportError } from '@x/events';
import type { LangChainMessage } from './langchain-message.js';

type Refuse = (path: string, expected: string) => never;

/**
 * Checks the shape of the messages `fromLangChainMessages` reads, so what does not fit LangChain's types (JSON from a
 * file, a message built by hand, args JSON cannot write) is refused with a `ChatImportError` naming the message and
 * the field, never a `TypeError` from deep in the import. Only the fields the import reads are checked; message types
 * and block types it does not support pass, to be refused by name where they are handled.
 */
export function checkLangChainMessages(messages: unknown): asserts messages is readonly LangChainMessage[] {
  if (!Array.isArray(messages)) {
    throw new ChatImportError({ index: 0, path: '(messages)', message: 'expected an array of LangChain messages' });
  }
  messages.forEach(checkLangChainMessage);
}

function checkLangChainMessage(message: unknown, index: number): void {
  const refuse: Refuse = (path, expected) => {
    throw new ChatImportError({ index, path, message: `expected ${expected}` });
  };
  if (!isRecord(message)) refuse('(message)', 'a LangChain message (an object)');
  checkContent(message.content, refuse);
  if (message.name !== undefined && message.name !== null && typeof message.name !== 'string') {
    refuse('name', 'a string');
  }
  checkToolCalls(message.tool_calls, refuse);
  const invalid = message.invalid_tool_calls;
  if (invalid === undefined || invalid === null) return;
  if (!Array.isArray(invalid)) refuse('invalid_tool_calls', 'an array');
  for (const [callIndex, call] of invalid.entries()) {
    const path = `invalid_tool_calls[${callIndex}]`;
    if (!isRecord(call)) refuse(path, 'an object');
    for (const field of ['id', 'name', 'args'] as const) {
      const value = call[field];
      if (value !== undefined && value !== null && typeof value !== 'string') refuse(`${path}.${field}`, 'a string');
    }
  }
}

function checkContent(content: unknown, refuse: Refuse): void {
  if (typeof content === 'string') return;
  if (!Array.isArray(content)) refuse('content', 'a string or an array of content blocks');
  for (const [blockIndex, block] of content.entries()) {
    const path = `content[${blockIndex}]`;
    if (!isRecord(block)) refuse(path, 'a content block (an object)');
    if (typeof block.type !== 'string') refuse(`${path}.type`, 'a string');
    if (block.type === 'text' && typeof block.text !== 'string') refuse(`${path}.text`, 'a string');
  }
}

function checkToolCalls(calls: unknown, refuse: Refuse): void {
  if (calls === undefined || calls === null) return;
  if (!Array.isArray(calls)) refuse('tool_calls', 'an array');
  for (const [callIndex, call] of calls.entries()) {
    const path = `tool_calls[${callIndex}]`;
    if (!isRecord(call)) refuse(path, 'an object');
    if (call.id !== undefined && call.id !== null && typeof call.id !== 'string') refuse(`${path}.id`, 'a string');
    if (typeof call.name !== 'string') refuse(`${path}.name`, 'a string');
    if (!isRecord(call.args)) refuse(`${path}.args`, 'an object of arguments');
    try {
      JSON.stringify(call.args);
    } catch {
      refuse(`${path}.args`, 'arguments JSON can write (no BigInt, no cycle)');
    }
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
