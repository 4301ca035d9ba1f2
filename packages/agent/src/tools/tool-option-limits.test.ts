import { describe, expect, it } from 'vitest';
import { createApplyPatchTool } from './apply-patch-tool.js';
import { createFileEditorTool } from './file-editor-tool.js';
import { createGlobTool } from './glob-tool.js';
import { createGrepTool } from './grep-tool.js';
import { InvalidToolError } from './invalid-tool-error.js';
import { createTerminalTool } from './terminal-tool.js';

// Each tool's numeric options, the kind of number each takes, and the factory that takes them.
const tools: [string, (options: Record<string, unknown>) => unknown, Record<string, 'count' | 'duration'>][] = [
  [
    'terminal',
    (options) => createTerminalTool(options),
    { noChangeTimeoutSeconds: 'duration', maxWaitSeconds: 'duration', maxOutputChars: 'count' },
  ],
  ['file_editor', (options) => createFileEditorTool(options), { maxOutputChars: 'count', maxFileBytes: 'count' }],
  ['glob', (options) => createGlobTool(options), { maxResults: 'count', maxEntries: 'count' }],
  [
    'grep',
    (options) => createGrepTool(options),
    { maxResults: 'count', maxEntries: 'count', maxFileBytes: 'count', timeoutSeconds: 'duration' },
  ],
  ['apply_patch', (options) => createApplyPatchTool(options), { maxFileBytes: 'count' }],
];

const alwaysWrong: unknown[] = [0, -1, Number.NaN, Number.POSITIVE_INFINITY, '30', null];

describe('tool options', () => {
  for (const [name, create, limits] of tools) {
    for (const [option, kind] of Object.entries(limits)) {
      it(`${name}: ${option} refuses ${kind === 'count' ? 'a fraction and ' : ''}0, negatives, NaN, Infinity and non-numbers when the tool is made`, () => {
        for (const value of kind === 'count' ? [...alwaysWrong, 1.5] : alwaysWrong) {
          let thrown: unknown;
          try {
            create({ [option]: value });
          } catch (error) {
            thrown = error;
          }
          expect(thrown, `${option}: ${String(value)}`).toBeInstanceOf(InvalidToolError);
          expect((thrown as InvalidToolError).toolName).toBe(name);
          expect((thrown as Error).message).toContain(`${name} tool option ${option} must be`);
        }
      });

      it(`${name}: ${option} takes ${kind === 'count' ? '1 and up' : 'a fraction of a second and up'}`, () => {
        for (const value of kind === 'count' ? [1, 250_000] : [0.001, 0.5, 3600]) {
          expect(() => create({ [option]: value })).not.toThrow();
        }
        expect(() => create({ [option]: undefined })).not.toThrow();
      });
    }
  }
});
