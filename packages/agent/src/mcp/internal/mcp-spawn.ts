import type { PreparedCommand, Sandbox } from '../../sandbox/sandbox.js';
import { type SandboxPolicy, sandboxPolicySchema } from '../../sandbox/sandbox-policy.js';
import type { SandboxAccess } from '../../sandboxing/sandbox-access.js';
import { openDefaultSandbox } from '../../sandboxing/sandbox-opener.js';
import type { McpServerConfig, McpServerSandbox } from '../mcp-config.js';

/** A stdio server's command rewritten for its sandbox, and what to free once the server is stopped. */
export interface McpSpawn {
  prepared: PreparedCommand;
  release(): Promise<void>;
}

/** The conversation's policy with what the server's `sandbox` entry adds (network, paths). */
export function mcpServerPolicy(base: SandboxPolicy, extra: McpServerSandbox): SandboxPolicy {
  return sandboxPolicySchema.parse({
    ...base,
    ...(extra.network === undefined ? {} : { network: extra.network }),
    readablePaths: [...base.readablePaths, ...(extra.readablePaths ?? [])],
    writablePaths: [...base.writablePaths, ...(extra.writablePaths ?? [])],
  });
}

/**
 * Prepares a stdio server's command in the conversation's sandbox; a server whose config widens the policy
 * (`sandbox: { network, readablePaths, writablePaths }`) gets a sandbox of its own with that policy, ended
 * with the server.
 */
export async function prepareMcpSpawn(options: {
  server: McpServerConfig;
  sandbox: SandboxAccess | undefined;
  workspace: string;
  env: Record<string, string>;
}): Promise<McpSpawn> {
  const { server, sandbox, workspace } = options;
  let target: Sandbox;
  let own = true;
  if (sandbox === undefined) {
    const base = sandboxPolicySchema.parse({});
    target = await openDefaultSandbox({
      policy: server.sandbox === undefined ? base : mcpServerPolicy(base, server.sandbox),
      workspace,
    });
  } else if (server.sandbox === undefined) {
    target = await sandbox.get();
    own = false;
  } else {
    target = await sandbox.openWith(mcpServerPolicy(sandbox.policy, server.sandbox));
  }
  let prepared: PreparedCommand;
  try {
    prepared = await target.prepare({
      command: server.command as string,
      args: server.args ?? [],
      cwd: server.cwd ?? workspace,
      env: options.env,
    });
  } catch (error) {
    if (own) await target.dispose().catch(() => undefined);
    throw error;
  }
  return {
    prepared,
    async release() {
      await prepared.release();
      if (own) await target.dispose();
    },
  };
}
