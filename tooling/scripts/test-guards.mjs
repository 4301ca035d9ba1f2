// Checks after `pnpm test` that the tests wrote nothing outside temporary directories: nothing new or changed
// in the real `~/.x` (conversations, demo workspaces, server data) and no new or changed file in the repository
// that git would see. The vitest preset already gives every run its own HOME and X_HOME; this is the backstop.
// On CI (`CI` set, nothing else runs on the machine) a change is a failure; on a shared development machine,
// where another checkout's run or a person may touch ~/.x meanwhile, it is printed as a warning.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

/** `path → mtime` of `dir` and its entries `depth` levels down (new conversations appear at depth 2). */
function listing(dir, depth, into = new Map()) {
  if (!existsSync(dir)) return into;
  into.set(dir, statSync(dir).mtimeMs);
  if (depth === 0 || !statSync(dir).isDirectory()) return into;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) listing(path, depth - 1, into);
    else into.set(path, statSync(path, { throwIfNoEntry: false })?.mtimeMs ?? 0);
  }
  return into;
}

/** Lines of `git status --porcelain` (changed and untracked files, ignored ones left out). */
function gitStatus(root) {
  const result = spawnSync('git', ['status', '--porcelain', '--untracked-files=all'], { cwd: root, encoding: 'utf8' });
  return result.status === 0 ? new Set(result.stdout.split('\n').filter((line) => line !== '')) : undefined;
}

/** Takes the "before" picture; `check()` compares and returns the problems to count (empty when only warning). */
export function snapshotUntouched(root, { strict = process.env.CI !== undefined && process.env.CI !== '' } = {}) {
  const xHome = join(process.env.X_REAL_HOME ?? homedir(), '.x');
  const homeBefore = listing(xHome, 2);
  const repoBefore = gitStatus(root);
  return {
    check() {
      const touched = [];
      const homeAfter = listing(xHome, 2);
      for (const [path, mtime] of homeAfter) {
        if (!homeBefore.has(path)) touched.push(`${path} was created`);
        else if (homeBefore.get(path) !== mtime) touched.push(`${path} was changed`);
      }
      for (const path of homeBefore.keys()) if (!homeAfter.has(path)) touched.push(`${path} was removed`);
      const repoAfter = gitStatus(root);
      if (repoBefore !== undefined && repoAfter !== undefined) {
        for (const line of repoAfter) if (!repoBefore.has(line)) touched.push(`the repository changed: ${line.trim()}`);
      }
      if (touched.length === 0) return [];
      const head = 'the tests wrote outside their temporary directories';
      const lines = touched.slice(0, 20).map((entry) => `${head}: ${entry}`);
      if (touched.length > 20) lines.push(`${head}: … and ${touched.length - 20} more`);
      if (strict) return lines;
      console.warn('\nWarning (counted as a failure on CI):');
      for (const line of lines) console.warn(`  - ${line}`);
      return [];
    },
  };
}
