import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli, tempDir } from './helpers/run-cli.js';

const home = tempDir();
afterAll(() => home.remove());

describe('X_EVENT_LOG_LAYOUT', () => {
  it('segment: x run commits to a segment, derives the event files, and x verify checks them against it', async () => {
    const env = { X_HOME: home.path, X_EVENT_LOG_LAYOUT: 'segment' };
    const demo = await runCli(['run', '--demo'], { env });
    expect(demo.code, demo.stderr).toBe(0);
    const conversations = join(home.path, 'conversations');
    const location = join(conversations, readdirSync(conversations)[0]!);
    expect(readdirSync(join(location, 'events', '.slots'))).toEqual(['segment']);
    const events = readdirSync(join(location, 'events')).filter((name) => name.startsWith('event-'));
    expect(events.length).toBeGreaterThan(3);
    const verified = await runCli(['verify', location], { env: { X_HOME: home.path } });
    expect(verified.stdout).toContain(`verified: ${events.length} events, chained from index 0`);
    expect(verified.code).toBe(0);
  }, 120_000);

  it('refuses a layout it does not know, naming the variable', async () => {
    const result = await runCli(['run', '--demo'], { env: { X_HOME: home.path, X_EVENT_LOG_LAYOUT: 'wal' } });
    expect(result.stderr).toContain('X_EVENT_LOG_LAYOUT=wal is not a layout');
    expect(result.code).not.toBe(0);
  }, 120_000);
});
