import type { ConversationManager } from '../../conversations/conversation-manager.js';
import { clientText } from '../../internal/client-text.js';
import type { A2aIncomingMessage, A2aIncomingPart } from './a2a-requests.js';
import { A2aRpcError } from './a2a-rpc-error.js';
import { findTask, taskOf } from './a2a-tasks.js';

/** The media types a message's parts may have: text, and structured data (the card's `defaultInputModes`). */
export const INPUT_MODES = ['text/plain', 'application/json'] as const;

/** The media type every answer has: the response artifact and the agent's messages are text. */
const ANSWER_MODE = 'text/plain';

/**
 * Refuses (-32005) a message whose `acceptedOutputModes` rule out text, the one media type every answer has; an
 * empty list, the any-type wildcard, `text/*` and media-type parameters (`text/plain; charset=utf-8`) accept it.
 */
export function checkOutputModes(accepted: readonly string[] | undefined): void {
  if (accepted === undefined || accepted.length === 0) return;
  const takesText = accepted.some((mode) => {
    const type = mode.split(';')[0]?.trim().toLowerCase();
    return type === ANSWER_MODE || type === 'text/*' || type === '*/*';
  });
  if (takesText) return;
  throw new A2aRpcError(
    'contentTypeNotSupported',
    `configuration.acceptedOutputModes [${accepted.join(', ')}]: this agent answers in ${ANSWER_MODE} (its response artifact and messages), which the client does not accept`,
  );
}

/**
 * What one part gives the agent. Text is taken as it is; a data part becomes a JSON block (the agent reads JSON as
 * well as prose). File parts are refused with ContentTypeNotSupported (-32005) rather than dropped: the agent has no
 * way to read bytes from a message, and fetching a client's URL from the server would reach wherever the client
 * points it.
 */
function partText(part: A2aIncomingPart, index: number): string {
  const where = `message.parts[${index}]`;
  if (part.text !== undefined) return part.text;
  if ('data' in part) {
    const label = part.mediaType === undefined || part.mediaType === '' ? 'application/json' : part.mediaType;
    return `Data (${label}):\n\`\`\`json\n${JSON.stringify(part.data ?? null, null, 2)}\n\`\`\``;
  }
  if (part.raw !== undefined || part.url !== undefined) {
    const kind = part.raw !== undefined ? 'raw bytes' : `a url`;
    const type = part.mediaType === undefined || part.mediaType === '' ? '' : ` of type ${part.mediaType}`;
    const name = part.filename === undefined || part.filename === '' ? '' : ` ('${clientText(part.filename)}')`;
    throw new A2aRpcError(
      'contentTypeNotSupported',
      `${where}: a file part${name}${type} (${kind}) is not supported: this agent reads text and data parts (${INPUT_MODES.join(', ')}); send the file's content as text or data`,
    );
  }
  throw new A2aRpcError('invalidParams', `${where}: a part needs one of text, data, raw or url`);
}

/**
 * The outcome of each task the message references (`referenceTaskIds`), as the agent is told it: the task's
 * state and its final response. An id that names no task is TaskNotFound (-32001), not silently left out.
 */
async function referencesText(manager: ConversationManager, ids: readonly string[]): Promise<string[]> {
  const texts: string[] = [];
  for (const [index, id] of ids.entries()) {
    const conversation = await findTask(manager, id).catch((error: unknown) => {
      if (A2aRpcError.isInstance(error)) {
        throw new A2aRpcError('taskNotFound', `message.referenceTaskIds[${index}]: ${error.message}`);
      }
      throw error;
    });
    const task = await taskOf(conversation);
    const response = task.finalText === undefined || task.finalText === '' ? '(no response yet)' : task.finalText;
    texts.push(`Referenced task ${id} (${task.state}): ${response}`);
  }
  return texts;
}

/**
 * The text the agent gets for an incoming message: its parts in order (blank-line separated), then the outcome of
 * the tasks it references. Empty when the message brings nothing (an answer to a confirmation may).
 */
export async function messageInput(manager: ConversationManager, message: A2aIncomingMessage): Promise<string> {
  const parts = message.parts.map((part, index) => partText(part, index));
  const references = await referencesText(manager, message.referenceTaskIds);
  return [...parts, ...references].filter((text) => text !== '').join('\n\n');
}
