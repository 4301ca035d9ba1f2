import { describe, expect, it } from 'vitest';
import {
  createChainLink,
  formatChainedClaim,
  formatStagedClaim,
  parseSlotClaimBytes,
  parseSlotClaimText,
  stagedBodyPath,
} from '../src/chain/chain-link.js';

// A slot claim is read back by every open, probe and verification: a claim written before chaining is the bare
// event, a chained one a header line then the event, and a damaged header must be reported (never taken for an
// event, never for a link). Text and bytes readers must agree on each.

const json = '{"kind":"MessageEvent","id":"e1","text":"sécond ✓"}';
const hash = 'ab'.repeat(32);
const link = createChainLink(7, 'e1', hash, json);
const bytes = (text: string) => new TextEncoder().encode(text);

/** Both readers' verdict on one claim's text, in one shape. */
function parseBoth(text: string): { link?: unknown; event?: string; problem?: string }[] {
  const fromText = parseSlotClaimText(text);
  const fromBytes = parseSlotClaimBytes(bytes(text));
  return [
    'problem' in fromText ? { problem: fromText.problem } : { link: fromText.link, event: fromText.eventJson },
    'problem' in fromBytes
      ? { problem: fromBytes.problem }
      : { link: fromBytes.link, event: Buffer.from(fromBytes.eventBytes).toString('utf8') },
  ];
}

describe('slot claim text', () => {
  it('reads a chained claim back to its link and the exact event bytes', () => {
    const expected = { link, event: json };
    expect(parseBoth(formatChainedClaim(link, json))).toEqual([expected, expected]);
    // A link at the chain's start has no prev.
    const first = createChainLink(0, 'e1', null, json);
    expect(parseBoth(formatChainedClaim(first, json))).toEqual([
      { link: first, event: json },
      { link: first, event: json },
    ]);
    // A staged claim is the header line alone: its event bytes live in the staged body.
    expect(parseBoth(formatStagedClaim(link))).toEqual([
      { link, event: '' },
      { link, event: '' },
    ]);
  });

  it('reads a claim written without a chain as the bare event, whatever its length', () => {
    for (const text of [json, `${json}\n`, '{}', '', '{"chain":1', '{"chain":2,"index":0}\n{}']) {
      expect(parseBoth(text), text).toEqual([
        { link: undefined, event: text },
        { link: undefined, event: text },
      ]);
    }
  });

  it('reports a chain header with no event after it, one that is not JSON, and one without a usable link', () => {
    const header = JSON.stringify({ chain: 1, index: 7, id: 'e1', prev: hash, hash: link.hash });
    const cases: [string, string][] = [
      ['{"chain":1,', 'the chain header is not followed by an event'],
      [header, 'the chain header is not followed by an event'],
      ['{"chain":1,"index":\n{}', 'the chain header is not JSON'],
    ];
    const unusable = 'the chain header lacks index, id, prev or hash';
    const headers: Record<string, unknown>[] = [
      { index: -1, id: 'e1', prev: null, hash: link.hash },
      { index: 1.5, id: 'e1', prev: null, hash: link.hash },
      { index: '7', id: 'e1', prev: null, hash: link.hash },
      { index: 7, id: 7, prev: null, hash: link.hash },
      { index: 7, prev: null, hash: link.hash },
      { index: 7, id: 'e1', prev: null },
      { index: 7, id: 'e1', prev: null, hash: 64 },
      { index: 7, id: 'e1', prev: null, hash: link.hash.toUpperCase() },
      { index: 7, id: 'e1', prev: null, hash: link.hash.slice(1) },
      { index: 7, id: 'e1', prev: 'cd', hash: link.hash },
      { index: 7, id: 'e1', prev: 0, hash: link.hash },
      { index: 7, id: 'e1', hash: link.hash },
    ];
    for (const fields of headers) cases.push([`${JSON.stringify({ chain: 1, ...fields })}\n${json}`, unusable]);
    for (const [text, problem] of cases) expect(parseBoth(text), text).toEqual([{ problem }, { problem }]);
  });

  it('reads the header of a claim held in a larger buffer, and leaves the event bytes as they are', () => {
    const claim = bytes(`xx${formatChainedClaim(link, json)}yy`);
    const view = claim.subarray(2, claim.length - 2);
    const parsed = parseSlotClaimBytes(view);
    expect('problem' in parsed).toBe(false);
    if ('problem' in parsed) return;
    expect(parsed.link).toEqual(link);
    expect(Buffer.from(parsed.eventBytes).toString('utf8')).toBe(json);
  });
});

describe('stagedBodyPath', () => {
  it('names the staged body after the event file, next to the claim', () => {
    expect(stagedBodyPath('conv/events/.slots/00007.json', link)).toBe('conv/events/.slots/event-00007-e1.json');
    expect(stagedBodyPath('/abs/events/.slots/00007.json', link)).toBe('/abs/events/.slots/event-00007-e1.json');
  });
});
