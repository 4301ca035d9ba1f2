// The signed payload is a format other verifiers rebuild byte for byte: each tool call's `args_hash` is pinned here
// for every shape its arguments take (empty, `{}`, JSON in any key order, text that is not JSON).
import { createHash } from 'node:crypto';
import { parseEvent } from '@x/events';
import { describe, expect, it } from 'vitest';
import { signedPayload } from '../src/signing/index.js';

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

function argsHashOf(args: string): string {
  const event = parseEvent({
    id: 'action-1',
    timestamp: '2026-11-21T10:00:01.000000',
    source: 'agent',
    thought: [{ type: 'text', text: 'let me look' }],
    tool_name: 'terminal',
    tool_call_id: 'call_1',
    tool_call: { id: 'call_1', name: 'terminal', arguments: args, origin: 'completion' },
    llm_response_id: 'resp-1',
    kind: 'ActionEvent',
  });
  const calls = signedPayload(event).tool_calls;
  expect(calls).toHaveLength(1);
  expect(calls[0]).toMatchObject({ tool_call_id: 'call_1', tool_name: 'terminal' });
  return calls[0]!.args_hash;
}

describe('a tool call’s args_hash in the signed payload', () => {
  it('is empty for empty arguments and for {}', () => {
    expect(argsHashOf('')).toBe('');
    expect(argsHashOf('   ')).toBe('');
    expect(argsHashOf('{}')).toBe('');
    expect(argsHashOf(' {} ')).toBe('');
  });

  it('hashes the canonical JSON of JSON arguments, whatever their key order and spacing', () => {
    const expected = sha256('{"a":2,"b":{"c":[1,"x"],"d":true}}');
    expect(argsHashOf('{"b":{"d":true,"c":[1,"x"]},"a":2}')).toBe(expected);
    expect(argsHashOf('{ "a": 2, "b": { "c": [1, "x"], "d": true } }')).toBe(expected);
  });

  it('hashes the raw text of arguments that are not JSON', () => {
    expect(argsHashOf('ls -la; not json')).toBe(sha256('ls -la; not json'));
    expect(argsHashOf('{"command": "ls"')).toBe(sha256('{"command": "ls"'));
  });
});
