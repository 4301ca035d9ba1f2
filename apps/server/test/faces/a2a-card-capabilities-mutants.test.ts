// What the agent card declares it can do, as the official client reads it: streaming, and neither push
// notifications nor an extended card (each of which the JSON-RPC face refuses), with text and JSON as its modes.
import { describe, expect, it } from 'vitest';
import { agentCard } from '../../src/faces/a2a/index.js';

describe('agentCard capabilities', () => {
  it('declares streaming, no push notifications and no extended card, with text and JSON modes', () => {
    const card = agentCard({ baseUrl: 'http://127.0.0.1:1', version: '1', requiresKey: false });
    expect(card.capabilities).toEqual({ streaming: true, pushNotifications: false, extendedAgentCard: false });
    expect(card.defaultInputModes).toEqual(['text/plain', 'application/json']);
    expect(card.defaultOutputModes).toEqual(['text/plain', 'application/json']);
    expect(card.securitySchemes).toBeUndefined();
  });
});
