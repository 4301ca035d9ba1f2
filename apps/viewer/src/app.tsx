import { useEffect, useState } from 'preact/hooks';
import { onUnauthorized } from './api/api-client.js';
import { readSessionKey } from './api/session-key.js';
import { ComparePage } from './views/compare-page.js';
import { ConversationList } from './views/conversation-list.js';
import { ConversationPage } from './views/conversation-page.js';
import { KeyPrompt } from './views/key-prompt.js';
import { SubConversationPage } from './views/sub-conversation-page.js';

type Route =
  | { view: 'list' }
  | { view: 'conversation'; id: string; eventId?: string }
  | { view: 'sub'; id: string; subId: string }
  | { view: 'compare'; id: string; otherId: string };

function currentRoute(): Route {
  const match = /^#\/c\/([^/?#]+)(?:\/(e|sub|compare)\/([^/?#]+))?/.exec(location.hash);
  if (match?.[1] === undefined) return { view: 'list' };
  const id = decodeURIComponent(match[1]);
  const tail = match[3] === undefined ? undefined : decodeURIComponent(match[3]);
  if (match[2] === 'sub' && tail !== undefined) return { view: 'sub', id, subId: tail };
  if (match[2] === 'compare' && tail !== undefined) return { view: 'compare', id, otherId: tail };
  return tail === undefined ? { view: 'conversation', id } : { view: 'conversation', id, eventId: tail };
}

type Auth = 'ok' | 'needed' | 'rejected';

/**
 * Routes by the URL fragment (`#/` list, `#/c/<id>` one conversation, `#/c/<id>/e/<event>` at an event,
 * `#/c/<id>/sub/<child>` a sub-agent's log, `#/c/<id>/compare/<other>` two branches side by side); asks for the key when the server wants one.
 */
export function App() {
  const [route, setRoute] = useState(currentRoute);
  // Optimistic: the views load at once (no extra round trip before the first screen); the first 401
  // from the API or the socket brings up the key prompt.
  const [auth, setAuth] = useState<Auth>('ok');

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
  if (route.view === 'list') return <ConversationList />;
  if (route.view === 'compare')
    return <ComparePage key={`${route.id}:${route.otherId}`} id={route.id} otherId={route.otherId} />;
  if (route.view === 'sub') return <SubConversationPage key={route.subId} parentId={route.id} subId={route.subId} />;
  return <ConversationPage key={route.id} id={route.id} eventId={route.eventId} />;
}
