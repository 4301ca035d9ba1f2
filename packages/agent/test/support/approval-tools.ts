import { appendFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { defineTool } from '../../src/index.js';

/**
 * A tool with an observable side effect: each run appends one line `<label>` to `<workspace>/effects.log`, so a
 * test counts how often it ran (across processes, too).
 */
export const effectTool = defineTool({
  name: 'record_effect',
  description: 'Records a labelled side effect.',
  parameters: z.object({ label: z.string().min(1), count: z.number().int().optional() }),
  async execute({ label }, context) {
    testCrashPoint('before-tool-effect');
    await appendFile(join(context.workspace, 'effects.log'), `${label}\n`);
    testCrashPoint('after-tool-effect');
    return { content: `recorded ${label}` };
  },
});

/** The crash-test child dies here (SIGKILL) when `X_TEST_CRASH_POINT` names this point. */
export function testCrashPoint(name: string): void {
  if (process.env.X_TEST_CRASH_POINT !== name) return;
  process.kill(process.pid, 'SIGKILL');
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);
}
