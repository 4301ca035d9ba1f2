// A new user's first ten minutes: a fresh copy of the repository (the files git tracks, as a clone has them)
// follows the README's quickstart literally, then runs the commands the quickstart run prints ("replay: …",
// "inspect: …"), exactly as printed. Global installs go to a private npm prefix and conversations to a private
// X_HOME, so the test leaves the machine as it found it.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../..', import.meta.url));

/** The shell commands of the README's "Quickstart" section, in order (the `sh` code blocks). */
function quickstartCommands(readme: string): string[] {
  const section = readme.split(/^## Quickstart$/m)[1]?.split(/^## /m)[0];
  if (section === undefined) throw new Error('README.md has no "## Quickstart" section');
  return [...section.matchAll(/```sh\n([\s\S]*?)```/g)].flatMap((block) =>
    (block[1] ?? '')
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line !== '' && !line.startsWith('#')),
  );
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: strips ANSI colour codes from captured output.
const ansi = /\u001b\[[0-9;]*m/g;

let work: string;
let clone: string;
let env: NodeJS.ProcessEnv;

function shell(command: string): { status: number; output: string } {
  const result = spawnSync('bash', ['-c', command], { cwd: clone, env, encoding: 'utf8' });
  return { status: result.status ?? 1, output: `${result.stdout}${result.stderr}`.replace(ansi, '') };
}

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'x-quickstart-'));
  clone = join(work, 'x');
  const tracked = spawnSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8' }).stdout.split('\0');
  for (const file of tracked.filter((name) => name !== '')) {
    mkdirSync(dirname(join(clone, file)), { recursive: true });
    cpSync(join(root, file), join(clone, file));
  }
  const prefix = join(work, 'npm-global');
  env = {
    ...process.env,
    npm_config_prefix: prefix,
    PATH: `${join(prefix, 'bin')}:${process.env.PATH}`,
    X_HOME: join(work, 'x-home'),
    NO_COLOR: '1',
  };
  // The suite itself runs under `pnpm test`, whose variables would leak into the nested pnpm.
  for (const key of Object.keys(env)) if (key.startsWith('npm_') && key !== 'npm_config_prefix') delete env[key];
  env.npm_config_prefix = prefix;
});

afterAll(() => {
  if (work !== undefined) rmSync(work, { recursive: true, force: true, maxRetries: 5 });
});

describe('the README quickstart, followed literally on a fresh copy', () => {
  let printed = '';

  it('runs every quickstart command successfully', () => {
    const commands = quickstartCommands(readFileSync(join(clone, 'README.md'), 'utf8'));
    const setup = commands.filter((command) => !command.startsWith('pnpm test'));
    expect(setup.length).toBeGreaterThan(0);
    for (const command of setup) {
      const result = shell(command);
      expect(result.status, `\`${command}\` failed:\n${result.output}`).toBe(0);
      printed += result.output;
    }
    expect(printed).toMatch(/Finished/);
  }, 600_000);

  it('prints next steps that work exactly as printed', () => {
    const suggested = [...printed.matchAll(/(?:replay|inspect): (.+?)(?= {2,}|$)/gm)].map((match) =>
      (match[1] ?? '').trim(),
    );
    expect(suggested.length).toBeGreaterThanOrEqual(2);
    for (const command of suggested) {
      const result = shell(command);
      expect(result.status, `\`${command}\` failed:\n${result.output}`).toBe(0);
      const id = command.split(/\s+/).at(-1) ?? '';
      expect(result.output, `\`${command}\` shows the conversation it names`).toContain(id);
      expect(result.output).toMatch(/finished|Finished/);
    }
  }, 120_000);
});
