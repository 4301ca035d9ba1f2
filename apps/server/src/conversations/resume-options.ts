import type { Agent, ConversationOptions } from '@x/agent';
import { buildAgent, buildAgents } from './build-agent.js';
import { hooksOfRequest } from './conversation-hooks.js';
import type { ConversationMeta } from './conversation-meta.js';
import { ConversationDamagedError } from './errors/conversation-damaged-error.js';
import type { ManagedConversationDeps } from './managed-conversation-deps.js';
import { storedApprovalRules } from './stored-approval-rules.js';

/**
 * The options a server conversation is resumed with, rebuilt from its meta.json (the agent, the handoff targets,
 * hooks, sandbox policy, approval rules, checkpoints) and the server's settings. An agent that no longer builds
 * makes the conversation damaged (409), naming why.
 */
export function resumeOptions(
  id: string,
  meta: ConversationMeta,
  deps: ManagedConversationDeps,
): Omit<ConversationOptions, 'id'> {
  const keys = { cipher: deps.cipher, serverApiKey: deps.serverApiKey, stored: true } as const;
  let agent: Agent;
  try {
    agent = buildAgent(meta.agent, keys);
  } catch (error) {
    throw new ConversationDamagedError(id, `its agent cannot be built: ${(error as Error).message}`, { cause: error });
  }
  const agents = buildAgents(meta.agents, keys);
  const hooks = hooksOfRequest(meta.hook_config);
  return {
    agent,
    workspace: meta.workspace.working_dir,
    store: deps.store,
    persistenceDir: deps.persistenceDir,
    maxIterationsPerRun: meta.max_iterations,
    stuckDetection: meta.stuck_detection,
    workspaceCheckpoints: meta.workspace_checkpoints,
    ...(deps.secretKey === undefined ? {} : { secretKey: deps.secretKey }),
    ...(hooks === undefined ? {} : { hooks }),
    // The policy it was created with (meta.json), under what the server allows now (--unsandboxed).
    sandbox: deps.sandboxing.storedPolicy(meta.sandbox),
    openSandbox: deps.sandboxing.open,
    ...(meta.approval_rules ? { approvalRules: storedApprovalRules(meta.approval_rules) } : {}),
    ...(deps.signingKey === undefined ? {} : { signingKey: deps.signingKey }),
    ...(agents === undefined ? {} : { agents }),
    clientTools: () => deps.clientTools.get(id),
    ...(deps.openEventLog === undefined ? {} : { openEventLog: deps.openEventLog }),
    ...deps.shared,
  };
}
