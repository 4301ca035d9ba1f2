import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { computeChainHash, verifyEventChain } from '../src/chain/index.js';
import { eventFileName, slotFileName } from '../src/event-log/file-names.js';
import { EventLog } from '../src/event-log.js';
import { createMemoryFileStore } from '../src/memory-file-store.js';
import { contractMessageEvent } from '../src/testing/index.js';

// The chain hash format is a stored format (signed heads and PostgreSQL's trigger depend on it): sha256 over
// `x-chain-v1\n{index}\n{prev or empty}\n` then the event file's exact bytes. Fixed vectors (computed outside
// this code base) catch any change to it, and a log's claims are checked against hashes computed here with
// node:crypto from the stored event files.

const independent = (index: number, prev: string | null, bytes: string) =>
  createHash('sha256')
    .update(Buffer.concat([Buffer.from(`x-chain-v1\n${index}\n${prev ?? ''}\n`, 'utf8'), Buffer.from(bytes, 'utf8')]))
    .digest('hex');

describe('the chain hash format', () => {
  it('matches fixed vectors', () => {
    const first = computeChainHash(0, null, '{"kind":"MessageEvent","text":"héllo"}');
    expect(first).toBe('0e0da0aaaeedaae5177427be9c01217548bfc01163d0030ba02f2a30de1963f4');
    expect(computeChainHash(1, first, '{}')).toBe('4216615ce5dc1bf98c94c4e6d518d3e51ad4a9907563cd0f0868efd3b1ea14ff');
    expect(computeChainHash(7, null, '{}')).toBe('0e995fe576f46c522555b0f7a36845b0a6defb0d0dba1e97417515662550cafd');
    expect(computeChainHash(7, null, new TextEncoder().encode('{}'))).toBe(
      '0e995fe576f46c522555b0f7a36845b0a6defb0d0dba1e97417515662550cafd',
    );
    // Text takes Node's one-shot hash where it has one, bytes the Hash object: the same digest either way.
    const text = '{"kind":"MessageEvent","text":"sécond ✓ 𝄞"}';
    expect(computeChainHash(3, first, text)).toBe(computeChainHash(3, first, new TextEncoder().encode(text)));
    expect(computeChainHash(3, first, text)).toBe(independent(3, first, text));
  });

  it('links every appended event to the one before, over the event file’s bytes', async () => {
    const store = createMemoryFileStore();
    const log = await EventLog.open(store);
    const events = [
      contractMessageEvent('first', '00000000-0000-4000-8000-000000000001'),
      contractMessageEvent('sécond ✓', '00000000-0000-4000-8000-000000000002'),
      contractMessageEvent('third', '00000000-0000-4000-8000-000000000003'),
    ];
    for (const event of events) await log.append(event);
    await log.close();

    let prev: string | null = null;
    for (const [index, event] of events.entries()) {
      const bytes = await store.read(`events/${eventFileName(index, event.id)}`);
      const claim = await store.read(`events/.slots/${slotFileName(index)}`);
      const newline = claim.indexOf('\n');
      const header = JSON.parse(claim.slice(0, newline));
      const hash = independent(index, prev, bytes);
      expect(header).toEqual({ chain: 1, index, id: event.id, prev, hash });
      expect(claim.slice(newline + 1)).toBe(bytes);
      prev = hash;
    }
    const report = await verifyEventChain(store, { dir: 'events' });
    expect(report).toMatchObject({ status: 'verified', length: 3 });
  });
});
