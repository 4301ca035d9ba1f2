import { unlink } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import {
  checkPathText,
  confineToRoots,
  entryKind,
  openWorkspaceEntry,
  readRegularFile,
  replaceFileAtomically,
  resolveRealLocation,
  WorkspacePathError,
} from '../paths/index.js';
import { filesNeeded, parsePatch } from './apply-patch/parse-patch.js';
import { commitPaths, type PatchCommit, patchToCommit } from './apply-patch/patch-commit.js';
import { PatchError } from './apply-patch/patch-error.js';
import { checkToolOptionLimits } from './internal/tool-option-limits.js';
import { defineTool, type Tool, type ToolResult } from './tool.js';

export interface ApplyPatchToolOptions {
  /** Files longer than this many bytes are not patched (they would be held in memory whole). Default 10 MiB. */
  maxFileBytes?: number;
}

export const applyPatchParameters = z.object({
  patch: z
    .string()
    .describe(
      "Patch content following the '*** Begin Patch' ... '*** End Patch' format as described in OpenAI GPT-5.1 prompting guide.",
    ),
});

export type ApplyPatchAction = z.output<typeof applyPatchParameters>;

/** The reference's description of apply_patch. */
export const APPLY_PATCH_TOOL_DESCRIPTION =
  "Apply unified text patches to files in the workspace. Input must start with '*** Begin Patch' and end with '*** End Patch'.";

/** Reads, writes and removes files of one workspace, each through a directory verified to lie inside it. */
class WorkspaceFiles {
  constructor(
    readonly root: string,
    readonly maxFileBytes: number,
  ) {}

  #absolute(path: string): string {
    checkPathText(path);
    return resolve(this.root, path);
  }

  /**
   * Both paths name the same file of the workspace: by spelling (`a.py` and `./a.py`), or through a symlink on the way
   * (`alias/a.py`, where `alias` leads to the workspace itself).
   */
  async isSameFile(path: string, other: string): Promise<boolean> {
    const [real, otherReal] = await Promise.all([this.#real(path), this.#real(other)]);
    return real === otherReal;
  }

  async #real(path: string): Promise<string> {
    const absolute = this.#absolute(path);
    return (await resolveRealLocation(absolute)) ?? absolute;
  }

  async read(path: string): Promise<string> {
    const entry = await openWorkspaceEntry([this.root], this.#absolute(path), { create: false, shown: path });
    try {
      return await readRegularFile(entry.directory, entry.name, { shown: path, maxBytes: this.maxFileBytes });
    } finally {
      await entry.directory.close();
    }
  }

  /** Refuses a path outside the workspace (lexically or through a symlink) before anything is written. */
  async check(path: string): Promise<void> {
    const confined = await confineToRoots(this.#absolute(path), [this.root], { shown: path });
    if (confined.ok) return;
    if (confined.reason === 'dangling_symlink') {
      throw new WorkspacePathError(path, 'it goes through a symlink whose target does not exist', { problem: 'link' });
    }
    throw new WorkspacePathError(path, `it resolves to ${confined.real}, outside the workspace ${this.root}`);
  }

  async write(path: string, content: string): Promise<void> {
    const entry = await openWorkspaceEntry([this.root], this.#absolute(path), { create: true, shown: path });
    try {
      await replaceFileAtomically(entry.directory, entry.name, content, { exclusive: false, shown: path });
    } finally {
      await entry.directory.close();
    }
  }

  async remove(path: string): Promise<void> {
    const entry = await openWorkspaceEntry([this.root], this.#absolute(path), { create: false, shown: path });
    try {
      const kind = await entryKind(entry.directory, entry.name);
      if (kind === 'missing') throw new WorkspacePathError(path, 'no such file', { problem: 'missing' });
      if (kind !== 'file') {
        throw new WorkspacePathError(path, `it is ${kind === 'directory' ? 'a directory' : kind.other}, not a file`, {
          problem: kind === 'directory' ? 'directory' : 'not_regular',
        });
      }
      await unlink(join(entry.directory.base, entry.name));
    } finally {
      await entry.directory.close();
    }
  }
}

/** Parses and applies a patch (the reference's `process_patch`): every path is checked before the first write. */
async function processPatch(text: string, files: WorkspaceFiles): Promise<{ fuzz: number; commit: PatchCommit }> {
  if (!text.startsWith('*** Begin Patch')) throw new PatchError("Invalid patch: must start with '*** Begin Patch'");
  const current = new Map<string, string>();
  for (const path of filesNeeded(text)) {
    try {
      current.set(path, await files.read(path));
    } catch (error) {
      if (WorkspacePathError.isInstance(error) && error.problem === 'missing') {
        throw new PatchError(`Delete File Error: Missing File: ${path}`, { cause: error });
      }
      throw error;
    }
  }
  const patch = parsePatch(text, current);
  const commit = patchToCommit(patch, current);
  for (const path of commitPaths(commit)) await files.check(path);
  const changes = Object.entries(commit.changes);
  // Deletions first: a move may land on a path the same patch deletes, which must not then remove the moved file.
  for (const [path, change] of changes) if (change.type === 'delete') await files.remove(path);
  for (const [path, change] of changes) {
    if (change.type === 'delete') continue;
    if (change.move_path !== undefined && !(await files.isSameFile(change.move_path, path))) {
      // A move onto the file itself is an update: removing the source would remove what was just written.
      await files.write(change.move_path, change.new_content ?? '');
      await files.remove(path);
    } else {
      await files.write(path, change.new_content ?? '');
    }
  }
  return { fuzz: patch.fuzz, commit };
}

/**
 * `apply_patch` (the reference's ApplyPatchTool): adds, updates, moves and deletes workspace files as an OpenAI
 * `*** Begin Patch` patch says. Paths are relative to the workspace or absolute inside it; every one is checked
 * before the first file is touched, and files are reached through the confined file layer (no link out is
 * followed, files are replaced by renaming a new one over them).
 */
export function createApplyPatchTool(options: ApplyPatchToolOptions = {}): Tool<ApplyPatchAction> {
  checkToolOptionLimits('apply_patch', options, { maxFileBytes: 'count' });
  const maxFileBytes = options.maxFileBytes ?? 10 * 1024 * 1024;
  return defineTool({
    name: 'apply_patch',
    toolKind: 'ApplyPatchTool',
    description: APPLY_PATCH_TOOL_DESCRIPTION,
    parameters: applyPatchParameters,
    annotations: {
      title: 'apply_patch',
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: false,
      openWorldHint: false,
    },
    async execute(action, context): Promise<ToolResult> {
      try {
        const { fuzz, commit } = await processPatch(action.patch, new WorkspaceFiles(context.workspace, maxFileBytes));
        return { content: 'Done!', message: 'Done!', fuzz, commit };
      } catch (error) {
        if (!PatchError.isInstance(error) && !WorkspacePathError.isInstance(error)) throw error;
        // As the reference's error observation: no commit (it writes none for a null).
        return { content: error.message, is_error: true, message: '', fuzz: 0 };
      }
    },
  });
}

/** An apply_patch tool with the default limits. */
export const applyPatchTool: Tool<ApplyPatchAction> = createApplyPatchTool();
