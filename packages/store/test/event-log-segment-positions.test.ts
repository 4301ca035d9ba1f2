import { describe, expect, it } from 'vitest';
import { SegmentPositions } from '../src/event-log/segment/segment-positions.js';

// Where each event's bytes are in the segment: the first ones adopted from a segment index (a typed array that may
// hold more pairs than it covers), the later ones pushed as the segment is read or appended to.

describe('SegmentPositions', () => {
  it('answers from the adopted pairs, then from those pushed after them', () => {
    const positions = new SegmentPositions();
    // Three pairs in the array, two of them adopted: the third is not this list's.
    positions.adopt(new Float64Array([10, 5, 30, 6, 999, 999]), 2);
    positions.push(50, 7);
    positions.push(70, 8);
    expect(positions.length).toBe(4);
    expect([0, 1, 2, 3].map((index) => [positions.offsetOf(index), positions.lengthOf(index)])).toEqual([
      [10, 5],
      [30, 6],
      [50, 7],
      [70, 8],
    ]);
    expect([...positions.pairs(4)]).toEqual([10, 5, 30, 6, 50, 7, 70, 8]);
    expect([...positions.pairs(3)]).toEqual([10, 5, 30, 6, 50, 7]);
    expect([...positions.pairs(1)]).toEqual([10, 5]);
  });

  it('works without adopted pairs', () => {
    const positions = new SegmentPositions();
    positions.push(12, 3);
    expect(positions.length).toBe(1);
    expect([...positions.pairs(1)]).toEqual([12, 3]);
    expect([positions.offsetOf(0), positions.lengthOf(0)]).toEqual([12, 3]);
  });

  it('adopts only into an empty list', () => {
    const positions = new SegmentPositions();
    positions.push(12, 3);
    expect(() => positions.adopt(new Float64Array([1, 2]), 1)).toThrow(
      expect.objectContaining({
        code: 'segment_invariant',
        problem: expect.stringMatching(/1 events .* over 1 known/),
      }),
    );
  });
});
