// The one-line mutants of a source file: each is the file with one small change a slip of the keyboard could
// make (a flipped comparison, an off-by-one, a swapped boolean operator, a removed statement, a dropped
// return value). A test suite that stays green with a mutant applied does not check what that line does.
// Pure functions, so the choice of mutants is tested on its own (test/mutants.test.ts).

/** Replacements tried at every match on a line: [pattern, replacement, what it models]. */
export const OPERATORS = [
  [/ === /g, ' !== ', 'equality flipped'],
  [/ !== /g, ' === ', 'equality flipped'],
  [/ < /g, ' <= ', 'boundary'],
  [/ <= /g, ' < ', 'boundary'],
  [/ > /g, ' >= ', 'boundary'],
  [/ >= /g, ' > ', 'boundary'],
  [/ && /g, ' || ', 'logic'],
  [/ \|\| /g, ' && ', 'logic'],
  [/ \?\? /g, ' || ', 'nullish as falsy'],
  [/ \+ 1\b/g, '', 'off by one'],
  [/ - 1\b/g, '', 'off by one'],
  [/\b0\b/g, '1', 'constant'],
  [/\b1\b/g, '0', 'constant'],
  [/\btrue\b/g, 'false', 'constant'],
  [/\bfalse\b/g, 'true', 'constant'],
  [/\bif \(!/g, 'if (', 'condition negated'],
  [/\bif \((?!!)/g, 'if (!', 'condition negated'],
  [/\.length\b/g, '.length - 1', 'off by one'],
  [/\bbreak;/g, '', 'loop exit removed'],
  [/\bcontinue;/g, '', 'loop skip removed'],
  [/\+\+/g, '--', 'direction'],
  [/\bMath\.min\b/g, 'Math.max', 'extreme swapped'],
  [/\bMath\.max\b/g, 'Math.min', 'extreme swapped'],
  [/\bstartsWith\b/g, 'endsWith', 'end swapped'],
];

/** Lines that hold no behaviour to mutate: blank, comments, imports, type declarations. */
export function isInert(line) {
  const t = line.trim();
  return (
    t === '' ||
    t.startsWith('//') ||
    t.startsWith('*') ||
    t.startsWith('/*') ||
    t.startsWith('import ') ||
    t.startsWith('export type ') ||
    t.startsWith('type ') ||
    t.startsWith('interface ') ||
    t.startsWith('export interface ') ||
    /^readonly [\w$]+\??:/.test(t)
  );
}

const STATEMENT = /^(await |this\.|[\w$.[\]]+(\(|\s*[-+*]?=\s))/;

function balanced(text) {
  return (text.match(/\(/g) ?? []).length === (text.match(/\)/g) ?? []).length;
}

/**
 * Every mutant of `source` on lines `from`..`to` (1-based, inclusive): `{ line, original, mutated, text, kind }`,
 * where `text` is the mutated line (empty for a removed statement).
 */
export function mutantsOf(source, { from = 1, to = Number.POSITIVE_INFINITY } = {}) {
  const lines = source.split('\n');
  const mutants = [];
  for (let index = Math.max(0, from - 1); index < Math.min(lines.length, to); index++) {
    const line = lines[index];
    if (isInert(line)) continue;
    const number = index + 1;
    const original = line.trim();
    for (const [pattern, replacement, kind] of OPERATORS) {
      for (const match of line.matchAll(pattern)) {
        const text =
          line.slice(0, match.index) +
          match[0].replace(new RegExp(pattern.source), replacement) +
          line.slice(match.index + match[0].length);
        if (text !== line) mutants.push({ line: number, original, mutated: text.trim(), text, kind });
      }
    }
    if (STATEMENT.test(original) && original.endsWith(';') && balanced(original))
      mutants.push({ line: number, original, mutated: '(statement removed)', text: '', kind: 'statement removed' });
    if (/^return [^;]+;$/.test(original) && !/^return (true|false|undefined|null);$/.test(original))
      mutants.push({
        line: number,
        original,
        mutated: 'return undefined;',
        text: line.replace(/return .*;/, 'return undefined;'),
        kind: 'return value dropped',
      });
  }
  return mutants;
}

/** `source` with `mutant` applied. */
export function applyMutant(source, mutant) {
  const lines = source.split('\n');
  lines[mutant.line - 1] = mutant.text;
  return lines.join('\n');
}

/** Up to `count` of `mutants`, chosen by a seeded shuffle (the same seed, the same choice), in line order. */
export function sample(mutants, count, seed = 1) {
  const chosen = [...mutants];
  let state = seed >>> 0 || 1;
  const random = () => {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    return state / 2 ** 32;
  };
  for (let i = chosen.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [chosen[i], chosen[j]] = [chosen[j], chosen[i]];
  }
  return chosen.slice(0, count).sort((a, b) => a.line - b.line);
}
