/** The banners a page shows when the console or the API server is out of reach, or a collection is forbidden. */
import { useContext } from 'preact/hooks';
import type { Connection } from '../live.ts';
import { problemsOf, type Collections } from '../model/collections.ts';
import { SessionContext } from '../session.ts';

/** What a page shows above itself when the stream is down or a collection is forbidden or unreachable. */
export function Banners(props: { collections: Collections; connection: Connection }): preact.JSX.Element | null {
  const problems = problemsOf(props.collections);
  const session = useContext(SessionContext);
  if (props.connection === 'open' && problems.length === 0) return null;
  return (
    <div class="banners">
      {props.connection === 'reconnecting' && (
        <p role="alert" class="banner banner-warning">
          Reconnecting to the console…
        </p>
      )}
      {props.connection === 'signed-out' && session.signIn === 'kubeconfig' && (
        <p role="alert" class="banner banner-forbidden">
          This console no longer knows this page's session (was hcp console started again?): open the URL it printed.
        </p>
      )}
      {props.connection === 'signed-out' && session.signIn === 'token' && (
        <p role="alert" class="banner banner-forbidden">
          Your session has ended (it expired, you signed out, or the console restarted): <a href="/">sign in again</a>.
        </p>
      )}
      {problems.map((p) => (
        <p key={p.collection} role={p.state === 'reconnecting' ? 'alert' : 'status'} class={`banner ${p.state === 'forbidden' ? 'banner-forbidden' : 'banner-warning'}`}>
          {p.message}
        </p>
      ))}
    </div>
  );
}
