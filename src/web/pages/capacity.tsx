/**
 * Capacity: `hcp capacity`'s model as a chart. Per baseline (the manual's, ours), how many control planes each
 * resource allows on the workers that host them, which one limits, and how many more fit beside the existing ones.
 * Live (the management cluster's labelled workers, the measured load) or for figures typed in.
 */
import { useState } from 'preact/hooks';
import type { HostedCluster } from '../../api/v1beta1/zz_generated.types.ts';
import { Banners } from './banners.tsx';
import { call, type FieldError } from '../api.ts';
import { useCollections } from '../live.ts';
import { capacityCharts, chartScale, type CapacityChart, type CapacityReport } from '../model/capacity.ts';
import { itemsOf } from '../model/collections.ts';
import { FieldErrors } from './cluster-actions.tsx';
import { TableHead } from './table.tsx';

const BAR_HEIGHT = 22;
const LABEL_WIDTH = 190;
const CHART_WIDTH = 640;

function Chart(props: { chart: CapacityChart; scale: number }): preact.JSX.Element {
  const { chart, scale } = props;
  const room = CHART_WIDTH - LABEL_WIDTH - 60;
  return (
    <figure class="capacity">
      <figcaption>
        <strong>{chart.name}</strong>: at most {chart.max} control planes; {chart.more} more fit
        {chart.gauges !== '' && <span class="muted"> (gauges: {chart.gauges})</span>}
      </figcaption>
      <svg width={CHART_WIDTH} height={chart.bars.length * (BAR_HEIGHT + 6)} aria-hidden="true">
        {chart.bars.map((b, i) => (
          <g key={b.factor} transform={`translate(0 ${String(i * (BAR_HEIGHT + 6))})`}>
            <text x={LABEL_WIDTH - 8} y={BAR_HEIGHT - 6} text-anchor="end" class="bar-label">
              {b.label}
            </text>
            <rect x={LABEL_WIDTH} width={Math.max(2, (b.fit / scale) * room)} height={BAR_HEIGHT} class={b.limiting ? 'bar limiting' : 'bar'} />
            <text x={LABEL_WIDTH + Math.max(2, (b.fit / scale) * room) + 6} y={BAR_HEIGHT - 6} class="bar-value">
              {b.fit}
            </text>
          </g>
        ))}
      </svg>
      <table>
        <caption class="visually-hidden">Control planes each resource allows, {chart.name}</caption>
        <TableHead columns={['Resource', 'Control planes it allows']} />
        <tbody>
          {chart.bars.map((b) => (
            <tr key={b.factor}>
              <th scope="row">{b.label}</th>
              <td>
                {b.fit}
                {b.limiting && ' (limiting)'}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}

type Form = Record<'workers' | 'vcpu' | 'memory' | 'qps' | 'availabilityPolicy', string>;

const number = (v: string): number | undefined => (v.trim() === '' ? undefined : Number(v));

function CapacityForm(props: { form: Form; set: (f: Form) => void; live: boolean; setLive: (l: boolean) => void; busy: boolean }): preact.JSX.Element {
  const { form, set } = props;
  const field = (id: keyof Form, label: string, help: string): preact.JSX.Element => (
    <label>
      {label}
      <input type="text" value={form[id]} onInput={(e) => set({ ...form, [id]: e.currentTarget.value })} aria-describedby={`cap-${id}-help`} />
      <span id={`cap-${id}-help`} class="help">
        {help}
      </span>
    </label>
  );
  return (
    <fieldset class="capacity-form">
      <legend>Size for</legend>
      <label class="inline">
        <input type="radio" name="mode" checked={props.live} onChange={() => props.setLive(true)} /> The management cluster's workers labelled hypershift.openshift.io/control-plane
      </label>
      <label class="inline">
        <input type="radio" name="mode" checked={!props.live} onChange={() => props.setLive(false)} /> Workers I describe
      </label>
      {!props.live && [field('workers', 'Workers', 'How many workers host control planes'), field('vcpu', 'vCPUs per worker', ''), field('memory', 'Memory per worker', 'GiB (128) or a quantity (128Gi)')]}
      {field('qps', 'API requests per second per control plane', props.live ? 'Empty: the load measured on the hosted API servers' : 'Empty: 1000 (the manual\'s medium load)')}
      <label>
        Control plane availability
        <select value={form.availabilityPolicy} onChange={(e) => set({ ...form, availabilityPolicy: e.currentTarget.value })}>
          <option value="HighlyAvailable">HighlyAvailable</option>
          <option value="SingleReplica">SingleReplica</option>
        </select>
      </label>
      <button type="submit" class="primary" disabled={props.busy}>
        {props.busy ? 'Sizing…' : 'Size'}
      </button>
    </fieldset>
  );
}

/** `hcp capacity --output json`'s answer, or nothing when it printed none. */
function parsedReport(stdout: string | undefined): CapacityReport | undefined {
  try {
    return stdout === undefined ? undefined : (JSON.parse(stdout) as CapacityReport);
  } catch {
    return undefined;
  }
}

/** The page. */
export function CapacityPage(): preact.JSX.Element {
  const { collections, connection } = useCollections(['HostedCluster']);
  const [form, setForm] = useState<Form>({ workers: '3', vcpu: '16', memory: '64', qps: '', availabilityPolicy: 'HighlyAvailable' });
  const [live, setLive] = useState(true);
  const [busy, setBusy] = useState(false);
  const [report, setReport] = useState<CapacityReport | undefined>();
  const [errors, setErrors] = useState<FieldError[]>([]);
  const existing = itemsOf<HostedCluster>(collections, 'HostedCluster').length;
  const size = async (event: Event): Promise<void> => {
    event.preventDefault();
    setBusy(true);
    const body = { ...(live ? {} : { workers: number(form.workers), vcpu: number(form.vcpu), memory: form.memory }), qps: number(form.qps), availabilityPolicy: form.availabilityPolicy };
    const answer = await call<{ stdout?: string }>('POST', '/api/capacity', body);
    setBusy(false);
    setErrors(answer.body.errors?.map((e) => ({ ...e, field: 'form' })) ?? []);
    setReport(answer.status === 200 ? parsedReport(answer.body.stdout) : undefined);
  };
  const charts = report === undefined ? [] : capacityCharts(report, existing);
  return (
    <section aria-labelledby="capacity-title">
      <h1 id="capacity-title">Capacity</h1>
      <Banners collections={collections} connection={connection} />
      <form onSubmit={(e) => void size(e)}>
        <CapacityForm form={form} set={setForm} live={live} setLive={setLive} busy={busy} />
        <FieldErrors id="capacity-errors" errors={errors} field="form" />
      </form>
      {report !== undefined && (
        <div aria-live="polite">
          <p>
            {report.workers.count} workers: {report.workers.vcpus} vCPUs, {report.workers.memoryGiB.toFixed(0)} GiB, {report.workers.pods} pods; {report.qps.toFixed(0)} API requests per second per control plane; {existing} hosted clusters now.
          </p>
          {charts.map((c) => (
            <Chart key={c.name} chart={c} scale={chartScale(charts)} />
          ))}
        </div>
      )}
    </section>
  );
}
