// A signing log is the wrapped log in everything but signing: the shared EventLog contract runs against it, on
// both layouts: one signing every event, one leaving every other event unsigned (a signer function may choose
// none). After each test, the signatures present must all check out and cover every signed event.
import { generateKeyPairSync } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AppendFence, EventLogAppendOptions, EventLogLike } from '../src/event-log/event-log-like.js';
import { EventLog } from '../src/event-log.js';
import type { FileStore } from '../src/file-store.js';
import { createMemoryFileStore } from '../src/memory-file-store.js';
import { createSigningEventLog, type EventSigner, verifyEventSignatures } from '../src/signing/index.js';
import { contractMessageEvent, describeEventLogContract } from '../src/testing/event-log-contract.js';

const { privateKey } = generateKeyPairSync('ed25519');

const opened: { store: FileStore; log: EventLogLike }[] = [];
afterEach(async () => {
  for (const { store, log } of opened.splice(0)) {
    await log.refresh();
    const report = await verifyEventSignatures(log, { store, dir: 'events' }, { require: 'none' });
    expect(report.problem).toBeUndefined();
    expect(report.signed + report.unsigned).toBe(log.length);
  }
});

const signers: Record<string, () => EventSigner> = {
  'signing every event': () => () => privateKey,
  'signing every other event': () => {
    let calls = 0;
    return () => (calls++ % 2 === 0 ? privateKey : undefined);
  },
};

for (const layout of ['files', 'segment'] as const) {
  for (const [label, makeSigner] of Object.entries(signers)) {
    describeEventLogContract(`a signing log (${label}) over ${layout} in a memory store`, () => {
      const store = createMemoryFileStore();
      const signer = makeSigner();
      return {
        open: async () => {
          const log = createSigningEventLog(await EventLog.open(store, { layout }), { store, dir: 'events', signer });
          opened.push({ store, log });
          return log;
        },
      };
    });
  }
}

describe('a signing log', () => {
  it('closes, fences and delivers to listeners as the log it wraps', async () => {
    const store = createMemoryFileStore();
    const inner = await EventLog.open(store);
    const close = vi.spyOn(inner, 'close');
    const log = createSigningEventLog(inner, { store, dir: inner.dir, signer: privateKey });
    expect(log.fencesAppends).toBe((inner as EventLogLike).fencesAppends);
    const heard: string[] = [];
    const stop = log.listen(0, (entry) => {
      heard.push(entry.event.id);
    });
    const event = contractMessageEvent('heard');
    await log.append(event);
    await vi.waitFor(() => expect(heard).toEqual([event.id]));
    stop();
    await log.close?.();
    expect(close).toHaveBeenCalledTimes(1);
  });
});

describe('a signing log over a log that fences its appends (a database log)', () => {
  it('says it fences, so callers leave the lease check to it, and hands each append its fence', async () => {
    const store = createMemoryFileStore();
    const inner = await EventLog.open(store);
    const fences: (AppendFence | undefined)[] = [];
    const fencing = new Proxy(inner as EventLogLike, {
      get(target, property) {
        if (property === 'fencesAppends') return true;
        if (property === 'append')
          return (event: Parameters<EventLogLike['append']>[0], options?: EventLogAppendOptions) => {
            fences.push(options?.fence);
            return target.append(event);
          };
        const value: unknown = Reflect.get(target, property, target);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    const log = createSigningEventLog(fencing, { store, dir: inner.dir, signer: privateKey });
    expect(log.fencesAppends).toBe(true);
    const fence = { key: 'conversation', generation: 3 };
    expect(await log.append(contractMessageEvent('fenced'), { fence })).toBe(0);
    expect(fences).toEqual([fence]);
    await log.close?.();
  });
});
