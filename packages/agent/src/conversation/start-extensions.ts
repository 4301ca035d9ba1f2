import { type AnyEvent, createEvent, type Message, type MessageEvent, type TextContent } from '@x/events';
import type { Agent } from '../agent/agent.js';
import type { SandboxAccess } from '../sandboxing/sandbox-access.js';

/**
 * Starts the agent's MCP servers and skills for a conversation and records each failure (a server that is missing,
 * hangs or answers garbage; a skill file with broken frontmatter) as a ConversationErrorEvent: the conversation
 * goes on without that server or file.
 */
export async function startExtensions(
  agent: Agent,
  workspace: string,
  emit: (event: AnyEvent) => Promise<void>,
  sandbox?: SandboxAccess,
): Promise<void> {
  const { errors } = await agent.startExtensions(workspace, sandbox);
  for (const error of errors) {
    await emit(
      createEvent('ConversationErrorEvent', { source: 'environment', code: error.name, detail: error.message }),
    );
  }
}

/**
 * A user MessageEvent with the skills its text activates (`extended_content`, `activated_skills`), then the caller's
 * `extendedContent`.
 */
export function userMessageEvent(
  agent: Agent,
  message: Message,
  options: { sender?: string; extendedContent?: readonly TextContent[]; id?: string; activated: Set<string> },
): MessageEvent {
  const activation = agent.extensions.activateSkills(message, options.activated);
  for (const name of activation?.activatedSkills ?? []) options.activated.add(name);
  const extended = [...(activation?.extendedContent ?? []), ...(options.extendedContent ?? [])];
  return createEvent('MessageEvent', {
    source: 'user',
    llm_message: message,
    ...(activation === undefined || activation.activatedSkills.length === 0
      ? {}
      : { activated_skills: activation.activatedSkills }),
    ...(extended.length === 0 ? {} : { extended_content: extended }),
    ...(options.sender === undefined ? {} : { sender: options.sender }),
    ...(options.id === undefined ? {} : { id: options.id }),
  });
}
