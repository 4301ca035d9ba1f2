import { describe, expect, it } from 'vitest';
import { readCalls, unsupportedVersion } from './json-rpc-calls.js';

const call = { jsonrpc: '2.0', method: 'GetTask', params: { id: 't' } };

describe('readCalls', () => {
  it('reads one object as one call, keeping a falsy id and telling a notification (no id member) apart', () => {
    expect(readCalls({ ...call, id: 0 })).toEqual({
      batch: false,
      calls: [{ rpc: { ...call, id: 0 }, id: 0, notification: false }],
    });
    expect(readCalls({ ...call, id: '' }).calls[0]).toMatchObject({ id: '', notification: false });
    expect(readCalls({ ...call, id: null }).calls[0]).toMatchObject({ id: null, notification: false });
    expect(readCalls(call).calls[0]).toMatchObject({ id: null, notification: true });
  });

  it('answers a malformed envelope as an invalid request with the id it carried, or null', () => {
    expect(readCalls({ jsonrpc: '2.1', id: 7, method: 'GetTask' })).toEqual({
      batch: false,
      calls: [
        {
          invalid: {
            jsonrpc: '2.0',
            id: 7,
            error: { code: -32600, message: expect.stringMatching(/^Not a JSON-RPC 2\.0 request: .+/) },
          },
        },
      ],
    });
    expect(readCalls({ jsonrpc: '2.0', id: 'a', method: '' }).calls[0]).toMatchObject({ invalid: { id: 'a' } });
    for (const id of [{}, [], true]) {
      expect(readCalls({ jsonrpc: '2.0', id, method: 'GetTask' }).calls[0]).toMatchObject({ invalid: { id: null } });
    }
    expect(readCalls({ jsonrpc: '2.0', method: 7 }).calls[0]).toMatchObject({ invalid: { id: null } });
    expect(readCalls(null).calls[0]).toMatchObject({ invalid: { id: null } });
    expect(readCalls('text').calls[0]).toMatchObject({ invalid: { id: null } });
  });

  it('names the member of the envelope that is wrong', () => {
    const messageOf = (body: unknown): string | undefined => {
      const [first] = readCalls(body).calls;
      return first !== undefined && 'invalid' in first ? first.invalid.error.message : undefined;
    };
    expect(messageOf({ jsonrpc: '2.0', id: 1 })).toMatch(/^Not a JSON-RPC 2\.0 request: method: \S/);
    expect(messageOf({ jsonrpc: '2.0', id: 1, method: '' })).toMatch(/^Not a JSON-RPC 2\.0 request: method: \S/);
    expect(messageOf({ jsonrpc: '1.0', id: 1, method: 'GetTask' })).toMatch(
      /^Not a JSON-RPC 2\.0 request: jsonrpc: \S/,
    );
    expect(messageOf({ jsonrpc: '2.0', id: true, method: 'GetTask' })).toMatch(/^Not a JSON-RPC 2\.0 request: id: \S/);
    expect(messageOf(7)).toBe('Not a JSON-RPC 2.0 request: Invalid input: expected object, received number');
  });

  it('reads an array as a batch of calls in order, each answered on its own', () => {
    expect(readCalls([{ ...call, id: 1 }, { bad: true }, call])).toEqual({
      batch: true,
      calls: [
        { rpc: { ...call, id: 1 }, id: 1, notification: false },
        { invalid: expect.objectContaining({ id: null }) },
        { rpc: call, id: null, notification: true },
      ],
    });
    expect(readCalls([{ ...call, id: 2 }])).toMatchObject({ batch: true, calls: [{ id: 2 }] });
  });

  it('answers an empty batch with one invalid request, not a batch', () => {
    expect(readCalls([])).toEqual({
      batch: false,
      calls: [
        {
          invalid: {
            jsonrpc: '2.0',
            id: null,
            error: { code: -32600, message: 'Not a JSON-RPC 2.0 request: an empty batch' },
          },
        },
      ],
    });
  });
});

describe('unsupportedVersion', () => {
  it.each([undefined, '', '  ', '1.0', '1', '1.0.3', ' 1.0 ', '01.00', ['1.0', '0.3']])('serves %j', (header) => {
    expect(unsupportedVersion(header)).toBeUndefined();
  });

  it.each([
    ['0.3'],
    ['2.0'],
    ['1.1'],
    ['0'],
    [['0.3', '1.0']],
    ['1.x'],
    ['one'],
    ['0x1.0'],
    ['1e0'],
    ['+1.0'],
    ['1.'],
    ['.0'],
    ['1.0.'],
    ['1.0.0.0'],
    ['1 .0'],
    ['1.0-beta'],
  ])('refuses %j, naming it', (header) => {
    const value = Array.isArray(header) ? header[0] : header;
    expect(unsupportedVersion(header)).toBe(`A2A-Version '${value}' is not supported: this agent speaks A2A 1.0`);
  });
});
