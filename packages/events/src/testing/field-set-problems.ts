/**
 * Checks JSON x writes against the reference's pydantic field sets (`__fixtures__/reference-field-sets.json`,
 * read from the reference's models): no key the model does not have (its models forbid extras), and every
 * field it always writes (required, or with a non-null default) present. Nested models are checked where
 * the field set knows them. Returns the problems as `path: message` strings ([] = conforms).
 */
export type FieldStatus = 'required' | 'default' | 'optional';
export type FieldSet = Record<string, FieldStatus>;
/** The shape of `test/__fixtures__/reference-field-sets.json` in this package. */
export interface FieldSets {
  events: Record<string, FieldSet>;
  payloads: Record<string, FieldSet>;
  nested: Record<string, FieldSet>;
}

/** Nested models by the field that holds them (a list field checks each item). */
const nestedByField: Record<string, string | ((value: Record<string, unknown>) => string | undefined)> = {
  llm_message: 'Message',
  system_prompt: 'TextContent',
  dynamic_context: 'TextContent',
  extended_content: 'TextContent',
  thought: 'TextContent',
  tool_call: 'MessageToolCall',
  tool_calls: 'MessageToolCall',
  responses_reasoning_item: 'ReasoningItemModel',
  critic_result: 'CriticResult',
  classification: 'ErrorClassification',
  content: (value) => (value.type === 'image' ? 'ImageContent' : value.type === 'text' ? 'TextContent' : undefined),
  thinking_blocks: (value) => (value.type === 'redacted_thinking' ? 'RedactedThinkingBlock' : 'ThinkingBlock'),
  task_list: 'TaskItem',
  commit: 'Commit',
};

/** Nested models held as the values of a dict field (apply_patch's `changes`: path → FileChange). */
const nestedRecordByField: Record<string, string> = { changes: 'FileChange' };

export function fieldSetProblems(sets: FieldSets, json: Record<string, unknown>): string[] {
  const kind = json.kind as string;
  const set = sets.events[kind];
  if (set === undefined) return [`kind: ${kind} is not an event kind of the reference`];
  return checkObject(sets, json, set, kind, true);
}

/** Checks an Action or Observation value (`{..., kind}`). */
export function payloadProblems(sets: FieldSets, json: Record<string, unknown>, where = ''): string[] {
  const kind = json.kind as string;
  const set = sets.payloads[kind];
  if (set === undefined) return [`${where}kind: ${kind} has no field set in the fixture`];
  return checkObject(sets, json, set, where === '' ? kind : where.slice(0, -1), true);
}

function checkObject(
  sets: FieldSets,
  json: Record<string, unknown>,
  set: FieldSet,
  path: string,
  hasKind: boolean,
): string[] {
  const problems: string[] = [];
  for (const [key, value] of Object.entries(json)) {
    if (key === 'kind' && hasKind) continue;
    if (!(key in set)) {
      problems.push(`${path}.${key}: not a field of the reference's model`);
      continue;
    }
    if (value === null) problems.push(`${path}.${key}: null is written (the reference omits nulls)`);
    problems.push(...checkNested(sets, key, value, `${path}.${key}`));
  }
  for (const [key, status] of Object.entries(set)) {
    if (status !== 'optional' && !(key in json)) {
      problems.push(
        `${path}.${key}: missing (the reference always writes it${status === 'default' ? ', default included' : ''})`,
      );
    }
  }
  return problems;
}

function checkNested(sets: FieldSets, key: string, value: unknown, path: string): string[] {
  if (key === 'action' || key === 'observation') {
    return value !== null && typeof value === 'object'
      ? payloadProblems(sets, value as Record<string, unknown>, `${path}.`)
      : [];
  }
  const recordModel = nestedRecordByField[key];
  const recordSet = recordModel === undefined ? undefined : sets.nested[recordModel];
  if (recordSet !== undefined && value !== null && typeof value === 'object' && !Array.isArray(value)) {
    return Object.entries(value as Record<string, unknown>).flatMap(([name, item]) =>
      item !== null && typeof item === 'object'
        ? checkObject(sets, item as Record<string, unknown>, recordSet, `${path}[${JSON.stringify(name)}]`, false)
        : [],
    );
  }
  const model = nestedByField[key];
  if (model === undefined || value === null || typeof value !== 'object') return [];
  const items = Array.isArray(value) ? value : [value];
  const problems: string[] = [];
  items.forEach((item, index) => {
    if (item === null || typeof item !== 'object') return;
    const name = typeof model === 'string' ? model : model(item as Record<string, unknown>);
    const set = name === undefined ? undefined : sets.nested[name];
    if (set === undefined) return;
    const where = Array.isArray(value) ? `${path}[${index}]` : path;
    problems.push(...checkObject(sets, item as Record<string, unknown>, set, where, false));
  });
  return problems;
}
