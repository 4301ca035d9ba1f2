import { join } from 'node:path';
import { buildBaseState } from './base-state.js';
import type { ConversationParts, PartsOwner } from './conversation-parts.js';

/** Writes base_state.json for the state as folded now (held stats updates not included: see `checkpointConversation`). */
export async function writeBaseState(owner: PartsOwner, parts: ConversationParts): Promise<void> {
  const { secrets, cipher } = parts;
  const json = buildBaseState({
    state: owner.state,
    agent: withSwitchedLLM(owner.agent.toJSON(), parts.model.switched),
    workspace: owner.workspace,
    // The reference records the conversation's own directory (`get_persistence_dir`: base / id hex) and, resuming,
    // derives from it where observations are saved, where forks go (its parent) and the hooks' directory.
    persistenceDir: join(parts.persistenceDir, owner.directory),
    securityAnalyzer: parts.security.setting,
    secretRegistry: secrets.toJSON(cipher === undefined ? {} : { cipher }) as Record<string, unknown>,
    hookConfig: parts.extensions.hookConfigJSON(),
    activatedSkills: parts.extensions.activatedSkills,
    recorded: parts.recordedBaseState,
  });
  // Durable even for the run's periodic checkpoints (not `writeRebuildable`, unlike the view checkpoint): the file
  // also holds what no event records (the creation's confirmation policy, max_iterations and stuck_detection, the
  // secrets, the security analyzer), and an unsynced rename can leave it empty after a power loss, which makes
  // the conversation unopenable (CorruptConversationError) and those settings unrecoverable (issue 33, item 6).
  // Fenced by the run's lease: a stale owner (paused across a takeover) is refused (LeaseLostError) rather than
  // overwrite the new owner's file.
  await parts.ownership.write(owner.store, `${owner.directory}/base_state.json`, JSON.stringify(json));
}

/** The agent's JSON with the model `switchLLM` set, when it set one (what the next step calls). */
function withSwitchedLLM(agent: Record<string, unknown>, llm: ConversationParts['model']['switched']) {
  if (llm === undefined) return agent;
  return { ...agent, llm: { model: llm.model, api_key: '**********', usage_id: llm.usageId } };
}
