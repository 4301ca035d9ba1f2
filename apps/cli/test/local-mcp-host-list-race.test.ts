import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';

/**
 * Stands in for a conversation deleted (`x rm`, another process) between the listing's check that a directory is a
 * conversation and its look at the directory's time: the first conversation checked is removed right after its
 * check, which no test can time by itself.
 */
const race = vi.hoisted(() => ({ remove: '' }));

vi.mock('../src/resolve-conversation.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../src/resolve-conversation.js')>();
  const { rmSync: remove } = await import('node:fs');
  return {
    ...actual,
    isConversationDir: (path: string) => {
      const is = actual.isConversationDir(path);
      if (is && race.remove !== '' && path.endsWith(race.remove)) remove(path, { recursive: true, force: true });
      return is;
    },
  };
});

const { LocalMcpHost } = await import('../src/mcp/local-mcp-host.js');

const dataDir = mkdtempSync(join(tmpdir(), 'x-cli-mcp-list-race-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

function conversationDir(hex: string, status: string): void {
  mkdirSync(join(dataDir, hex, 'events'), { recursive: true });
  writeFileSync(join(dataDir, hex, 'base_state.json'), JSON.stringify({ execution_status: status }));
}

describe("x mcp's listing of the data directory", () => {
  it('leaves out a conversation deleted while it lists, and lists the others', async () => {
    const [gone, kept] = ['a'.repeat(32), 'b'.repeat(32)];
    conversationDir(gone, 'finished');
    conversationDir(kept, 'idle');
    race.remove = gone;
    const host = new LocalMcpHost({
      agentModule: await import('@x/agent'),
      serverModule: {} as never,
      dataDir,
      conversationOptions: {} as never,
      warn: () => undefined,
    });
    expect(await host.page({ limit: 10 })).toEqual({
      conversations: [{ conversation_id: 'bbbbbbbb-bbbb-bbbb-bbbb-bbbbbbbbbbbb', status: 'idle' }],
    });
  });
});
