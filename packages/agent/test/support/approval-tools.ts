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
    await appendFile(join(context.workspace, 'effects.log'), `${label}\n`);
    return `recorded ${label}`;
  },
});
