/**
 * The optional peer dependencies of @x/agent and the ranges it supports: each is imported on first use of the
 * feature that needs it, so an install carries only the SDKs it uses. A test keeps this list equal to
 * `peerDependencies` in package.json.
 */
export const optionalDependencies = {
  openai: '^6.49.0 || ^7.0.0',
  '@anthropic-ai/sdk': '^1.12.0',
  '@google/genai': '^2.32.0 || ^3.0.0',
  '@modelcontextprotocol/sdk': '^1.32.0',
  '@a2a-js/sdk': '^1.3.0',
  '@langchain/core': '^1.4.0',
} as const;

export type OptionalDependency = keyof typeof optionalDependencies;
