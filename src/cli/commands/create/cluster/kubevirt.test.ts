import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { parseAllDocuments } from 'yaml';
import { validateObject } from '../../../../api/v1beta1/validate.ts';
import { formatViolation } from '../../../../api/schema/violation.ts';
import { normaliseRandomRender, runHcp } from '../../../../testing/cli.ts';
import { OUR_CLUSTER_RENDERS, UPSTREAM_FIXTURES } from '../../../../testing/conformance.ts';
import { assertGolden } from '../../../../testing/golden.ts';
import { CONFORMANCE_DIR } from '../../../../testing/paths.ts';

const PULL_SECRET = { '/ps': 'fake' };

const fixture = (file: string): string => readFileSync(join(CONFORMANCE_DIR, file), 'utf8');
const docs = (yaml: string): Array<Record<string, any>> => parseAllDocuments(yaml).map((d) => d.toJS() as Record<string, any>).filter((d) => d !== null);

const MINIMAL = '--render --render-sensitive --name=example --pull-secret=/ps --control-plane-availability-policy SingleReplica';
const COMPLEX =
  '--render --name test1 --etcd-storage-class=gp3-csi --control-plane-availability-policy HighlyAvailable --infra-availability-policy HighlyAvailable --node-pool-replicas 2 --memory 12Gi --cores 4 --release-image fake --root-volume-access-modes ReadWriteOnce --root-volume-storage-class gp3-csi --root-volume-size=32 --infra-storage-class-mapping=gp3-csi/gp3 --infra-storage-class-mapping=ocs-storagecluster-ceph-rbd/ceph-rbd --vm-node-selector key=val --additional-network name:ns1/nad-foo --additional-network name:ns2/nad-foo2 --infra-volumesnapshot-class-mapping=ocs-storagecluster-rbd-snap/rdb-snap --toleration key=key1,value=value1,effect=noSchedule --toleration key=key2,value=value2,effect=noSchedule --render-sensitive --pull-secret=/ps';

const create = (args: string, files: Record<string, string> = PULL_SECRET): ReturnType<typeof runHcp> =>
  runHcp(['create', 'cluster', 'kubevirt', ...args.split(' ').filter((a) => a !== '')], { files });

describe('hcp create cluster kubevirt --render', () => {
  // Our renders of upstream's fixture arguments are golden files of ours (the random source is fixed), so a clone
  // alone checks them; the comparisons with upstream's fixtures run in addition when those are present.
  it('When given the minimal upstream arguments, it should say which release it picked and render our golden file', async () => {
    const out = await create(MINIMAL);
    assert.equal(out.code, 0, out.stderr);
    // Upstream renders an empty release image without --release-image (its tests stub the release lookup); ours picks
    // the newest supported release it can resolve: here, with no registry answering, the catalog's.
    assert.match(out.stderr, /^Using release image quay\.io\/openshift-release-dev\/ocp-release:4\.17\.0-multi \(4\.17\.0\): no registry answered/);
    assertGolden(join(OUR_CLUSTER_RENDERS, 'create-cluster-minimal.yaml'), out.stdout);
  });

  it('When given the minimal upstream arguments, it should render the upstream fixture byte for byte (modulo random parts and the release it picks)', { skip: UPSTREAM_FIXTURES.skip }, async () => {
    const out = await create(MINIMAL);
    const picked = out.stdout.replaceAll('image: quay.io/openshift-release-dev/ocp-release:4.17.0-multi', 'image: ""');
    assert.equal(normaliseRandomRender(picked), normaliseRandomRender(fixture('cmd_cluster_kubevirt__zz_fixture_TestCreateCluster_When_minimal_flags_are_provided__it_should_render_successfully.yaml')));
  });

  it('When given the complex upstream arguments, it should render our golden file', async () => {
    const out = await create(COMPLEX);
    assert.equal(out.code, 0, out.stderr);
    assertGolden(join(OUR_CLUSTER_RENDERS, 'create-cluster-complex.yaml'), out.stdout);
  });

  it('When given the complex upstream arguments, it should render the upstream fixture byte for byte (modulo random parts)', { skip: UPSTREAM_FIXTURES.skip }, async () => {
    const out = await create(COMPLEX);
    assert.equal(
      normaliseRandomRender(out.stdout),
      normaliseRandomRender(fixture('cmd_cluster_kubevirt__zz_fixture_TestCreateCluster_When_complex_configuration_flags_are_provided__it_should_create_cluster_with_all_options.yaml')),
    );
  });

  it('When no control-plane availability policy is given, it should default to HighlyAvailable as the product hcp does', async () => {
    const hc = docs((await create('--render --name=example --pull-secret=/ps')).stdout).find((d) => d['kind'] === 'HostedCluster');
    assert.equal(hc?.['spec'].controllerAvailabilityPolicy, 'HighlyAvailable');
  });

  it('When --render-sensitive is not given, it should leave every Secret out', async () => {
    const kinds = docs((await create('--render --name=example --pull-secret=/ps')).stdout).map((d) => d['kind']);
    assert.deepEqual(kinds, ['Namespace', 'HostedCluster', 'NodePool']);
  });

  it('When --render-into is given, it should write the file and print nothing', async () => {
    const out = await create('--render-into=/out.yaml --name=example --pull-secret=/ps');
    assert.equal(out.stdout, '');
    assert.match(out.written.get('/out.yaml') ?? '', /kind: HostedCluster/);
  });

  it('When rendering, every HostedCluster and NodePool should pass the offline validator', async () => {
    for (const args of [MINIMAL, COMPLEX, '--render --name=a --pull-secret=/ps --pausedUntil=true --node-pool-replicas=3 --network-multiqueue=Disable']) {
      for (const doc of docs((await create(args)).stdout).filter((d) => ['HostedCluster', 'NodePool'].includes(String(d['kind'])))) {
        const withImage = structuredClone(doc);
        assert.deepEqual(validateObject(withImage).violations.map(formatViolation), []);
      }
    }
  });

  it('When --pausedUntil=true is given, it should pause the HostedCluster too (upstream pauses only the NodePool)', async () => {
    const objects = docs((await create('--render --name=example --pull-secret=/ps --pausedUntil=true')).stdout);
    assert.equal(objects.find((d) => d['kind'] === 'HostedCluster')?.['spec'].pausedUntil, 'true');
    assert.equal(objects.find((d) => d['kind'] === 'NodePool')?.['spec'].pausedUntil, 'true');
  });

  it('When --node-pool-replicas is negative, it should render no NodePool', async () => {
    const kinds = docs((await create('--render --name=example --pull-secret=/ps --node-pool-replicas=-1')).stdout).map((d) => d['kind']);
    assert.deepEqual(kinds, ['Namespace', 'HostedCluster']);
  });

  it('When an external infrastructure kubeconfig is given, it should render the credentials Secret and reference it', async () => {
    const kubeconfig = 'apiVersion: v1\nkind: Config\nclusters: [{name: infra, cluster: {server: "https://infra:6443"}}]\ncurrent-context: infra\n';
    const out = await create('--render --render-sensitive --name=example --pull-secret=/ps --infra-kubeconfig-file=/kc --infra-namespace=clusters-example', { ...PULL_SECRET, '/kc': kubeconfig });
    const objects = docs(out.stdout);
    const secret = objects.find((d) => d['metadata'].name === 'example-infra-credentials');
    assert.equal(Buffer.from(String(secret?.['data'].kubeconfig), 'base64').toString(), kubeconfig);
    assert.deepEqual(objects.find((d) => d['kind'] === 'HostedCluster')?.['spec'].platform.kubevirt.credentials, {
      infraKubeConfigSecret: { name: 'example-infra-credentials', key: 'kubeconfig' },
      infraNamespace: 'clusters-example',
    });
  });
});

describe('hcp create cluster kubevirt file flags', () => {
  const BLOCK = 'apiVersion: v1\nkind: Config\nclusters:\n- name: infra\n  cluster:\n    server: https://infra:6443\ncontexts:\n- name: infra\n  context: {cluster: infra, user: u}\ncurrent-context: infra\nusers:\n- name: u\n  user: {token: t}\n';
  const JSON_KUBECONFIG = JSON.stringify({ apiVersion: 'v1', kind: 'Config', clusters: [{ name: 'infra', cluster: { server: 'https://infra:6443' } }], contexts: [], 'current-context': 'infra', users: [] });
  const withInfra = (kubeconfig: string): ReturnType<typeof runHcp> =>
    create('--render --name=example --pull-secret=/ps --infra-kubeconfig-file=/kc --infra-namespace=clusters-example', { ...PULL_SECRET, '/kc': kubeconfig });

  it('When the infra kubeconfig is block YAML or JSON, it should accept it', async () => {
    for (const kubeconfig of [BLOCK, JSON_KUBECONFIG]) {
      const out = await withInfra(kubeconfig);
      assert.equal(out.code, 0, out.stderr);
      assert.match(out.stdout, /infraKubeConfigSecret:\n\s+key: kubeconfig\n\s+name: example-infra-credentials/);
    }
  });

  it('When the infra kubeconfig is not YAML or has no current context, it should say which and exit 1', async () => {
    const broken = await withInfra('clusters: [\n');
    assert.equal(broken.code, 1);
    assert.match(broken.stderr, /^invalid --infra-kubeconfig-file "\/kc": not YAML: /);
    const noContext = await withInfra('clusters: []\n');
    assert.equal(noContext.stderr.trim(), 'invalid --infra-kubeconfig-file "/kc": not a kubeconfig with clusters and a current-context');
  });

  it('When the image content sources file is empty, it should render no sources, as upstream', async () => {
    const out = await create('--render --name=example --pull-secret=/ps --image-content-sources=/ics', { ...PULL_SECRET, '/ics': '' });
    assert.equal(out.code, 0, out.stderr);
    assert.doesNotMatch(out.stdout, /imageContentSources/);
  });

  it('When the image content sources file is not YAML or not a list of sources, it should say so and exit 1', async () => {
    const broken = await create('--render --name=example --pull-secret=/ps --image-content-sources=/ics', { ...PULL_SECRET, '/ics': '- source: [' });
    assert.equal(broken.code, 1);
    assert.match(broken.stderr, /^invalid --image-content-sources "\/ics": not YAML: /);
    const notList = await create('--render --name=example --pull-secret=/ps --image-content-sources=/ics', { ...PULL_SECRET, '/ics': 'source: a\n' });
    assert.equal(notList.stderr.trim(), 'invalid --image-content-sources "/ics": must be a YAML list of {source, mirrors} entries');
  });

  it('When the additional trust bundle holds no PEM certificate, it should say so and exit 1 (the operator could not use it)', async () => {
    const out = await create('--render --name=example --pull-secret=/ps --additional-trust-bundle=/ca', { ...PULL_SECRET, '/ca': 'not a certificate\n' });
    assert.equal(out.code, 1);
    assert.equal(out.stdout, '');
    assert.equal(out.stderr.trim(), 'invalid --additional-trust-bundle "/ca": the file holds no PEM certificate (-----BEGIN CERTIFICATE-----)');
  });
});

describe('hcp create cluster kubevirt input errors', () => {
  it('When many things are wrong, it should report them all at once, one line each, with exit code 1', async () => {
    const out = await create('--render --name Bad_Name --pull-secret /missing --arch arm64 --default-dual --wait --toleration effect=Sometimes --infra-storage-class-mapping=a/b,group --memory 4GB');
    assert.equal(out.code, 1);
    const lines = out.stderr.trim().split('\n');
    assert.deepEqual(lines, [
      'HostedCluster name failed RFC1123 validation: invalid --name "Bad_Name": must be lowercase letters, digits and "-", start and end with a letter or digit, at most 63 characters',
      '--wait requires --node-pool-replicas > 0',
      'invalid --default-dual "true": dual-stack defaults are not supported on the KubeVirt platform; give --cluster-cidr and --service-cidr twice instead',
      'invalid --toleration "effect=Sometimes": invalid toleration cli argument. effect must be one of NoSchedule, PreferNoSchedule, NoExecute',
      'invalid --infra-storage-class-mapping "a/b,group": unknown option "group"; the only option is group=<group name>',
      'invalid --arch "arm64": the KubeVirt platform runs only amd64, s390x nodes',
      'invalid --memory "4GB": invalid memory quantity "4GB": must be a quantity such as 4Gi or 512Mi',
      "failed to read pull secret file: no such file or directory, open '/missing'",
    ]);
  });

  it('When a flag is unknown or lacks its value, it should be a usage error with exit code 2', async () => {
    assert.equal((await create('--render --nam=x')).code, 2);
    assert.equal((await create('--render --name')).code, 2);
    assert.equal((await create('--render --cores=two --name=x --pull-secret=/ps')).code, 2);
  });

  it('When required flags are missing, it should name them', async () => {
    const out = await create('--render');
    assert.deepEqual(out.stderr.trim().split('\n'), ['--name is required', '--pull-secret is required']);
  });

  it('When a flag does nothing on KubeVirt, it should warn instead of ignoring it silently', async () => {
    const out = await create('--render --name=example --pull-secret=/ps --base-domain-prefix=apps');
    assert.equal(out.code, 0);
    assert.match(out.stderr, /WARNING: --base-domain-prefix is ignored on the KubeVirt platform/);
  });

  it('When NodePort publishing is asked with an address, it should publish every service on it as upstream does', async () => {
    const out = await create('--render --name=example --pull-secret=/ps --service-publishing-strategy=NodePort --api-server-address=10.0.0.5');
    assert.equal(out.code, 0, out.stderr);
    const hc = docs(out.stdout).find((d) => d['kind'] === 'HostedCluster');
    const services = (hc?.['spec'].services as Array<{ service: string; servicePublishingStrategy: unknown }>).map((s) => [s.service, s.servicePublishingStrategy]);
    const nodePort = { type: 'NodePort', nodePort: { address: '10.0.0.5' } };
    assert.deepEqual(services, [['APIServer', nodePort], ['Ignition', nodePort], ['Konnectivity', nodePort], ['OAuthServer', nodePort], ['OIDC', nodePort]]);
  });

  it('When the publishing flags do not fit together, it should say so with upstream messages and render nothing', async () => {
    const unsupported = await create('--render --name=example --pull-secret=/ps --service-publishing-strategy=Route');
    assert.equal(unsupported.code, 1);
    assert.match(unsupported.stderr, /service publish strategy Route is not supported, supported options: Ingress, NodePort/);
    const address = await create('--render --name=example --pull-secret=/ps --api-server-address=10.0.0.5');
    assert.match(address.stderr, /external-api-server-address is supported only for NodePort service publishing strategy, service publishing strategy Ingress is used/);
    const rendered = await create('--render --name=example --pull-secret=/ps --service-publishing-strategy=NodePort');
    assert.equal(rendered.code, 1);
    assert.match(rendered.stderr, /--api-server-address is required with --service-publishing-strategy=NodePort and --render/);
    assert.equal(rendered.stdout, '');
  });
});

