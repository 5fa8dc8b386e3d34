// Builds (or finds) kube-apiserver, kube-controller-manager, kubectl, etcd, the distribution registry, helm, versitygw and prometheus, and fetches the
// third-party CRDs, caching both outside the repository (`./dev binaries`). Honours HCP_KUBE_BINARIES and KUBEBUILDER_ASSETS.
import { ensureBinaries } from '../src/local/binaries/build.ts';
import { DISTRIBUTION, ensureTool, HELM, PROMETHEUS, VERSITYGW } from '../src/local/binaries/tools.ts';
import { loadCrds } from '../src/local/crds/fetch.ts';
import { THIRD_PARTY_CRDS, UPSTREAM_HYPERSHIFT_CRDS } from '../src/local/crds/sources.ts';

const say = (line: string): void => void process.stderr.write(`binaries: ${line}\n`);

try {
  const started = Date.now();
  const paths = await ensureBinaries(say);
  for (const [name, path] of Object.entries(paths)) process.stdout.write(`${name.padEnd(24)} ${path}\n`);
  // The integration tests' OCI registry (release payloads are read from it with TLS and authentication on).
  const { registry } = await ensureTool(DISTRIBUTION, say);
  process.stdout.write(`${'registry'.padEnd(24)} ${registry ?? ''}\n`);
  // The integration tests lint, template and install the operator's chart with it.
  const { helm } = await ensureTool(HELM, say);
  process.stdout.write(`${'helm'.padEnd(24)} ${helm ?? ''}\n`);
  // The integration tests' S3-compatible object store (etcd backups are uploaded to it and restored from it).
  const { versitygw } = await ensureTool(VERSITYGW, say);
  process.stdout.write(`${'versitygw'.padEnd(24)} ${versitygw ?? ''}\n`);
  // The Prometheus the integration and e2e tiers scrape control planes with (metrics sets are counted in series).
  const { prometheus } = await ensureTool(PROMETHEUS, say);
  process.stdout.write(`${'prometheus'.padEnd(24)} ${prometheus ?? ''}\n`);
  for (const source of [...THIRD_PARTY_CRDS, UPSTREAM_HYPERSHIFT_CRDS]) {
    const crds = await loadCrds(source);
    process.stdout.write(`${`crds/${source.id}`.padEnd(24)} ${crds.length} CRD(s) from ${source.module}@${source.version}\n`);
  }
  say(`ready in ${((Date.now() - started) / 1000).toFixed(1)}s`);
} catch (error) {
  process.stderr.write(`error: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}
