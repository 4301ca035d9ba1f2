// What apply_patch tells the model and its clients, and what a long-running server pays per patch: the reference's
// parameter text and annotations, and no descriptor left open by a deletion.
import { mkdir, mkdtemp, readdir, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { applyPatchTool } from './apply-patch-tool.js';
import { toolToChatTool } from './chat-tool.js';

let root: string;
let workspace: string;
beforeEach(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'x-patch-surface-')));
  workspace = join(root, 'ws');
  await mkdir(workspace);
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true, maxRetries: 5 });
});

const openDescriptors = async () => (await readdir('/proc/self/fd')).length;

describe('apply_patch', () => {
  it("describes its parameter and carries its annotations as the reference's ApplyPatchTool", () => {
    const properties = toolToChatTool(applyPatchTool).function.parameters.properties as Record<
      string,
      { description: string }
    >;
    expect(properties.patch?.description).toBe(
      "Patch content following the '*** Begin Patch' ... '*** End Patch' format as described in OpenAI GPT-5.1 prompting guide.",
    );
    expect(applyPatchTool.annotations).toEqual({
      title: 'apply_patch',
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: false,
      openWorldHint: false,
    });
  });

  it('closes what it opened to delete files: a server applying many patches keeps no descriptor per deletion', async () => {
    const names = Array.from({ length: 40 }, (_, index) => `gone-${index}.txt`);
    for (const name of names) await writeFile(join(workspace, name), 'x\n');
    const before = await openDescriptors();
    const body = names.map((name) => `*** Delete File: ${name}`).join('\n');
    const observation = await applyPatchTool.execute(
      { patch: `*** Begin Patch\n${body}\n*** End Patch`, kind: 'ApplyPatchAction' },
      { workspace },
    );
    expect(observation.is_error).toBe(false);
    expect(await readdir(workspace)).toEqual([]);
    // A few for whatever else the test process opened meanwhile; one per deletion would be 40.
    expect(await openDescriptors()).toBeLessThan(before + 10);
  });
});
