import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { finishTool } from './finish-tool.js';
import { InvalidToolError } from './invalid-tool-error.js';
import { thinkTool } from './think-tool.js';
import { defineTool, pascalCase } from './tool.js';
import { ToolExecutionError } from './tool-execution-error.js';

const context = { workspace: '/tmp' };

describe('defineTool', () => {
  const add = defineTool({
    name: 'add_numbers',
    description: 'Add two numbers',
    parameters: z.object({ a: z.number(), b: z.number().default(1) }),
    annotations: { readOnlyHint: true },
    execute: ({ a, b }) => ({ content: String(a + b), sum: a + b, kind: 'Ignored', is_error: false }),
  });

  it('derives kinds from the name', () => {
    expect(pascalCase('file_editor')).toBe('FileEditor');
    expect(add.actionKind).toBe('AddNumbersAction');
    expect(add.observationKind).toBe('AddNumbersObservation');
    expect(add.toolKind).toBe('AddNumbersTool');
    expect(add.readOnly).toBe(true);
  });

  it('wraps the result as an observation: content, is_error, extra fields, then kind', async () => {
    const observation = await add.execute({ a: 2, kind: 'AddNumbersAction' }, context);
    expect(observation).toEqual({
      content: [{ cache_prompt: false, type: 'text', text: '3' }],
      is_error: false,
      sum: 3,
      kind: 'AddNumbersObservation',
    });
    expect(Object.keys(observation)).toEqual(['content', 'is_error', 'sum', 'kind']);
    expect((await add.run({ a: 1, b: 5 }, context)).sum).toBe(6);
  });

  it('throws ToolExecutionError naming the field for invalid action fields', async () => {
    const failure = add.execute({ a: 'two', kind: 'AddNumbersAction' }, context);
    await expect(failure).rejects.toBeInstanceOf(ToolExecutionError);
    await expect(failure).rejects.toThrow(/add_numbers.*a: /);
    await expect(add.execute({ a: 1, c: 2 }, context)).rejects.toThrow(/Unrecognized key/);
  });

  it('rejects names an LLM API would refuse', () => {
    expect(() =>
      defineTool({ name: 'has space', description: '', parameters: z.object({}), execute: () => ({ content: '' }) }),
    ).toThrow(InvalidToolError);
  });
});

describe('built-in finish and think', () => {
  it('finish echoes its message', async () => {
    expect(await finishTool.execute({ message: 'All done', kind: 'FinishAction' }, context)).toEqual({
      content: [{ cache_prompt: false, type: 'text', text: 'All done' }],
      is_error: false,
      kind: 'FinishObservation',
    });
  });

  it('think logs the thought', async () => {
    expect(await thinkTool.execute({ thought: 'hmm', kind: 'ThinkAction' }, context)).toEqual({
      content: [{ cache_prompt: false, type: 'text', text: 'Your thought has been logged.' }],
      is_error: false,
      kind: 'ThinkObservation',
    });
  });
});

describe('defineTool observation fields', () => {
  it('keeps a __proto__ field of a result as a field, never as the prototype', async () => {
    const tool = defineTool({
      name: 'odd',
      description: 'returns an odd field',
      parameters: z.object({}),
      execute: () => ({ content: 'ok', ...(JSON.parse('{"__proto__": {"polluted": true}}') as object) }),
    });
    const observation = (await tool.run({}, context)) as Record<string, unknown>;
    expect(Object.getPrototypeOf(observation)).toBe(Object.prototype);
    expect(Object.hasOwn(observation, '__proto__')).toBe(true);
    expect(Object.keys(observation)).toEqual(['content', 'is_error', '__proto__', 'kind']);
  });
});
