import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli, tempDir } from './helpers/run-cli.js';

const home = tempDir();
const env = { X_HOME: home.path };
afterAll(() => home.remove());

describe('x eval, counts out of range', () => {
  it('exits 2 naming --runs when it asks for more runs than a case may have, before anything runs', async () => {
    const suite = join(home.path, 'recorded.yaml');
    // A recorded case that does not exist: a run would fail to find it, so only the option check speaks.
    writeFileSync(suite, 'cases:\n  - id: old\n    conversation: ./gone\n    scorers: [no-errors]\n');
    const result = await runCli(['eval', suite, '--runs', '5000'], { env, timeoutMs: 120_000 });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('option runs: expected a whole number from 1 to 1000, got 5000');
    expect(result.stderr).toContain('(invalid_eval_option)');
  });

  it('refuses --runs 0 at the command line', async () => {
    const suite = join(home.path, 'zero.yaml');
    writeFileSync(suite, 'cases:\n  - id: old\n    conversation: ./gone\n    scorers: [no-errors]\n');
    const result = await runCli(['eval', suite, '--runs', '0'], { env, timeoutMs: 120_000 });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("expected a whole number ≥ 1, got '0'");
  });
});
