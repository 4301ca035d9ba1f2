import { describe, expect, it } from 'vitest';
import { createChainLink, formatChainedClaim, parseSlotClaimBytes } from '../chain/chain-link.js';
import { chainedClaimBytes } from './chained-claim-bytes.js';

describe('chainedClaimBytes', () => {
  it('gives the link and the UTF-8 bytes of formatChainedClaim, non-ASCII included', () => {
    const json = '{"id":"e1","text":"héllo 🎉"}';
    const prev = 'ab'.repeat(32);
    const { link, claim } = chainedClaimBytes(7, 'e1', prev, Buffer.from(json, 'utf8'));
    const expected = createChainLink(7, 'e1', prev, json);
    expect(link).toEqual(expected);
    expect(claim.equals(Buffer.from(formatChainedClaim(expected, json), 'utf8'))).toBe(true);
    const parsed = parseSlotClaimBytes(claim);
    expect(parsed.eventBytes && Buffer.from(parsed.eventBytes).toString('utf8')).toBe(json);
  });
});
