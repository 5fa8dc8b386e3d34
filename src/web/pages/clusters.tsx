/** The list of hosted clusters, live, with search and a status filter. */
import { useContext, useEffect, useState } from 'preact/hooks';
import type { HostedCluster, NodePool } from '../../api/v1beta1/zz_generated.types.ts';
import { Banners } from './banners.tsx';
import { Link, navigate } from '../navigation.tsx';
import { useCollections } from '../live.ts';
import { clusterRows, filterRows, type ClusterRow, type ConditionView } from '../model/clusters.ts';
import { itemsOf } from '../model/collections.ts';
import { TableHead } from './table.tsx';
import { SessionContext } from '../session.ts';

/** A ticking clock for ages, every 10 s. */
export function useNow(): number {
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 10_000);
    return () => clearInterval(timer);
  }, []);
  return now;
}

/** A condition's status as a badge, its reason beside it and its message on hover and for screen readers. */
export function ConditionBadge(props: { label: string; condition: ConditionView; goodWhen?: 'True' | 'False' }): preact.JSX.Element {
  const { status, reason, message } = props.condition;
  // Coloured by what the status means (Progressing=False is calm), not by the word.
  const tone = status === 'Unknown' ? 'unknown' : status === (props.goodWhen ?? 'True') ? 'true' : props.goodWhen === 'False' ? 'unknown' : 'false';
  return (
    <span class={`badge badge-${tone}`} title={message}>
      <span class="visually-hidden">{props.label}: </span>
      {status === 'True' ? 'Yes' : status === 'False' ? 'No' : 'Unknown'}
      {reason !== '' && <span class="reason"> · {reason}</span>}
    </span>
  );
}

/** Which namespace the list shows; empty: all of them. */
function NamespacePicker(props: { namespace: string }): preact.JSX.Element {
  const [typed, setTyped] = useState(props.namespace);
  const apply = (): void => navigate(typed.trim() === '' ? '/' : `/?namespace=${encodeURIComponent(typed.trim())}`);
  return (
    <label>
      Namespace
      <input value={typed} onInput={(e) => setTyped(e.currentTarget.value)} onChange={apply} placeholder="all namespaces" />
    </label>
  );
}

/** The table of clusters. */
function ClusterTable(props: { rows: readonly ClusterRow[] }): preact.JSX.Element {
  return (
    <table class="clusters">
      <caption class="visually-hidden">Hosted clusters</caption>
      <TableHead columns={['Name', 'Namespace', 'Version', 'Available', 'Progressing', 'Control plane', 'Nodes', 'Age']} />
      <tbody>
        {props.rows.map((r) => (
          <tr key={r.key} class={r.deleting ? 'deleting' : undefined}>
            <th scope="row">
              <Link href={`/clusters/${encodeURIComponent(r.namespace)}/${encodeURIComponent(r.name)}`}>{r.name}</Link>
              {r.deleting && <span class="tag">deleting</span>}
            </th>
            <td>{r.namespace}</td>
            <td>{r.version}</td>
            <td>
              <ConditionBadge label="Available" condition={r.available} />
            </td>
            <td>
              <ConditionBadge label="Progressing" condition={r.progressing} goodWhen="False" />
            </td>
            <td>{r.availabilityPolicy}</td>
            <td>
              {r.nodesReady}/{r.nodesDesired}
              <span class="muted"> in {r.pools} {r.pools === 1 ? 'pool' : 'pools'}</span>
            </td>
            <td>{r.age}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** When the user may not list every namespace, the one their kubeconfig's context (or sign-in) names, as kubectl would use. */
function useFallbackNamespace(namespace: string, forbidden: boolean): void {
  const fallback = useContext(SessionContext).namespace;
  useEffect(() => {
    // Without one the page stays on all namespaces, its banner saying why it shows nothing.
    if (namespace === '' && forbidden && fallback !== null) navigate(`/?namespace=${encodeURIComponent(fallback)}`);
  }, [namespace, forbidden, fallback]);
}

/** The page: every namespace, or one (`?namespace=`). */
export function ClustersPage(props: { namespace: string }): preact.JSX.Element {
  const scope = props.namespace === '' ? '' : `@${props.namespace}`;
  const { collections, connection } = useCollections([`HostedCluster${scope}`, `NodePool${scope}`]);
  const [query, setQuery] = useState('');
  const [status, setStatus] = useState<'all' | 'available' | 'unavailable'>('all');
  const now = useNow();
  const state = collections.get(`HostedCluster${scope}`)?.state;
  useFallbackNamespace(props.namespace, state === 'forbidden');
  const rows = clusterRows(itemsOf<HostedCluster>(collections, `HostedCluster${scope}`), itemsOf<NodePool>(collections, `NodePool${scope}`), now);
  const shown = filterRows(rows, query, status);
  const loading = state === undefined || state === 'loading';
  return (
    <section aria-labelledby="clusters-title">
      <div class="page-head">
        <h1 id="clusters-title">Hosted clusters</h1>
        <Link href="/create" class="button primary">
          Create cluster
        </Link>
      </div>
      <Banners collections={collections} connection={connection} />
      <div class="filters" role="search">
        <NamespacePicker namespace={props.namespace} />
        <label>
          Search
          <input type="search" value={query} onInput={(e) => setQuery(e.currentTarget.value)} placeholder="name, namespace, version, label…" />
        </label>
        <label>
          Status
          <select value={status} onChange={(e) => setStatus(e.currentTarget.value as typeof status)}>
            <option value="all">All</option>
            <option value="available">Available</option>
            <option value="unavailable">Not available</option>
          </select>
        </label>
        <p class="count" aria-live="polite">
          {loading ? 'Loading…' : `${String(shown.length)} of ${String(rows.length)} clusters`}
        </p>
      </div>
      <ClusterTable rows={shown} />
      {state === 'ok' && rows.length === 0 && <p class="empty">No hosted clusters you may see. Create one with the button above or with hcp create cluster kubevirt.</p>}
    </section>
  );
}
