import {
  type AnyEvent,
  agentMessage,
  createActionEvent,
  createAgentErrorEvent,
  createConversationStateUpdateEvent,
  createObservationEvent,
  createSystemPromptEvent,
  createUserRejectObservation,
  text,
  userMessage,
} from '@x/events';
import { describe, expect, it } from 'vitest';
import type { CheckpointManifest } from '../src/checkpoints/checkpoint-manifest.js';
import type { WorkspaceCheckpoints } from '../src/checkpoints/workspace-checkpoints.js';
import type { ComparableConversation } from '../src/compare/compare-conversations.js';
import { compareConversations, diffManifests } from '../src/index.js';
import type { ConversationState } from '../src/state/conversation-state.js';

// Conversations built from events in memory, so every count of the comparison can be stated exactly.

function action(tool: string, fields: { action: Record<string, unknown>; summary?: string; response?: string }) {
  return createActionEvent({
    tool_call: { id: `call-${tool}`, name: tool, arguments: '{}', origin: 'completion' },
    llm_response_id: fields.response ?? `response-${tool}`,
    action: { kind: 'CustomAction', ...fields.action },
    ...(fields.summary === undefined ? {} : { summary: fields.summary }),
  });
}

function observe(of: ReturnType<typeof action>) {
  return createObservationEvent({ action: of, observation: { kind: 'CustomObservation', content: [text('ok')] } });
}

interface Usage {
  cost: number;
  prompt: number;
  completion: number;
}

/** Checkpoints answering from a table: the checkpoint each event id stands at, and each checkpoint's tree. */
function checkpointsOf(
  enabled: boolean,
  byEvent: Record<string, string> = {},
  trees: Record<string, CheckpointManifest> = {},
): WorkspaceCheckpoints {
  return {
    enabled,
    at: async (eventId: string | null) => {
      const checkpoint = eventId === null ? undefined : byEvent[eventId];
      return checkpoint === undefined ? undefined : { checkpoint_id: checkpoint, event_id: eventId };
    },
    manifest: async (id: string) => trees[id]!,
  } as unknown as WorkspaceCheckpoints;
}

function conversation(
  id: string,
  events: AnyEvent[],
  options: { usage?: Record<string, Usage>; status?: string; checkpoints?: WorkspaceCheckpoints } = {},
): ComparableConversation {
  const usage_to_metrics = Object.fromEntries(
    Object.entries(options.usage ?? {}).map(([usageId, { cost, prompt, completion }]) => [
      usageId,
      {
        accumulated_cost: cost,
        accumulated_token_usage: { prompt_tokens: prompt, completion_tokens: completion },
      },
    ]),
  );
  return {
    id,
    state: {
      stats: { usage_to_metrics },
      execution_status: options.status ?? 'finished',
    } as unknown as ConversationState,
    checkpoints: options.checkpoints ?? checkpointsOf(false),
    activeBranch: async () => events,
  };
}

function tree(files: Record<string, string>, symlinks: Record<string, string> = {}): CheckpointManifest {
  return {
    version: 1,
    files: Object.entries(files).map(([path, digit]) => ({
      path,
      sha256: digit.repeat(64),
      size: 1,
      mtime_ms: 0,
      mode: 0o644,
    })),
    symlinks: Object.entries(symlinks).map(([path, target]) => ({ path, target })),
    skipped: [],
  };
}

const system = createSystemPromptEvent({ system_prompt: 'You help.' });
const task = userMessage('Do the thing');

describe('compareConversations, counting each branch after the shared events', () => {
  it('counts actions, observations, errors and model responses of each side exactly', async () => {
    const edit = action('file_editor', { action: { path: 'src/a.ts' }, response: 'r1' });
    const run = action('terminal', { action: { command: 'npm test' }, summary: 'run the tests', response: 'r1' });
    const rejected = action('terminal', { action: { command: 'rm -rf /' }, response: 'r2' });
    const finish = action('finish', { action: { message: 'All done.' }, response: 'r3' });
    const a = conversation(
      'a',
      [
        system,
        task,
        edit,
        observe(edit),
        createConversationStateUpdateEvent({ key: 'execution_status', value: 'running' }),
        run,
        observe(run),
        rejected,
        createUserRejectObservation({ action: rejected }),
        createAgentErrorEvent({ tool_name: 'terminal', tool_call_id: 'c', error: 'bad arguments' }),
        agentMessage('Thinking aloud, no response id'),
        finish,
        userMessage('Thanks'),
      ],
      {
        usage: {
          agent: { cost: 0.25, prompt: 100, completion: 20 },
          condenser: { cost: 0.5, prompt: 7, completion: 3 },
        },
        status: 'finished',
      },
    );
    const b = conversation('b', [system, task], { status: 'idle' });
    const comparison = await compareConversations(a, b);
    expect(comparison.common_event_id).toBe(task.id);
    expect(comparison.common_events).toBe(2);
    expect(comparison.a).toMatchObject({
      conversation_id: 'a',
      // 10 events after the shared two, the state update not counted.
      events: 10,
      observations: 2,
      errors: 2,
      responses: 3,
      tokens: 130,
      cost: 0.75,
      status: 'finished',
      final_message: 'All done.',
      files_changed: undefined,
    });
    expect(comparison.a.actions).toEqual([
      { event_id: edit.id, tool_name: 'file_editor', summary: 'src/a.ts' },
      { event_id: run.id, tool_name: 'terminal', summary: 'run the tests' },
      { event_id: rejected.id, tool_name: 'terminal', summary: 'rm -rf /' },
      { event_id: finish.id, tool_name: 'finish', summary: 'All done.' },
    ]);
    expect(comparison.b).toMatchObject({
      events: 0,
      actions: [],
      observations: 0,
      errors: 0,
      responses: 0,
      tokens: 0,
      cost: 0,
      status: 'idle',
      final_message: undefined,
    });
    expect(comparison.files_differing).toBeUndefined();
  });

  it('takes the final message from the last agent reply, not from other tools or the user', async () => {
    const note = action('note', { action: { message: 'a note, not an answer' } });
    const long = action('terminal', { action: { command: `echo ${'x'.repeat(100)}` } });
    const reply = agentMessage('Here is the answer.', 'r9');
    const a = conversation('a', [system, task, reply, note, long, userMessage('ok')]);
    const comparison = await compareConversations(a, conversation('b', [system, task]));
    expect(comparison.a.final_message).toBe('Here is the answer.');
    expect(comparison.a.responses).toBe(3);
    // A summary made from the command is cut at 80 characters.
    expect(comparison.a.actions[1]?.summary).toBe(`echo ${'x'.repeat(75)}`);
  });

  it('keeps the last reply that says something when a later one is blank (a turn of reasoning only)', async () => {
    const answer = agentMessage('The answer is 4.', 'r1');
    const blank = agentMessage(' \n ', 'r2');
    const comparison = await compareConversations(
      conversation('a', [system, task, answer, blank]),
      conversation('b', [system, task, blank]),
    );
    expect(comparison.a.final_message).toBe('The answer is 4.');
    expect(comparison.a.responses).toBe(2);
    expect(comparison.b.final_message).toBeUndefined();
  });

  it('shares nothing with an unrelated conversation, and everything with an identical one', async () => {
    const otherSystem = createSystemPromptEvent({ system_prompt: 'Another.' });
    const unrelated = await compareConversations(
      conversation('a', [system, task, agentMessage('A.')]),
      conversation('b', [otherSystem, userMessage('Else'), agentMessage('B.')]),
    );
    expect(unrelated.common_event_id).toBeUndefined();
    expect(unrelated.common_events).toBe(0);
    expect([unrelated.a.events, unrelated.b.events]).toEqual([3, 3]);
    expect([unrelated.a.final_message, unrelated.b.final_message]).toEqual(['A.', 'B.']);

    const events = [system, task, agentMessage('Same.')];
    const same = await compareConversations(conversation('a', events), conversation('b', [...events]));
    expect(same.common_events).toBe(3);
    expect(same.common_event_id).toBe(events[2]!.id);
    expect([same.a.events, same.b.events]).toEqual([0, 0]);
  });

  it('compares a branch with one that stopped at an event of it, either way round', async () => {
    const reply = agentMessage('Later.', 'r1');
    const longer = conversation('long', [system, task, reply]);
    const shorter = conversation('short', [system, task]);
    const forward = await compareConversations(longer, shorter);
    expect(forward.common_event_id).toBe(task.id);
    expect([forward.a.events, forward.b.events]).toEqual([1, 0]);
    const backward = await compareConversations(shorter, longer);
    expect(backward.common_event_id).toBe(task.id);
    expect([backward.a.events, backward.b.events]).toEqual([0, 1]);
  });
});

describe('compareConversations with workspace checkpoints', () => {
  const first = action('terminal', { action: { command: 'one' } });
  const second = action('terminal', { action: { command: 'two' } });
  const other = action('terminal', { action: { command: 'other' } });
  const trees = {
    shared: tree({ 'keep.txt': 'a', 'edit.txt': 'b', 'drop.txt': 'c' }),
    early: tree({ 'keep.txt': 'a', 'edit.txt': 'b', 'drop.txt': 'c', 'early.txt': 'd' }),
    late: tree({ 'keep.txt': 'a', 'edit.txt': 'e', 'new.txt': 'f' }),
    fork: tree({ 'keep.txt': 'a', 'edit.txt': 'b', 'drop.txt': 'c' }, { link: 'keep.txt' }),
  };

  it('diffs each side from the shared checkpoint to its head, and the two heads with each other', async () => {
    const a = conversation('a', [system, task, first, second], {
      checkpoints: checkpointsOf(true, { [task.id]: 'shared', [first.id]: 'early', [second.id]: 'late' }, trees),
    });
    const b = conversation('b', [system, task, other], {
      checkpoints: checkpointsOf(true, { [task.id]: 'shared', [other.id]: 'fork' }, trees),
    });
    const comparison = await compareConversations(a, b);
    // From the head (the last event), not the first event after the shared point.
    expect(comparison.a.files_changed).toEqual({ added: ['new.txt'], modified: ['edit.txt'], removed: ['drop.txt'] });
    expect(comparison.b.files_changed).toEqual({ added: ['link'], modified: [], removed: [] });
    expect(comparison.files_differing).toEqual(['drop.txt', 'edit.txt', 'link', 'new.txt']);
  });

  it('reads checkpoints recorded earlier even when they are off now, and gives no file diff without them', async () => {
    const recorded = conversation('a', [system, task, first], {
      checkpoints: checkpointsOf(false, { [task.id]: 'shared', [first.id]: 'early' }, trees),
    });
    const without = conversation('b', [system, task, other]);
    const comparison = await compareConversations(recorded, without);
    expect(comparison.a.files_changed).toEqual({ added: ['early.txt'], modified: [], removed: [] });
    expect(comparison.b.files_changed).toBeUndefined();
    // Without checkpoints on both sides the heads cannot be compared, whichever side lacks them.
    expect(comparison.files_differing).toBeUndefined();
    expect((await compareConversations(without, recorded)).files_differing).toBeUndefined();
  });
});

describe('diffManifests', () => {
  it('tells added, modified and removed paths apart, by content and mode, links included, sorted', () => {
    const before = tree({ 'b.txt': '1', 'a.txt': '2', 'gone.txt': '3' }, { l2: 'x', l1: 'y' });
    const after = tree({ 'b.txt': '1', 'a.txt': '9', 'z.txt': '4', 'm.txt': '5' }, { l2: 'x', l1: 'z' });
    after.files[0] = { ...after.files[0]!, mode: 0o755 };
    expect(diffManifests(before, after)).toEqual({
      added: ['m.txt', 'z.txt'],
      modified: ['a.txt', 'b.txt', 'l1'],
      removed: ['gone.txt'],
    });
    expect(diffManifests(undefined, tree({ 'y.txt': '1', 'x.txt': '2' }))).toEqual({
      added: ['x.txt', 'y.txt'],
      modified: [],
      removed: [],
    });
    expect(diffManifests(tree({ 'x.txt': '1' }), undefined)).toEqual({ added: [], modified: [], removed: ['x.txt'] });
    expect(diffManifests(before, before)).toEqual({ added: [], modified: [], removed: [] });
  });
});
