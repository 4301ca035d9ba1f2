import { useCallback, useEffect, useState } from 'preact/hooks';
import { onUnauthorized } from './api/api-client.js';
import { clearSessionKey, readSessionKey } from './api/session-key.js';
import { ConversationList } from './views/conversation-list.js';
import { ConversationPage } from './views/conversation-page.js';
import { KeyPrompt } from './views/key-prompt.js';

function currentRoute(): { view: 'list' } | { view: 'conversation'; id: string } {
  const match = /^#\/c\/([^/?#]+)/.exec(location.hash);
  if (match?.[1] !== undefined) return { view: 'conversation', id: decodeURIComponent(match[1]) };
  return { view: 'list' };
}

type Auth = 'ok' | 'needed' | 'rejected';

/** Routes by the URL fragment (`#/` list, `#/c/<id>` one conversation); asks for the key when the server wants one. */
export function App() {
  const [route, setRoute] = useState(currentRoute);
  // Optimistic: the views load at once (no extra round trip before the first screen); the first 401
  // from the API or the socket brings up the key prompt.
  const [auth, setAuth] = useState<Auth>('ok');
  const unauthorized = useCallback(() => {
    clearSessionKey();
    setAuth('rejected');
  }, []);

  useEffect(() => {
    const onHash = () => setRoute(currentRoute());
    window.addEventListener('hashchange', onHash);
    const off = onUnauthorized(() => setAuth(readSessionKey() === undefined ? 'needed' : 'rejected'));
    return () => {
      window.removeEventListener('hashchange', onHash);
      off();
    };
  }, []);

  if (auth !== 'ok') return <KeyPrompt rejected={auth === 'rejected'} onDone={() => setAuth('ok')} />;
  return route.view === 'list' ? (
    <ConversationList />
  ) : (
    <ConversationPage key={route.id} id={route.id} onUnauthorized={unauthorized} />
  );
}
