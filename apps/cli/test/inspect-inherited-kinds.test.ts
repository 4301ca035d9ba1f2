import { cpSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli, tempDir } from './helpers/run-cli.js';

const FIXTURE = fileURLToPath(
  new URL('../../../packages/events/test/__fixtures__/openhands/03_parallel_tool_calls', import.meta.url),
);
const home = tempDir();
const env = { X_HOME: home.path };
afterAll(() => home.remove());

describe('inspect and event kinds named like inherited properties', () => {
  it('counts events of the kinds __proto__, constructor and toString as any other kind', async () => {
    const dir = join(home.path, 'conversations', 'inherited-kinds');
    cpSync(FIXTURE, dir, { recursive: true });
    const kinds = ['constructor', '__proto__', 'toString', 'constructor'];
    kinds.forEach((kind, offset) => {
      const id = `00000000-0000-4000-8000-00000000000${offset}`;
      const event = { id, timestamp: '2026-01-01T00:00:00.000000', source: 'environment', kind };
      writeFileSync(join(dir, 'events', `event-000${10 + offset}-${id}.json`), JSON.stringify(event));
    });
    const result = await runCli(['inspect', dir, '--json'], { env });
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout) as { kinds: Record<string, number> };
    expect(Object.getPrototypeOf(report.kinds)).toBe(Object.prototype);
    expect(Object.entries(report.kinds)).toEqual([
      ['SystemPromptEvent', 1],
      ['MessageEvent', 1],
      ['ActionEvent', 4],
      ['ObservationEvent', 4],
      ['constructor', 2],
      ['__proto__', 1],
      ['toString', 1],
    ]);
    const text = await runCli(['inspect', dir], { env });
    expect(text.stdout).toContain('ObservationEvent 4 · constructor 2 · __proto__ 1 · toString 1');
  }, 120_000);
});
