import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const distDir = fileURLToPath(new URL('../../dist/', import.meta.url));

export interface ExampleRun {
  code: number | null;
  stdout: string;
  stderr: string;
  /** stdout split into lines, without the empty last one. */
  lines: string[];
}

/**
 * Runs `dist/<name>.js` as its own Node process, as a user would, with only the variables given (plus PATH,
 * and HOME / X_HOME in a fresh temp directory so nothing of this machine's configuration is read or written).
 * The host's own keys are never passed on: the examples only reach the local servers the tests start.
 */
export async function runExample(name: string, env: Record<string, string>): Promise<ExampleRun> {
  const script = join(distDir, `${name}.js`);
  if (!existsSync(script))
    throw new Error(`${script} is missing: build the examples first (pnpm --filter @x/examples build)`);
  const home = await mkdtemp(join(tmpdir(), `x-example-${name}-`));
  // The example runs in a project directory of its own, as a user would: not in HOME, which holds the conversation
  // store (~/.x/conversations), since a sandboxed conversation refuses a workspace that holds its store.
  const project = join(home, 'project');
  await mkdir(project);
  try {
    const child = spawn(process.execPath, [script], {
      cwd: project,
      // TMPDIR too: the temp workspaces the examples make are removed with it.
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, TMPDIR: home, X_HOME: join(home, '.x'), ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    const code = await new Promise<number | null>((resolve, reject) => {
      child.on('error', reject);
      child.on('close', resolve);
    });
    return { code, stdout, stderr, lines: stdout.split('\n').filter((line) => line !== '') };
  } finally {
    await rm(home, { recursive: true, force: true, maxRetries: 5 });
  }
}

/** The example's output, for assertion messages. */
export function describeRun(run: ExampleRun): string {
  return `exit ${run.code}\n--- stdout\n${run.stdout}--- stderr\n${run.stderr}`;
}

/** The text of the `role: tool` messages of a Chat Completions request: what the model was told the tools returned. */
export function toolResults(request: Record<string, unknown> | undefined): string {
  const messages = (request?.messages ?? []) as { role: string; content: unknown }[];
  return JSON.stringify(messages.filter((message) => message.role === 'tool'));
}
