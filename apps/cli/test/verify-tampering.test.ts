import { createHash } from 'node:crypto';
import { cpSync, readdirSync, readFileSync, renameSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempDir } from './helpers/run-cli.js';

// `x verify` on a conversation `x run` wrote, tampered with in every way at the first, a middle and the last
// index: the status, the exit code and the exact first bad index (the store's table test covers every index).
const home = tempDir();
afterAll(() => home.remove());
const env = { X_HOME: home.path };
let original: string;
let count: number;

beforeAll(async () => {
  expect((await runCli(['run', '--demo'], { env })).code).toBe(0);
  const conversations = join(home.path, 'conversations');
  const name = readdirSync(conversations).find((entry) => /^[0-9a-f]{32}$/.test(entry))!;
  original = join(conversations, name);
  count = eventFiles(original).length;
  expect(count).toBeGreaterThanOrEqual(4);
}, 120_000);

const eventFiles = (dir: string) =>
  readdirSync(join(dir, 'events'))
    .filter((name) => name.startsWith('event-'))
    .sort();
const eventFile = (dir: string, index: number) => join(dir, 'events', eventFiles(dir)[index]!);
const slotFile = (dir: string, index: number) =>
  join(dir, 'events', '.slots', `${String(index).padStart(5, '0')}.json`);
const renumbered = (name: string, index: number) =>
  name.replace(/^event-\d{5}/, `event-${String(index).padStart(5, '0')}`);
/** A byte changed that leaves the JSON equal: only the chain can tell. */
const edited = (text: string) => text.replace('"id":"', '"id": "');

function recomputedClaim(claim: string, index: number, eventJson: string): string {
  const header = JSON.parse(claim.slice(0, claim.indexOf('\n'))) as { prev: string | null; hash: string };
  header.hash = createHash('sha256')
    .update(`x-chain-v1\n${index}\n${header.prev ?? ''}\n`)
    .update(eventJson)
    .digest('hex');
  return `${JSON.stringify(header)}\n${eventJson}`;
}

interface Tampering {
  name: string;
  apply: (dir: string, index: number) => void;
  /** Undefined: not applicable at this index. */
  expected: (index: number) => { status: string; index?: number } | undefined;
}

const tamperings: Tampering[] = [
  {
    name: 'edit an event file',
    apply: (dir, index) => writeFileSync(eventFile(dir, index), edited(readFileSync(eventFile(dir, index), 'utf8'))),
    expected: (index) => ({ status: 'tampered', index }),
  },
  {
    name: 'delete an event file and its claim',
    apply: (dir, index) => {
      unlinkSync(eventFile(dir, index));
      rmSync(slotFile(dir, index));
    },
    expected: (index) => ({ status: 'tampered', index }),
  },
  {
    name: 'truncate the tail',
    apply: (dir, index) => {
      for (let i = count - 1; i >= index; i--) {
        unlinkSync(eventFile(dir, i));
        rmSync(slotFile(dir, i));
      }
    },
    expected: (index) => ({ status: 'tampered', index }),
  },
  {
    name: 'swap two events',
    apply: (dir, index) => {
      const [a, b] = [eventFiles(dir)[index]!, eventFiles(dir)[index + 1]!];
      renameSync(join(dir, 'events', a), join(dir, 'events', renumbered(a, index + 1)));
      renameSync(join(dir, 'events', b), join(dir, 'events', renumbered(b, index)));
    },
    expected: (index) => (index === count - 1 ? undefined : { status: 'tampered', index }),
  },
  {
    name: 'rewrite an event with a recomputed claim',
    apply: (dir, index) => {
      const json = edited(readFileSync(eventFile(dir, index), 'utf8'));
      writeFileSync(slotFile(dir, index), recomputedClaim(readFileSync(slotFile(dir, index), 'utf8'), index, json));
      writeFileSync(eventFile(dir, index), json);
    },
    expected: (index) => ({ status: 'tampered', index }),
  },
  {
    name: 'delete events/.slots and edit an event',
    apply: (dir, index) => {
      rmSync(join(dir, 'events', '.slots'), { recursive: true });
      writeFileSync(eventFile(dir, index), edited(readFileSync(eventFile(dir, index), 'utf8')));
    },
    expected: () => ({ status: 'tampered', index: 0 }),
  },
];

describe('x verify on a tampered conversation', () => {
  for (const tampering of tamperings) {
    it(`${tampering.name}: exit 5 and the first bad index`, async () => {
      const outcomes: string[] = [];
      const wanted: string[] = [];
      for (const index of [0, Math.floor(count / 2), count - 1]) {
        const expected = tampering.expected(index);
        if (expected === undefined) continue;
        const copy = join(home.path, `copy-${index}`);
        rmSync(copy, { recursive: true, force: true });
        cpSync(original, copy, { recursive: true });
        tampering.apply(copy, index);
        const result = await runCli(['verify', copy, '--json'], { env });
        const report = JSON.parse(result.stdout) as { status: string; problem?: { index: number } };
        outcomes.push(`at ${index}: ${report.status} ${report.problem?.index} exit ${result.code}`);
        wanted.push(`at ${index}: ${expected.status} ${expected.index} exit ${expected.status === 'tampered' ? 5 : 0}`);
      }
      expect(outcomes).toEqual(wanted);
    }, 120_000);
  }

  it('still verifies the untouched conversation as chained, with its recorded head', async () => {
    const result = await runCli(['verify', original, '--json'], { env });
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ status: 'verified', chainedFrom: 0, recordedLength: count });
  });
});
