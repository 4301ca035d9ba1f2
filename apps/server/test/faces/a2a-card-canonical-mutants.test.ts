// The canonical form of an agent card (what its signature covers) agrees with `@a2a-js/sdk`'s own
// `canonicalizeAgentCard` for any v1.0 card, not only the ones this server makes: empty strings, empty lists and
// empty objects are left out at every depth, keys are sorted, and what is left is serialized without whitespace.
import { canonicalizeAgentCard } from '@a2a-js/sdk';
import { describe, expect, it } from 'vitest';
import { agentCard, canonicalAgentCard } from '../../src/faces/a2a/index.js';

const served = (): Record<string, unknown> =>
  agentCard({ baseUrl: 'http://127.0.0.1:1', version: '9.9.9', requiresKey: true });

describe('canonicalAgentCard', () => {
  it('agrees with the SDK on the cards this server serves', () => {
    for (const card of [served(), agentCard({ baseUrl: 'http://h:2', version: '1', requiresKey: false })]) {
      expect(canonicalAgentCard(card)).toBe(canonicalizeAgentCard(card as never));
    }
  });

  it('agrees with the SDK on a card holding empty and nested values, and leaves its signatures out', () => {
    const card = {
      ...served(),
      documentationUrl: '',
      iconUrl: 'https://example.com/icon.png',
      provider: { organization: '', url: '' },
      defaultOutputModes: ['', 'text/plain'],
      skills: [
        { id: 'a', name: 'A', description: '', tags: [''], examples: [], inputModes: ['text/plain'] },
        { id: 'b', name: 'B', description: 'Bee', tags: ['x', 'y'], examples: ['ask b'] },
      ],
      signatures: [{ protected: 'p', signature: 's' }],
    };
    const canonical = canonicalAgentCard(card);
    expect(canonical).toBe(canonicalizeAgentCard(card as never));
    expect(canonical).not.toContain('signatures');
    expect(canonical).not.toContain('""');
    expect(canonical).not.toContain('provider');
    expect(canonical).not.toMatch(/\s"|":\s/);
  });

  it('leaves out nulls and undefined fields as protobuf JSON does', () => {
    const card = served();
    expect(canonicalAgentCard({ ...card, iconUrl: null, documentationUrl: undefined, provider: { url: null } })).toBe(
      canonicalAgentCard(card),
    );
  });

  it('is the empty object for a card with nothing but empty values', () => {
    expect(canonicalAgentCard({ name: '', description: '', skills: [], capabilities: {} })).toBe('{}');
  });
});
