import type { EventJson } from '../api/types.js';
import { arr, contentImages, contentText, obj, shortTime, str } from '../render/event-text.js';
import { Markdown } from '../render/markdown.js';
import { EventImages, ObservationBody, ToolArguments } from './tool-views.js';

export interface EventCardContext {
  /** Loaded events by id, to describe what a condensation forgot. */
  byId: ReadonlyMap<string, EventJson>;
  /** Ids of events that start a branch (their parent has more than one child, or it is not the previous event). */
  branchNote(event: EventJson): string | undefined;
  onFork?(event: EventJson): void;
}

function Thinking({ event }: { event: EventJson }) {
  const reasoning = str(event.reasoning_content) ?? '';
  const blocks = arr(event.thinking_blocks)
    .map((block) => str(obj(block)?.thinking) ?? '')
    .filter((text) => text !== '');
  const thought = contentText(event.thought);
  const text = [reasoning, ...blocks].filter((part) => part !== '').join('\n\n');
  return (
    <>
      {thought === '' ? null : <Markdown text={thought} />}
      {text === '' ? null : (
        <details class="thinking">
          <summary>Reasoning</summary>
          <pre class="output">{text}</pre>
        </details>
      )}
    </>
  );
}

function Body({ event, context }: { event: EventJson; context: EventCardContext }) {
  switch (event.kind) {
    case 'MessageEvent': {
      const message = obj(event.llm_message);
      return (
        <>
          <Thinking
            event={{
              ...event,
              ...(message === undefined
                ? {}
                : { reasoning_content: message.reasoning_content, thinking_blocks: message.thinking_blocks }),
            }}
          />
          <Markdown text={contentText(message?.content)} />
          <EventImages urls={contentImages(message?.content)} />
        </>
      );
    }
    case 'ActionEvent': {
      const action = obj(event.action);
      if (action?.kind === 'FinishAction' || action?.kind === 'ThinkAction') {
        return (
          <>
            <Thinking event={event} />
            <Markdown text={str(action.message) ?? str(action.thought) ?? ''} />
          </>
        );
      }
      return (
        <>
          <Thinking event={event} />
          <ToolArguments event={event} />
          {str(event.security_risk) !== undefined && event.security_risk !== 'UNKNOWN' ? (
            <p class="muted">security risk: {str(event.security_risk)}</p>
          ) : null}
        </>
      );
    }
    case 'ObservationEvent': {
      const observation = obj(event.observation);
      return observation === undefined ? null : <ObservationBody observation={observation} />;
    }
    case 'UserRejectObservation':
      return <p>Rejected: {str(event.rejection_reason) ?? ''}</p>;
    case 'AgentErrorEvent':
    case 'ConversationErrorEvent':
      return <pre class="output error">{str(event.error) ?? str(event.detail) ?? ''}</pre>;
    case 'SystemPromptEvent':
      return (
        <details>
          <summary>System prompt ({arr(event.tools).length} tools)</summary>
          <pre class="output">{contentText(event.system_prompt) || str(obj(event.system_prompt)?.text) || ''}</pre>
        </details>
      );
    case 'Condensation': {
      const forgotten = arr(event.forgotten_event_ids).filter((id): id is string => typeof id === 'string');
      return (
        <>
          {str(event.summary) === undefined ? null : <Markdown text={str(event.summary) ?? ''} />}
          <details>
            <summary>Forgot {forgotten.length} events</summary>
            <ul class="forgotten">
              {forgotten.map((id) => {
                const known = context.byId.get(id);
                return (
                  <li key={id}>
                    <code>{id.slice(0, 8)}</code> {known === undefined ? '' : `${known.kind}: ${preview(known)}`}
                  </li>
                );
              })}
            </ul>
          </details>
        </>
      );
    }
    case 'CondensationRequest':
      return <p class="muted">Condensation requested</p>;
    case 'PauseEvent':
      return <p class="muted">Paused</p>;
    case 'InterruptEvent':
      return <p class="muted">Interrupted</p>;
    case 'HookExecutionEvent':
      return (
        <>
          <p>
            {str(event.hook_event_type)} hook <code>{str(event.hook_command)}</code>: exit {String(event.exit_code)}
            {event.blocked === true ? ' · blocked' : ''}
          </p>
          {(str(event.stdout) ?? '') + (str(event.stderr) ?? '') === '' ? null : (
            <pre class="terminal">{(str(event.stdout) ?? '') + (str(event.stderr) ?? '')}</pre>
          )}
        </>
      );
    case 'ACPToolCallEvent':
      return (
        <pre class="args">
          {JSON.stringify({ title: event.title, status: event.status, raw_input: event.raw_input }, null, 2)}
        </pre>
      );
    default:
      return <pre class="args">{JSON.stringify(event, null, 2).slice(0, 4000)}</pre>;
  }
}

/** A one-line description of an event (condensation details, tooltips). */
export function preview(event: EventJson): string {
  const message = obj(event.llm_message);
  const text =
    contentText(message?.content) || str(event.tool_name) || str(event.error) || str(event.summary) || event.kind;
  return text.length > 80 ? `${text.slice(0, 80)}…` : text;
}

function label(event: EventJson): string {
  const source = str(event.source) ?? '';
  switch (event.kind) {
    case 'MessageEvent':
      return source === 'user' ? 'User' : source === 'agent' ? 'Agent' : `Message (${source})`;
    case 'ActionEvent':
      return `Tool call · ${str(event.tool_name) ?? '?'}`;
    case 'ObservationEvent':
      return `Result · ${str(event.tool_name) ?? '?'}`;
    case 'HookExecutionEvent':
      return 'Hook';
    default:
      return event.kind.replace(/Event$/, '');
  }
}

export function EventCard({ event, context }: { event: EventJson; context: EventCardContext }) {
  const note = context.branchNote(event);
  const isError = event.kind === 'AgentErrorEvent' || event.kind === 'ConversationErrorEvent';
  return (
    <article
      class={`event kind-${event.kind} source-${str(event.source) ?? 'unknown'}${isError ? ' is-error' : ''}`}
      data-event-id={event.id}
    >
      <header>
        <span class="label">{label(event)}</span>
        <time title={str(event.timestamp)}>{shortTime(event.timestamp)}</time>
        {note === undefined ? null : <span class="branch">{note}</span>}
        {context.onFork === undefined ? null : (
          <button
            type="button"
            class="link fork"
            onClick={() => context.onFork?.(event)}
            title="Fork the conversation from this event"
          >
            Fork
          </button>
        )}
      </header>
      <Body event={event} context={context} />
    </article>
  );
}
