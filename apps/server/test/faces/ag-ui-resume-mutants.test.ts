// What a run input's `resume` answers decide (`confirmationDecision`, pure), and the run input's schema refusing
// empty identifiers: AG-UI ids are non-empty strings, and an empty one could never name a thread, run, message,
// tool or interrupt of this server.
import { describe, expect, it } from 'vitest';
import { agUiRunInputSchema, confirmationDecision } from '../../src/faces/ag-ui/run-input.js';

const entry = (status: 'resolved' | 'cancelled', payload?: unknown) => ({
  interruptId: 'action-1',
  status,
  ...(payload === undefined ? {} : { payload }),
});

describe('confirmationDecision', () => {
  it('approves only an explicit approval, keeping a refusal’s reason', () => {
    expect(confirmationDecision(entry('resolved', { approved: true }))).toEqual({ approved: true });
    expect(confirmationDecision(entry('resolved', true))).toEqual({ approved: true });
    expect(confirmationDecision(entry('resolved', false))).toEqual({ approved: false });
    expect(confirmationDecision(entry('resolved', { approved: false, reason: 'not today' }))).toEqual({
      approved: false,
      reason: 'not today',
    });
    expect(confirmationDecision(entry('resolved', { approved: 'yes', reason: 7 }))).toEqual({ approved: false });
  });

  it('rejects a cancelled confirmation, and one answered without a decision, saying why', () => {
    expect(confirmationDecision(entry('cancelled', { approved: true }))).toEqual({
      approved: false,
      reason: 'The user cancelled the confirmation',
    });
    for (const payload of [undefined, null, 'approve']) {
      expect(confirmationDecision(entry('resolved', payload))).toEqual({
        approved: false,
        reason: 'The confirmation was answered without a decision',
      });
    }
  });
});

describe('agUiRunInputSchema', () => {
  const valid = {
    threadId: 't',
    runId: 'r',
    messages: [{ id: 'm', role: 'user', content: 'Hi' }],
    tools: [{ name: 'pick_color' }],
    resume: [{ interruptId: 'i', status: 'resolved' }],
  };

  it('takes a run input whose identifiers are non-empty, and refuses each one left empty', () => {
    expect(agUiRunInputSchema.safeParse(valid).success).toBe(true);
    const emptied = [
      { ...valid, threadId: '' },
      { ...valid, runId: '' },
      { ...valid, messages: [{ ...valid.messages[0], id: '' }] },
      { ...valid, tools: [{ name: '' }] },
      { ...valid, resume: [{ interruptId: '', status: 'resolved' }] },
    ];
    for (const input of emptied) expect(agUiRunInputSchema.safeParse(input).success).toBe(false);
  });
});
