import { toolNameAliases } from './internal/normalize-tool-call.js';
import type { Tool } from './tool.js';
import { ToolNameCollisionError } from './tool-name-collision-error.js';

/**
 * The key two tool names collide on. Providers compare names exactly, but a model does not reliably tell
 * `terminal` from `Terminal` or a full-width `ｔｅｒｍｉｎａｌ`: names equal once case and Unicode compatibility forms
 * are ignored are one name here.
 */
export function toolNameKey(name: string): string {
  return name.normalize('NFKC').toLowerCase();
}

/**
 * The names a tool list claims, by key, with the tool that claims each: every tool's own name, and each alias the
 * agent maps to one of them (`bash`, `execute_bash` → `terminal`; `str_replace_editor` → `file_editor`). A tool
 * added under an alias would take the calls a model means for the tool it aliases.
 */
export function claimedToolNames(tools: readonly Pick<Tool, 'name'>[]): Map<string, string> {
  const claimed = new Map<string, string>();
  for (const tool of tools) claimed.set(toolNameKey(tool.name), tool.name);
  for (const [alias, target] of Object.entries(toolNameAliases)) {
    const owner = claimed.get(toolNameKey(target));
    if (owner !== undefined && !claimed.has(toolNameKey(alias))) claimed.set(toolNameKey(alias), owner);
  }
  return claimed;
}

/**
 * Refuses a tool list in which two tools share a name (as `toolNameKey` compares them): the model would be offered
 * both and the last registered would silently take the calls. Throws one `ToolNameCollisionError` naming them all.
 */
export function assertUniqueToolNames(tools: readonly Pick<Tool, 'name'>[]): void {
  const seen = new Map<string, string>();
  const clashes = new Set<string>();
  for (const tool of tools) {
    const earlier = seen.get(toolNameKey(tool.name));
    if (earlier !== undefined) {
      clashes.add(earlier);
      clashes.add(tool.name);
    } else {
      seen.set(toolNameKey(tool.name), tool.name);
    }
  }
  if (clashes.size > 0) throw new ToolNameCollisionError([...clashes]);
}
