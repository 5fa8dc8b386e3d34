/**
 * The console's shell: the header, the banners that say when the console or the API server is out of reach, and
 * the page for the URL. Navigation uses the History API, so every page has an address to bookmark or share.
 */
import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { CapacityPage } from './pages/capacity.tsx';
import { ClusterPage } from './pages/cluster.tsx';
import { ClustersPage } from './pages/clusters.tsx';
import { CreatePage } from './pages/create.tsx';
import type { Connection } from './live.ts';
import { problemsOf, type Collections } from './model/collections.ts';

/** Goes to a path of the console without reloading the page. */
export function navigate(path: string): void {
  history.pushState(null, '', path);
  dispatchEvent(new PopStateEvent('popstate'));
}

/** A link to a page of the console. */
export function Link(props: { href: string; children: ComponentChildren; class?: string }): preact.JSX.Element {
  const go = (event: MouseEvent): void => {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey) return;
    event.preventDefault();
    navigate(props.href);
  };
  return (
    <a href={props.href} onClick={go} class={props.class}>
      {props.children}
    </a>
  );
}

/** What a page shows above itself when the stream is down or a collection is forbidden or unreachable. */
export function Banners(props: { collections: Collections; connection: Connection }): preact.JSX.Element | null {
  const problems = problemsOf(props.collections);
  if (props.connection === 'open' && problems.length === 0) return null;
  return (
    <div class="banners">
      {props.connection === 'reconnecting' && (
        <p role="alert" class="banner banner-warning">
          Reconnecting to the console…
        </p>
      )}
      {props.connection === 'signed-out' && (
        <p role="alert" class="banner banner-forbidden">
          This console no longer knows this page's session (was hcp console started again?): open the URL it printed.
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

/** The console. */
export function App(): preact.JSX.Element {
  const path = usePath();
  return (
    <>
      <a class="skip" href="#main">
        Skip to content
      </a>
      <header class="top">
        <Link href="/" class="brand">
          Hosted clusters
        </Link>
        <nav aria-label="Console">
          <Link href="/">Clusters</Link>
          <Link href="/create">Create cluster</Link>
          <Link href="/capacity">Capacity</Link>
        </nav>
      </header>
      <main id="main" tabIndex={-1}>
        <Page path={path} />
      </main>
    </>
  );
}
