import { HttpAgent } from '@ag-ui/client';
import type { BaseEvent, RunAgentInput } from '@ag-ui/core';

/** An HttpAgent on a server's AG-UI endpoint; `lastEventId` makes it reattach to a run from that log index. */
export class XAgent extends HttpAgent {
  lastEventId: number | undefined;

  constructor(baseUrl: string, threadId: string) {
    super({ url: `${baseUrl}/api/ag-ui`, threadId });
  }

  protected override requestInit(input: RunAgentInput): RequestInit {
    const init = super.requestInit(input);
    if (this.lastEventId === undefined) return init;
    return {
      ...init,
      headers: { ...(init.headers as Record<string, string>), 'Last-Event-ID': String(this.lastEventId) },
    };
  }
}

/** Every event the agent applies from now on. */
export function collect(agent: HttpAgent): BaseEvent[] {
  const events: BaseEvent[] = [];
  agent.subscribe({ onEvent: ({ event }) => void events.push(event) });
  return events;
}

/** Runs and returns the events, resolving also when the run ends with a RUN_ERROR. */
export async function runToEnd(
  agent: HttpAgent,
  parameters: Parameters<HttpAgent['runAgent']>[0] = {},
): Promise<BaseEvent[]> {
  const events = collect(agent);
  await agent.runAgent(parameters).catch(() => undefined);
  return events;
}

/** The text of the TEXT_MESSAGE_CONTENT events of one message, in order. */
export function contentOf(events: readonly BaseEvent[], messageId: string): string[] {
  return events
    .filter(
      (event) => event.type === 'TEXT_MESSAGE_CONTENT' && (event as { messageId?: string }).messageId === messageId,
    )
    .map((event) => (event as unknown as { delta: string }).delta);
}
