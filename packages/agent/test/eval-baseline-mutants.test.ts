import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EvalReport, loadBaseline } from '../src/index.js';

let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'x-eval-baseline-'));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('loadBaseline, a perfect case', () => {
  it('reads back a case that passed every run, with pass rate, pass@k and pass^k all 1', async () => {
    const perfect: EvalReport = {
      suite: 's',
      createdAt: '2026-01-01T00:00:00.000Z',
      cases: [
        {
          id: 'always',
          mode: 'live',
          runs: [
            {
              run: 1,
              passed: true,
              scores: [{ scorer: 'no-errors', passed: true, score: 1, detail: 'no errors' }],
              costUsd: 0,
              durationSeconds: 0,
            },
            { run: 2, passed: true, scores: [], costUsd: 0, durationSeconds: 0 },
          ],
          passed: 2,
          passRate: 1,
          k: 2,
          passAtK: 1,
          passHatK: 1,
          judgeCostUsd: 0,
        },
      ],
    };
    const path = join(root, 'perfect.json');
    await writeFile(path, JSON.stringify(perfect));
    expect(await loadBaseline(path)).toEqual(perfect);
  });
});
