import { createEvent } from '@x/events';
import { describe, expect, it } from 'vitest';
import { agentFinalResponse } from './final-response.js';

const message = (source: 'agent' | 'user', text: string) =>
  createEvent('MessageEvent', {
    source,
    llm_message: { role: source === 'agent' ? 'assistant' : 'user', content: [{ type: 'text', text }] },
  });

describe('agentFinalResponse', () => {
  it('is the message of the last finish call', async () => {
    const finish = createEvent('ActionEvent', {
      source: 'agent',
      thought: [],
      tool_name: 'finish',
      tool_call_id: 'call-1',
      tool_call: { id: 'call-1', name: 'finish', arguments: '{"message":"all done"}', origin: 'completion' },
      llm_response_id: 'r1',
      action: { message: 'all done', kind: 'FinishAction' },
    } as never);
    expect(await agentFinalResponse([message('agent', 'thinking aloud'), finish])).toBe('all done');
  });

  it('is the last agent message, never the user’s task', async () => {
    expect(await agentFinalResponse([message('user', 'do it'), message('agent', 'done it')])).toBe('done it');
    expect(await agentFinalResponse([message('agent', 'first'), message('user', 'follow-up task')])).toBe('first');
    expect(await agentFinalResponse([message('user', 'do it')])).toBe('');
  });
});
