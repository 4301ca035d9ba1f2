/**
 * The tool name the reference derives from a tool class name (§4.3): CamelCase to snake_case, then
 * a trailing `_tool` removed. `FileEditorTool` → `file_editor`, `TerminalTool` → `terminal`.
 * Runs of capitals stay one word (`MCPTool` → `mcp`, `HTTPClientTool` → `http_client`).
 */
export function toolNameFromToolKind(kind: string): string {
  const snake = kind
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1_$2')
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toLowerCase();
  return snake.endsWith('_tool') ? snake.slice(0, -'_tool'.length) : snake;
}
