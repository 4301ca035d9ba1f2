import type { Observation } from '@x/events';
import { z } from 'zod';
import { zodProblems } from '../internal/zod-problems.js';
import { InvalidToolError } from './invalid-tool-error.js';
import { type Tool, toolNamePattern } from './tool.js';
import { ToolExecutionError } from './tool-execution-error.js';

/** The reference's kinds for a client-defined tool (`openhands.sdk.tool.client_tool`). */
export const CLIENT_TOOL_KIND = 'ClientTool';
export const CLIENT_TOOL_OBSERVATION_KIND = 'ClientToolObservation';

/** A tool the client defines and runs, as it describes it (an AG-UI `Tool`, the reference's `ClientToolSpec`). */
export const clientToolSpecSchema = z.object({
  name: z.string().regex(toolNamePattern, 'use 1-64 letters, digits, _ or -'),
  description: z.string(),
  /** JSON Schema of the arguments; an object schema. */
  parameters: z.record(z.string(), z.unknown()).default({ type: 'object', properties: {} }),
});
export type ClientToolSpec = z.input<typeof clientToolSpecSchema>;

/**
 * A tool the client runs (the reference's `ClientTool`): the model sees the client's name, description and JSON
 * Schema as given; a call is an ActionEvent of kind `ClientAction_<name>` that is never executed here
 * (`executedByClient`), and its result, when the client gives it, a `ClientToolObservation`.
 */
export function createClientTool(spec: ClientToolSpec): Tool {
  const parsed = clientToolSpecSchema.safeParse(spec);
  if (!parsed.success) {
    throw new InvalidToolError(
      String(spec?.name),
      `Client tool '${spec?.name}' is invalid: ${zodProblems(parsed.error)}`,
    );
  }
  const { name, description, parameters } = parsed.data;
  if (parameters.type !== undefined && parameters.type !== 'object') {
    throw new InvalidToolError(name, `Client tool '${name}': parameters must be an object JSON Schema`);
  }
  const notHere = (): Promise<Observation> =>
    Promise.reject(new ToolExecutionError(name, `Tool '${name}' is run by the client, not by the agent`));
  return Object.freeze({
    name,
    description,
    // The client validates its own arguments: any object passes here.
    parameters: z.looseObject({}),
    annotations: undefined,
    actionKind: `ClientAction_${name}`,
    observationKind: CLIENT_TOOL_OBSERVATION_KIND,
    toolKind: CLIENT_TOOL_KIND,
    readOnly: false,
    executedByClient: true,
    inputSchema: { type: 'object', properties: {}, ...parameters },
    run: notHere,
    execute: notHere,
  });
}
