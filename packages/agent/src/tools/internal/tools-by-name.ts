import type { Tool } from '../tool.js';

/** A tool list's lookup by name, built once per list (an agent's list lives as long as the agent). */
export interface ToolsByName {
  readonly byName: ReadonlyMap<string, Tool>;
  readonly names: ReadonlySet<string>;
}

const cache = new WeakMap<readonly Tool[], ToolsByName>();

/**
 * The tools of `tools` by name: the last of a name wins, as `new Map(tools.map(...))` gives. Cached per array, so a
 * step does not rebuild it for every tool call; a list that changes is a new array (agents freeze theirs), and
 * an array changed in place after its first lookup would be read stale, so mutable arrays are not cached.
 */
export function toolsByName(tools: readonly Tool[]): ToolsByName {
  const cached = cache.get(tools);
  if (cached !== undefined) return cached;
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  const entry: ToolsByName = { byName, names: new Set(byName.keys()) };
  if (Object.isFrozen(tools)) cache.set(tools, entry);
  return entry;
}
