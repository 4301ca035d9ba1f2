// Tools the client runs (AG-UI frontend tools, the reference's ClientTool): a call is left pending and the run
// waits; the client's result comes back as a `substitute` decision and the run goes on with it.
import type { ActionEvent } from '@x/events';
import { afterEach, describe, expect, it } from 'vitest';
import { createClientTool, InvalidToolError } from '../src/index.js';
import { type Harness, startHarness } from './support/harness.js';

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const pickColor = createClientTool({
  name: 'pick_color',
  description: 'Asks the user to pick a color in the browser',
  parameters: { type: 'object', properties: { palette: { type: 'string', enum: ['warm', 'cold'] } } },
});

describe('client tools', () => {
  it('offers the tool, leaves its call pending, and continues with the substituted result', async () => {
    const h = await startHarness([
      { toolCalls: [{ id: 'call_pick', name: 'pick_color', arguments: { palette: 'warm' } }] },
      { toolCalls: [{ name: 'finish', arguments: { message: 'You picked red.' } }] },
    ]);
    harness = h;
    let tools = [pickColor];
    const { conversation, events } = await h.conversation({ clientTools: () => tools });
    await conversation.sendMessage('Pick a color');
    await conversation.run();

    const chatTools = (h.server.requests[0]?.tools ?? []) as { function: { name: string; parameters: unknown } }[];
    const offered = chatTools.find((tool) => tool.function.name === 'pick_color');
    expect(offered?.function.parameters).toMatchObject({ properties: { palette: { enum: ['warm', 'cold'] } } });
    expect(conversation.state.execution_status).toBe('waiting_for_confirmation');
    const [pending] = await conversation.pendingActions();
    expect(pending).toMatchObject({ tool_call_id: 'call_pick', action: { kind: 'ClientAction_pick_color' } });
    expect(events.some((event) => event.kind === 'ObservationEvent')).toBe(false);

    // Running again without the result changes nothing: the call is the client's.
    await conversation.run();
    expect(conversation.state.execution_status).toBe('waiting_for_confirmation');
    expect(h.server.requests).toHaveLength(1);

    await conversation.decide(
      [{ action_id: (pending as ActionEvent).id, decision: { kind: 'substitute', result: { content: 'red' } } }],
      { principal: 'client' },
    );
    tools = [];
    await conversation.run();
    const observation = events.find((event) => event.kind === 'ObservationEvent');
    expect(observation).toMatchObject({
      tool_call_id: 'call_pick',
      observation: { kind: 'ClientToolObservation', content: [{ type: 'text', text: 'red' }] },
    });
    expect(conversation.state.execution_status).toBe('finished');
    expect(JSON.stringify(h.server.requests[1]?.messages)).toContain('red');
  });

  it('sends a user message with extended content for the model, recorded on the event', async () => {
    const h = await startHarness([{ toolCalls: [{ name: 'finish', arguments: { message: 'ok' } }] }]);
    harness = h;
    const { conversation, events } = await h.conversation();
    const extra = { cache_prompt: false, type: 'text' as const, text: '<context>page: /checkout</context>' };
    await conversation.sendMessage('Hi', { extendedContent: [extra] });
    await conversation.run();
    const message = events.find((event) => event.kind === 'MessageEvent' && event.source === 'user');
    expect(message).toMatchObject({ extended_content: [extra] });
    expect(JSON.stringify(h.server.requests[0]?.messages)).toContain('page: /checkout');
    expect(conversation.toolNames.has('finish')).toBe(true);
  });

  it('refuses a tool that is not an object schema or has a bad name', () => {
    expect(() => createClientTool({ name: 'a b', description: '' })).toThrow(InvalidToolError);
    // One readable line naming the field, not zod's issues as JSON.
    expect(() => createClientTool({ name: 'a b', description: '' })).toThrow(
      /^Client tool 'a b' is invalid: name: [^\n{[]+$/,
    );
    expect(() => createClientTool({ name: 'ok', description: '', parameters: { type: 'string' } })).toThrow(
      /object JSON Schema/,
    );
  });
});
