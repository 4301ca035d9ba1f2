/**
 * Glob patterns as ripgrep's `-g` reads them (gitignore style): `*` and `?` stay within one path component, `**`
 * crosses directories, `[...]` is a character class, `{a,b}` alternatives. A pattern without a `/` matches a file's
 * name at any depth (`*.ts`); one with a `/` matches the path relative to the searched directory (`src/**\/*.ts`).
 */
export interface GlobMatcher {
  /** True when the `/`-separated path (relative to the searched directory) matches. */
  matches(relativePath: string): boolean;
}

/** Whether a pattern component holds glob syntax (Python's `glob.has_magic`, plus braces). */
export function hasGlobMagic(text: string): boolean {
  return /[*?[{]/.test(text);
}

export function createGlobMatcher(pattern: string): GlobMatcher {
  const trimmed = pattern.replace(/^\.\//, '').replace(/^\/+/, '');
  const anchored = trimmed.replace(/\/+$/, '').includes('/');
  const test = compileGlob(trimmed.replace(/\/+$/, ''));
  return {
    matches(relativePath: string): boolean {
      if (anchored) return test(relativePath);
      return test(relativePath.slice(relativePath.lastIndexOf('/') + 1));
    },
  };
}

/** One piece of a glob: a character of a set, a run of them (`*`, `**`, `**\/`), or alternatives (`{a,b}`). */
type GlobElement =
  | { kind: 'char'; test: (character: string) => boolean }
  | { kind: 'repeat'; test: (character: string) => boolean }
  | { kind: 'directories' }
  | { kind: 'alternatives'; alternatives: GlobElement[][] };

const notSlash = (character: string): boolean => character !== '/';
const anyCharacter = (): boolean => true;

/** A `[...]` class's test: single characters and `a-z` ranges, negated by a leading `!` or `^`. */
function classTest(body: string): (character: string) => boolean {
  const negated = body.startsWith('!') || body.startsWith('^');
  const members = (negated ? body.slice(1) : body).split('');
  const ranges: [string, string][] = [];
  for (let index = 0; index < members.length; index += 1) {
    const low = members[index] as string;
    const high = members[index + 2];
    if (members[index + 1] === '-' && high !== undefined) {
      // As a regular expression's class refuses it: the tools answer with an error observation naming the pattern.
      if (high < low) throw new SyntaxError(`Range out of order in character class: ${low}-${high}`);
      ranges.push([low, high]);
      index += 2;
    } else {
      ranges.push([low, low]);
    }
  }
  return (character) => ranges.some(([low, high]) => character >= low && character <= high) !== negated;
}

/**
 * Parses glob syntax (an unbalanced `[` or `{` is taken literally, an unclosed `{` closed at the end): `*` and `?`
 * within one path component, `**` across them, `**\/` for zero or more directories, `[...]` classes, `{a,b}`
 * alternatives, `\` escaping the next character.
 */
function parseGlob(glob: string): GlobElement[] {
  const groups: GlobElement[][][] = [];
  let sequence: GlobElement[] = [];
  const literal = (character: string) => sequence.push({ kind: 'char', test: (other) => other === character });
  /** Ends the innermost `{`: its alternatives become one element of the sequence it was opened in. */
  const close = () => {
    const [enclosing, ...alternatives] = groups.pop() as [GlobElement[], ...GlobElement[][]];
    enclosing.push({ kind: 'alternatives', alternatives: [...alternatives, sequence] });
    sequence = enclosing;
  };
  for (let index = 0; index < glob.length; index += 1) {
    const character = glob[index] as string;
    if (character === '*') {
      if (glob[index + 1] === '*') {
        const atStart = index === 0 || glob[index - 1] === '/';
        index += 1;
        if (atStart && glob[index + 1] === '/') {
          sequence.push({ kind: 'directories' });
          index += 1;
        } else {
          sequence.push({ kind: 'repeat', test: anyCharacter });
        }
      } else {
        sequence.push({ kind: 'repeat', test: notSlash });
      }
    } else if (character === '?') {
      sequence.push({ kind: 'char', test: notSlash });
    } else if (character === '[' && glob.indexOf(']', index + 2) !== -1) {
      const end = glob.indexOf(']', index + 2);
      sequence.push({ kind: 'char', test: classTest(glob.slice(index + 1, end)) });
      index = end;
    } else if (character === '{' && glob.indexOf('}', index) !== -1) {
      // The enclosing sequence is kept first in the group's list, the alternatives after it.
      groups.push([sequence]);
      sequence = [];
    } else if (character === '}' && groups.length > 0) {
      close();
    } else if (character === ',' && groups.length > 0) {
      (groups.at(-1) as GlobElement[][]).push(sequence);
      sequence = [];
    } else if (character === '\\' && index + 1 < glob.length) {
      index += 1;
      literal(glob[index] as string);
    } else {
      literal(character);
    }
  }
  while (groups.length > 0) close();
  return sequence;
}

/** A state of the matching automaton: one character it takes (then `next`), or moves that take none. */
type State = { kind: 'take'; test: (character: string) => boolean; next: number } | { kind: 'move'; next: number[] };

/**
 * Compiles a glob to a test of a whole text, by a Thompson automaton run over the text once: time grows with the
 * pattern's length times the text's, whatever the pattern. A regular expression compiled from it would backtrack:
 * `*a*a*a*a*a*a*a*a*a*a*a*b` against a name of forty `a`s takes minutes, and the tools run in the server's own
 * process, so a pattern from the model, or an ignore file a sandboxed command wrote, would freeze it.
 */
export function compileGlob(glob: string): (text: string) => boolean {
  const states: State[] = [{ kind: 'move', next: [] }];
  const accept = 0;
  const add = (state: State): number => states.push(state) - 1;
  const repeat = (test: (character: string) => boolean, then: number): number => {
    const loop = add({ kind: 'move', next: [] });
    (states[loop] as { next: number[] }).next = [add({ kind: 'take', test, next: loop }), then];
    return loop;
  };
  const build = (sequence: readonly GlobElement[], then: number): number => {
    let start = then;
    for (let index = sequence.length - 1; index >= 0; index -= 1) {
      const element = sequence[index] as GlobElement;
      if (element.kind === 'char') start = add({ kind: 'take', test: element.test, next: start });
      else if (element.kind === 'repeat') start = repeat(element.test, start);
      else if (element.kind === 'directories') {
        const loop = add({ kind: 'move', next: [] });
        const slash = add({ kind: 'take', test: (character) => character === '/', next: loop });
        const directory = repeat(notSlash, slash);
        (states[loop] as { next: number[] }).next = [directory, start];
        start = loop;
      } else start = add({ kind: 'move', next: element.alternatives.map((alternative) => build(alternative, start)) });
    }
    return start;
  };
  const initial = build(parseGlob(glob), accept);
  /** Every state reachable from `from` without taking a character, added to `into` once. */
  const close = (from: number, into: Set<number>): void => {
    const pending = [from];
    while (pending.length > 0) {
      const index = pending.pop() as number;
      if (into.has(index)) continue;
      into.add(index);
      const state = states[index] as State;
      if (state.kind === 'move') pending.push(...state.next);
    }
  };
  return (text) => {
    let current = new Set<number>();
    close(initial, current);
    // By UTF-16 unit, as the pattern is read: a character outside the BMP in both is two units that match in turn.
    for (let position = 0; position < text.length; position += 1) {
      const character = text[position] as string;
      const next = new Set<number>();
      for (const index of current) {
        const state = states[index] as State;
        if (state.kind === 'take' && state.test(character)) close(state.next, next);
      }
      if (next.size === 0) return false;
      current = next;
    }
    return current.has(accept);
  };
}
