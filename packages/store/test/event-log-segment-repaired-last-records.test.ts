import { afterEach, describe, expect, it } from 'vitest';
import { EventLog } from '../src/event-log.js';
import { closedSegmentLog, collectWarnings, damageBackends, readSegment } from './helpers/damaged-segment.js';
import { messageText } from './helpers/events.js';
import { recordOf } from './helpers/segment-bytes.js';

// Damaged last records an open recovered and appended to the segment again stay in the segment, before their
// repaired copies. A later open passes over them silently only where each damaged header still names a record it
// took after them (index and hash): that proves the bytes were repaired. A header that names anything else proves
// nothing, so the bytes are reported as skipped, as any other damage is.

const COUNT = 8;
const all = Array.from({ length: COUNT }, (_, index) => `m${index}`);

describe.each(damageBackends)('damaged last records appended again ($name)', (backend) => {
  afterEach(() => backend.cleanUp());

  /**
   * A log of COUNT events whose last two records were damaged in their payloads, and, with `header`, the index in
   * the header of the first of them changed too (6 to 7); opened once, which recovered and appended them again.
   * The span the damaged records take.
   */
  async function repairedAtOpen(header: boolean) {
    const store = await backend.make();
    await closedSegmentLog(store, COUNT);
    const bytes = await readSegment(store);
    for (const text of ['m6', 'm7']) await backend.damageInPlace(store, bytes.indexOf(`"${text}"`) + 2, 0x58);
    const first = recordOf(bytes, 'm6');
    if (header) {
      const index = bytes.indexOf('"index":6,', first.offset) + '"index":'.length;
      await backend.damageInPlace(store, index, '7'.charCodeAt(0));
    }
    const { warnings, logger } = collectWarnings();
    const log = await EventLog.open(store, { logger });
    expect((await log.range(0)).map(messageText)).toEqual(all);
    expect(warnings[0]).toContain('events 6, 7 recovered from their event files');
    await log.close();
    return { store, warnings, span: { offset: first.offset, end: recordOf(bytes, 'm7').end } };
  }

  it('passes over them silently when their headers name the records appended again', async () => {
    const { store, warnings: atRepair } = await repairedAtOpen(false);
    expect(atRepair).toHaveLength(1);

    const { warnings, logger } = collectWarnings();
    const reopened = await EventLog.open(store, { logger });
    expect((await reopened.range(0)).map(messageText)).toEqual(all);
    expect(warnings).toEqual([]);
    await reopened.close();
  });

  it('reports them as skipped when a header names an index of another record appended again', async () => {
    const { store, span, warnings: atRepair } = await repairedAtOpen(true);
    const skipped = `bytes ${span.offset}…${span.end - 1} are not an intact record`;
    expect(atRepair).toEqual([expect.any(String), expect.stringContaining(skipped)]);

    const { warnings, logger } = collectWarnings();
    const reopened = await EventLog.open(store, { logger });
    expect((await reopened.range(0)).map(messageText)).toEqual(all);
    expect(await reopened.verifyChain()).toMatchObject({ status: 'verified', length: COUNT });
    expect(warnings).toEqual([expect.stringContaining(skipped)]);
    await reopened.close();
  });
});
