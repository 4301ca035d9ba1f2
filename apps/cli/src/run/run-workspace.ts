import { readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { expandHome } from '../data-dir.js';
import { UsageError } from '../errors/usage-error.js';

/** The workspace of a run (`--workspace`, else the current directory): an existing directory, or a usage error. */
export function workspaceDir(path: string | undefined): string {
  const dir = resolve(expandHome(path ?? process.cwd()));
  let isDir = false;
  try {
    isDir = statSync(dir).isDirectory();
  } catch {
    throw new UsageError(`The workspace ${dir} does not exist.`, {
      hint: 'Create it first, or pass another --workspace.',
    });
  }
  if (!isDir) throw new UsageError(`The workspace ${dir} is not a directory.`);
  return dir;
}

/** True when the conversation at `location` was recorded on the offline model (its base_state.json says so). */
export function recordedOnOfflineModel(location: string): boolean {
  try {
    const base = JSON.parse(readFileSync(join(location, 'base_state.json'), 'utf8')) as {
      agent?: { llm?: { model?: unknown } };
    };
    return base.agent?.llm?.model === 'offline';
  } catch {
    return false;
  }
}

/** A resumed conversation keeps working where it did, when that directory still exists. */
export function recordedWorkspace(location: string): string | undefined {
  try {
    const base = JSON.parse(readFileSync(join(location, 'base_state.json'), 'utf8')) as {
      workspace?: { working_dir?: unknown };
    };
    const dir = base.workspace?.working_dir;
    return typeof dir === 'string' && statSync(dir).isDirectory() ? dir : undefined;
  } catch {
    return undefined;
  }
}
