// How a CallToolResult becomes the reference's MCPToolObservation, whatever a server (careless or hostile) put in
// it: text and images kept in order, every other block and every malformed one dropped, `is_error` only for a
// literal `isError: true`, and a result with no content list an error observation rather than a crash.
import { describe, expect, it } from 'vitest';
import { errorObservation, MCP_OBSERVATION_KIND, observationFromCallResult } from './mcp-observation.js';

const header = (name: string) => ({ cache_prompt: false, type: 'text', text: `[Tool '${name}' executed.]` });

describe('observationFromCallResult', () => {
  it('keeps text and images in order, as data URLs, and drops audio, resources and malformed blocks', () => {
    const observation = observationFromCallResult('mixed', {
      content: [
        { type: 'text', text: 'first' },
        null,
        'a bare string',
        42,
        { type: 'audio', data: 'AAAA', mimeType: 'audio/wav' },
        { type: 'resource', resource: { uri: 'file:///x', text: 'inline' } },
        { type: 'text', text: 7 },
        { text: 'no type' },
        { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' },
        { type: 'image', mimeType: 'image/png' },
        { type: 'image', data: 'iVBORw0KGgo=' },
        { type: 'text', data: 'iVBORw0KGgo=', mimeType: 'image/png' },
        { type: 'text', text: 'last' },
      ],
    });
    expect(observation).toEqual({
      content: [
        header('mixed'),
        { cache_prompt: false, type: 'text', text: 'first' },
        { cache_prompt: false, type: 'image', image_urls: ['data:image/png;base64,iVBORw0KGgo='] },
        { cache_prompt: false, type: 'text', text: 'last' },
      ],
      is_error: false,
      tool_name: 'mixed',
      kind: MCP_OBSERVATION_KIND,
    });
  });

  it('is an error only when the server says isError: true', () => {
    const content = [{ type: 'text', text: 'x' }];
    expect(observationFromCallResult('t', { content, isError: true }).is_error).toBe(true);
    expect(observationFromCallResult('t', { content, isError: false }).is_error).toBe(false);
    expect(observationFromCallResult('t', { content, isError: 'yes' }).is_error).toBe(false);
    expect(observationFromCallResult('t', { content, isError: 1 }).is_error).toBe(false);
    expect(observationFromCallResult('t', { content }).is_error).toBe(false);
  });

  it('records an empty content list as the header alone', () => {
    expect(observationFromCallResult('quiet', { content: [] })).toEqual({
      content: [header('quiet')],
      is_error: false,
      tool_name: 'quiet',
      kind: MCP_OBSERVATION_KIND,
    });
  });

  it.each([
    ['null', null],
    ['a string', 'content'],
    ['a number', 5],
    ['content that is no list', { content: 'not a list' }],
    ['content that is an object', { content: { type: 'text', text: 'x' } }],
    ['no content', { structuredContent: { a: 1 } }],
  ])('turns %s into an error observation naming the tool', (_what, result) => {
    expect(observationFromCallResult('odd', result)).toEqual({
      content: [
        { cache_prompt: false, type: 'text', text: "MCP tool 'odd' returned a malformed result (no content list)" },
      ],
      is_error: true,
      tool_name: 'odd',
      kind: MCP_OBSERVATION_KIND,
    });
  });
});

describe('errorObservation', () => {
  it('is an error observation of the tool with the message as its only text', () => {
    expect(errorObservation('t', 'went wrong')).toEqual({
      content: [{ cache_prompt: false, type: 'text', text: 'went wrong' }],
      is_error: true,
      tool_name: 't',
      kind: MCP_OBSERVATION_KIND,
    });
  });
});
