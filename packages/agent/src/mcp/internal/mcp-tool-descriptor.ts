/**
 * The fields of an MCP tool descriptor (the SDK's `Tool`) this package reads. Declared here rather than taken
 * from the SDK: the SDK is an optional peer dependency, and a type imported from it would make every consumer of
 * the published declarations install it just to typecheck.
 */
export interface McpToolDescriptor {
  name: string;
  description?: string | undefined;
  inputSchema: { [key: string]: unknown };
  annotations?: { [key: string]: unknown } | undefined;
  _meta?: { [key: string]: unknown } | undefined;
}
