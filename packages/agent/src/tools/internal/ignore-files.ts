import { lstat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { readRegularFile, type VerifiedDirectory, type WalkIgnore } from '../../paths/index.js';
import { compileGlob } from './glob-pattern.js';

/**
 * The ignore files ripgrep reads, as the reference's grep and glob tools run it: `.gitignore` inside a git
 * repository (a `.git` in the searched directory or above it), `.ignore` and `.rgignore` anywhere. Each applies to
 * its directory and everything below it; a deeper file's rules, and a later rule of one file, take precedence.
 */
const gitIgnoreFile = '.gitignore';
const anywhereIgnoreFiles = ['.ignore', '.rgignore'];

/** An ignore file this long is not read (a real one holds a few hundred lines). */
const maxIgnoreFileBytes = 1024 * 1024;

interface IgnoreRule {
  /** Whether the rule's glob matches a whole path or name. */
  matches: (text: string) => boolean;
  /** Tested against the path relative to the rule's directory; otherwise against the entry's name. */
  anchored: boolean;
  directoryOnly: boolean;
  negated: boolean;
}

/** Parses gitignore syntax: comments, `!` negation, a trailing `/` for directories, a `/` anchoring the pattern. */
export function parseIgnoreRules(text: string): IgnoreRule[] {
  const rules: IgnoreRule[] = [];
  for (const raw of text.split(/\r?\n/u)) {
    // Trailing blanks go unless escaped with a backslash.
    let line = raw.replace(/(?<!\\)[ \t]+$/u, '');
    if (line === '' || line.startsWith('#')) continue;
    const negated = line.startsWith('!');
    if (negated) line = line.slice(1);
    if (line.startsWith('\\#') || line.startsWith('\\!')) line = line.slice(1);
    const directoryOnly = line.endsWith('/');
    line = line.replace(/\/+$/u, '');
    if (line === '') continue;
    const anchored = line.includes('/');
    line = line.replace(/^\/+/u, '');
    rules.push({ matches: compileGlob(line), anchored, directoryOnly, negated });
  }
  return rules;
}

interface RuleSet {
  /** The directory holding the ignore file, relative to the searched directory (`''`, or ending with `/`). */
  base: string;
  rules: IgnoreRule[];
}

/** Whether a `.git` entry lies in `real` or any directory above it, as ripgrep requires for `.gitignore`. */
async function insideGitRepository(real: string): Promise<boolean> {
  for (let directory = real; ; directory = dirname(directory)) {
    if ((await lstat(join(directory, '.git')).catch(() => undefined)) !== undefined) return true;
    if (dirname(directory) === directory) return false;
  }
}

/**
 * A walk filter reading the ignore files of each directory it enters. Rules of directories above the searched one
 * are not read: a search starts from the workspace, or from a directory the model named inside it.
 */
export async function createIgnoreFilter(searchedReal: string): Promise<WalkIgnore> {
  const readGitIgnore = await insideGitRepository(searchedReal);
  const sets: RuleSet[] = [];
  return {
    async enter(directory: VerifiedDirectory, prefix: string, names: readonly string[]) {
      // Sets of directories the depth-first walk has left are dropped: they no longer apply.
      while (sets.length > 0 && !prefix.startsWith((sets.at(-1) as RuleSet).base)) sets.pop();
      const files = [...(readGitIgnore ? [gitIgnoreFile] : []), ...anywhereIgnoreFiles];
      const rules: IgnoreRule[] = [];
      for (const file of files) {
        if (!names.includes(file)) continue;
        const text = await readRegularFile(directory, file, {
          shown: `${prefix}${file}`,
          maxBytes: maxIgnoreFileBytes,
        }).catch(() => '');
        rules.push(...parseIgnoreRules(text));
      }
      if (rules.length > 0) sets.push({ base: prefix, rules });
    },
    ignored(relative: string, isDirectory: boolean): boolean {
      let ignored = false;
      for (const set of sets) {
        if (!relative.startsWith(set.base)) continue;
        const inside = relative.slice(set.base.length);
        const name = inside.slice(inside.lastIndexOf('/') + 1);
        for (const rule of set.rules) {
          if (rule.directoryOnly && !isDirectory) continue;
          if (rule.matches(rule.anchored ? inside : name)) ignored = !rule.negated;
        }
      }
      return ignored;
    },
  };
}
