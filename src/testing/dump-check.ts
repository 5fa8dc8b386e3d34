/**
 * The e2e tier's proof of `hcp dump cluster`: a NodePool whose boot image cannot be imported is added to a running
 * cluster, the dump names that cause first in `summary.txt`, and no value of any Secret of the cluster (stored or
 * decoded) is in any file of the unpacked archive.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { x as extract } from 'tar';
import type { KubeClient, KubeObject } from '../kube/client.ts';
import { waitFor } from '../local/cluster/http.ts';
import type { ProcessResult } from './process.ts';

const MINUTE = 60_000;

/** What the check needs of the e2e file. */
export interface DumpCheckContext {
  readonly management: KubeClient;
  readonly name: string;
  readonly hcp: (args: readonly string[], timeoutMs?: number) => Promise<ProcessResult>;
  /** An image reference the environment's registry does not have. */
  readonly missingImage: string;
}

type DataVolume = KubeObject & { status?: { phase?: string } };

/** Keys whose values are public certificates (found in ConfigMaps too, as `kube-root-ca.crt`), as oc's inspect keeps them. */
const PUBLIC_KEYS = new Set(['ca.crt', 'tls.crt', 'service-ca.crt', 'ca-bundle.crt']);

/** The secret parts of one Secret value: the value itself, and the keys and tokens a kubeconfig inside it carries. */
function secretParts(stored: string): string[] {
  const decoded = Buffer.from(stored, 'base64').toString('utf8');
  const embedded = [...decoded.matchAll(/(?:client-key-data|token|password):\s*"?([^\s"]+)/g)].map((m) => m[1] ?? '');
  // A PEM key is looked for by its body's first line; short values (a "true", a port) would match anything.
  const pem = (v: string): string => (v.includes('-----BEGIN') ? (v.split('\n')[1] ?? '') : v);
  return [stored, decoded, ...embedded].map(pem).filter((v) => v.length >= 16);
}

/**
 * What is public anyway: the namespaces' ConfigMaps and the HostedClusters and NodePools (a token Secret also holds
 * the release image its NodePool names, say). A Secret value found there is no leak of the dump.
 */
async function publicText(management: KubeClient, namespaces: readonly string[]): Promise<string> {
  const lists = await Promise.all(namespaces.flatMap((namespace) => [
    management.list('v1', 'ConfigMap', { namespace }),
    management.list('hypershift.openshift.io/v1beta1', 'HostedCluster', { namespace }),
    management.list('hypershift.openshift.io/v1beta1', 'NodePool', { namespace }),
  ]));
  return JSON.stringify(lists);
}

/** Every secret value of the namespaces' Secrets, stored (base64) and decoded; public certificates and public values aside. */
async function secretValues(management: KubeClient, namespaces: readonly string[]): Promise<string[]> {
  const secrets = (await Promise.all(namespaces.map((namespace) => management.list<KubeObject & { data?: Record<string, string> }>('v1', 'Secret', { namespace })))).flat();
  const values = secrets.flatMap((s) => Object.entries(s.data ?? {}).filter(([key]) => !PUBLIC_KEYS.has(key)).flatMap(([, stored]) => secretParts(stored)));
  const known = await publicText(management, namespaces);
  return values.filter((v) => !known.includes(v));
}

/** The files of the unpacked archive that contain any of `values`. */
function filesHolding(dir: string, values: readonly string[]): string[] {
  const files = readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile());
  return files.filter((f) => {
    const text = readFileSync(join(f.parentPath, f.name), 'latin1');
    return values.some((v) => text.includes(v));
  }).map((f) => join(f.parentPath, f.name));
}

/** Adds the broken NodePool, dumps, checks the summary and the archive, removes the NodePool; returns what it saw. */
export async function assertDumpNamesBrokenBootImage(ctx: DumpCheckContext): Promise<string> {
  const cpns = `clusters-${ctx.name}`;
  await ctx.hcp(['create', 'nodepool', 'kubevirt', `--cluster-name=${ctx.name}`, '--name=broken', '--node-count=1', `--containerdisk=${ctx.missingImage}`]);
  const dir = mkdtempSync(join(tmpdir(), 'hcp-e2e-dump-'));
  try {
    await waitFor('the broken boot image to fail its import', async () => {
      const volumes = await ctx.management.list<DataVolume>('cdi.kubevirt.io/v1beta1', 'DataVolume', { namespace: cpns });
      return volumes.some((v) => v.metadata?.name?.startsWith('broken-') === true && v.status?.phase === 'Failed');
    }, { timeoutMs: 3 * MINUTE, intervalMs: 2000 });
    const started = Date.now();
    const out = await ctx.hcp(['dump', 'cluster', `--name=${ctx.name}`, `--artifact-dir=${join(dir, 'dump')}`, '--dump-guest-cluster', '--output=json'], 5 * MINUTE);
    const took = Date.now() - started;
    const summary = readFileSync(join(dir, 'dump', 'summary.txt'), 'utf8');
    const first = summary.split('First problem:\n')[1]?.split('\n')[0] ?? '';
    assert.match(first, new RegExp(`DataVolume ${cpns}/broken-\\S+ could not import .*${ctx.missingImage.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`), summary);
    const unpacked = join(dir, 'unpacked');
    mkdirSync(unpacked);
    await extract({ file: join(dir, 'dump', 'hypershift-dump.tar.gz'), cwd: unpacked });
    const values = await secretValues(ctx.management, [cpns, 'clusters', 'hypershift']);
    assert.deepEqual(filesHolding(unpacked, values), [], 'Secret values in the dump');
    assert.ok(!values.some((v) => out.stdout.includes(v) || out.stderr.includes(v)), 'Secret values in the command output');
    return `dump: ${String(Math.round(took / 1000))}s, first problem "${first.slice(0, 80)}…", ${String(values.length)} Secret values absent from the archive`;
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await ctx.management.delete({ apiVersion: 'hypershift.openshift.io/v1beta1', kind: 'NodePool', name: 'broken', namespace: 'clusters' });
  }
}
