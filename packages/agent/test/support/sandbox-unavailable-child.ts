// Run by sandbox-unavailable-escape.test.ts on a host where bubblewrap cannot create namespaces (inside a
// bubblewrap that forbids them). Tries every entry point that starts a process on the agent's behalf and prints
// one JSON line: for each, the class of the SandboxUnavailableError found (thrown, or along the `cause` chain),
// or what happened instead, and whether the command ran anyway (a marker file it would have written).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import {
  createMcpToolset,
  createSandbox,
  createTerminalTool,
  detectSandboxSupport,
  openDefaultSandbox,
  parseHookConfig,
  runHook,
  runSandboxed,
  SandboxUnavailableError,
  sandboxPolicySchema,
} from '../../src/index.js';

const workspace = process.argv[2] as string;
const marker = (name: string) => join(workspace, `ran-${name}`);

function unavailableIn(error: unknown): string {
  for (let current = error, depth = 0; current !== undefined && current !== null && depth < 8; depth++) {
    if (SandboxUnavailableError.isInstance(current)) return `SandboxUnavailableError(${current.code})`;
    current = (current as { cause?: unknown }).cause;
  }
  return `other: ${error instanceof Error ? `${error.constructor.name}: ${error.message}` : String(error)}`;
}

async function outcome(name: string, attempt: () => Promise<unknown>): Promise<Record<string, unknown>> {
  try {
    const value = await attempt();
    return { name, outcome: `no error: ${JSON.stringify(value)?.slice(0, 300)}`, ran: existsSync(marker(name)) };
  } catch (error) {
    return { name, outcome: unavailableIn(error), ran: existsSync(marker(name)) };
  }
}

const support = await detectSandboxSupport();
const results = [
  await outcome('createSandbox', () => createSandbox({ policy: {}, workspace })),
  await outcome('openDefaultSandbox', async () => {
    const sandbox = await openDefaultSandbox({ policy: sandboxPolicySchema.parse({}), workspace });
    return runSandboxed(sandbox, {
      command: '/bin/sh',
      args: ['-c', `touch ${marker('openDefaultSandbox')}`],
      cwd: workspace,
      env: {},
    });
  }),
  await outcome('terminal', async () => {
    const terminal = createTerminalTool();
    try {
      return await terminal.execute({ command: `touch ${marker('terminal')}`, kind: 'TerminalAction' } as never, {
        workspace,
        conversationId: 'unavailable',
      });
    } finally {
      await terminal.closeAll();
    }
  }),
  await outcome('hook', () => {
    const hook = parseHookConfig({ PreToolUse: [{ hooks: [{ command: `touch ${marker('hook')}`, timeout: 30 }] }] })
      .pre_tool_use[0]?.hooks[0];
    if (hook === undefined) throw new Error('no hook parsed');
    return runHook(
      hook,
      {
        event_type: 'PreToolUse',
        tool_name: 'terminal',
        tool_input: {},
        tool_response: null,
        message: null,
        session_id: 's',
        working_dir: workspace,
        metadata: {},
      },
      { workspace },
    );
  }),
  await outcome('mcpStdio', async () => {
    const toolset = createMcpToolset(
      { mcpServers: { local: { command: '/bin/sh', args: ['-c', `touch ${marker('mcpStdio')}`] } } },
      { workspace, startTimeout: 60 },
    );
    try {
      return await toolset.start();
    } finally {
      await toolset.close();
    }
  }),
  // The explicit opt-out still runs (loudly): the only way on without a sandbox.
  await outcome('unsandboxed', async () => {
    const sandbox = await openDefaultSandbox({
      policy: sandboxPolicySchema.parse({ mode: 'unsandboxed' }),
      workspace,
    });
    const result = await runSandboxed(sandbox, {
      command: '/bin/sh',
      args: ['-c', `touch ${marker('unsandboxed')}`],
      cwd: workspace,
      env: {},
    });
    await sandbox.dispose();
    return result.exitCode;
  }),
];
process.stdout.write(`${JSON.stringify({ support, results })}\n`);
