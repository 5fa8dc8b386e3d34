/**
 * The create wizard (the manual's "Create cluster > Red Hat OpenShift Virtualization > Hosted"): cluster details,
 * infrastructure, node pool, then the review, which is `hcp create cluster kubevirt --render` of the form run by the
 * console. A form the command refuses cannot be created: its messages are shown at their fields.
 */
import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import type { ClusterForm } from '../../cli/commands/console/wizard.ts';
import type { HostedCluster } from '../../api/v1beta1/zz_generated.types.ts';
import { navigate } from '../navigation.tsx';
import { useCollections } from '../live.ts';
import { itemsOf } from '../model/collections.ts';
import { call, type FieldError } from '../api.ts';
import { FieldErrors } from './cluster-actions.tsx';
import { labelOfField, STEPS, stepOfField, type Field } from '../model/wizard.ts';

type Form = Record<string, string | boolean>;

/** A field's frame: its label (marked when required), its control, its help and its errors, tied together by ids. */
function FieldFrame(props: { field: Field; errors: readonly FieldError[]; children: ComponentChildren }): preact.JSX.Element {
  const { field } = props;
  return (
    <div class="field">
      <label for={`f-${field.id}`}>
        {field.label}
        {field.required === true && <span aria-hidden="true"> *</span>}
      </label>
      {props.children}
      <p id={`f-${field.id}-help`} class="help">
        {field.help}
      </p>
      <FieldErrors id={`f-${field.id}-errors`} errors={props.errors} field={field.id} />
    </div>
  );
}

function FileText(props: { field: Field; value: string; set: (v: string) => void; errors: readonly FieldError[] }): preact.JSX.Element {
  const { field } = props;
  const load = async (event: Event): Promise<void> => props.set(await ((event.currentTarget as HTMLInputElement).files?.[0]?.text() ?? Promise.resolve('')));
  return (
    <FieldFrame field={field} errors={props.errors}>
      <textarea id={`f-${field.id}`} rows={3} value={props.value} onInput={(e) => props.set(e.currentTarget.value)} aria-describedby={`f-${field.id}-help f-${field.id}-errors`} spellcheck={false} />
      <label class="upload">
        Upload a file for {field.label}
        <input type="file" onChange={(e) => void load(e)} />
      </label>
    </FieldFrame>
  );
}

function Control(props: { field: Field; value: string | boolean; set: (v: string | boolean) => void; invalid: boolean; list?: string }): preact.JSX.Element {
  const { field } = props;
  const describedBy = `f-${field.id}-help f-${field.id}-errors`;
  if (field.kind === 'choice') {
    return (
      <select id={`f-${field.id}`} value={String(props.value)} onChange={(e) => props.set(e.currentTarget.value)} aria-describedby={describedBy}>
        {(field.choices ?? []).map((c) => (
          <option key={c} value={c}>
            {c === '' ? '(default)' : c}
          </option>
        ))}
      </select>
    );
  }
  if (field.kind === 'bool') return <input id={`f-${field.id}`} type="checkbox" checked={props.value === true} onChange={(e) => props.set(e.currentTarget.checked)} aria-describedby={describedBy} />;
  return (
    <input
      id={`f-${field.id}`}
      {...(field.kind === 'number' ? { type: 'number' as const } : { type: 'text' as const, list: props.list })}
      value={String(props.value)}
      onInput={(e) => props.set(e.currentTarget.value)}
      aria-describedby={describedBy}
      aria-invalid={props.invalid}
    />
  );
}

function Input(props: { field: Field; value: string | boolean; set: (v: string | boolean) => void; errors: readonly FieldError[]; suggestions?: readonly string[] }): preact.JSX.Element {
  const { field } = props;
  if (field.kind === 'file') return <FileText field={field} value={String(props.value)} set={props.set} errors={props.errors} />;
  const list = props.suggestions === undefined ? undefined : `f-${field.id}-suggestions`;
  return (
    <FieldFrame field={field} errors={props.errors}>
      <Control field={field} value={props.value} set={props.set} invalid={props.errors.some((e) => e.field === field.id)} {...(list === undefined ? {} : { list })} />
      {props.suggestions !== undefined && (
        <datalist id={list}>
          {props.suggestions.map((s) => (
            <option key={s} value={s} />
          ))}
        </datalist>
      )}
    </FieldFrame>
  );
}

function Review(props: { yaml: string; errors: readonly FieldError[] }): preact.JSX.Element {
  return (
    <div>
      {props.errors.length > 0 && (
        <div role="alert">
          <p>The form has {props.errors.length} problem(s), also shown at their fields; go back to fix them:</p>
          <ul class="field-errors">
            {props.errors.map((e) => (
              <li key={`${e.field}:${e.message}`}>{labelOfField(e.field) === '' ? e.message : `${labelOfField(e.field)}: ${e.message}`}</li>
            ))}
          </ul>
        </div>
      )}
      {props.yaml !== '' && (
        <pre class="yaml" aria-label="The objects hcp create cluster kubevirt would create" tabIndex={0}>
          {props.yaml}
        </pre>
      )}
    </div>
  );
}

/** The form as the console's API takes it: numbers as numbers, lists split by line or comma. */
export function toClusterForm(form: Form): ClusterForm {
  const list = (v: string | boolean | undefined): string[] => (typeof v === 'string' ? v : '').split(/[\n,]/).map((s) => s.trim()).filter((s) => s !== '');
  const num = (v: string | boolean | undefined): number | undefined => (v === '' || v === undefined ? undefined : Number(v));
  return {
    ...Object.fromEntries(Object.entries(form).filter(([, v]) => typeof v === 'string')),
    labels: list(form['labels']),
    storageClassMappings: list(form['storageClassMappings']),
    nodeSelector: list(form['nodeSelector']),
    additionalNetworks: list(form['additionalNetworks']),
    nodePoolReplicas: num(form['nodePoolReplicas']),
    cores: num(form['cores']),
    rootVolumeSize: num(form['rootVolumeSize']),
    attachDefaultNetwork: form['attachDefaultNetwork'] !== false,
    autoRepair: form['autoRepair'] === true,
  };
}

const initialForm = (): Form => Object.fromEntries(STEPS.flatMap((s) => s.fields.map((f) => [f.id, f.initial ?? (f.kind === 'bool' ? false : '')])));

/** The steps, each a button that goes to it; a step with problems says so. */
function StepList(props: { step: number; errors: readonly FieldError[]; busy: boolean; go: (step: number) => void }): preact.JSX.Element {
  return (
    <ol class="steps" aria-label="Steps">
      {[...STEPS.map((s) => s.title), 'Review'].map((title, i) => (
        <li key={title} aria-current={i === props.step ? 'step' : undefined}>
          <button type="button" class="link" onClick={() => props.go(i)} disabled={props.busy}>
            {title}
            {i < STEPS.length && props.errors.some((e) => stepOfField(e.field) === i) && <span class="visually-hidden"> (has problems)</span>}
          </button>
        </li>
      ))}
    </ol>
  );
}

/** The wizard. */
export function CreatePage(): preact.JSX.Element {
  const [form, setForm] = useState<Form>(initialForm);
  const [step, setStep] = useState(0);
  const [errors, setErrors] = useState<FieldError[]>([]);
  const [yaml, setYaml] = useState('');
  const [busy, setBusy] = useState(false);
  const review = step === STEPS.length;
  // The releases the clusters you may see run: offered as you type the release image.
  const { collections } = useCollections(['HostedCluster']);
  const releases = [...new Set(itemsOf<HostedCluster>(collections, 'HostedCluster').map((hc) => hc.spec.release.image))].sort();
  const goReview = async (): Promise<void> => {
    setBusy(true);
    const answer = await call<{ stdout?: string }>('POST', '/api/render', toClusterForm(form));
    setBusy(false);
    setErrors(answer.body.errors ?? []);
    setYaml(answer.body.stdout ?? '');
    setStep(STEPS.length);
  };
  const create = async (): Promise<void> => {
    setBusy(true);
    const answer = await call('POST', '/api/clusters', toClusterForm(form));
    setBusy(false);
    setErrors(answer.body.errors ?? []);
    if (answer.status === 201) navigate(`/clusters/${encodeURIComponent(String(form['namespace']))}/${encodeURIComponent(String(form['name']))}`);
  };
  const current = STEPS[step];
  return (
    <section aria-labelledby="create-title">
      <h1 id="create-title">Create a hosted cluster on OpenShift Virtualization</h1>
      <StepList step={step} errors={errors} busy={busy} go={(i) => (i === STEPS.length ? void goReview() : setStep(i))} />
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (review) void create();
          else if (step === STEPS.length - 1) void goReview();
          else setStep(step + 1);
        }}
      >
        {current !== undefined && (
          <fieldset>
            <legend>{current.title}</legend>
            {current.fields.map((f) => (
              <Input key={f.id} field={f} value={form[f.id] ?? ''} set={(v) => setForm((current) => ({ ...current, [f.id]: v }))} errors={errors} {...(f.id === 'releaseImage' ? { suggestions: releases } : {})} />
            ))}
          </fieldset>
        )}
        {review && <Review yaml={yaml} errors={errors} />}
        <div class="wizard-buttons">
          {step > 0 && (
            <button type="button" onClick={() => setStep(step - 1)} disabled={busy}>
              Back
            </button>
          )}
          <button type="submit" class="primary" disabled={busy || (review && (errors.length > 0 || yaml === ''))}>
            {review ? 'Create' : step === STEPS.length - 1 ? 'Review' : 'Next'}
          </button>
        </div>
      </form>
    </section>
  );
}
