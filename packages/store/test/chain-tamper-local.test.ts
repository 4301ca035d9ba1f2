import { cp, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { verifyEventChain } from '../src/chain/verify-chain.js';
import { EventLog } from '../src/event-log.js';
import { createLocalFileStore } from '../src/local-file-store.js';
import { describeChainTamperSuite } from './helpers/chain-tamper-suite.js';
import { userMessageEvent } from './helpers/events.js';

const roots: string[] = [];
afterEach(async () => {
  for (const root of roots.splice(0)) await rm(root, { recursive: true, force: true, maxRetries: 5 });
});

async function tempRoot(): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'x-chain-'));
  roots.push(root);
  return root;
}

describeChainTamperSuite('the local filesystem', async () =>
  createLocalFileStore({ root: await tempRoot(), durability: 'none' }),
);

const fixturesDir = fileURLToPath(new URL('./__fixtures__/openhands/', import.meta.url));
const cases = (await readdir(fixturesDir, { withFileTypes: true }))
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

describe('verifying conversations the Python reference wrote', () => {
  for (const name of cases) {
    it(`${name}: unchained as written, chained from where we continued it`, async () => {
      const root = await tempRoot();
      await cp(join(fixturesDir, name), root, { recursive: true });
      const store = createLocalFileStore({ root, durability: 'none' });
      const before = await verifyEventChain(store);
      expect(before.status).toBe('unchained');
      expect(before.chainedFrom).toBeNull();
      expect(before.length).toBeGreaterThan(0);
      const log = await EventLog.open(store);
      await log.append(userMessageEvent('continued by x'));
      await log.append(userMessageEvent('and again'));
      expect(await verifyEventChain(store)).toMatchObject({
        status: 'verified',
        length: before.length + 2,
        chainedFrom: before.length,
      });
    });
  }
});
