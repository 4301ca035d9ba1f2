import { constants, existsSync } from 'node:fs';
import { open } from 'node:fs/promises';
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

/** Hook files are small; a larger one is refused rather than read into memory. */
const maxHookFileBytes = 1024 * 1024;

/**
 * Reads a hook file that must be a regular file: opened O_NONBLOCK so that a FIFO in its place cannot block (it is
 * refused once its type is known).
 */
async function readHookFile(path: string): Promise<string> {
  const handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY);
  try {
    const info = await handle.stat();
    if (!info.isFile()) throw new Error('it is not a regular file');
    if (info.size > maxHookFileBytes) throw new Error(`it is over ${maxHookFileBytes} bytes`);
    return await handle.readFile('utf8');
  } finally {
    await handle.close();
  }
}

/** Reads and validates a hook file; every problem is an `InvalidHookConfigError` naming the file. */
export async function loadHookConfigFile(path: string): Promise<HookConfig> {
  let text: string;
  try {
    text = await readHookFile(path);
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
