import { createConversationCommands, RemoteAuthError, RemoteRequestError } from '@x/client';
import { useState } from 'preact/hooks';
import { notifyUnauthorized } from '../api/api-client.js';
import { readSessionKey } from '../api/session-key.js';
import type { ConversationInfo, EventJson } from '../api/types.js';
import { Timeline } from '../timeline/timeline.js';
import { useConversationEvents } from '../timeline/use-conversation-events.js';
import { useFocusEvent } from '../timeline/use-focus-event.js';
import { BudgetBanner } from './budget-banner.js';
import { DecisionPanel } from './decision-panel.js';
import { formatCost, titleOf, totalCost } from './format.js';
import { InsightsPanel } from './insights-panel.js';
import { PromoteButton } from './promote-button.js';
import { SessionPanel } from './session-panel.js';
import { StatsPanel } from './stats-panel.js';

function ConversationLink({ id, label }: { id: string; label: string }) {
  return (
    <a href={`#/c/${encodeURIComponent(id)}`}>
      {label} {id.slice(0, 8)}
    </a>
  );
}

function Relations({ info }: { info: ConversationInfo }) {
  const subs = (info.sub_conversation_ids ?? []).filter((id): id is string => typeof id === 'string');
  const links = [
    ...(typeof info.parent_conversation_id === 'string'
      ? [<ConversationLink key="parent" id={info.parent_conversation_id} label="parent" />]
      : []),
    ...(typeof info.forked_from_conversation_id === 'string'
      ? [
          <ConversationLink key="fork" id={info.forked_from_conversation_id} label="forked from" />,
          <a
            key="compare"
            data-testid="compare-link"
            href={`#/c/${encodeURIComponent(info.forked_from_conversation_id)}/compare/${encodeURIComponent(info.id)}`}
          >
            compare with it
          </a>,
        ]
      : []),
    ...subs.map((sub) => (
      <a key={sub} href={`#/c/${encodeURIComponent(info.id)}/sub/${encodeURIComponent(sub)}`}>
        sub-conversation {sub.slice(0, 8)}
      </a>
    )),
  ];
  return links.length === 0 ? null : (
    <nav class="relations" aria-label="Related conversations">
      {links}
    </nav>
  );
}

/**
 * One conversation: header with status, cost and actions, its tree and usage pictures, the live timeline (at
 * `eventId` when the link named one), and the message box.
 */
export function ConversationPage({ id, eventId }: { id: string; eventId?: string | undefined }) {
  const data = useConversationEvents(id);
  useFocusEvent(eventId, data);
  const [message, setMessage] = useState('');
  const [notice, setNotice] = useState<string | undefined>(undefined);
  const info = data.info;
  const status = info?.execution_status ?? 'unknown';
  // The pictures are fetched again when a run ends or an event arrives outside a run, not on every event.
  const picturesVersion = status === 'running' ? 'running' : `${status}:${data.logLength}`;

  const act = async (what: string, action: () => Promise<unknown>) => {
    setNotice(undefined);
    try {
      await action();
    } catch (caught) {
      if (RemoteAuthError.isInstance(caught)) notifyUnauthorized();
      setNotice(`${what} failed: ${RemoteRequestError.isInstance(caught) ? caught.detail : (caught as Error).message}`);
    }
  };
  const fork = (event: EventJson) =>
    act('Fork', async () => {
      const apiKey = readSessionKey();
      const commands = createConversationCommands(location.origin, id, apiKey === undefined ? {} : { apiKey });
      const created = await commands.fork({ fromEventId: event.id });
      location.hash = `#/c/${encodeURIComponent(created.id)}`;
    });

  return (
    <main class="conversation-view">
      <header class="toolbar">
        <a href="#/" class="back">
          ← Conversations
        </a>
        <h1>{info === undefined ? id : titleOf(info)}</h1>
        <span class={`status status-${status}`} data-testid="status">
          {status}
        </span>
        {info === undefined ? null : <span class="cost">{formatCost(totalCost(info))}</span>}
        <span class={`connection connection-${data.connection}`} title="Live connection">
          {data.connection === 'open' ? 'live' : data.connection}
        </span>
        <button type="button" onClick={() => void act('Run', () => data.run())} disabled={status === 'running'}>
          Run
        </button>
        <button type="button" onClick={() => void act('Pause', () => data.pause())} disabled={status !== 'running'}>
          Pause
        </button>
        <button
          type="button"
          title="Stop now: abort the model call and the running command; the conversation stays paused, resumable"
          onClick={() => void act('Interrupt', () => data.interrupt())}
          disabled={status !== 'running'}
        >
          Interrupt
        </button>
        <PromoteButton conversationId={id} disabled={status === 'running'} />
      </header>
      {info === undefined ? null : <Relations info={info} />}
      {info === undefined ? null : <StatsPanel info={info} />}
      <BudgetBanner status={status} events={data.events} />
      <SessionPanel conversationId={id} info={info} />
      {info === undefined ? null : <InsightsPanel conversationId={id} version={picturesVersion} />}
      {data.error === undefined ? null : (
        <p class="error" role="alert">
          {data.error}
        </p>
      )}
      {notice === undefined ? null : (
        <p class="error" role="alert">
          {notice}
        </p>
      )}
      <Timeline
        events={data.events}
        byId={data.byId}
        hasOlder={data.hasOlder}
        loadingOlder={data.loadingOlder}
        loadOlder={data.loadOlder}
        streaming={data.streaming}
        onFork={(event) => void fork(event)}
      />
      {status === 'waiting_for_confirmation' ? (
        <section class="confirm" aria-label="Pending actions">
          <span>The agent is waiting for confirmation of its pending actions.</span>
          <button type="button" class="approve" onClick={() => void act('Approve', () => data.confirm())}>
            Approve
          </button>
          <button
            type="button"
            class="reject"
            onClick={() => void act('Reject', () => data.reject('Rejected in the viewer.'))}
          >
            Reject
          </button>
        </section>
      ) : null}
      <DecisionPanel
        id={id}
        waiting={status === 'waiting_for_confirmation'}
        eventCount={data.logLength}
        act={act}
        deny={async (reason) => {
          await data.reject(reason);
          // The agent goes on with the denial's reason in view, as `x run` does after a denial.
          await data.run();
        }}
      />
      <form
        class="composer"
        onSubmit={(event) => {
          event.preventDefault();
          const text = message.trim();
          if (text === '') return;
          void act('Send', async () => {
            await data.send(text);
            setMessage('');
          });
        }}
      >
        <textarea
          aria-label="Message"
          placeholder="Message the agent (Ctrl+Enter to send)"
          value={message}
          onInput={(event) => setMessage((event.target as HTMLTextAreaElement).value)}
          onKeyDown={(event) => {
            if (event.key === 'Enter' && (event.ctrlKey || event.metaKey))
              (event.currentTarget.form as HTMLFormElement).requestSubmit();
          }}
        />
        <button type="submit">Send</button>
      </form>
    </main>
  );
}
