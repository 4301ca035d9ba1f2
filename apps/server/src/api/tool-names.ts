/**
 * The built-in tools a create request may name, each by its registry name (what the model sees) and by the
 * reference's class name (what OpenHands clients send). One table: the request schema accepts exactly these
 * spellings, the agent builder maps them to tools, and the A2A card names one skill per registry name.
 */
export const SERVER_TOOL_NAMES = [
  { name: 'terminal', className: 'TerminalTool' },
  { name: 'file_editor', className: 'FileEditorTool' },
  { name: 'task_tracker', className: 'TaskTrackerTool' },
  { name: 'finish', className: 'FinishTool' },
  { name: 'think', className: 'ThinkTool' },
  { name: 'delegate', className: 'DelegateTool' },
  { name: 'apply_patch', className: 'ApplyPatchTool' },
  { name: 'glob', className: 'GlobTool' },
  { name: 'grep', className: 'GrepTool' },
] as const;

export type ServerToolName = (typeof SERVER_TOOL_NAMES)[number]['name'];
export type ServerToolSpelling = ServerToolName | (typeof SERVER_TOOL_NAMES)[number]['className'];

/** Every spelling a request may use, class names first (the order the schema's refusal lists them in). */
export const SERVER_TOOL_SPELLINGS = [
  ...SERVER_TOOL_NAMES.map((tool) => tool.className),
  ...SERVER_TOOL_NAMES.map((tool) => tool.name),
] as [ServerToolSpelling, ...ServerToolSpelling[]];

/**
 * The registry name of a tool spelled either way, or undefined for a name that is not a built-in tool. Compares
 * against the table's own strings, so a name like `constructor` or `__proto__` is never mistaken for one.
 */
export function serverToolName(spelling: string): ServerToolName | undefined {
  return SERVER_TOOL_NAMES.find((tool) => tool.name === spelling || tool.className === spelling)?.name;
}
