import {
  type AnyEvent,
  agentMessage,
  createActionEvent,
  createConversationErrorEvent,
  createObservationEvent,
  createSystemPromptEvent,
  text,
  userMessage,
} from '@x/events';
import { describe, expect, it } from 'vitest';
import { durationUnder, evalRunFromEvents, filesWithin, noErrors } from '../src/index.js';

// Events built in memory: the paths a file editor is given, as a model writes them (absolute or relative).

function fileEditor(command: string, path: string) {
  return createActionEvent({
    tool_call: { id: `call-${command}-${path}`, name: 'file_editor', arguments: '{}', origin: 'completion' },
    llm_response_id: `response-${command}-${path}`,
    action: { kind: 'FileEditorAction', command, path },
  });
}

const workspace = '/tmp/x-eval-workspace';
const events = [
  createSystemPromptEvent({ system_prompt: 'You help.' }),
  userMessage('Write the notes'),
  fileEditor('create', `${workspace}/notes/today.txt`),
  fileEditor('str_replace', './notes/plan.txt'),
  fileEditor('view', `${workspace}/secret.txt`),
  fileEditor('create', '/etc/motd'),
  fileEditor('create', workspace),
  // A sibling whose name starts with the workspace's is outside it, and a relative path is normalized.
  fileEditor('create', `${workspace}-old/notes.txt`),
  fileEditor('create', 'notes//draft.txt/'),
];

describe('the files an EvalRun says were written', () => {
  it('makes absolute paths inside the workspace relative to it, leaves reads out and keeps paths outside it', async () => {
    const run = await evalRunFromEvents(events, { workspace });
    expect(run.filesWritten).toEqual([
      'notes/today.txt',
      'notes/plan.txt',
      '/etc/motd',
      '.',
      `${workspace}-old/notes.txt`,
      'notes/draft.txt',
    ]);
    const verdict = await filesWithin(['notes']).score(run, {});
    expect(verdict.passed).toBe(false);
    expect(verdict.detail).toBe(`written outside notes: /etc/motd, ., ${workspace}-old/notes.txt`);
  });

  it('keeps absolute paths as they are when the workspace is not known', async () => {
    const run = await evalRunFromEvents(events.slice(0, 4));
    expect(run.filesWritten).toEqual([`${workspace}/notes/today.txt`, 'notes/plan.txt']);
    expect((await filesWithin(['notes']).score(run, {})).passed).toBe(false);
  });
});

function at(event: AnyEvent, timestamp: string): AnyEvent {
  return { ...event, timestamp };
}

describe('the errors and duration of an EvalRun', () => {
  const edit = fileEditor('create', 'notes.txt');
  const failed = createObservationEvent({
    action: edit,
    observation: { kind: 'FileEditorObservation', content: [text('no such directory')], is_error: true },
  });

  it('counts a tool observation marked as an error, and takes the duration from the first event to the last', async () => {
    const run = await evalRunFromEvents([
      at(userMessage('Write the notes'), '2026-01-01T10:00:00.000000'),
      at(edit, '2026-01-01T10:00:01.500000'),
      at(failed, '2026-01-01T10:00:02.000000'),
      at(agentMessage('I could not.'), '2026-01-01T10:00:07.250000'),
    ]);
    expect(run.errors).toEqual(['file_editor observation marked as an error']);
    expect(run.durationSeconds).toBeCloseTo(7.25, 6);
    expect((await noErrors().score(run, {})).passed).toBe(false);
    expect((await durationUnder(7).score(run, {})).passed).toBe(false);
    expect((await durationUnder(7.5).score(run, {})).passed).toBe(true);
  });

  it('counts a conversation error, and says the conversation ended in error', async () => {
    const run = await evalRunFromEvents([
      userMessage('Write the notes'),
      createConversationErrorEvent({ code: 'llm_error', detail: 'the model is down' }),
    ]);
    expect(run.status).toBe('error');
    expect(run.errors).toEqual(['llm_error: the model is down', 'the conversation ended error']);
  });
});
