// The bundles tooling/scripts/bundle-dist.mjs writes (esbuild over tsc's output, rewritten, then whitespace-minified
// by a second pass) keep source maps exact: an error thrown inside a bundled package, in a plain `node` process with
// `--enable-source-maps`, names the `src/` file and the line of its `throw`. One throw per bundled package, each
// called through the package's public entry as a consumer would.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../..', import.meta.url));

interface Throw {
  /** The package folder, whose built `dist/index.js` is imported. */
  dir: string;
  /** A call of its public API that throws synchronously, given the module as `api`. */
  call: string;
  /** The function whose stack frame is checked. */
  frame: string;
  /** The source file of the `throw`, relative to the package. */
  source: string;
  /** Text of the line of the `throw`: the frame must carry its number, and the column of its `new`. */
  line: string;
}

const throws: Throw[] = [
  {
    dir: 'packages/events',
    call: 'api.fromChatCompletionsMessages("not an array")',
    frame: 'fromChatCompletionsMessages',
    source: 'src/render/from-chat-completions-messages.ts',
    line: "throw new ChatImportError({ index: 0, path: '(messages)'",
  },
  {
    dir: 'packages/store',
    call: 'api.validateStorePath("../outside")',
    frame: 'validateStorePath',
    source: 'src/store-path.ts',
    line: 'if (reason !== undefined) throw new InvalidPathError({ path, reason });',
  },
  {
    dir: 'packages/agent',
    call: 'api.parseBudgetUsd("ten dollars")',
    frame: 'parseBudgetUsd',
    source: 'src/budgets/budget.ts',
    line: 'is not a number of dollars ≥ 0 (e.g. 0.50)',
  },
];

/** The stack of the error `call` throws, from a fresh `node --enable-source-maps` process. */
function stackOf({ dir, call }: Throw): string {
  const entry = join(root, dir, 'dist/index.js');
  const script = `const api = await import(${JSON.stringify(entry)}); try { ${call}; } catch (error) { console.log(error.stack); }`;
  const result = spawnSync(process.execPath, ['--enable-source-maps', '--input-type=module', '-e', script], {
    encoding: 'utf8',
  });
  if (result.status !== 0) throw new Error(`node exited with ${result.status}:\n${result.stderr}`);
  return result.stdout;
}

describe.each(throws)('$dir, bundled', (thrown) => {
  it(`maps the frame of ${thrown.frame} to the line of its throw in ${thrown.source}`, () => {
    const stack = stackOf(thrown);
    // `at fromX (…)`, or `at Module.fromX (…)` where it was called as a property of the module namespace.
    const frame = stack.split('\n').find((text) => new RegExp(`at (\\w+\\.)?${thrown.frame} \\(`).test(text));
    expect(frame, stack).toBeDefined();
    const location = /\((.+):(\d+):(\d+)\)$/.exec(frame as string);
    expect(location, frame).not.toBeNull();
    const [, file, line, column] = location as RegExpExecArray;
    expect(file).toBe(join(root, thrown.dir, thrown.source));
    const text = readFileSync(join(root, thrown.dir, thrown.source), 'utf8').split('\n')[Number(line) - 1] ?? '';
    expect(text).toContain(thrown.line);
    expect(Number(column)).toBe(text.indexOf('new ') + 1);
  });
});
