import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { HostedCluster, HostedControlPlane } from '../../api/index.ts';
import type { KubeObject } from '../../kube/client.ts';
import { parseImageReference } from '../../release/image-reference.ts';
import { PAYLOAD_FILES } from '../../release/payload.ts';
import { RegistryClient } from '../../registry/client.ts';
import { publishPayload } from '../../registry/publish.ts';
import { RegistryReleaseProvider } from '../../registry/release-provider.ts';
import { Transport } from '../../registry/transport.ts';
import { runHcp } from '../../testing/cli.ts';
import { testClusters } from '../../testing/envtest/clusters.ts';
import { eventually } from '../../testing/eventually.ts';
import { conditionOf, getNodePool } from '../../testing/nodepools.ts';
import { installOperatorAccount, startOperatorAs, type TestOperator } from '../../testing/operator.ts';
import { startTestRegistry, type TestRegistry } from '../../testing/registry.ts';
import { OPENSHIFT_BOOT_IMAGE, OPENSHIFT_TAGS, openshiftPayloadFiles } from '../../testing/release-payloads.ts';

const { management } = testClusters();
const { client } = management;
const API = 'hypershift.openshift.io/v1beta1';
type Deployment = KubeObject & { spec: { template: { spec: { containers: Array<{ name: string; image: string }> } } } };

const hostedCluster = (ns: string, name: string): Promise<HostedCluster | undefined> => client.tryGet<HostedCluster>({ apiVersion: API, kind: 'HostedCluster', name, namespace: ns });
const conditionIn = (object: { status?: { conditions?: Array<{ type: string; status: string; reason?: string; message?: string }> } } | undefined, type: string) => object?.status?.conditions?.find((c) => c.type === type);

describe('release payloads in the controllers (a real registry with authentication, trusted through each cluster trust bundle)', () => {
  let registry: TestRegistry;
  let transport: Transport;
  const operatorTransport = new Transport();
  let op: TestOperator | undefined;
  let ns = '';
  const image = (path: string): string => `${registry.host}/${path}`;
  const create = async (name: string, release: string, pullSecret: string, options: { replicas?: number; trust?: boolean } = {}): Promise<void> => {
    const { replicas = 0, trust = true } = options;
    const args = ['create', 'cluster', 'kubevirt', `--kubeconfig=${management.adminKubeconfig}`, `--namespace=${ns}`, `--name=${name}`, '--pull-secret=/ps', `--node-pool-replicas=${String(replicas)}`, `--release-image=${release}`, ...(trust ? ['--additional-trust-bundle=/ca'] : [])];
    const out = await runHcp(args, { files: { '/ps': pullSecret, '/ca': registry.ca }, realClock: true });
    assert.equal(out.code, 0, out.stderr);
  };

  before(async () => {
    registry = await startTestRegistry();
    transport = new Transport({ extraCA: registry.ca });
    const publisher = new RegistryClient({ transport, pullSecret: registry.pullSecret() });
    await publishPayload(publisher, parseImageReference(image('ocp/release:4.17.0-multi')), openshiftPayloadFiles('4.17.0'), { architectures: ['amd64', 's390x'] });
    const partial = Object.fromEntries(Object.entries(OPENSHIFT_TAGS).filter(([tag]) => tag !== 'hyperkube'));
    await publishPayload(publisher, parseImageReference(image('ocp/release:4.17.1-partial')), openshiftPayloadFiles('4.17.1', { tags: partial }));
    await publishPayload(publisher, parseImageReference(image('ocp/not-a-release:1')), openshiftPayloadFiles('4.17.0', { omit: [PAYLOAD_FILES.releaseMetadata] }));
    ns = await management.namespace('release');
    // The operator trusts no extra CA of its own: each cluster brings the registry's in its additionalTrustBundle.
    const releases = new RegistryReleaseProvider({ transport: operatorTransport, trusting: (bundle) => new Transport({ extraCA: bundle }), architecture: 'amd64', now: () => Date.now() });
    op = await startOperatorAs(await installOperatorAccount(management), ns, { releases, hostedClusterKubeconfig: null });
  });
  after(async () => {
    await op?.operator.stop();
    op?.client.close();
    transport.close();
    operatorTransport.close();
    await registry.stop();
  });

  it('When a cluster names a payload in an authenticated registry, the control plane should run its images and the pool boot its KubeVirt image', async () => {
    await create('payload', image('ocp/release:4.17.0-multi'), registry.pullSecret(), { replicas: 1 });
    const hcp = await eventually('ValidReleaseInfo True', async () => {
      const current = await client.tryGet<HostedControlPlane>({ apiVersion: API, kind: 'HostedControlPlane', name: 'payload', namespace: `${ns}-payload` });
      return conditionIn(current, 'ValidReleaseInfo')?.status === 'True' ? current : undefined;
    });
    assert.equal(conditionIn(hcp, 'ValidReleaseImage')?.message, 'Release 4.17.0');
    assert.equal(conditionIn(await hostedCluster(ns, 'payload'), 'ValidReleaseImage')?.message, 'Release image is valid');
    const kas = await eventually('kube-apiserver', () => client.tryGet<Deployment>({ apiVersion: 'apps/v1', kind: 'Deployment', name: 'kube-apiserver', namespace: `${ns}-payload` }));
    assert.equal(kas.spec.template.spec.containers.find((c) => c.name === 'kube-apiserver')?.image, OPENSHIFT_TAGS['hyperkube']);
    const np = await eventually('ValidPlatformImage True', async () => {
      const current = await getNodePool(client, ns, 'payload');
      return conditionOf(current, 'ValidPlatformImage')?.status === 'True' ? current : undefined;
    });
    assert.equal(conditionOf(np, 'ValidPlatformImage')?.message, `Bootstrap KubeVirt Image is ${OPENSHIFT_BOOT_IMAGE}`);
    assert.equal(conditionOf(np, 'ValidReleaseImage')?.message, `Using release image: ${image('ocp/release:4.17.0-multi')}`);
  });

  it('When the pull secret is refused, the HostedCluster should say so and no control plane be made', async () => {
    await create('refused', image('ocp/release:4.17.0-multi'), registry.pullSecret('release-reader', 'wrong'));
    const hc = await eventually('ValidReleaseImage False', async () => {
      const current = await hostedCluster(ns, 'refused');
      return conditionIn(current, 'ValidReleaseImage')?.status === 'False' ? current : undefined;
    });
    const condition = conditionIn(hc, 'ValidReleaseImage');
    assert.equal(condition?.reason, 'InvalidImage');
    assert.match(condition?.message ?? '', new RegExp(`^release image ${registry.host}/ocp/release:4\\.17\\.0-multi: .*refused the pull secret's credentials for ${registry.host}`));
    assert.equal(await client.tryGet({ apiVersion: API, kind: 'HostedControlPlane', name: 'refused', namespace: `${ns}-refused` }), undefined);
  });

  it('When the cluster does not trust the registry CA, it should say the certificate is not trusted and where to add its CA', async () => {
    await create('untrusted', image('ocp/release:4.17.0-multi'), registry.pullSecret(), { trust: false });
    const hc = await eventually('ValidReleaseImage False', async () => {
      const current = await hostedCluster(ns, 'untrusted');
      return conditionIn(current, 'ValidReleaseImage')?.status === 'False' ? current : undefined;
    });
    assert.equal(conditionIn(hc, 'ValidReleaseImage')?.reason, 'InvalidImage');
    assert.match(conditionIn(hc, 'ValidReleaseImage')?.message ?? '', /the registry's certificate is not trusted \(\w+.*\): add its CA to the HostedCluster's additionalTrustBundle or to the operator's --registry-ca-file/);
  });

  it('When a running cluster is moved to an image without release metadata, nothing deployed should change', async () => {
    const kasRef = { apiVersion: 'apps/v1', kind: 'Deployment', name: 'kube-apiserver', namespace: `${ns}-payload` };
    const kasBefore = await client.get<Deployment>(kasRef);
    await client.mergePatch({ apiVersion: API, kind: 'HostedCluster', name: 'payload', namespace: ns }, { spec: { release: { image: image('ocp/not-a-release:1') } } });
    const hc = await eventually('ValidReleaseImage False', async () => {
      const current = await hostedCluster(ns, 'payload');
      return conditionIn(current, 'ValidReleaseImage')?.status === 'False' ? current : undefined;
    });
    assert.match(conditionIn(hc, 'ValidReleaseImage')?.message ?? '', /not a release payload: it has no release-manifests\/release-metadata$/);
    // Given the time a reconcile of the control plane takes, then checked: the spec and the Deployment are as they were.
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    const hcp = await client.get<HostedControlPlane>({ apiVersion: API, kind: 'HostedControlPlane', name: 'payload', namespace: `${ns}-payload` });
    assert.equal(hcp.spec.releaseImage, image('ocp/release:4.17.0-multi'));
    assert.equal((await client.get<Deployment>(kasRef)).metadata?.resourceVersion, kasBefore.metadata?.resourceVersion);
  });

  it('When the payload lacks a component, the HostedCluster should report MissingReleaseImages and no control plane be made', async () => {
    await create('partial', image('ocp/release:4.17.1-partial'), registry.pullSecret());
    const hc = await eventually('ValidReleaseInfo False', async () => {
      const current = await hostedCluster(ns, 'partial');
      return conditionIn(current, 'ValidReleaseInfo')?.status === 'False' ? current : undefined;
    });
    const condition = conditionIn(hc, 'ValidReleaseInfo');
    assert.equal(condition?.reason, 'MissingReleaseImages');
    assert.match(condition?.message ?? '', /lacks the images of kube-apiserver or hyperkube, kube-controller-manager or hyperkube, kube-scheduler or hyperkube$/);
    assert.equal(conditionIn(hc, 'ValidReleaseImage')?.status, 'True');
    assert.equal(await client.tryGet({ apiVersion: API, kind: 'HostedControlPlane', name: 'partial', namespace: `${ns}-partial` }), undefined);
  });
});
