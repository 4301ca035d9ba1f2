// The page of the react-chat example: one conversation through `useConversation` from @x/react. Built for the
// browser with esbuild (build-browser.mjs); dist/react-chat.js serves it.
import type { AnyEvent } from '@x/events';
import { useConversation } from '@x/react';
import { type FormEvent, useState } from 'react';
import { createRoot } from 'react-dom/client';

// The server prints the page's address with the conversation and the session key in the fragment, which
// never leaves the browser; the page takes them and clears the address bar.
const params = new URLSearchParams(location.hash.slice(1));
const conversationId = params.get('conversation') ?? '';
const apiKey = params.get('key') ?? undefined;
history.replaceState(null, '', location.pathname);

/** The text of a message event, or undefined for every other kind. */
function messageText(event: AnyEvent): string | undefined {
  if (event.kind !== 'MessageEvent') return undefined;
  return event.llm_message.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
}

function Chat() {
  const conversation = useConversation({ baseUrl: location.origin, conversationId, apiKey });
  const [draft, setDraft] = useState('');
  const [failure, setFailure] = useState<string>();
  const act = (action: () => Promise<void>) => {
    action().then(
      () => setFailure(undefined),
      (error: Error) => setFailure(error.message),
    );
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    act(() => conversation.send(draft));
    setDraft('');
  };
  return (
    <main>
      <p>
        <span id="connection">{conversation.connection}</span> · <span id="status">{conversation.executionStatus}</span>
      </p>
      <ol id="messages">
        {conversation.events.map((event) => {
          const text = messageText(event);
          return text === undefined ? null : (
            <li key={event.id} className={event.source}>
              <b>{event.source}:</b> {text}
            </li>
          );
        })}
      </ol>
      {conversation.streamingText === '' ? null : <p id="streaming">{conversation.streamingText}</p>}
      {conversation.pendingConfirmations.length === 0 ? null : (
        <p id="pending">
          Run {conversation.pendingConfirmations.map((action) => action.tool_name).join(', ')}?{' '}
          <button type="button" onClick={() => act(conversation.confirm)}>
            Confirm
          </button>
          <button type="button" onClick={() => act(() => conversation.reject())}>
            Reject
          </button>
        </p>
      )}
      <form onSubmit={submit}>
        <input aria-label="Message" value={draft} onChange={(event) => setDraft(event.target.value)} />
        <button type="submit" disabled={draft === ''}>
          Send
        </button>
        <button type="button" onClick={() => act(conversation.pause)}>
          Pause
        </button>
      </form>
      {failure === undefined && conversation.error === undefined ? null : (
        <p id="error">{failure ?? conversation.error?.message}</p>
      )}
    </main>
  );
}

const root = document.getElementById('root');
if (root !== null) createRoot(root).render(<Chat />);
