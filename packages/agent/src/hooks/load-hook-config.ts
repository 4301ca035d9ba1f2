import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { type HookConfig, parseHookConfig } from './hook-config.js';
import { InvalidHookConfigError } from './invalid-hook-config-error.js';

/** Where the reference looks for a hook file when none is given, in order. */
export function defaultHookConfigPaths(workspace: string, home: string = homedir()): string[] {
  return [join(workspace, '.openhands', 'hooks.json'), join(home, '.openhands', 'hooks.json')];
}

/** The first default hook file that exists, if any (reference `HookConfig.load` search). */
export function findHookConfigFile(workspace: string, home?: string): string | undefined {
  return defaultHookConfigPaths(workspace, home).find((path) => existsSync(path));
}

/** Reads and validates a hook file; every problem is an `InvalidHookConfigError` naming the file. */
export async function loadHookConfigFile(path: string): Promise<HookConfig> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (cause) {
    throw new InvalidHookConfigError(path, `cannot read the file (${(cause as Error).message})`, { cause });
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (cause) {
    throw new InvalidHookConfigError(path, `not valid JSON (${(cause as Error).message})`, { cause });
  }
  return parseHookConfig(json, path);
}
