import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import type { CliContext } from '../context.js';
import { expandHome, resolveDataDir } from '../data-dir.js';
import { NoModelError } from '../errors/no-model-error.js';
import { UsageError } from '../errors/usage-error.js';
import { LocalMcpHost } from '../mcp/local-mcp-host.js';
import { chooseModel } from '../run/choose-model.js';
import { type SandboxFlags, sandboxPolicyOfFlags } from '../run/sandbox-options.js';
import { warnedOpener } from './run.js';

export interface McpCommandOptions {
  workspace?: string;
  dataDir?: string;
  model?: string;
  baseUrl?: string;
  provider?: string;
  confirm?: 'never' | 'always' | 'risky';
  maxIterations?: number;
  sandbox?: boolean;
  allowNetwork?: boolean | string;
  allowPrivateNetworks?: boolean;
  allowRead?: string[];
  allowWrite?: string[];
  unsandboxed?: boolean;
  sandboxLimit?: SandboxFlags['sandboxLimit'];
}

const POLICIES = {
  never: { kind: 'NeverConfirm' },
  always: { kind: 'AlwaysConfirm' },
  risky: { kind: 'ConfirmRisky', threshold: 'HIGH', confirm_unknown: true },
} as const;

/**
 * `x mcp`: the MCP face of x on stdin/stdout, for MCP clients that start their servers as processes. Its
 * conversations live in the data directory and run on what `x run` would use: the model from the environment and
 * flags, the workspace, the sandbox policy. stdout carries only the protocol; anything for people goes to stderr.
 * Returns when the client closes stdin, after pausing the runs still going.
 */
export async function mcpCommand(context: CliContext, options: McpCommandOptions): Promise<number> {
  const sandbox = sandboxPolicyOfFlags(options);
  const agentModule = await import('@x/agent');
  const serverModule = await import('@x/server');
  const model = chooseModel(agentModule, {
    demo: false,
    model: options.model,
    baseUrl: options.baseUrl,
    provider: options.provider,
    env: context.env,
  });
  if (model.kind === 'offline') throw new NoModelError();
  const workspace = resolve(expandHome(options.workspace ?? process.cwd()));
  const { existsSync, statSync } = await import('node:fs');
  if (!existsSync(workspace) || !statSync(workspace).isDirectory()) {
    throw new UsageError(`The workspace ${workspace} is not a directory.`);
  }
  const warn = (message: string): void => context.output.error(context.output.errorColors.yellow(`x mcp: ${message}`));
  const host = new LocalMcpHost({
    agentModule,
    serverModule,
    dataDir: resolveDataDir(options.dataDir, context.env),
    conversationOptions: {
      agent: agentModule.createAgent({ llm: model.llm }),
      workspace,
      ...(sandbox === undefined ? {} : { sandbox }),
      ...(sandbox?.mode === 'unsandboxed' ? { openSandbox: warnedOpener(agentModule, context.output) } : {}),
      ...(options.maxIterations === undefined ? {} : { maxIterationsPerRun: options.maxIterations }),
    },
    ...(options.confirm === undefined ? {} : { confirmationPolicy: POLICIES[options.confirm] }),
    warn,
  });
  const { version } = createRequire(import.meta.url)('../../package.json') as { version: string };
  const server = await serverModule.serveMcpOverStdio(host, {
    name: 'x',
    version,
    onUnexpectedError: (error, tool) =>
      warn(`${tool} failed: ${error instanceof Error ? error.message : String(error)}`),
  });
  const stop = (): void => void server.close();
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  try {
    await server.closed;
  } finally {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
    await host.close();
  }
  return 0;
}
