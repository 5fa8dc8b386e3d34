/**
 * Keeps the page's collections current through the console's event stream. The browser's EventSource reconnects by
 * itself when the console goes away; until it is back, the page says so (`connected` false) and keeps what it had.
 */
import { useEffect, useState } from 'preact/hooks';
import { applyMessage, type Collections, type StreamMessage } from './model/collections.ts';

/** How the page's stream to the console stands: open, being retried, or refused (the console has no such session: restarted). */
export type Connection = 'open' | 'reconnecting' | 'signed-out';

/** Whether the console still knows this page's session (a console started again has a new token and no sessions). */
const sessionEnded = async (): Promise<boolean> => (await fetch('/api/session').catch(() => undefined))?.status === 401;

/** The collections named by `keys`, live, and how the stream to the console stands. */
export function useCollections(keys: readonly string[]): { collections: Collections; connection: Connection } {
  const [collections, setCollections] = useState<Collections>(new Map());
  const [connection, setConnection] = useState<Connection>('open');
  // The browser retries a dropped stream by itself, but gives up on an answer that is not a stream (a console that
  // came back without this session answers 401): then the page tries again itself, every few seconds.
  const [attempt, setAttempt] = useState(0);
  const query = keys.map((k) => `c=${encodeURIComponent(k)}`).join('&');
  useEffect(() => {
    const source = new EventSource(`/api/stream?${query}`);
    let retry: ReturnType<typeof setTimeout> | undefined;
    source.onopen = () => setConnection('open');
    source.onerror = () => {
      setConnection('reconnecting');
      if (source.readyState !== EventSource.CLOSED) return;
      void sessionEnded().then((ended) => setConnection(ended ? 'signed-out' : 'reconnecting'));
      retry = setTimeout(() => setAttempt((n) => n + 1), 3000);
    };
    source.onmessage = (event: MessageEvent<string>) => {
      const message = JSON.parse(event.data) as StreamMessage;
      setCollections((current) => applyMessage(current, message));
    };
    return () => {
      clearTimeout(retry);
      source.close();
    };
  }, [query, attempt]);
  // A different set of collections starts empty; a reconnection keeps what the page shows until the new sync.
  useEffect(() => setCollections(new Map()), [query]);
  return { collections, connection };
}
