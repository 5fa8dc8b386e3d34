/** One hosted cluster: conditions, control plane, versions, node pools with their machines, events, access, destroy. */
import type { HostedCluster, NodePool } from '../../api/v1beta1/zz_generated.types.ts';
import { Banners } from './banners.tsx';
import { useCollections } from '../live.ts';
import { itemsOf } from '../model/collections.ts';
import { componentRows, controlPlaneNamespace, eventRows, poolRows, type EventView, type MachineView, type PodView } from '../model/cluster.ts';
import { conditionView, versionOf } from '../model/clusters.ts';
import { ConditionBadge, useNow } from './clusters.tsx';
import { DestroyForm, PoolCard } from './cluster-actions.tsx';
import { TableHead } from './table.tsx';

function Conditions(props: { hc: HostedCluster }): preact.JSX.Element {
  const conditions = [...(props.hc.status?.conditions ?? [])].sort((a, b) => a.type.localeCompare(b.type));
  return (
    <section aria-labelledby="conditions-title">
      <h2 id="conditions-title">Conditions</h2>
      <table>
        <TableHead columns={['Type', 'Status', 'Reason', 'Message']} />
        <tbody>
          {conditions.map((c) => (
            <tr key={c.type}>
              <th scope="row">{c.type}</th>
              <td>{c.status}</td>
              <td>{c.reason}</td>
              <td class="message">{c.message}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

function ControlPlane(props: { pods: readonly PodView[]; history: ReadonlyArray<{ version?: string; state: string; startedTime?: string; completionTime?: string | null }> }): preact.JSX.Element {
  return (
    <section aria-labelledby="control-plane-title">
      <h2 id="control-plane-title">Control plane</h2>
      <ul class="components">
        {componentRows(props.pods).map((c) => (
          <li key={c.name} class={c.ready === c.total ? 'ok' : 'not-ready'}>
            <strong>{c.name}</strong> {c.ready}/{c.total} ready{c.restarts > 0 && <span class="muted"> · {c.restarts} restarts</span>}
            <span class="muted"> · {c.pods.map((p) => `${p.name} (${p.phase}${p.node === '' ? '' : ` on ${p.node}`})`).join(', ')}</span>
          </li>
        ))}
      </ul>
      <h3>Version history</h3>
      <ol class="history">
        {props.history.map((h) => (
          <li key={`${h.version ?? ''}-${h.startedTime ?? ''}`}>
            {h.version} · {h.state}
            {typeof h.completionTime === 'string' && <span class="muted"> · completed {h.completionTime}</span>}
          </li>
        ))}
      </ol>
    </section>
  );
}

function Events(props: { events: readonly EventView[]; now: number }): preact.JSX.Element {
  return (
    <section aria-labelledby="events-title">
      <h2 id="events-title">Events</h2>
      <table>
        <TableHead columns={['Age', 'Type', 'Reason', 'Object', 'Message']} />
        <tbody>
          {eventRows(props.events, props.now)
            .slice(0, 50)
            .map((e) => (
              <tr key={e.key}>
                <td>{e.age}</td>
                <td>{e.type}</td>
                <td>{e.reason}</td>
                <td>{`${e.involvedObject?.kind ?? ''}/${e.involvedObject?.name ?? ''}`}</td>
                <td class="message">{e.message}</td>
              </tr>
            ))}
        </tbody>
      </table>
    </section>
  );
}

function Summary(props: { hc: HostedCluster }): preact.JSX.Element {
  const { hc } = props;
  const [namespace, name] = [hc.metadata.namespace ?? '', hc.metadata.name ?? ''];
  return (
    <dl class="summary">
      <dt>Available</dt>
      <dd>
        <ConditionBadge label="Available" condition={conditionView(hc.status?.conditions, 'Available')} />
      </dd>
      <dt>Version</dt>
      <dd>{versionOf(hc)}</dd>
      <dt>Control plane</dt>
      <dd>{hc.spec.controllerAvailabilityPolicy ?? 'HighlyAvailable'}</dd>
      <dt>API server</dt>
      <dd>{hc.status?.controlPlaneEndpoint?.host === undefined ? 'not published yet' : `${hc.status.controlPlaneEndpoint.host}:${String(hc.status.controlPlaneEndpoint.port)}`}</dd>
      <dt>Access</dt>
      <dd>
        {hc.status?.kubeconfig === undefined ? (
          'no kubeconfig yet'
        ) : (
          <a href={`/api/kubeconfig/${encodeURIComponent(namespace)}/${encodeURIComponent(name)}`} download={`${name}-kubeconfig.yaml`}>
            Download kubeconfig
          </a>
        )}
      </dd>
    </dl>
  );
}

/** The page of one cluster. */
export function ClusterPage(props: { namespace: string; name: string }): preact.JSX.Element {
  const cpns = controlPlaneNamespace(props.namespace, props.name);
  const { collections, connection } = useCollections([`HostedCluster@${props.namespace}`, `NodePool@${props.namespace}`, `Pod@${cpns}`, `Event@${props.namespace}`, `Event@${cpns}`, `VirtualMachineInstance@${cpns}`]);
  const now = useNow();
  const hc = itemsOf<HostedCluster>(collections, `HostedCluster@${props.namespace}`).find((c) => c.metadata.name === props.name);
  const state = collections.get(`HostedCluster@${props.namespace}`)?.state;
  const pools = itemsOf<NodePool>(collections, `NodePool@${props.namespace}`).filter((p) => p.spec.clusterName === props.name);
  const named = new Set([props.name, ...pools.map((p) => p.metadata.name ?? '')]);
  const ofCluster = (e: EventView): boolean => e.metadata.namespace === cpns || named.has(e.involvedObject?.name ?? '');
  return (
    <section aria-labelledby="cluster-title">
      <h1 id="cluster-title">
        {props.name} <span class="muted">in {props.namespace}</span>
      </h1>
      <Banners collections={collections} connection={connection} />
      {hc === undefined ? (
        <p class="empty">{state === 'ok' ? `No hosted cluster ${props.namespace}/${props.name}: it was destroyed, or you may not see it.` : state === undefined || state === 'loading' ? 'Loading…' : 'The hosted cluster cannot be read now: see above.'}</p>
      ) : (
        <>
          <Summary hc={hc} />
          <Conditions hc={hc} />
          <ControlPlane pods={itemsOf<PodView>(collections, `Pod@${cpns}`)} history={hc.status?.version?.history ?? []} />
          <section aria-labelledby="pools-title">
            <h2 id="pools-title">Node pools</h2>
            {poolRows(hc, pools, itemsOf<MachineView>(collections, `VirtualMachineInstance@${cpns}`)).map((p) => (
              <PoolCard key={p.name} pool={p} />
            ))}
          </section>
          <Events events={[...itemsOf<EventView>(collections, `Event@${props.namespace}`), ...itemsOf<EventView>(collections, `Event@${cpns}`)].filter(ofCluster)} now={now} />
          <DestroyForm namespace={props.namespace} name={props.name} deleting={hc.metadata.deletionTimestamp !== undefined} />
        </>
      )}
    </section>
  );
}
