// Time travel: with `workspaceCheckpoints: true` the workspace is captured after every step, so a fork (or a
// navigate, or an edited event) gets the files as they were at that event. Here a task runs, a fork at its
// first tool result continues on another model in its own workspace, `compareConversations` shows where the two
// went, and `editEvent` rewrites the task into a new branch of the original.
//
//   OPENAI_API_KEY=sk-... X_FORK_MODEL=gpt-4o-mini node dist/time-travel.js
import { mkdir, mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, Conversation, compareConversations, defaultTools, resolveLLMFromEnv } from '@x/agent';

const llm = resolveLLMFromEnv(process.env);
const other = resolveLLMFromEnv(process.env, { model: process.env.X_FORK_MODEL ?? 'gpt-4o-mini' });
if (llm === undefined || other === undefined)
  throw new Error('No model configured: set OPENAI_API_KEY (or ANTHROPIC_API_KEY, GEMINI_API_KEY)');
const root = await mkdtemp(join(tmpdir(), 'x-time-travel-example-'));
await mkdir(join(root, 'workspace'));

//#region checkpoints
const conversation = await Conversation.create({
  agent: new Agent({ llm, tools: defaultTools() }),
  workspace: join(root, 'workspace'),
  persistenceDir: join(root, 'conversations'),
  workspaceCheckpoints: true,
});
await conversation.sendMessage('Write a one-line plan into notes.txt, then finish.');
await conversation.run();
const events = await conversation.activeBranch();
const firstResult = events.find((event) => event.kind === 'ObservationEvent');
if (firstResult === undefined) throw new Error('The agent ran no tool');
//#endregion checkpoints

//#region fork
// The fork copies the branch up to the first tool result, and its workspace gets the files of that moment.
const fork = await conversation.fork({
  fromEventId: firstResult.id,
  agent: new Agent({ llm: other, tools: defaultTools() }),
  workspace: join(root, 'fork-workspace'),
});
console.log('fork starts with:', (await readFile(join(fork.workspace, 'notes.txt'), 'utf8')).trim());
await fork.sendMessage('Rewrite notes.txt with a better plan.');
await fork.run();
const comparison = await compareConversations(conversation, fork);
console.log('original:', comparison.a.actions.map((action) => action.tool_name).join(','), comparison.a.status);
console.log('fork:', comparison.b.actions.map((action) => action.tool_name).join(','), comparison.b.status);
console.log('files that differ:', comparison.files_differing?.join(',') ?? 'unknown');
await fork.close();
//#endregion fork

//#region edit
// The original task, reworded: a new branch from the same parent, with the files of that point (none yet).
const task = events.find((event) => event.kind === 'MessageEvent' && event.source === 'user');
if (task === undefined) throw new Error('No task message');
const edited = await conversation.editEvent(task.id, 'Just say hello.');
console.log('edited task is a new event:', edited.id !== task.id, 'same parent:', edited.parent_id === task.parent_id);
await conversation.run();
console.log('status after the edit:', conversation.state.execution_status);
await conversation.close();
//#endregion edit
