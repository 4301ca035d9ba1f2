// Types of mutants.mjs, for the TypeScript that imports it (test/mutants.test.ts).
export interface Mutant {
  /** 1-based line number. */
  line: number;
  /** The line as it was, trimmed. */
  original: string;
  /** The line as mutated, trimmed, or `(statement removed)`. */
  mutated: string;
  /** The full mutated line (empty for a removed statement). */
  text: string;
  /** What the mutation models ("boundary", "logic", "statement removed", ...). */
  kind: string;
}
export declare const OPERATORS: ReadonlyArray<readonly [RegExp, string, string]>;
export declare function isInert(line: string): boolean;
export declare function mutantsOf(source: string, range?: { from?: number; to?: number }): Mutant[];
export declare function applyMutant(source: string, mutant: Mutant): string;
export declare function sample(mutants: readonly Mutant[], count: number, seed?: number): Mutant[];
