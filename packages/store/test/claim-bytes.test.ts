import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createChainLink, formatChainedClaim, formatStagedClaim } from '../src/chain/chain-link.js';
import { layoutClaim, writeClaim } from '../src/chain/claim-bytes.js';
import { decodeRecords, encodeRecords } from '../src/event-log/segment/segment-records.js';
import { crc32 } from '../src/internal/crc32.js';

// Claims and segment records are built as bytes in place (the event encoded once, hashed and checksummed there).
// They are stored formats: these hold them to the text formulas they replaced, byte for byte, for ASCII and
// multi-byte events, at the chain's start and after a hash, with and without a writer token.

const events = [
  { id: '00000000-0000-4000-8000-000000000001', json: '{"kind":"MessageEvent","text":"hello"}' },
  { id: '00000000-0000-4000-8000-000000000002', json: '{"kind":"MessageEvent","text":"sécond ✓ 𝄞"}' },
  { id: 'x', json: '{}' },
  { id: 'a_b-C', json: `{"kind":"ObservationEvent","text":"${'é'.repeat(3000)}"}` },
];

/** The record's bytes as the segment layout wrote them before: framing over the text claim with a writer. */
function textRecord(link: ReturnType<typeof createChainLink>, json: string, writer: string): Buffer {
  const { index, id, prev, hash } = link;
  const payload = Buffer.from(`${JSON.stringify({ chain: 1, index, id, prev, hash, writer })}\n${json}`, 'utf8');
  const header = Buffer.alloc(12);
  Buffer.from([0xff, 0x78, 0x53, 0x31]).copy(header, 0);
  header.writeUInt32LE(payload.length, 4);
  header.writeUInt32LE(crc32(payload), 8);
  return Buffer.concat([header, payload]);
}

describe('claim bytes', () => {
  it('are the text claim’s bytes, with the same chain link', () => {
    let prev: string | null = null;
    for (const [index, { id, json }] of [...events, ...events.map((e) => ({ ...e, id: `${e.id}-2` }))].entries()) {
      const at = index * 3 + 100_000;
      const layout = layoutClaim(at, id, prev, json);
      const bytes = Buffer.alloc(layout.size + 7, 0xaa);
      const link = writeClaim(bytes, 5, layout);
      const expected = createChainLink(at, id, prev, json);
      expect(link).toEqual(expected);
      expect(bytes.subarray(5, 5 + layout.size).toString('utf8')).toBe(formatChainedClaim(expected, json));
      expect(bytes.subarray(0, 5).every((byte) => byte === 0xaa)).toBe(true);
      expect(bytes.subarray(5 + layout.size).every((byte) => byte === 0xaa)).toBe(true);
      // The staged claim is the header line: the claim's bytes before the event's.
      expect(bytes.subarray(5, 5 + layout.headerBytes + 1).toString('utf8')).toBe(formatStagedClaim(expected));
      expect(link.hash).toBe(
        createHash('sha256')
          .update(`x-chain-v1\n${at}\n${prev ?? ''}\n`)
          .update(json, 'utf8')
          .digest('hex'),
      );
      prev = link.hash;
    }
  });

  it('build segment records byte-identical to the text framing, which decode back to the same links', () => {
    for (const prev of [null, 'ab'.repeat(32)]) {
      const start = prev === null ? 0 : 4242;
      const writer = '0123456789abcdef';
      const batch = events.map(({ id, json }) => ({ event: { id }, json }));
      const { bytes, records } = encodeRecords(batch, start, prev, writer);
      let previous = prev;
      const expected = events.map(({ id, json }, offset) => {
        const link = createChainLink(start + offset, id, previous, json);
        previous = link.hash;
        return textRecord(link, json, writer);
      });
      expect(bytes.equals(Buffer.concat(expected))).toBe(true);
      const decoded = decodeRecords(bytes, 1000);
      expect(decoded.skipped).toEqual([]);
      expect(decoded.records.map((record) => record.link)).toEqual(records.map((record) => record.link));
      records.forEach((record, k) => {
        expect(record.json.toString('utf8')).toBe(events[k]!.json);
        expect(decoded.records[k]!.offset).toBe(1000 + record.offset);
        expect(decoded.records[k]!.crc).toBe(record.crc);
      });
    }
  });
});
