// The mutants `pnpm mutate` tries (tooling/scripts/mutate/mutants.mjs): which lines, which changes, and that the
// sample is reproducible.
import { describe, expect, it } from 'vitest';
import { applyMutant, isInert, mutantsOf, OPERATORS, sample } from '../mutate/mutants.mjs';

const SOURCE = [
  "import { x } from './x.js';",
  '// a comment with a < b && c',
  'export function last(list: readonly number[]): number | undefined {',
  '  if (list.length === 0) return undefined;',
  '  return list[list.length - 1];',
  '}',
  'export function count(list: readonly number[], limit: number): number {',
  '  let n = 0;',
  '  for (const value of list) if (value < limit && value >= 0) n++;',
  '  record(n);',
  '  return n;',
  '}',
].join('\n');

describe('mutantsOf', () => {
  const mutants = mutantsOf(SOURCE);
  const on = (line: number) => mutants.filter((m) => m.line === line).map((m) => m.mutated);

  it('leaves imports, comments and type declarations alone', () => {
    expect(on(1)).toEqual([]);
    expect(on(2)).toEqual([]);
    for (const line of [
      '',
      '   ',
      "import type { A } from './a.js';",
      '// a < b',
      ' * a < b',
      '/* a < b */',
      'type Id = string | 0;',
      'export type Id = string | 0;',
      'interface A { n: 0 }',
      'export interface A { n: 0 }',
      '  readonly name?: string;',
    ])
      expect(isInert(line), line).toBe(true);
    for (const line of ['  n += 1;', '  const type = importer(0);', '  if (a) return b;'])
      expect(isInert(line), line).toBe(false);
  });

  it('makes the change each operator names, in place on the line', () => {
    const examples: Record<string, [string, string]> = {
      ' === ': ['  if (a === b) f();', '  if (a !== b) f();'],
      ' !== ': ['  if (a !== b) f();', '  if (a === b) f();'],
      ' < ': ['  if (a < b) f();', '  if (a <= b) f();'],
      ' <= ': ['  if (a <= b) f();', '  if (a < b) f();'],
      ' > ': ['  if (a > b) f();', '  if (a >= b) f();'],
      ' >= ': ['  if (a >= b) f();', '  if (a > b) f();'],
      ' && ': ['  g(a && b);', '  g(a || b);'],
      ' || ': ['  g(a || b);', '  g(a && b);'],
      ' ?? ': ['  g(a ?? b);', '  g(a || b);'],
      ' + 1': ['  g(a + 1);', '  g(a);'],
      ' - 1': ['  g(a - 1);', '  g(a);'],
      '0': ['  g(0);', '  g(1);'],
      '1': ['  g(1);', '  g(0);'],
      true: ['  g(true);', '  g(false);'],
      false: ['  g(false);', '  g(true);'],
      'if (!': ['  if (!a) f();', '  if (a) f();'],
      'if (': ['  if (a) f();', '  if (!a) f();'],
      '.length': ['  g(a.length);', '  g(a.length - 1);'],
      'break;': ['  if (a) break;', '  if (a) '],
      'continue;': ['  if (a) continue;', '  if (a) '],
      '++': ['  g(a++);', '  g(a--);'],
      'Math.min': ['  g(Math.min(a, b));', '  g(Math.max(a, b));'],
      'Math.max': ['  g(Math.max(a, b));', '  g(Math.min(a, b));'],
      startsWith: ['  g(a.startsWith(b));', '  g(a.endsWith(b));'],
    };
    expect(OPERATORS).toHaveLength(Object.keys(examples).length);
    for (const [line, expected] of Object.values(examples)) {
      const texts = mutantsOf(line).map((m) => m.text);
      expect(texts, line).toContain(expected);
    }
  });

  it('flips comparisons, shifts boundaries and constants, negates conditions', () => {
    expect(on(4)).toEqual(
      expect.arrayContaining([
        'if (list.length !== 0) return undefined;',
        'if (list.length === 1) return undefined;',
        'if (!list.length === 0) return undefined;',
        'if (list.length - 1 === 0) return undefined;',
      ]),
    );
    expect(on(9)).toEqual(
      expect.arrayContaining([
        'for (const value of list) if (value <= limit && value >= 0) n++;',
        'for (const value of list) if (value < limit || value >= 0) n++;',
        'for (const value of list) if (value < limit && value > 0) n++;',
        'for (const value of list) if (value < limit && value >= 0) n--;',
      ]),
    );
  });

  it('never yields the line unchanged', () => {
    const lines = SOURCE.split('\n');
    for (const m of mutants) expect(m.text, `line ${m.line}`).not.toBe(lines[m.line - 1]);
  });

  it('removes only whole, balanced statements', () => {
    const removed = (line: string) => mutantsOf(line).some((m) => m.kind === 'statement removed');
    expect(removed('  g(a);')).toBe(true);
    expect(removed('  await g(a);')).toBe(true);
    expect(removed('  this.n = a;')).toBe(true);
    expect(removed('  n += a;')).toBe(true);
    expect(removed('  g(a)')).toBe(false);
    expect(removed('  g(a, h(b);')).toBe(false);
    expect(removed("  'use strict';")).toBe(false);
    expect(removed('  } while (a);')).toBe(false);
  });

  it('removes whole statements and drops returned values', () => {
    expect(on(10)).toContain('(statement removed)');
    expect(on(11)).toContain('return undefined;');
    // A return of a constant is left to the constant operators.
    expect(on(4)).not.toContain('return undefined;');
    for (const constant of ['true', 'false', 'undefined', 'null'])
      expect(mutantsOf(`  return ${constant};`).map((m) => m.mutated)).not.toContain('return undefined;');
    expect(on(5)).toEqual(expect.arrayContaining(['return undefined;', 'return list[list.length];']));
  });

  it('keeps to the lines asked for, the first and the last included', () => {
    const inRange = mutantsOf(SOURCE, { from: 8, to: 9 });
    expect(new Set(inRange.map((m) => m.line))).toEqual(new Set([8, 9]));
    const twoLines = 'f(0);\ng(1);';
    expect(new Set(mutantsOf(twoLines).map((m) => m.line))).toEqual(new Set([1, 2]));
  });

  it('applies one mutant to one line and nothing else', () => {
    const removal = mutants.find((m) => m.line === 10 && m.kind === 'statement removed');
    expect(removal).toBeDefined();
    const mutated = applyMutant(SOURCE, removal!).split('\n');
    const lines = SOURCE.split('\n');
    expect(mutated).toHaveLength(lines.length);
    expect(mutated.map((line, i) => (line === lines[i] ? null : [i + 1, line])).filter(Boolean)).toEqual([[10, '']]);
  });
});

describe('sample', () => {
  const mutants = mutantsOf(SOURCE);

  it('is the same for the same seed, in line order, and at most the count asked', () => {
    const a = sample(mutants, 5, 7);
    expect(a).toEqual(sample(mutants, 5, 7));
    expect(a).toHaveLength(5);
    expect(a.map((m) => m.line)).toEqual([...a.map((m) => m.line)].sort((x, y) => x - y));
    expect(sample(mutants, 1000, 7)).toHaveLength(mutants.length);
  });

  it('draws other mutants with another seed', () => {
    const key = (m: { line: number; mutated: string }) => `${m.line}:${m.mutated}`;
    const seeds = [1, 2, 3, 4].map((seed) => sample(mutants, 5, seed).map(key).join('|'));
    expect(new Set(seeds).size).toBe(4);
  });

  it('gives every mutant a fair chance', () => {
    // Four lines with one mutant each: over 400 seeds, each line should be drawn alone about 100 times.
    const four = mutantsOf(['  x = a && b', '  x = c && d', '  x = e && f', '  x = g && h'].join('\n'));
    expect(four).toHaveLength(4);
    const drawn = [0, 0, 0, 0];
    for (let seed = 1; seed <= 400; seed++) drawn[sample(four, 1, seed)[0]!.line - 1]! += 1;
    for (const count of drawn) expect(count).toBeGreaterThan(60);
  });
});
