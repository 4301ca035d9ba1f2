import { cp, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { CorruptEventError } from '../src/errors/corrupt-event-error.js';
import { EventLog } from '../src/event-log.js';
import { createLocalFileStore } from '../src/local-file-store.js';
import { userMessageEvent } from './helpers/events.js';
import { verifyLog } from './helpers/verify-log.js';

const fixturesDir = fileURLToPath(new URL('./__fixtures__/openhands/', import.meta.url));
const cases = (await readdir(fixturesDir, { withFileTypes: true }))
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

interface Expected {
  event_count: number;
  kinds: string[];
}

const roots: string[] = [];
afterEach(async () => {
  for (const root of roots.splice(0)) await rm(root, { recursive: true, force: true, maxRetries: 5 });
});

/** A copy of a fixture conversation directory in a temp dir, so tests never touch the fixtures. */
async function copyFixture(name: string): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), `x-event-log-${name}-`));
  roots.push(root);
  await cp(join(fixturesDir, name), root, { recursive: true });
  return root;
}

describe('EventLog on directories written by the Python reference', () => {
  it('has fixtures to read', () => {
    expect(cases.length).toBeGreaterThanOrEqual(3);
  });

  for (const name of cases) {
    it(`${name}: reads every event in order, then appends after them`, async () => {
      const root = await copyFixture(name);
      const expected = JSON.parse(await readFile(join(root, 'expected.json'), 'utf8')) as Expected;
      const store = createLocalFileStore({ root, durability: 'none' });
      const warnings: string[] = [];
      const log = await EventLog.open(store, { logger: { warn: (message) => warnings.push(message) } });
      expect(warnings).toEqual([]);
      expect(log.length).toBe(expected.event_count);
      const events = await log.range(0);
      expect(events.map((event) => event.kind)).toEqual(expected.kinds);
      expect(events.map((event, index) => event.id === log.idAt(index))).not.toContain(false);

      const added = userMessageEvent('appended by @x/store');
      expect(await log.append(added)).toBe(expected.event_count);
      const reopened = await verifyLog(store);
      expect(reopened.length).toBe(expected.event_count + 1);
      expect((await reopened.get(-1)).id).toBe(added.id);
      expect((await reopened.range(0, expected.event_count)).map((event) => event.id)).toEqual(
        events.map((event) => event.id),
      );
    });
  }

  it('reports a corrupt file in the middle of a reference log and reads the rest', async () => {
    const root = await copyFixture('03_parallel_tool_calls');
    const names = (await readdir(join(root, 'events'))).filter((name) => name.startsWith('event-00004-'));
    const badName = names[0]!;
    await writeFile(join(root, 'events', badName), '{"id": "f1a9a450", "kind": "ActionEv');
    const log = await EventLog.open(createLocalFileStore({ root, durability: 'none' }));
    expect(log.length).toBe(10);
    const error = await log.get(4).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(CorruptEventError);
    expect((error as CorruptEventError).location).toBe(join(root, 'events', badName));
    expect((await log.range(0, 4)).map((event) => event.kind)).toEqual([
      'SystemPromptEvent',
      'MessageEvent',
      'ActionEvent',
      'ActionEvent',
    ]);
    expect(await log.range(5)).toHaveLength(5);
  });
});
