import { spawnSync } from 'node:child_process';
import { expect } from 'vitest';

/**
 * Runs `script` (TypeScript, by tsx from the sources) in a user and mount namespace of its own (`unshare -Urm`, what
 * bubblewrap needs anyway), after the shell commands `mounts` (which see `args` as `$1`, `$2`, …); the script gets
 * `args` too and prints its outcome as JSON on its last line, which is returned. Mounts need privileges: this is how
 * a test makes them without root. `TMPDIR` is `tmp` in the namespace.
 */
export function runInMountNamespace<Outcome>(options: {
  mounts: string;
  args: readonly string[];
  script: string;
  tmp: string;
}): Outcome {
  const { mounts, args, script, tmp } = options;
  const passed = args.map((_, index) => `"$${index + 1}"`).join(' ');
  const child = spawnSync(
    'unshare',
    [
      '-Urm',
      'sh',
      '-c',
      `${mounts} && exec "$${args.length + 1}" --import tsx "$${args.length + 2}" ${passed}`,
      'sh',
      ...args,
      process.execPath,
      script,
    ],
    { encoding: 'utf8', env: { ...process.env, TMPDIR: tmp }, timeout: 120_000 },
  );
  expect(child.status, `${child.stdout}${child.stderr}`).toBe(0);
  return JSON.parse(child.stdout.trim().split('\n').at(-1) ?? '') as Outcome;
}
