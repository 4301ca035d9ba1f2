import { afterEach, describe, expect, it } from 'vitest';
import { DamagedSegmentError } from '../src/errors/damaged-segment-error.js';
import { EventLog } from '../src/event-log.js';
import {
  closedSegmentLog,
  collectWarnings,
  damageBackends,
  eventFileOf,
  readSegment,
} from './helpers/damaged-segment.js';
import { messageText } from './helpers/events.js';
import { recordOf } from './helpers/segment-bytes.js';

// A read that meets a record whose magic is damaged, after a repair moved the event before it to the segment's end
// (or a reader holds that one in memory): the bytes the read looks at before the record then hold no magic of its
// own, but the earlier, damaged copy of the event before it. The record is placed by its chain header, which still
// reads, so the damage is reported where it is and repaired as damage to any other byte of the record is: the last
// event by the hash its damaged header names, any other by the record after it.

const COUNT = 8;
const LAST = COUNT - 1;

/** The span of event `index`'s record (message `m{index}`) in the segment as written. */
function spanOf(bytes: Buffer, index: number): { readonly offset: number; readonly end: number } {
  const { offset, end } = recordOf(bytes, `m${index}`);
  return { offset, end };
}

describe.each(damageBackends)('a damaged magic met by a read ($name)', (backend) => {
  afterEach(() => backend.cleanUp());

  /**
   * A log of COUNT events opened as `options` say; the payload of event `index - 1` damaged and read (so repaired:
   * moved to the segment's end, or held in memory), then the magic of event `index`'s record damaged; the segment
   * as written.
   */
  async function damagedAfterRepair(index: number, options: { rollForward?: boolean } = {}) {
    const store = await backend.make();
    await closedSegmentLog(store, COUNT);
    const bytes = await readSegment(store);
    const { warnings, logger } = collectWarnings();
    const log = await EventLog.open(store, { logger, ...options });
    await backend.damageInPlace(store, bytes.indexOf(`"m${index - 1}"`) + 2, 'X'.charCodeAt(0));
    expect(messageText(await log.get(index - 1))).toBe(`m${index - 1}`);
    const magic = spanOf(bytes, index).offset;
    await backend.damageInPlace(store, magic, bytes[magic]! ^ 0x20);
    return { store, bytes, log, warnings };
  }

  it.each([
    { what: 'the last event', index: LAST },
    { what: 'an event before the last', index: 4 },
  ])('recovers $what and reports the damaged record, not the intact bytes before it', async ({ index }) => {
    const { store, bytes, log, warnings } = await damagedAfterRepair(index);
    const { offset, end } = spanOf(bytes, index);

    expect(messageText(await log.get(index))).toBe(`m${index}`);
    expect(warnings).toHaveLength(2);
    expect(warnings[1]).toContain(`bytes ${offset}…${end - 1} are damaged; event ${index} recovered`);
    await log.close();

    const reopened = await EventLog.open(store);
    expect((await reopened.range(0)).map(messageText)).toEqual(Array.from({ length: COUNT }, (_, at) => `m${at}`));
    expect(await reopened.verifyChain()).toMatchObject({ status: 'verified', length: COUNT });
    await reopened.close();
  });

  it('refuses only that event, naming the damaged record, when its event file cannot restore it', async () => {
    const { store, bytes, log } = await damagedAfterRepair(4);
    await store.delete(await eventFileOf(store, 4));
    const { offset, end } = spanOf(bytes, 4);

    const error = await log.get(4).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(DamagedSegmentError);
    expect(error).toMatchObject({ offset, end, missingIndex: 4, reading: 4, unrecovered: [4] });
    expect(messageText(await log.get(5))).toBe('m5');
    await log.close();
  });
});
