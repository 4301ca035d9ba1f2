/**
 * Keys whose values are free-form JSON owned by someone else (state values, hook inputs, MCP
 * schemas, tool metadata): nulls inside them are data and are kept as they are.
 */
const FREE_FORM_KEYS = new Set(['value', 'hook_input', 'raw_input', 'raw_output', 'metadata', 'meta', 'mcp_tool']);

/**
 * Returns a copy of a model object without its null-valued (or undefined) fields, recursively. The
 * reference treats a missing optional field and `null` alike; dropping nulls on read means values
 * never hold `null` for an optional field, so writing them back omits it, as the reference's
 * exclude-None does. Free-form values are kept whole; `cloneFreeForm` copies them so that freezing
 * the result never freezes the caller's objects.
 */
export function dropNulls(value: unknown, cloneFreeForm = false): unknown {
  if (Array.isArray(value)) return value.map((item) => dropNulls(item, cloneFreeForm));
  if (value === null || typeof value !== 'object') return value;
  const result: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
    if (item === null || item === undefined) continue;
    const copy = FREE_FORM_KEYS.has(key)
      ? cloneFreeForm
        ? structuredClone(item)
        : item
      : dropNulls(item, cloneFreeForm);
    Object.defineProperty(result, key, { value: copy, writable: true, enumerable: true, configurable: true });
  }
  return result;
}
