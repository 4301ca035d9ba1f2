import { useEffect, useRef, useState } from 'preact/hooks';
import { storeSessionKey } from '../api/session-key.js';

/** Asks for the session API key once; it is kept in this tab's sessionStorage only. */
export function KeyPrompt({ onDone, rejected }: { onDone(): void; rejected: boolean }) {
  const [key, setKey] = useState('');
  const input = useRef<HTMLInputElement>(null);
  // The prompt is the whole page: its only field takes the focus.
  useEffect(() => input.current?.focus(), []);
  return (
    <main class="key-prompt">
      <form
        onSubmit={(event) => {
          event.preventDefault();
          if (key === '') return;
          storeSessionKey(key);
          onDone();
        }}
      >
        <h1>x viewer</h1>
        <label for="session-key">Session API key</label>
        <input
          id="session-key"
          type="password"
          autocomplete="off"
          value={key}
          onInput={(event) => setKey((event.target as HTMLInputElement).value)}
          ref={input}
        />
        {rejected ? <p class="error">The server did not accept this key.</p> : null}
        <button type="submit">Open</button>
        <p class="muted">Kept in this tab only (sessionStorage), sent as the X-Session-API-Key header.</p>
      </form>
    </main>
  );
}
