import type { FileStore } from '@x/store';
import { ConversationDamagedError } from './errors/conversation-damaged-error.js';

/**
 * The reference agent-server's meta.json (its `StoredConversation`) does not carry the agent: base_state.json is the
 * agent's only record there, and the execution status lives in the state too. This server keeps both in meta.json
 * (so a listing needs no second read), so a meta.json the reference wrote is completed from base_state.json before it
 * is validated. Fields the reference keeps and this server does not use stay in the object (meta.json is loose), so a
 * later write keeps them for the reference to read back.
 */
export async function completeReferenceMeta(store: FileStore, hex: string, raw: unknown): Promise<unknown> {
  if (!isRecord(raw) || raw.agent !== undefined) return raw;
  const statePath = `${hex}/base_state.json`;
  if (!(await store.exists(statePath))) {
    throw new ConversationDamagedError(
      hex,
      `meta.json has no agent (the reference server's StoredConversation) and there is no base_state.json to take it from`,
    );
  }
  let state: unknown;
  try {
    state = JSON.parse(await store.read(statePath));
  } catch (error) {
    throw new ConversationDamagedError(hex, `base_state.json is not JSON: ${(error as Error).message}`, {
      cause: error,
    });
  }
  if (!isRecord(state) || !isRecord(state.agent)) {
    throw new ConversationDamagedError(hex, 'base_state.json has no agent object to complete meta.json with');
  }
  const completed: Record<string, unknown> = { ...raw, agent: state.agent };
  if (completed.execution_status === undefined && typeof state.execution_status === 'string') {
    completed.execution_status = state.execution_status;
  }
  if (completed.secret_names === undefined) completed.secret_names = secretNames(raw.secrets, state.secret_registry);
  return completed;
}

/**
 * The conversation's secret names: the start request's (the StoredConversation's `secrets`) and those set since. The
 * reference's `POST .../secrets` updates the state's registry only, so those are in base_state.json alone.
 */
function secretNames(requested: unknown, registry: unknown): string[] {
  const sources = isRecord(registry) ? registry.secret_sources : undefined;
  return [...new Set([...keysOf(requested), ...keysOf(sources)])];
}

function keysOf(value: unknown): string[] {
  return isRecord(value) ? Object.keys(value) : [];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
