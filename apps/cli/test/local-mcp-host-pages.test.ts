import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LocalMcpHost } from '../src/mcp/local-mcp-host.js';

const dataDir = mkdtempSync(join(tmpdir(), 'x-cli-mcp-pages-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

/** A conversation directory last modified `minutes` after a fixed time, with its status in base_state.json. */
function conversationDir(hex: string, minutes: number): void {
  mkdirSync(join(dataDir, hex, 'events'), { recursive: true });
  writeFileSync(join(dataDir, hex, 'base_state.json'), JSON.stringify({ execution_status: 'finished' }));
  const at = new Date(Date.UTC(2026, 0, 1, 0, minutes));
  utimesSync(join(dataDir, hex), at, at);
}

const hyphenated = (hex: string) =>
  `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;

describe("x mcp's pages of the data directory", () => {
  it('go on after where the last page ended, also when that conversation was removed meanwhile', async () => {
    // Five conversations, the newest (last modified) first: e, d, c, b, a.
    const [a, b, c, d, e] = ['a', 'b', 'c', 'd', 'e'].map((digit, minutes) => {
      conversationDir(digit.repeat(32), minutes);
      return digit.repeat(32);
    }) as [string, string, string, string, string];
    const host = new LocalMcpHost({
      agentModule: await import('@x/agent'),
      serverModule: {} as never,
      dataDir,
      conversationOptions: {} as never,
      warn: () => undefined,
    });
    const ids = (page: { conversations: { conversation_id: string }[] }) =>
      page.conversations.map((entry) => entry.conversation_id);
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
});
