/**
 * Keeps the page's collections current through the console's event stream. The browser's EventSource reconnects by
 * itself when the console goes away; until it is back, the page says so (`connected` false) and keeps what it had.
 */
import { useEffect, useState } from 'preact/hooks';
import { applyMessage, type Collections, type StreamMessage } from './model/collections.ts';

/** The collections named by `keys`, live, and whether the stream to the console is open. */
export function useCollections(keys: readonly string[]): { collections: Collections; connected: boolean } {
  const [collections, setCollections] = useState<Collections>(new Map());
  const [connected, setConnected] = useState(true);
  const query = keys.map((k) => `c=${encodeURIComponent(k)}`).join('&');
  useEffect(() => {
    setCollections(new Map());
    const source = new EventSource(`/api/stream?${query}`);
    source.onopen = () => setConnected(true);
    source.onerror = () => setConnected(false);
    source.onmessage = (event: MessageEvent<string>) => {
      const message = JSON.parse(event.data) as StreamMessage;
      setCollections((current) => applyMessage(current, message));
    };
    return () => source.close();
  }, [query]);
  return { collections, connected };
}
