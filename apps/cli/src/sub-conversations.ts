import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isConversationDir } from './resolve-conversation.js';

/** A sub-agent's conversation, persisted in `<parent>/subagents/<id as 32 hex>/` (the reference's layout). */
export interface SubConversationEntry {
  id: string;
  status: string;
  location: string;
}

/** The sub-conversations persisted beside a conversation directory, by id. */
export function subConversations(location: string): SubConversationEntry[] {
  const dir = join(location, 'subagents');
  let names: string[];
  try {
    names = readdirSync(dir).filter((name) => /^[0-9a-f]{32}$/.test(name) && isConversationDir(join(dir, name)));
  } catch {
    return [];
  }
  return names.sort().map((name) => {
    let base: { id?: unknown; execution_status?: unknown } = {};
    try {
      base = JSON.parse(readFileSync(join(dir, name, 'base_state.json'), 'utf8')) as typeof base;
    } catch {
      base = {};
    }
    return {
      id: typeof base.id === 'string' ? base.id : name,
      status: typeof base.execution_status === 'string' ? base.execution_status : 'unknown',
      location: join(dir, name),
    };
  });
}
