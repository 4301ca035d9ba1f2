import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { hasColorCodes, hasEscapes, runCli, tempDir } from './helpers/run-cli.js';

const execFileAsync = promisify(execFile);
const home = tempDir();
afterAll(() => home.remove());
const env = { X_HOME: home.path };

const COMMANDS = [
  'run',
  'list',
  'replay',
  'inspect',
  'events',
  'messages',
  'verify',
  'serve',
  'tail',
  'send',
  'eval',
  'mcp',
];

describe('@x/cli as a package', () => {
  it('imports from its root, as its README documents (the error types)', async () => {
    const script =
      "const cli = await import('@x/cli'); console.log(typeof cli.CliError, typeof cli.UsageError, cli.ExitCode.ok);";
    const { stdout } = await execFileAsync(process.execPath, ['--input-type=module', '-e', script], {
      cwd: fileURLToPath(new URL('..', import.meta.url)),
    });
    expect(stdout.trim()).toBe('function function 0');
  });
});

describe('x', () => {
  it('prints the package version with --version and -v', async () => {
    const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
      version: string;
    };
    for (const flag of ['--version', '-v']) {
      const result = await runCli([flag], { env });
      expect(result.code).toBe(0);
      expect(result.stdout.trim()).toBe(version);
    }
  });

  it('lists every command in --help, with exit codes and a place to start', async () => {
    const result = await runCli(['--help'], { env });
    expect(result.code).toBe(0);
    for (const command of COMMANDS) expect(result.stdout).toMatch(new RegExp(`^  ${command}\\b`, 'm'));
    expect(result.stdout).toContain('Exit codes');
    expect(result.stdout).toContain('x run --demo');
  });

  it.each(COMMANDS)('has --help with usage and examples for %s', async (command) => {
    const result = await runCli([command, '--help'], { env });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`Usage: x ${command}`);
    expect(result.stdout).toContain('Examples:');
    expect(result.stdout).toContain(`$ x ${command}`);
    expect(result.stdout).toContain('--no-color');
    expect(hasEscapes(result.stdout)).toBe(false);
  });

  it('answers `x help <command>` like `x <command> --help`', async () => {
    const result = await runCli(['help', 'events'], { env });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Usage: x events');
  });
});

describe('usage errors exit 2 and say what was wrong', () => {
  it.each([
    [['frobnicate'], /unknown command 'frobnicate'/],
    [['runn', '--demo'], /Did you mean run\?/],
    [['run', '--bogus'], /unknown option '--bogus'/],
    [['run', '--confirm', 'sometimes', 'task'], /Allowed choices are never, always, risky/],
    [['run', '--max-iterations', 'lots', 'task'], /expected a whole number/],
    [['events', 'abc', '--from', '-1'], /expected an event index|unknown option/],
    [['run'], /No task given/],
    [['run', '--demo', 'a task'], /--demo runs its own task/],
    [['replay'], /missing required argument 'conversation'/],
    [['tail', 'not a url', 'id'], /expected an http\(s\) URL/],
    [[], /Usage: x/],
  ])('x %j', async (args, message) => {
    const result = await runCli(args, { env });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(result.stdout).toBe('');
  });

  it('prints the usage hint without color codes off a terminal and under NO_COLOR, dimmed with --color', async () => {
    for (const extra of [{}, { NO_COLOR: '1', FORCE_COLOR: '1' }]) {
      const result = await runCli(['run', '--bogus'], { env: { ...env, ...extra } });
      expect(result.code).toBe(2);
      expect(result.stderr).toContain('(add --help for usage and examples)');
      expect(hasColorCodes(result.stderr)).toBe(false);
    }
    const colored = await runCli(['--color', 'run', '--bogus'], { env });
    expect(colored.stderr).toContain(`${String.fromCharCode(27)}[2m(add --help for usage and examples)`);
  });

  it('rejects a workspace that does not exist', async () => {
    const result = await runCli(['run', '--workspace', `${home.path}/missing`, 'task'], { env });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`${home.path}/missing does not exist`);
  });
});

describe('unknown conversations exit 3 and say where x looked', () => {
  it.each(['replay', 'inspect', 'events', 'messages'])('%s', async (command) => {
    const result = await runCli([command, '0123abcd-0000-4000-8000-000000000000'], { env });
    expect(result.code).toBe(3);
    expect(result.stderr).toContain("No conversation '0123abcd-0000-4000-8000-000000000000'");
    expect(result.stderr).toContain(`${home.path}/conversations`);
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });

  it('for a path that is not a conversation directory', async () => {
    const result = await runCli(['inspect', home.path], { env });
    expect(result.code).toBe(3);
    expect(result.stderr).toContain(`${home.path} (no base_state.json or events/ there)`);
  });

  it('with --data-dir', async () => {
    const result = await runCli(['events', 'abcdef', '--data-dir', `${home.path}/elsewhere`], { env });
    expect(result.code).toBe(3);
    expect(result.stderr).toContain(`${home.path}/elsewhere (which does not exist)`);
  });

  it('takes --interrupted-actions report|rerun|confirm on serve, and refuses another mode', async () => {
    const help = await runCli(['serve', '--help'], { env });
    expect(help.stdout).toContain('--interrupted-actions <mode>');
    expect(help.stdout).toContain('"report", "rerun", "confirm"');
    const refused = await runCli(['serve', '--interrupted-actions', 'retry'], { env });
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain("'retry' is invalid");
  });
});
