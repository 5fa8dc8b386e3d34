// Resident memory of one hosted control plane: the processes in its pods' cgroups on the environment's nodes, split
// into anonymous memory (heaps: what settings change) and file pages (the binaries' text, shared by every process of
// the same image on a node), with the proportional share (PSS) that counts shared pages once.
import { readFileSync } from 'node:fs';
import type { KubeClient } from '../../src/kube/client.ts';
import { podProcesses } from '../../src/local/environment/host-cgroups.ts';
import type { EnvironmentLayout } from '../../src/local/environment/layout.ts';
import { controlPlanePods } from './control-plane-timeline.ts';

/** Memory in MiB. */
export interface Resident {
  readonly rss: number;
  readonly anon: number;
  readonly file: number;
  readonly pss: number;
}

const ZERO: Resident = { rss: 0, anon: 0, file: 0, pss: 0 };
/** The sum of two figures (two processes, pods or control planes). */
export const addResident = (a: Resident, b: Resident): Resident => ({ rss: a.rss + b.rss, anon: a.anon + b.anon, file: a.file + b.file, pss: a.pss + b.pss });
const kib = (text: string, field: string): number => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(text)?.[1] ?? 0) / 1024;

function processResident(pid: number): Resident {
  try {
    const status = readFileSync(`/proc/${String(pid)}/status`, 'utf8');
    const rollup = readFileSync(`/proc/${String(pid)}/smaps_rollup`, 'utf8');
    return { rss: kib(status, 'VmRSS'), anon: kib(status, 'RssAnon'), file: kib(status, 'RssFile') + kib(status, 'RssShmem'), pss: kib(rollup, 'Pss') };
  } catch {
    return ZERO; // Gone meanwhile.
  }
}

/** One control plane's resident memory: the total, per component (the pods' `app` label), and the largest pod of each. */
export interface ControlPlaneResident {
  readonly total: Resident;
  readonly byComponent: Map<string, Resident>;
  /** RSS in MiB of each component's largest pod: what one pod's memory request must cover. */
  readonly largestPod: Map<string, number>;
  /** The nodes each component's pods run on: file pages are shared only between processes on the same node. */
  readonly nodes: Map<string, string[]>;
}

/** How many of `second`'s pods run on a node where a pod of the same component of `first` runs. */
export const podsBeside = (first: ControlPlaneResident, second: ControlPlaneResident): { beside: number; of: number } => {
  const all = [...second.nodes].flatMap(([component, nodes]) => nodes.map((n) => first.nodes.get(component)?.includes(n) === true));
  return { beside: all.filter(Boolean).length, of: all.length };
};

/** One control plane's resident memory, from the processes in its pods' cgroups. */
export async function controlPlaneResident(client: KubeClient, layout: EnvironmentLayout, namespace: string): Promise<ControlPlaneResident> {
  const byComponent = new Map<string, Resident>();
  const largestPod = new Map<string, number>();
  const nodes = new Map<string, string[]>();
  for (const pod of await controlPlanePods(client, namespace)) {
    const node = layout.nodes.find((n) => n.name === pod.spec?.nodeName);
    if (node === undefined) continue;
    const component = pod.metadata.labels?.['app'] ?? pod.metadata.name;
    const resident = podProcesses(`${layout.cgroup}/${node.cgroup}`, pod.metadata.uid ?? '').map(processResident).reduce(addResident, ZERO);
    byComponent.set(component, addResident(byComponent.get(component) ?? ZERO, resident));
    nodes.set(component, [...(nodes.get(component) ?? []), node.name]);
    largestPod.set(component, Math.max(largestPod.get(component) ?? 0, resident.rss));
  }
  return { total: [...byComponent.values()].reduce(addResident, ZERO), byComponent, largestPod, nodes };
}

/** Keeps, per component, the largest RSS of one pod seen in any of `samples`. */
export function largestPods(into: Map<string, number>, ...samples: readonly ControlPlaneResident[]): void {
  for (const sample of samples) for (const [component, mib] of sample.largestPod) into.set(component, Math.max(into.get(component) ?? 0, mib));
}

/** `RSS 123 MiB (anon 80, file 43, PSS 100)`. */
export const formatResident = (r: Resident): string => `RSS ${r.rss.toFixed(0)} MiB (anon ${r.anon.toFixed(0)}, file ${r.file.toFixed(0)}, PSS ${r.pss.toFixed(0)})`;

/** `kube-apiserver 210, etcd 40, …` (RSS in MiB), biggest first. */
export const formatComponents = (byComponent: Map<string, Resident>): string =>
  [...byComponent]
    .sort((a, b) => b[1].rss - a[1].rss)
    .map(([name, r]) => `${name} ${r.rss.toFixed(0)}`)
    .join(', ');
