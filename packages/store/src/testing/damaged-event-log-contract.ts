import { serializeEvent } from '@x/events';
import { afterEach, describe, expect, it } from 'vitest';
import { CorruptEventError } from '../errors/corrupt-event-error.js';
import { LogGapError } from '../errors/log-gap-error.js';
import type { EventLogLike } from '../event-log/event-log-like.js';
import { contractMessageEvent } from './event-log-contract.js';

/**
 * One log location and the damage a foreign hand can do to it, in the backend's own terms (an event file and its
 * slot claim, a table row): every `open()` is a new instance on the same log.
 */
export interface DamagedEventLogContractLocation {
  open(): Promise<EventLogLike>;
  /** Removes every trace of the entry at `index` (its event file and slot claim; its row). */
  removeEntry(index: number): Promise<void>;
  /** Replaces the stored text of the entry at `index` with `text`, leaving its name or key (the id it was written under). */
  replaceEntryText(index: number, text: string): Promise<void>;
  cleanup?(): Promise<void>;
}

function textOf(event: unknown): string {
  return (event as { llm_message?: { content?: { text?: string }[] } }).llm_message?.content?.[0]?.text ?? '';
}

/**
 * What every `EventLogLike` backend does with the same damage: the same typed errors, the same refusals (a log
 * whose entries are files and one whose entries are rows differ only in how the damage is made).
 */
export function describeDamagedEventLogContract(
  name: string,
  makeLocation: () => Promise<DamagedEventLogContractLocation> | DamagedEventLogContractLocation,
): void {
  describe(`EventLog damage contract: ${name}`, () => {
    const locations: DamagedEventLogContractLocation[] = [];
    const written = async (count: number) => {
      const location = await makeLocation();
      locations.push(location);
      const writer = await location.open();
      for (let i = 0; i < count; i++) await writer.append(contractMessageEvent(`m${i}`));
      return location;
    };
    afterEach(async () => {
      for (const location of locations.splice(0)) await location.cleanup?.();
    });

    it('ends the log at a missing entry with entries past it, and refuses every append with LogGapError', async () => {
      const location = await written(5);
      await location.removeEntry(2);
      const log = await location.open();
      expect(log.length).toBe(2);
      expect((await log.range(0)).map(textOf)).toEqual(['m0', 'm1']);
      const error = await log.append(contractMessageEvent('new')).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(LogGapError);
      expect(error).toMatchObject({ code: 'log_gap', missingIndex: 2, filesPastGap: 2 });
      await expect(log.appendMany?.([contractMessageEvent('batch')])).rejects.toBeInstanceOf(LogGapError);
      expect((await location.open()).length).toBe(2);
    });

    it('reads an entry whose text is not an event, or is another event, as a CorruptEventError, and the rest as written', async () => {
      const location = await written(4);
      await location.replaceEntryText(1, '{not json');
      await location.replaceEntryText(2, serializeEvent(contractMessageEvent('another')));
      const log = await location.open();
      expect(log.length).toBe(4);
      await expect(log.get(1)).rejects.toBeInstanceOf(CorruptEventError);
      await expect(log.get(2)).rejects.toBeInstanceOf(CorruptEventError);
      await expect(log.range(0)).rejects.toBeInstanceOf(CorruptEventError);
      expect(textOf(await log.get(0))).toBe('m0');
      expect(textOf(await log.get(3))).toBe('m3');
      expect(await log.append(contractMessageEvent('m4'))).toBe(4);
    });
  });
}
