import type { StartConversationRequest } from '../../api/request-schemas.js';
import { type ServerToolName, serverToolName } from '../../api/tool-names.js';
import { A2A_PATH, AGENT_CARD_PATH } from '../face-paths.js';
import { A2A_PROTOCOL_VERSION } from './a2a-types.js';
import { INPUT_MODES } from './message-input.js';

export { A2A_PATH, AGENT_CARD_PATH };

/** What the built-in tools let a task do, as the card's skills (`finish` and `think` are every agent's, not skills). */
const TOOL_SKILLS: Partial<Record<ServerToolName, { name: string; description: string; tags: string[] }>> = {
  terminal: {
    name: 'Terminal',
    description: 'Runs shell commands in the conversation workspace and reads their output',
    tags: ['shell', 'commands'],
  },
  file_editor: {
    name: 'File editor',
    description: 'Views, creates and edits files in the conversation workspace',
    tags: ['files', 'editing'],
  },
  task_tracker: { name: 'Task tracker', description: 'Plans and tracks the steps of a task', tags: ['planning'] },
  apply_patch: {
    name: 'Patch applier',
    description: 'Applies multi-file patches to the conversation workspace',
    tags: ['files', 'editing'],
  },
  glob: {
    name: 'Glob',
    description: 'Finds files in the conversation workspace by name pattern',
    tags: ['files', 'search'],
  },
  grep: {
    name: 'Grep',
    description: 'Searches file contents in the conversation workspace',
    tags: ['files', 'search'],
  },
  delegate: { name: 'Delegation', description: 'Hands sub-tasks to sub-agents', tags: ['sub-agents'] },
};

export interface AgentCardOptions {
  /** The server's base URL as the client reached it (`http://host:port`). */
  baseUrl: string;
  version: string;
  /** The create body of tasks that do not bring one: its tools are the card's skills. */
  defaultConversation?: StartConversationRequest | undefined;
  /** Whether the JSON-RPC endpoint wants the session key. */
  requiresKey: boolean;
}

/**
 * The agent card (A2A v1.0, protobuf JSON): one JSON-RPC interface, streaming, no push notifications, no
 * extended card; signed when the server has a signing key (see `signAgentCard`). Skills are the tools of the default conversation, or every built-in tool when tasks
 * bring their own agent.
 */
export function agentCard(options: AgentCardOptions): Record<string, unknown> {
  const configured = options.defaultConversation?.agent.tools?.map((tool) => {
    const name = (tool as { name: string }).name;
    // Class names become the registry name they stand for; the table compares its own strings, so a tool named
    // `constructor` or `toString` stays that tool.
    return serverToolName(name) ?? name;
  });
  // One skill per tool: a tool configured twice, or by both its spellings, is one skill (a card's skill ids are unique).
  const tools = [...new Set(configured ?? Object.keys(TOOL_SKILLS))];
  const skills = tools.map((tool) => {
    const known = Object.hasOwn(TOOL_SKILLS, tool) ? TOOL_SKILLS[tool as ServerToolName] : undefined;
    return {
      id: tool,
      name: known?.name ?? tool,
      description: known?.description ?? `The ${tool} tool`,
      tags: known?.tags ?? ['tool'],
    };
  });
  return {
    name: 'x agent server',
    description:
      'An @x agent: each task is a conversation with an LLM agent that uses tools in its workspace, recorded as an event log',
    version: options.version,
    supportedInterfaces: [
      { url: `${options.baseUrl}${A2A_PATH}`, protocolBinding: 'JSONRPC', protocolVersion: A2A_PROTOCOL_VERSION },
    ],
    capabilities: { streaming: true, pushNotifications: false, extendedAgentCard: false },
    defaultInputModes: [...INPUT_MODES],
    defaultOutputModes: ['text/plain', 'application/json'],
    skills,
    ...(options.requiresKey
      ? {
          securitySchemes: {
            sessionKey: {
              apiKeySecurityScheme: {
                location: 'header',
                name: 'X-Session-API-Key',
                description: "The server's session key",
              },
            },
          },
          securityRequirements: [{ schemes: { sessionKey: { list: [] } } }],
        }
      : {}),
  };
}
