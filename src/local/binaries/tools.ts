/**
 * The node's and the images' other binaries, each built from its own Go module (its own go.mod, so minimum version
 * selection keeps that project's dependency versions) into `~/.cache/hcp-kubevirt/tools/<name>-<version>/`.
 */
import { createHash } from 'node:crypto';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { requireGo, runGo } from './go.ts';
import { cacheRoot, isExecutable } from './locate.ts';
import { projectRoot } from '../project-root.ts';
import { ETCD_VERSION } from './versions.ts';

/** A Go module and the binaries (name → main package) built from it. */
export interface GoTool {
  readonly name: string;
  readonly module: string;
  readonly version: string;
  readonly binaries: Readonly<Record<string, string>>;
  readonly tags?: readonly string[];
  /** Built with cgo and linked statically (a package of it is C); Go alone otherwise. */
  readonly cgo?: boolean;
  /** The Go variable that holds the program's version (set to {@link GoTool.versionStamp} or {@link GoTool.version} at link time). */
  readonly versionVariable?: string;
  /** The version the program calls itself, when it numbers its releases otherwise than its Go module. */
  readonly versionStamp?: string;
  /**
   * Modules replaced by a folder of this project (path from the project root): a dependency the module proxy refuses,
   * stood in for by a module of our own that refuses at run time what it cannot do.
   */
  readonly replace?: Readonly<Record<string, string>>;
  /**
   * Whether the module's own go.mod pins dependencies with `replace … => module version` lines, which `go install`
   * refuses and a wrapper module must repeat to build the same thing.
   */
  readonly inheritsReplaces?: boolean;
  /**
   * Dependencies pinned to another version (module → version) than the tool requires, because the module proxy
   * refuses the required one and serves a compatible neighbour.
   */
  readonly pins?: Readonly<Record<string, string>>;
}

/**
 * containerd 2.x rather than Debian's 1.6 (end of life; kubelet 1.36 finds its CRI too old for the runtime handler
 * and cgroup-driver queries). The graph drivers this host cannot use are left out.
 */
export const CONTAINERD: GoTool = {
  name: 'containerd',
  module: 'github.com/containerd/containerd/v2',
  version: 'v2.4.2',
  binaries: {
    containerd: 'github.com/containerd/containerd/v2/cmd/containerd',
    'containerd-shim-runc-v2': 'github.com/containerd/containerd/v2/cmd/containerd-shim-runc-v2',
    ctr: 'github.com/containerd/containerd/v2/cmd/ctr',
  },
  tags: ['no_btrfs', 'no_devmapper', 'no_zfs'],
};

/**
 * The konnectivity server (kube-apiserver's sidecar) and agent (a DaemonSet on the hosted cluster's nodes), at the
 * version Kubernetes v1.36's konnectivity client pairs with.
 */
export const KONNECTIVITY: GoTool = {
  name: 'konnectivity',
  module: 'sigs.k8s.io/apiserver-network-proxy',
  version: 'v0.34.0',
  binaries: { 'proxy-server': 'sigs.k8s.io/apiserver-network-proxy/cmd/server', 'proxy-agent': 'sigs.k8s.io/apiserver-network-proxy/cmd/agent' },
};

/** Cluster DNS, at the version kubeadm v1.36 deploys. */
export const COREDNS: GoTool = {
  name: 'coredns',
  module: 'github.com/coredns/coredns',
  version: 'v1.14.2',
  binaries: { coredns: 'github.com/coredns/coredns' },
};

/**
 * go-containerregistry's `crane`: assembles the environment's images and serves them as an OCI registry
 * (`crane registry serve`), so no image tool or registry has to be installed on the host.
 */
export const CRANE: GoTool = {
  name: 'crane',
  module: 'github.com/google/go-containerregistry',
  version: 'v0.21.8',
  binaries: { crane: 'github.com/google/go-containerregistry/cmd/crane' },
};

/**
 * The dynamic volume provisioner of the local environment (the one kind ships): folders on the node for the
 * control planes' etcd claims, removed when a claim goes.
 */
export const LOCAL_PATH_PROVISIONER: GoTool = {
  name: 'local-path-provisioner',
  module: 'github.com/rancher/local-path-provisioner',
  version: 'v0.0.30',
  binaries: { 'local-path-provisioner': 'github.com/rancher/local-path-provisioner' },
};

/**
 * The CNCF distribution registry: a real OCI registry with TLS and authentication (htpasswd or tokens), which crane's
 * development server lacks. Release payloads are published to it for the integration tests and the local environment.
 */
export const DISTRIBUTION: GoTool = {
  name: 'distribution',
  module: 'github.com/distribution/distribution/v3',
  version: 'v3.1.2',
  binaries: { registry: 'github.com/distribution/distribution/v3/cmd/registry' },
};

/**
 * MetalLB, the load balancer of bare-metal clusters, for the local environment's infrastructure cluster: its
 * controller gives LoadBalancer Services addresses from a pool, its speaker answers ARP for them on the node (layer 2
 * mode), where kube-proxy takes the traffic to the Service's endpoints. v0.15.2 requires frr-k8s v0.0.20, which the
 * module proxy refuses; v0.0.21 (served) has the same API.
 */
export const METALLB: GoTool = {
  name: 'metallb',
  module: 'go.universe.tf/metallb',
  version: 'v0.15.2',
  binaries: { controller: 'go.universe.tf/metallb/controller', speaker: 'go.universe.tf/metallb/speaker' },
  pins: { 'github.com/metallb/frr-k8s': 'v0.0.21' },
};

/**
 * Traefik, the hosted clusters' ingress controller (standard `Ingress` objects; ARCHITECTURE.md says why Traefik). Its
 * go.mod pins three forks by `replace`, which the wrapper module repeats.
 */
export const TRAEFIK: GoTool = {
  name: 'traefik',
  module: 'github.com/traefik/traefik/v3',
  version: 'v3.6.12',
  binaries: { traefik: 'github.com/traefik/traefik/v3/cmd/traefik' },
  versionVariable: 'github.com/traefik/traefik/v3/pkg/version.Version',
  inheritsReplaces: true,
};

/**
 * Flannel, the network plugin of the hosted clusters (VXLAN between their nodes; ARCHITECTURE.md says why flannel).
 * Its UDP backend is C, so it is built with cgo and linked statically, as upstream's release binaries are. Its
 * Tencent Cloud backend needs an SDK module the module proxy refuses: a module of our own stands in for it and refuses
 * every call, so only that backend (never chosen here) is unavailable.
 */
export const FLANNEL: GoTool = {
  name: 'flannel',
  module: 'github.com/flannel-io/flannel',
  version: 'v0.28.10',
  binaries: { flanneld: 'github.com/flannel-io/flannel' },
  tags: ['netgo', 'osusergo'],
  cgo: true,
  versionVariable: 'github.com/flannel-io/flannel/pkg/version.Version',
  replace: { 'github.com/tencentcloud/tencentcloud-sdk-go/tencentcloud/vpc': 'src/local/images/tencentcloud-vpc-unavailable' },
};

/** The standard CNI plugins a flannel pod network delegates to: the bridge, its address manager, host ports, loopback. */
export const CNI_PLUGINS: GoTool = {
  name: 'cni-plugins',
  module: 'github.com/containernetworking/plugins',
  version: 'v1.10.0',
  binaries: {
    bridge: 'github.com/containernetworking/plugins/plugins/main/bridge',
    loopback: 'github.com/containernetworking/plugins/plugins/main/loopback',
    'host-local': 'github.com/containernetworking/plugins/plugins/ipam/host-local',
    portmap: 'github.com/containernetworking/plugins/plugins/meta/portmap',
  },
  versionVariable: 'github.com/containernetworking/plugins/pkg/utils/buildversion.BuildVersion',
};

/**
 * Flannel's CNI plugin (reads the node's lease from `/run/flannel/subnet.env` and delegates to `bridge`), from the last
 * containernetworking/plugins release that carried it: its successor, `github.com/flannel-io/cni-plugin`, is refused by
 * the module proxy.
 */
export const FLANNEL_CNI: GoTool = {
  name: 'flannel-cni',
  module: 'github.com/containernetworking/plugins',
  version: 'v0.9.1',
  binaries: { flannel: 'github.com/containernetworking/plugins/plugins/meta/flannel' },
};

/**
 * The aggregated API server of the conformance suite's Aggregator spec (its test image `sample-apiserver:1.29.2` is
 * this release of Kubernetes' example), whose go.mod pins its Kubernetes modules by `replace`.
 */
export const SAMPLE_APISERVER: GoTool = {
  name: 'sample-apiserver',
  module: 'k8s.io/sample-apiserver',
  version: 'v0.29.2',
  binaries: { 'sample-apiserver': 'k8s.io/sample-apiserver' },
  inheritsReplaces: true,
};

/** Helm, for the operator's chart (`deploy/chart/`): its tests lint and template it, the e2e tier installs it. */
export const HELM: GoTool = {
  name: 'helm',
  module: 'helm.sh/helm/v4',
  version: 'v4.3.1',
  binaries: { helm: 'helm.sh/helm/v4/cmd/helm' },
  versionVariable: 'helm.sh/helm/v4/internal/version.version',
};

/**
 * Versity's S3 gateway: an S3-compatible object store (SigV4, path-style buckets, pre-signed URLs) over a folder, for
 * the etcd backups of hosted control planes (the local environment's object store). Apache-2.0 and pure Go: its RDMA
 * and GPU parts are built only with cgo, which tools are built without. MinIO would be AGPL.
 */
export const VERSITYGW: GoTool = {
  name: 'versitygw',
  module: 'github.com/versity/versitygw',
  version: 'v1.8.0',
  binaries: { versitygw: 'github.com/versity/versitygw/cmd/versitygw' },
  versionVariable: 'main.Version',
};

/**
 * Prometheus, for the local environment and the tests that scrape what the control planes expose. Its Go module
 * numbers release 3.X.Y as v0.3XX.Y, so this is Prometheus 3.16.0. Built without its web UI (the module carries none
 * of its assets; the HTTP API is what is used) and, as containerd is without the graph drivers this host cannot use,
 * without the service discoveries of clouds that no machine here reaches: static, file, HTTP and Kubernetes stay.
 */
export const PROMETHEUS: GoTool = {
  name: 'prometheus',
  module: 'github.com/prometheus/prometheus',
  version: 'v0.316.0',
  binaries: { prometheus: 'github.com/prometheus/prometheus/cmd/prometheus' },
  tags: ['remove_all_sd', 'enable_kubernetes_sd'],
  versionVariable: 'github.com/prometheus/common/version.Version',
  versionStamp: '3.16.0',
};

/**
 * etcd's client and its offline tool, at the server's version: the etcd image carries both where the manual's
 * procedures call them (`/usr/bin/etcdctl`, `etcdutl`), for health checks, member replacement, snapshots and restores.
 */
export const ETCDCTL: GoTool = { name: 'etcdctl', module: 'go.etcd.io/etcd/etcdctl/v3', version: ETCD_VERSION, binaries: { etcdctl: 'go.etcd.io/etcd/etcdctl/v3' } };

/** See {@link ETCDCTL}: `etcdutl snapshot restore` and `snapshot status` work on files, with no server. */
export const ETCDUTL: GoTool = { name: 'etcdutl', module: 'go.etcd.io/etcd/etcdutl/v3', version: ETCD_VERSION, binaries: { etcdutl: 'go.etcd.io/etcd/etcdutl/v3' } };

/** The programs the project ships as Go source in `src/local/images/`, built like the tools. */
export type OwnProgram = 'pause' | 'local-path-helper' | 'cni-install';

/** A program's source file in the project. */
export const programSource = (name: OwnProgram): string => join(projectRoot(), 'src', 'local', 'images', `${name}.go`);


/** The cache folder of a tool. */
export const toolDir = (tool: Pick<GoTool, 'name' | 'version'>, env: NodeJS.ProcessEnv = process.env): string =>
  join(cacheRoot(env), 'tools', `${tool.name}-${tool.version}`);

/**
 * The wrapper module's go.mod: its name, the replacements of refused dependencies by the project's own modules, and
 * `inherited` (the tool's own version-pinning `replace` lines, when it has them).
 */
export function toolModule(tool: GoTool, root: string = projectRoot(), inherited: readonly string[] = []): string {
  const replaces = [
    ...Object.entries(tool.replace ?? {}).map(([module, folder]) => `replace ${module} => ${join(root, folder)}`),
    ...Object.entries(tool.pins ?? {}).map(([module, version]) => `replace ${module} => ${module} ${version}`),
    ...inherited.map((line) => `replace ${line}`),
  ];
  return `module local/hcp-${tool.name}\n${replaces.length === 0 ? '' : `\n${replaces.join('\n')}\n`}`;
}

/** The `replace old => new version` directives of a go.mod (block or single lines), as `old => new version`; local paths are left out. */
export function versionReplaces(goMod: string): string[] {
  const lines = goMod.split('\n').map((l) => l.trim());
  const directives: string[] = [];
  let inBlock = false;
  for (const line of lines) {
    if (line === 'replace (') inBlock = true;
    else if (inBlock && line === ')') inBlock = false;
    else if (inBlock || line.startsWith('replace ')) directives.push(line.replace(/^replace\s+/, ''));
  }
  return directives.filter((d) => /^\S+(\s+\S+)?\s+=>\s+\S+\s+v\S+$/.test(d));
}

/** `go build` flags of a tool: reproducible paths, stripped, its tags, its version stamped, static when cgo. */
export function toolBuildFlags(tool: GoTool): string[] {
  const ldflags = ['-s', '-w', ...(tool.versionVariable === undefined ? [] : [`-X ${tool.versionVariable}=${tool.versionStamp ?? tool.version}`]), ...(tool.cgo === true ? ['-extldflags "-static"'] : [])];
  return ['-trimpath', `-ldflags=${ldflags.join(' ')}`, ...(tool.tags === undefined ? [] : [`-tags=${tool.tags.join(',')}`])];
}

/** Builds into a temporary module folder and moves the binaries into place only when all are built. */
async function buildTool(tool: GoTool, dir: string, report: (line: string) => void): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), `hcp-${tool.name}-build-`));
  const staging = `${dir}.partial-${String(process.pid)}`;
  try {
    writeFileSync(join(work, 'go.mod'), toolModule(tool));
    if (tool.inheritsReplaces === true) {
      const own = JSON.parse(await runGo(['mod', 'download', '-json', `${tool.module}@${tool.version}`], { cwd: work })) as { GoMod: string };
      writeFileSync(join(work, 'go.mod'), toolModule(tool, projectRoot(), versionReplaces(readFileSync(own.GoMod, 'utf8'))));
    }
    report(`building ${tool.name} ${tool.version} from ${tool.module} into ${dir}`);
    // Named by package: `go get` of a bare module may leave out the go.sum entries its commands need.
    await runGo(['get', ...Object.values(tool.binaries).map((pkg) => `${pkg}@${tool.version}`)], { cwd: work });
    mkdirSync(staging, { recursive: true });
    for (const [name, pkg] of Object.entries(tool.binaries)) {
      await runGo(['build', ...toolBuildFlags(tool), '-o', join(staging, name), pkg], { cwd: work, ...(tool.cgo === true ? { env: { CGO_ENABLED: '1' } } : {}) });
    }
    rmSync(dir, { recursive: true, force: true });
    renameSync(staging, dir);
  } finally {
    rmSync(work, { recursive: true, force: true });
    rmSync(staging, { recursive: true, force: true });
  }
}

/** The paths of a tool's binaries, building it first when any is missing. */
export async function ensureTool(tool: GoTool, report: (line: string) => void): Promise<Record<string, string>> {
  const dir = toolDir(tool);
  const paths = Object.fromEntries(Object.keys(tool.binaries).map((b) => [b, join(dir, b)]));
  if (!Object.values(paths).every(isExecutable)) {
    requireGo();
    await buildTool(tool, dir, report);
  }
  return paths;
}

/** One of the project's own programs, built from its source (cached by the source's hash). */
export async function ensureProgram(name: OwnProgram, report: (line: string) => void): Promise<string> {
  const source = readFileSync(programSource(name));
  const version = createHash('sha256').update(source).digest('hex').slice(0, 12);
  const dir = toolDir({ name, version });
  const binary = join(dir, name);
  if (isExecutable(binary)) return binary;
  requireGo();
  report(`building ${name} into ${dir}`);
  const work = mkdtempSync(join(tmpdir(), `hcp-${name}-build-`));
  try {
    writeFileSync(join(work, 'go.mod'), `module local/hcp-${name}\n\ngo 1.24\n`);
    copyFileSync(programSource(name), join(work, 'main.go'));
    mkdirSync(dir, { recursive: true });
    await runGo(['build', '-trimpath', '-ldflags=-s -w', '-o', `${binary}.partial`, '.'], { cwd: work });
    renameSync(`${binary}.partial`, binary);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return binary;
}
