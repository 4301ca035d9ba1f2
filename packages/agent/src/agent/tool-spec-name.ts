/**
 * Tool specs in base_state.json (`agent.tools[].name`) name a tool by the reference's registry name,
 * which is the tool's own name: `terminal`, `file_editor`, `task_tracker` (reference §4.3/§4.4; its
 * `register_tool(FileEditorTool.name, ...)`). Older files (and some clients) use the class name
 * (`TerminalTool`): `normalizeToolSpecName` reads both spellings.
 */
export function normalizeToolSpecName(name: string): string {
  if (!/[A-Z]/.test(name)) return name;
  // The reference's class → tool name rule: CamelCase → snake_case, then drop a trailing `_tool`.
  const snake = name
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1_$2')
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toLowerCase();
  return snake.endsWith('_tool') ? snake.slice(0, -'_tool'.length) : snake;
}
