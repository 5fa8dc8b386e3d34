import type { HostedCluster } from '../../../../api/index.ts';
import { goRuntimeProblem } from '../../../../controlplane/kube-apiserver/go-runtime.ts';
import { INFRA_CREDENTIALS_SECRET, infraKubeconfigKey, kubeconfigFromCopy } from '../../../../controlplane/common/infra.ts';
import { HostedClusterConditionReason as Reason, HostedClusterConditionType as Type } from '../../../../api/v1beta1/conditions.ts';
import { fromBase64 } from '../../../../lib/base64.ts';
import { checkInfraAccess, type InfraAccessProblem } from '../../../../kube/infra-access.ts';
import { untrustedKubeconfigProblem } from '../../../../kube/untrusted-kubeconfig.ts';
import type { SourceSecret } from '../../../../render/hostedcluster/secrets.ts';
import { HostedClusterNames } from '../../../../render/hostedcluster/names.ts';
import { findCondition } from '../../../../lib/conditions.ts';
import { controlPlaneOf, setCondition, type Phase, type Scope } from '../scope.ts';
import { controlPlaneNamespaceClaim } from './control-plane-namespace.ts';
import { OurAnnotation } from '../../../../api/v1beta1/well-known.ts';

/** How long to wait before looking again for a Secret the user has not created yet. */
const MISSING_SECRET_RETRY_MS = 30_000;

const readSecret = (scope: Scope, name: string): Promise<SourceSecret | undefined> => scope.deps.userSecret(scope.hc.metadata.namespace ?? '', name);

/** The names of the Secrets beside it that a HostedCluster uses (a change of one reconciles it). */
export function referencedSecrets(hc: HostedCluster): string[] {
  const names = [
    hc.spec.pullSecret.name,
    hc.spec.sshKey?.name,
    hc.spec.secretEncryption?.aescbc?.activeKey.name,
    hc.spec.platform.kubevirt?.credentials?.infraKubeConfigSecret?.name,
    hc.metadata.annotations?.[OurAnnotation.EtcdRestoreCredentials],
  ];
  return names.filter((name): name is string => name !== undefined && name !== '');
}

/** Platform and release: problems only a spec change fixes (no retry until the object changes). */
function checkSpec(scope: Scope): boolean {
  const { spec } = scope.hc;
  if (spec.platform.type !== 'KubeVirt') {
    setCondition(scope, { type: Type.SupportedHostedCluster.value, status: 'False', reason: Reason.UnsupportedHostedCluster.value, message: `platform ${spec.platform.type} is not supported by this operator: set spec.platform.type to KubeVirt` });
    return false;
  }
  setCondition(scope, { type: Type.SupportedHostedCluster.value, status: 'True', reason: Reason.AsExpected.value, message: 'HostedCluster is supported by operator configuration' });
  if (spec.release.image === '') {
    setCondition(scope, { type: Type.ValidReleaseImage.value, status: 'False', reason: Reason.InvalidImage.value, message: 'spec.release.image is empty: set it to an OpenShift release image' });
    return false;
  }
  return true;
}

/** Reads the referenced Secrets; a missing one is reported by name and retried. */
async function checkSecrets(scope: Scope): Promise<boolean> {
  const { spec, metadata } = scope.hc;
  const wanted: Array<['pullSecret' | 'sshKey' | 'encryptionKey', string | undefined, string]> = [
    ['pullSecret', spec.pullSecret.name, 'pull secret'],
    ['sshKey', spec.sshKey?.name, 'SSH key secret'],
    ['encryptionKey', spec.secretEncryption?.aescbc?.activeKey.name, 'etcd encryption key secret'],
  ];
  for (const [role, name, what] of wanted) {
    if (name === undefined || name === '') continue;
    const secret = await readSecret(scope, name);
    if (secret === undefined) {
      setCondition(scope, { type: Type.ValidConfiguration.value, status: 'False', reason: Reason.SecretNotFound.value, message: `${what} ${metadata.namespace ?? ''}/${name} not found` });
      return false;
    }
    scope.secrets.set(role, secret);
  }
  return (await checkRestoreCredentials(scope)) && checkInfraCredentials(scope);
}

/** Why the restore credentials cannot be used (the message), when they cannot; needed for an s3:// URL only. */
function restoreCredentialsProblem(scope: Scope, url: string, name: string | undefined, secret: SourceSecret | undefined): string | undefined {
  const where = `${scope.hc.metadata.namespace ?? ''}/${name ?? ''}`;
  if (!url.startsWith('s3://')) return undefined;
  if (name === undefined) return `spec.etcd.managed.storage.restoreSnapshotURL is an s3:// URL: name a Secret with the bucket's credentials (key "credentials") in annotation ${OurAnnotation.EtcdRestoreCredentials}, or give a pre-signed https:// URL`;
  return secret?.data?.['credentials'] === undefined ? `etcd restore credentials secret ${where} has no "credentials" key (an AWS shared-credentials file)` : undefined;
}

/** Whether the control plane reports its etcd restored from the snapshot. */
const restored = (scope: Scope): boolean => findCondition(controlPlaneOf(scope)?.status?.conditions ?? [], Type.EtcdSnapshotRestored.value)?.status === 'True';

/** The Secret the annotation names; 'missing' (reported) when it names one that does not exist. */
async function restoreCredentialsSecret(scope: Scope, name: string | undefined): Promise<SourceSecret | undefined | 'missing'> {
  if (name === undefined) return undefined;
  const secret = await readSecret(scope, name);
  if (secret !== undefined) return secret;
  setCondition(scope, { type: Type.ValidConfiguration.value, status: 'False', reason: Reason.SecretNotFound.value, message: `etcd restore credentials secret ${scope.hc.metadata.namespace ?? ''}/${name} not found` });
  return 'missing';
}

/**
 * The credentials of `restoreSnapshotURL`, when the annotation names them: required for an s3:// URL (nothing else
 * can read the bucket), optional for a pre-signed https:// one (its CA, for a private store); not required, nor
 * copied, once the control plane reports the restore done.
 */
async function checkRestoreCredentials(scope: Scope): Promise<boolean> {
  const { hc } = scope;
  const url = hc.spec.etcd.managed?.storage.restoreSnapshotURL?.[0];
  // Once restored, the snapshot is not read again: its credentials may go.
  if (url === undefined || restored(scope)) return true;
  const name = hc.metadata.annotations?.[OurAnnotation.EtcdRestoreCredentials] || undefined;
  const secret = await restoreCredentialsSecret(scope, name);
  if (secret === 'missing') return false;
  const problem = restoreCredentialsProblem(scope, url, name, secret);
  if (problem !== undefined) {
    setCondition(scope, { type: Type.ValidConfiguration.value, status: 'False', reason: Reason.InvalidConfiguration.value, message: problem });
    return false;
  }
  if (secret !== undefined) scope.secrets.set('etcdRestoreCredentials', secret);
  return true;
}

function infraProblemMessage(problem: InfraAccessProblem, namespace: string): string {
  if (problem.kind === 'unreachable') return `cannot reach the infrastructure cluster: ${problem.reason}`;
  if (problem.kind === 'namespace-missing') return `infrastructure namespace ${namespace} does not exist on the infrastructure cluster`;
  return `the infra kubeconfig user may not create virtualmachines.kubevirt.io in namespace ${namespace} on the infrastructure cluster`;
}

/** The external infrastructure answers, has the namespace, and lets the user create VMs there. */
async function checkInfraAccessible(scope: Scope, kubeconfig: string, namespace: string): Promise<boolean> {
  const client = scope.deps.infraClients.clientFor(scope.hc.metadata.uid ?? '', fromBase64(kubeconfig));
  const problem = await checkInfraAccess(client, namespace);
  if (problem === undefined) {
    scope.infra = { client, namespace };
    setCondition(scope, { type: Type.InfrastructureReady.value, status: 'True', reason: Reason.AsExpected.value, message: `The infrastructure cluster can host the VMs in namespace ${namespace}` });
    return true;
  }
  setCondition(scope, { type: Type.InfrastructureReady.value, status: 'False', reason: Reason.InfraStatusFailure.value, message: infraProblemMessage(problem, namespace) });
  return false;
}

const credentialsProblem = (scope: Scope, name: string, key: string, secret: SourceSecret | undefined): string =>
  `infra kubeconfig secret ${scope.hc.metadata.namespace ?? ''}/${name} ${secret === undefined ? 'not found' : `has no '${key}' key`}`;

/**
 * Whether the infra kubeconfig carries only inline credentials, as the operator takes a tenant's; else it is refused
 * in PlatformCredentialsFound and not copied into the control plane, whose CSI controller and cloud provider would
 * honour it.
 */
async function inlineOnly(scope: Scope, name: string, kubeconfig: string): Promise<boolean> {
  const problem = untrustedKubeconfigProblem(fromBase64(kubeconfig));
  if (problem === undefined) return true;
  const message = `infra kubeconfig secret ${scope.hc.metadata.namespace ?? ''}/${name}: ${problem}; a HostedCluster's kubeconfig may carry only inline credentials (token, client-certificate-data and client-key-data, certificate-authority-data)`;
  setCondition(scope, { type: Type.PlatformCredentialsFound.value, status: 'False', reason: Reason.PlatformCredentialsNotFound.value, message });
  await dropUnsafeCopy(scope);
  return false;
}

/**
 * Deletes the control plane's copy of the infra kubeconfig when it asks for more than inline credentials too (one an
 * operator before this check copied): the CSI controller and the cloud provider would otherwise go on honouring it.
 */
async function dropUnsafeCopy(scope: Scope): Promise<void> {
  const namespace = HostedClusterNames.controlPlaneNamespace(scope.hc);
  if ((await controlPlaneNamespaceClaim(scope)).kind !== 'ours') return;
  const copy = kubeconfigFromCopy(scope.deps.controlPlaneSecret(`${namespace}/${INFRA_CREDENTIALS_SECRET}`), infraKubeconfigKey(scope.hc.spec.platform.kubevirt?.credentials) ?? 'kubeconfig');
  if (copy !== undefined && untrustedKubeconfigProblem(copy) !== undefined) await scope.deps.client.delete({ apiVersion: 'v1', kind: 'Secret', name: INFRA_CREDENTIALS_SECRET, namespace });
}

/** Worker VMs on the management cluster: no credentials to check. */
function managementInfra(scope: Scope): true {
  setCondition(scope, { type: Type.PlatformCredentialsFound.value, status: 'True', reason: Reason.AsExpected.value, message: 'Worker VMs run on the management cluster; no credentials needed' });
  setCondition(scope, { type: Type.InfrastructureReady.value, status: 'True', reason: Reason.AsExpected.value, message: 'Worker VMs run on the management cluster' });
  return true;
}

type Credentials = NonNullable<NonNullable<HostedCluster['spec']['platform']['kubevirt']>['credentials']>;

/**
 * The infra kubeconfig Secret and its value, under the key every reader of the copy uses (VMs, CSI, cloud provider).
 */
async function infraSecret(scope: Scope, credentials: Credentials): Promise<{ name: string; key: string; secret: SourceSecret | undefined; kubeconfig: string | undefined }> {
  const name = credentials.infraKubeConfigSecret?.name ?? '';
  const key = infraKubeconfigKey(credentials) ?? 'kubeconfig';
  const secret = await readSecret(scope, name);
  return { name, key, secret, kubeconfig: secret?.data?.[key] };
}

async function checkInfraCredentials(scope: Scope): Promise<boolean> {
  const credentials = scope.hc.spec.platform.kubevirt?.credentials;
  if (credentials === undefined) return managementInfra(scope);
  const { name, key, secret, kubeconfig } = await infraSecret(scope, credentials);
  if (secret === undefined || kubeconfig === undefined) {
    setCondition(scope, { type: Type.PlatformCredentialsFound.value, status: 'False', reason: Reason.PlatformCredentialsNotFound.value, message: credentialsProblem(scope, name, key, secret) });
    return false;
  }
  if (!(await inlineOnly(scope, name, kubeconfig))) return false;
  scope.secrets.set('infraCredentials', secret);
  setCondition(scope, { type: Type.PlatformCredentialsFound.value, status: 'True', reason: Reason.AsExpected.value, message: 'Infra kubeconfig secret found' });
  return checkInfraAccessible(scope, kubeconfig, credentials.infraNamespace);
}

/**
 * Validation: the platform, an empty release and annotations with values the control plane cannot use (terminal:
 * reported, not retried; a change to the cluster reconciles it again), then the referenced Secrets
 * (waited for: retried until they exist). ValidConfiguration tells the user what to change; the release phase then
 * reads the payload.
 */
export const validatePhase: Phase = {
  name: 'validate',
  async run(scope) {
    if (!checkSpec(scope)) {
      setCondition(scope, { type: Type.ValidConfiguration.value, status: 'False', reason: Reason.InvalidConfiguration.value, message: 'the spec needs a change: see SupportedHostedCluster and ValidReleaseImage' });
      return { stop: true };
    }
    const runtimeProblem = goRuntimeProblem(scope.hc.metadata.annotations);
    if (runtimeProblem !== undefined) {
      setCondition(scope, { type: Type.ValidConfiguration.value, status: 'False', reason: Reason.InvalidConfiguration.value, message: runtimeProblem });
      return { stop: true };
    }
    if (!(await checkSecrets(scope))) return { stop: true, requeueAfterMs: MISSING_SECRET_RETRY_MS };
    setCondition(scope, { type: Type.ValidConfiguration.value, status: 'True', reason: Reason.AsExpected.value, message: 'Configuration passes validation' });
    return undefined;
  },
};
