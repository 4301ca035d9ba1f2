import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LocalMcpHost } from '../src/mcp/local-mcp-host.js';

const dataDir = mkdtempSync(join(tmpdir(), 'x-cli-mcp-pages-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

/** A conversation directory last modified `minutes` after a fixed time, with its status in base_state.json. */
function conversationDir(hex: string, minutes: number, parent = dataDir): void {
  mkdirSync(join(parent, hex, 'events'), { recursive: true });
  writeFileSync(join(parent, hex, 'base_state.json'), JSON.stringify({ execution_status: 'finished' }));
  const at = new Date(Date.UTC(2026, 0, 1, 0, minutes));
  utimesSync(join(parent, hex), at, at);
}

async function localHost(directory: string): Promise<LocalMcpHost> {
  return new LocalMcpHost({
    agentModule: await import('@x/agent'),
    serverModule: {} as never,
    dataDir: directory,
    conversationOptions: {} as never,
    warn: () => undefined,
  });
}

const hyphenated = (hex: string) =>
  `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;

const ids = (page: { conversations: { conversation_id: string }[] }) =>
  page.conversations.map((entry) => entry.conversation_id);

describe("x mcp's pages of the data directory", () => {
  it('go on after where the last page ended, also when that conversation was removed meanwhile', async () => {
    // Five conversations, the newest (last modified) first: e, d, c, b, a.
    const [a, b, c, d, e] = ['a', 'b', 'c', 'd', 'e'].map((digit, minutes) => {
      conversationDir(digit.repeat(32), minutes);
      return digit.repeat(32);
    }) as [string, string, string, string, string];
    const host = await localHost(dataDir);
    const first = await host.page({ limit: 2 });
    expect(ids(first)).toEqual([hyphenated(e), hyphenated(d)]);
    expect(first.conversations[0]).toEqual({ conversation_id: hyphenated(e), status: 'finished' });
    expect(first.next).toEqual({ at: '2026-01-01T00:03:00.000Z', id: d });
    rmSync(join(dataDir, d), { recursive: true });
    const second = await host.page({ limit: 2, after: first.next });
    expect(ids(second)).toEqual([hyphenated(c), hyphenated(b)]);
    const last = await host.page({ limit: 2, after: second.next });
    expect(last).toEqual({ conversations: [{ conversation_id: hyphenated(a), status: 'finished' }] });
  });

  it('order by modification time whatever the names, ties by name, and name no next page after the last', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'x-cli-mcp-order-'));
    try {
      // Modified 9, 5, 5 and 1 minutes in: the names' order is neither the times' nor its reverse.
      const [zero, one, two, nine] = ['0', '1', '2', '9'].map((digit) => digit.repeat(32)) as [
        string,
        string,
        string,
        string,
      ];
      conversationDir(zero, 9, directory);
      conversationDir(one, 5, directory);
      conversationDir(two, 5, directory);
      conversationDir(nine, 1, directory);
      const host = await localHost(directory);
      const first = await host.page({ limit: 2 });
      expect(ids(first)).toEqual([hyphenated(zero), hyphenated(two)]);
      expect(first.next).toEqual({ at: '2026-01-01T00:05:00.000Z', id: two });
      // The page that ends with the last conversation names none after it.
      expect(await host.page({ limit: 2, after: first.next })).toEqual({
        conversations: [
          { conversation_id: hyphenated(one), status: 'finished' },
          { conversation_id: hyphenated(nine), status: 'finished' },
        ],
      });
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });

  it('is empty when the data directory cannot be read', async () => {
    const host = await localHost(join(dataDir, 'not-there'));
    expect(await host.page({ limit: 2 })).toEqual({ conversations: [] });
  });
});
