/**
 * Keys whose values are free-form JSON owned by someone else (state values, hook inputs, MCP
 * schemas, tool metadata): nulls inside them are data and are kept as they are.
 */
const FREE_FORM_KEYS = new Set(['value', 'hook_input', 'raw_input', 'raw_output', 'metadata', 'meta', 'mcp_tool']);

/**
 * Returns a copy of a model object without its null-valued fields, recursively. The reference
 * treats a missing optional field and `null` alike; dropping nulls on read means values never hold
 * `null` for an optional field, so writing them back omits it, as the reference's exclude-None does.
 */
export function dropNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map((item) => dropNulls(item));
  if (value === null || typeof value !== 'object') return value;
  const result: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
    if (item === null) continue;
    result[key] = FREE_FORM_KEYS.has(key) ? item : dropNulls(item);
  }
  return result;
}
