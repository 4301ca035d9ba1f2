import { z } from 'zod';
import { Agent, createOfflineLLM, defineTool, type Tool } from '../../src/index.js';

/** A tool named `stall` that holds its step until the test lets it go on, and an agent whose every step calls it. */
export interface StallingTool {
  readonly tool: Tool;
  /** Resolves once the tool has started (the step is inside it). */
  readonly started: Promise<void>;
  /** Lets every call of the tool return. */
  release(): void;
  /** An agent on the offline model that calls `stall` at every step. */
  agent(): Agent;
}

export function stallingTool(): StallingTool {
  let markStarted: () => void = () => undefined;
  const started = new Promise<void>((resolve) => {
    markStarted = resolve;
  });
  let release: () => void = () => undefined;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  const tool = defineTool({
    name: 'stall',
    description: 'Stalls until the test lets it go on.',
    parameters: z.object({}),
    execute: async () => {
      markStarted();
      await released;
      return { content: 'stalled' };
    },
  });
  const agent = () =>
    new Agent({
      llm: createOfflineLLM({ script: () => ({ toolCalls: [{ name: 'stall', arguments: {} }] }) }),
      tools: [tool],
    });
  return { tool, started, release, agent };
}
