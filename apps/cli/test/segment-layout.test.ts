import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
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

  it('segment: x verify names damage to the segment, not the event files derived from it as not in the chain', async () => {
    const own = tempDir();
    try {
      const demo = await runCli(['run', '--demo'], { env: { X_HOME: own.path, X_EVENT_LOG_LAYOUT: 'segment' } });
      expect(demo.code, demo.stderr).toBe(0);
      const conversations = join(own.path, 'conversations');
      const location = join(conversations, readdirSync(conversations)[0]!);
      const events = readdirSync(join(location, 'events')).filter((name) => name.startsWith('event-'));
      const last = events.length - 1;
      // A byte of the last record's event changed after it committed (not what a crash leaves).
      const segment = join(location, 'events', '.slots', 'segment');
      const bytes = readFileSync(segment);
      bytes.writeUInt8(bytes.readUInt8(bytes.length - 5) ^ 0x01, bytes.length - 5);
      writeFileSync(segment, bytes);

      const verified = await runCli(['verify', location], { env: { X_HOME: own.path } });

      expect(verified.stdout).toContain(`DAMAGED at index ${last}`);
      expect(verified.stdout).toContain(`Damaged segment ${segment}: bytes `);
      expect(verified.stdout).toContain(`event ${last} is lost from the segment`);
      expect(verified.stdout).not.toContain('not in the chain');
      expect(verified.stdout).not.toContain('TAMPERED');
      expect(verified.code).toBe(5);
    } finally {
      own.remove();
    }
  }, 120_000);

  it('refuses a layout it does not know, naming the variable', async () => {
    const result = await runCli(['run', '--demo'], { env: { X_HOME: home.path, X_EVENT_LOG_LAYOUT: 'wal' } });
    expect(result.stderr).toContain('X_EVENT_LOG_LAYOUT=wal is not a layout');
    expect(result.code).not.toBe(0);
  }, 120_000);
});
