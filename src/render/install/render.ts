import { OperatorLabel } from '../../api/v1beta1/well-known.ts';
import { DEFAULT_KINDS, GATED_KINDS } from '../../api/v1beta1/kinds.ts';
import { renderCrd } from '../../api/schema/crd.ts';
import { SUPPORTED_VERSIONS_CONFIGMAP, supportedVersionsData } from '../../release/supported-versions.ts';
import type { KubeManifest } from '../../api/manifest.ts';
import type { InstallInput } from './input.ts';
import { renderDashboardTemplate, renderOperatorDeployment, renderOperatorService, renderPriorityClasses, renderUserCABundle } from './operator.ts';
import { renderOperatorRbac } from './rbac.ts';
import { renderConsole } from './console.ts';

/** The HostedCluster, NodePool and HostedControlPlane CRDs, and with the TechPreviewNoUpgrade feature set the gated kinds' (HCPEtcdBackup). */
export const renderInstallCrds = (techPreviewNoUpgrade = false): KubeManifest[] =>
  [...DEFAULT_KINDS, ...(techPreviewNoUpgrade ? Object.values(GATED_KINDS) : [])].map((kind) => renderCrd(kind) as unknown as KubeManifest);

function supportedVersionsConfigMap(input: InstallInput): KubeManifest {
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: SUPPORTED_VERSIONS_CONFIGMAP.name, namespace: input.namespace, labels: { [SUPPORTED_VERSIONS_CONFIGMAP.label]: 'true' } },
    data: supportedVersionsData(input.version),
  };
}

/** Everything but the CRDs, in the order they can be applied. */
function renderInstallResources(input: InstallInput): KubeManifest[] {
  return [
    { apiVersion: 'v1', kind: 'Namespace', metadata: { name: input.namespace, labels: { [OperatorLabel.Component]: 'operator' } } },
    ...renderOperatorRbac(input),
    ...renderPriorityClasses(),
    supportedVersionsConfigMap(input),
    ...renderUserCABundle(input),
    ...renderDashboardTemplate(input),
    renderOperatorService(input),
    renderOperatorDeployment(input),
    ...renderConsole(input),
  ];
}

/**
 * The operator installation: CRDs first (so they can be established before anything uses them), then the
 * namespace, service account and RBAC, priority classes, the supported-versions ConfigMap, the user CA bundle (with
 * `--additional-trust-bundle`), the dashboard template (with `--monitoring-dashboards`), the Deployment, and the web console (with `--console`).
 */
export function renderInstall(input: InstallInput): KubeManifest[] {
  return [...(input.scope === 'resources' ? [] : renderInstallCrds(input.techPreviewNoUpgrade)), ...(input.scope === 'crds' ? [] : renderInstallResources(input))];
}
