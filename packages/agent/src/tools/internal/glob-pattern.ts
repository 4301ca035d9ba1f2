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
  const regex = new RegExp(`^${globToRegexSource(trimmed.replace(/\/+$/, ''))}$`);
  return {
    matches(relativePath: string): boolean {
      if (anchored) return regex.test(relativePath);
      const name = relativePath.slice(relativePath.lastIndexOf('/') + 1);
      return regex.test(name);
    },
  };
}

function escapeRegex(character: string): string {
  return character.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

/** Translates glob syntax into a regular expression source (an unbalanced `[` or `{` is taken literally). */
export function globToRegexSource(glob: string): string {
  let out = '';
  let index = 0;
  let braceDepth = 0;
  while (index < glob.length) {
    const character = glob[index] as string;
    if (character === '*') {
      if (glob[index + 1] === '*') {
        const atStart = index === 0 || glob[index - 1] === '/';
        const next = glob[index + 2];
        index += 2;
        if (atStart && next === '/') {
          // `**/`: zero or more directories.
          out += '(?:[^/]*/)*';
          index += 1;
        } else {
          out += '.*';
        }
        continue;
      }
      out += '[^/]*';
    } else if (character === '?') {
      out += '[^/]';
    } else if (character === '[') {
      const close = glob.indexOf(']', index + 2);
      if (close === -1) {
        out += '\\[';
      } else {
        let body = glob.slice(index + 1, close);
        const negated = body.startsWith('!') || body.startsWith('^');
        if (negated) body = body.slice(1);
        out += `[${negated ? '^' : ''}${body.replace(/[\\\]^]/g, '\\$&')}]`;
        index = close;
      }
    } else if (character === '{' && glob.indexOf('}', index) !== -1) {
      braceDepth += 1;
      out += '(?:';
    } else if (character === '}' && braceDepth > 0) {
      braceDepth -= 1;
      out += ')';
    } else if (character === ',' && braceDepth > 0) {
      out += '|';
    } else if (character === '\\' && index + 1 < glob.length) {
      index += 1;
      out += escapeRegex(glob[index] as string);
    } else {
      out += escapeRegex(character);
    }
    index += 1;
  }
  // An unclosed `{` (its `}` was consumed by a nested one) still needs closing for a valid expression.
  out += ')'.repeat(braceDepth);
  return out;
}
