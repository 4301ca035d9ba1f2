import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseEventJson, serializeEvent } from '@x/events';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { messageText, userMessageEvent } from '../test/helpers/events.js';
import { EventLog } from './event-log.js';
import { createLocalFileStore } from './local-file-store.js';

// An event parsed from a string that held a raw lone surrogate (a JS caller's text, never a UTF-8 file) keeps that
// text: written raw, UTF-8 would turn the surrogate into U+FFFD on disk. It is written escaped (`\ud800`, as
// Python's json.dumps and JSON.stringify write it), so the file is valid UTF-8 and reads back as the same value.

const LONE = 'before \ud800 after \udfff end';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'x-lone-surrogate-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true, maxRetries: 5 });
});

/**
 * A MessageEvent parsed from JSON text holding `LONE` raw (not escaped) in its message; `spaced`: with a space after
 * a colon, as Python's json.dumps writes by default (text that is not `JSON.stringify`'s, kept as it is).
 */
function parsedWithRawLoneSurrogates(spaced = false) {
  const compact = serializeEvent(userMessageEvent('PLACEHOLDER')).replace('PLACEHOLDER', LONE);
  const text = spaced ? compact.replace('"source":"user"', '"source": "user"') : compact;
  expect(text).toContain('\ud800');
  return parseEventJson(text);
}

describe('a raw lone surrogate in an event', () => {
  it('is serialized as its escape, and parses back to the same value', () => {
    const event = parsedWithRawLoneSurrogates();
    const text = serializeEvent(event);
    expect(text).toContain('\\ud800');
    expect(text).toContain('\\udfff');
    expect(/\p{Surrogate}/u.test(text)).toBe(false);
    expect(messageText(parseEventJson(text))).toBe(LONE);
  });

  it('reaches a pack as the text its event file holds, and a reader of the pack gets the same value', async () => {
    const store = createLocalFileStore({ root: dir, durability: 'none' });
    const log = await EventLog.open(store, { dir: 'events', packs: { chunkSize: 2 } });
    // Not canonical, so its pack element is its text as a JSON string.
    const event = parsedWithRawLoneSurrogates(true);
    expect(serializeEvent(event)).toContain('"source": "user"');
    await log.append(event);
    await log.append(userMessageEvent('next'));
    await log.packsSettled();
    const pack = await readFile(join(dir, 'events/.slots/packs/00000.pack'), 'utf8');
    expect(pack).not.toContain('before \ufffd after');
    // Escaped once more inside the element's JSON string.
    expect(pack).toContain('before \\\\ud800 after \\\\udfff end');

    const reader = await EventLog.open(store, { dir: 'events', packs: { chunkSize: 2, write: false } });
    const [read] = await reader.range(0, 1);
    expect(messageText(read!)).toBe(LONE);
    expect(serializeEvent(read!)).toBe(serializeEvent(event));
    expect(await reader.verifyChain()).toMatchObject({ status: 'verified' });
  });

  for (const layout of ['files', 'segment'] as const) {
    it(`reaches the ${layout} log on disk exactly, reads back the same and verifies its chain`, async () => {
      const store = createLocalFileStore({ root: dir, durability: 'none' });
      const log = await EventLog.open(store, { dir: 'events', ...(layout === 'segment' ? { layout } : {}) });
      const event = parsedWithRawLoneSurrogates();
      await log.append(event);
      await log.append(userMessageEvent('next'));
      await log.close?.();
      const bytes = await Promise.all(
        (await readdir(join(dir, 'events'), { recursive: true })).map((name) =>
          readFile(join(dir, 'events', name), 'utf8').catch(() => ''),
        ),
      );
      // The message as written (a segment's binary framing aside, which decodes to U+FFFD of its own).
      expect(bytes.join('\n')).not.toContain('before \ufffd after');
      expect(bytes.join('\n')).toContain('before \\ud800 after \\udfff end');

      const reopened = await EventLog.open(store, { dir: 'events' });
      expect(messageText(await reopened.get(0))).toBe(LONE);
      expect(messageText(await reopened.getById(event.id))).toBe(LONE);
      expect(await reopened.verifyChain()).toMatchObject({ status: 'verified' });
      await reopened.close?.();
    });
  }
});
