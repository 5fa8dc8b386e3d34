/**
 * The console's shell: the header and the page for the URL (the banners and the navigation are their own modules).
 */
import { useCallback, useContext, useEffect, useState } from 'preact/hooks';
import { CapacityPage } from './pages/capacity.tsx';
import { ClusterPage } from './pages/cluster.tsx';
import { ClustersPage } from './pages/clusters.tsx';
import { CreatePage } from './pages/create.tsx';
import { SignInPage } from './pages/sign-in.tsx';
import { Link } from './navigation.tsx';
import { call } from './api.ts';
import { initialSession, loadSession, SessionContext, type SessionState } from './session.ts';

/** The page's path and query, kept current as the user navigates. */
function usePath(): string {
  const [path, setPath] = useState(location.pathname + location.search);
  useEffect(() => {
    const update = (): void => setPath(location.pathname + location.search);
    addEventListener('popstate', update);
    return () => removeEventListener('popstate', update);
  }, []);
  return path;
}

function Page(props: { path: string }): preact.JSX.Element {
  const url = new URL(props.path, location.origin);
  if (url.pathname === '/create') return <CreatePage />;
  if (url.pathname === '/capacity') return <CapacityPage />;
  const detail = /^\/clusters\/([^/]+)\/([^/]+)$/.exec(url.pathname);
  if (detail !== null) return <ClusterPage namespace={decodeURIComponent(detail[1] ?? '')} name={decodeURIComponent(detail[2] ?? '')} />;
  return <ClustersPage namespace={url.searchParams.get('namespace') ?? ''} />;
}

/** Who is signed in, and the way out (token sign-in only). */
function SignedIn(props: { signedOut: () => void }): preact.JSX.Element | null {
  const session = useContext(SessionContext);
  if (session.signIn !== 'token') return null;
  const signOut = async (): Promise<void> => {
    await call('POST', '/api/sign-out', {});
    props.signedOut();
  };
  return (
    <p class="signed-in">
      Signed in as <strong>{session.user ?? 'unknown user'}</strong>{' '}
      <button type="button" class="link" onClick={() => void signOut()}>
        Sign out
      </button>
    </p>
  );
}

/** The page for the session's state: the console, the sign-in form, or why there is no session. */
function Body(props: { session: SessionState; path: string; reload: () => void }): preact.JSX.Element {
  const { session } = props;
  if (session.state === 'signed-in') return <Page path={props.path} />;
  if (session.state === 'sign-in') return <SignInPage signedIn={props.reload} />;
  if (session.state === 'loading') return <p class="muted">Loading…</p>;
  return (
    <p role="alert" class="banner banner-forbidden">
      {session.message}
    </p>
  );
}

/** The console. */
export function App(): preact.JSX.Element {
  const path = usePath();
  const [session, setSession] = useState<SessionState>(initialSession);
  const reload = useCallback(() => void loadSession().then(setSession), []);
  const loading = session.state === 'loading';
  useEffect(() => (loading ? reload() : undefined), [loading, reload]);
  const signedIn = session.state === 'signed-in';
  return (
    <SessionContext.Provider value={signedIn ? session.info : { signIn: 'kubeconfig', user: null, namespace: null }}>
      <a class="skip" href="#main">
        Skip to content
      </a>
      <header class="top">
        <Link href="/" class="brand">
          Hosted clusters
        </Link>
        {signedIn && (
          <nav aria-label="Console">
            <Link href="/">Clusters</Link>
            <Link href="/create">Create cluster</Link>
            <Link href="/capacity">Capacity</Link>
          </nav>
        )}
        <SignedIn signedOut={() => setSession({ state: 'sign-in' })} />
      </header>
      <main id="main" tabIndex={-1}>
        <Body session={session} path={path} reload={reload} />
      </main>
    </SessionContext.Provider>
  );
}
