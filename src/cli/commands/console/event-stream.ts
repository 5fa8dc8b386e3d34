/** The page's one event stream: the collections it names, watched as the session's principal (server-sent events). */
import type { ServerResponse } from 'node:http';
import { parseCollection, type CollectionRef, type StreamMessage } from './collections.ts';
import { HttpProblem } from './http.ts';
import { SECURITY_HEADERS } from './security.ts';
import type { Session } from './session.ts';

/** The most collections one stream may watch, and the most a stream may have unsent before it is dropped. */
const MAX_COLLECTIONS = 16;
const MAX_UNSENT_BYTES = 8 << 20;

/** Opens the event stream of the collections `?c=` names and keeps it until the page goes. */
export function stream(session: Session, url: URL, response: ServerResponse): void {
  const hub = session.principal.hub;
  let refs: CollectionRef[];
  try {
    refs = [...new Set(url.searchParams.getAll('c'))].map(parseCollection);
  } catch (error) {
    throw new HttpProblem(400, error instanceof Error ? error.message : String(error));
  }
  if (refs.length > MAX_COLLECTIONS) throw new HttpProblem(400, `a stream watches at most ${String(MAX_COLLECTIONS)} collections`);
  response.writeHead(200, { ...SECURITY_HEADERS, 'content-type': 'text/event-stream', 'cache-control': 'no-store', connection: 'keep-alive' });
  // A page that stops reading (a frozen tab) is dropped rather than buffered for; it reconnects and is sent the lists again.
  const write = (text: string): void => void (response.writableLength > MAX_UNSENT_BYTES ? response.destroy() : response.write(text));
  write('retry: 1000\n\n');
  const stops = refs.map((ref) => hub.subscribe(ref, (m: StreamMessage) => write(`data: ${JSON.stringify(m)}\n\n`)));
  // A comment now and then: proxies and the browser keep an idle stream open, and a dead page is noticed.
  const heartbeat = setInterval(() => write(': heartbeat\n\n'), 15_000);
  // Ended with the session (sign-out in another tab, expiry): the page then finds it has none.
  session.streams.add(response);
  response.on('close', () => {
    session.streams.delete(response);
    clearInterval(heartbeat);
    for (const stop of stops) stop();
  });
}
