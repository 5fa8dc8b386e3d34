/** What a user changes on a cluster's page: a pool's size, and the cluster's existence. */
import { useState } from 'preact/hooks';
import { call, type FieldError } from '../api.ts';
import type { PoolRow } from '../model/cluster.ts';
import { TableHead } from './table.tsx';

/** Errors of one field, tied to its input by id. */
export function FieldErrors(props: { id: string; errors: readonly FieldError[]; field: string }): preact.JSX.Element | null {
  const mine = props.errors.filter((e) => e.field === props.field);
  if (mine.length === 0) return null;
  return (
    <ul id={props.id} class="field-errors">
      {mine.map((e) => (
        <li key={e.message}>{e.message}</li>
      ))}
    </ul>
  );
}

function Machines(props: { pool: PoolRow }): preact.JSX.Element {
  if (props.pool.machines.length === 0) return <p class="muted">No machines.</p>;
  return (
    <table>
      <caption>Machines of {props.pool.name}</caption>
      <TableHead columns={['VM', 'Phase', 'Host node', 'Address']} />
      <tbody>
        {props.pool.machines.map((m) => (
          <tr key={m.name}>
            <th scope="row">{m.name}</th>
            <td>{m.phase}</td>
            <td>{m.node}</td>
            <td>{m.address}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function ScaleForm(props: { pool: PoolRow }): preact.JSX.Element {
  const { pool } = props;
  const id = `pool-${pool.name}`;
  const [auto, setAuto] = useState(pool.autoScaling !== undefined);
  const [replicas, setReplicas] = useState(String(pool.desired));
  const [min, setMin] = useState(String(pool.autoScaling?.min ?? 1));
  const [max, setMax] = useState(String(pool.autoScaling?.max ?? Math.max(1, pool.desired)));
  const [errors, setErrors] = useState<FieldError[]>([]);
  const [saved, setSaved] = useState('');
  const submit = async (event: Event): Promise<void> => {
    event.preventDefault();
    const body = auto ? { autoScaling: { min: Number(min), max: Number(max) } } : { replicas: Number(replicas) };
    const answer = await call('PUT', `/api/nodepools/${encodeURIComponent(pool.namespace)}/${encodeURIComponent(pool.name)}/size`, body);
    setErrors(answer.body.errors ?? []);
    setSaved(answer.status === 200 ? 'Saved.' : '');
  };
  const number = (field: string, label: string, value: string, set: (v: string) => void): preact.JSX.Element => (
    <label>
      {label}
      <input type="number" min={0} name={field} value={value} onInput={(e) => set(e.currentTarget.value)} aria-describedby={`${id}-${field}-errors`} />
      <FieldErrors id={`${id}-${field}-errors`} errors={errors} field={field} />
    </label>
  );
  return (
    <form class="scale" onSubmit={(e) => void submit(e)} aria-label={`Scale ${pool.name}`}>
      <label class="inline">
        <input type="checkbox" checked={auto} onChange={(e) => setAuto(e.currentTarget.checked)} /> Autoscaling
      </label>
      {auto ? [number('min', 'Minimum', min, setMin), number('max', 'Maximum', max, setMax)] : number('replicas', 'Replicas', replicas, setReplicas)}
      <button type="submit">Save size</button>
      <FieldErrors id={`${id}-form-errors`} errors={errors} field="form" />
      <span role="status">{saved}</span>
    </form>
  );
}

/** A NodePool: its figures, its size form and its machines. */
export function PoolCard(props: { pool: PoolRow }): preact.JSX.Element {
  const { pool } = props;
  return (
    <article class="pool" aria-labelledby={`pool-${pool.name}-title`}>
      <h3 id={`pool-${pool.name}-title`}>{pool.name}</h3>
      <p>
        <span data-testid="pool-nodes">
          {pool.ready}/{pool.desired} nodes
        </span>
        {pool.autoScaling !== undefined && ` · autoscaling ${String(pool.autoScaling.min)}–${String(pool.autoScaling.max)}`} · upgrade type {pool.upgradeType}
        {pool.version !== '' && ` · version ${pool.version}`}
      </p>
      <ScaleForm pool={pool} />
      <Machines pool={pool} />
    </article>
  );
}

/** Destroys the cluster once its name is typed. */
export function DestroyForm(props: { namespace: string; name: string; deleting: boolean }): preact.JSX.Element {
  const [typed, setTyped] = useState('');
  const [errors, setErrors] = useState<FieldError[]>([]);
  const submit = async (event: Event): Promise<void> => {
    event.preventDefault();
    const answer = await call('DELETE', `/api/clusters/${encodeURIComponent(props.namespace)}/${encodeURIComponent(props.name)}`, { confirm: typed });
    setErrors(answer.body.errors ?? []);
  };
  return (
    <section aria-labelledby="destroy-title" class="danger">
      <h2 id="destroy-title">Destroy</h2>
      {props.deleting ? (
        <p role="status">Being destroyed…</p>
      ) : (
        <form onSubmit={(e) => void submit(e)}>
          <label>
            Type <strong>{props.name}</strong> to destroy this cluster, its node pools and its control plane
            <input value={typed} onInput={(e) => setTyped(e.currentTarget.value)} autoComplete="off" aria-describedby="destroy-errors" />
          </label>
          <button type="submit" class="destructive" disabled={typed !== props.name}>
            Destroy cluster
          </button>
          <FieldErrors id="destroy-errors" errors={errors} field="confirm" />
          <FieldErrors id="destroy-form-errors" errors={errors} field="form" />
        </form>
      )}
    </section>
  );
}
