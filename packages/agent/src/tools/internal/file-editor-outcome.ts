import { basename, dirname } from 'node:path';
import { maybeTruncate } from '@x/events';
import {
  openOrCreateDirectory,
  openVerifiedDirectory,
  type VerifiedDirectory,
  WorkspacePathError,
} from '../../paths/index.js';
import { maskSecrets } from '../secrets.js';

/** What a command returns: the text and the reference's FileEditorObservation fields. */
export interface EditorOutcome {
  content: string;
  is_error: boolean;
  prev_exist?: boolean;
  old_content?: string;
  new_content?: string;
}

/** A path the editor may use: as shown to the model, its real location, and the workspace's real root. */
export interface EditorTarget {
  path: string;
  real: string;
  realRoot: string;
  requested: string;
  /** Files longer than this are refused (the editor holds a file in memory). */
  maxFileBytes: number;
  /** File text (a view, an edit's snippet) or a listing longer than this many characters is cut in the middle. */
  maxOutputChars: number;
  /** The conversation's secret values (`ToolContext.secretValues`): hidden before a long text is cut. */
  secretValues?: readonly string[] | undefined;
}

export const fail = (content: string): EditorOutcome => ({ content, is_error: true });
export const ok = (content: string, fields: Omit<EditorOutcome, 'content' | 'is_error'> = {}): EditorOutcome => ({
  content,
  is_error: false,
  prev_exist: true,
  ...fields,
});

/** The reference's `TEXT_FILE_CONTENT_TRUNCATED_NOTICE`, put where a long file text is cut. */
export const textFileTruncatedNotice =
  '<response clipped><NOTE>Due to the max output limit, only part of this file has been shown to you. You should retry this tool after you have searched inside the file with `grep -n` in order to find the line numbers of what you are looking for.</NOTE>';

/**
 * Text as shown: masked, then cut in the middle as the reference's `maybe_truncate` cuts it. The conversation masks
 * every observation again, but a secret the cut splits would leave pieces no whole-value match finds.
 */
export function shownText(text: string, target: EditorTarget, notice = textFileTruncatedNotice): string {
  const secrets = target.secretValues ?? [];
  return maybeTruncate(secrets.length === 0 ? text : maskSecrets(text, secrets), target.maxOutputChars, notice);
}

/**
 * Runs `use` with the target's parent directory opened and verified (created first with `create`, one component
 * at a time without following links).
 */
export async function inParent<T>(
  target: EditorTarget,
  use: (dir: VerifiedDirectory, name: string) => Promise<T>,
  create = false,
): Promise<T> {
  if (target.real === target.realRoot) {
    throw new WorkspacePathError(target.requested, 'it is the workspace directory, not a file', {
      problem: 'directory',
    });
  }
  const dir = create
    ? await openOrCreateDirectory(target.realRoot, dirname(target.real), target.requested)
    : await openVerifiedDirectory(target.realRoot, dirname(target.real), target.requested);
  try {
    return await use(dir, basename(target.real));
  } finally {
    await dir.close();
  }
}
