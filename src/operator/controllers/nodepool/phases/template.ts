import { NodePoolConditionReason as Reason, NodePoolConditionType as Type } from '../../../../api/v1beta1/conditions.ts';
import { VmJsonPatchError } from '../../../../platform/kubevirt/json-patch.ts';
import { BootImageCacheNotReadyError, renderMachineTemplate } from '../../../../platform/kubevirt/machine-template.ts';
import { machineTemplateHash, renderVirtualMachine } from '../../../../platform/kubevirt/virtual-machine.ts';
import { produced, setCondition, type Phase } from '../scope.ts';

/** Renders one VM from the template, turning a shape a JSON patch broke into a template error. */
function tryRenderMachine(template: ReturnType<typeof renderMachineTemplate>): void {
  try {
    renderVirtualMachine(template, { name: 'check', namespace: 'check', nodePool: 'check/check', infraID: 'check', userDataSecretName: 'check', templateHash: 'check' });
  } catch (error) {
    if (!(error instanceof TypeError)) throw error;
    throw new VmJsonPatchError(`failed to apply json patch annotation: the patched VM template is no longer a VirtualMachine template (${error.message})`);
  }
}

/**
 * The VM template of the current generation, with the HostedCluster's and the NodePool's JSON patches, and its hash
 * (any change of template or bootstrap data is a new generation, which the machines phase rolls out). A JSON patch
 * that cannot apply stops the reconcile with ValidMachineTemplate False: running machines are left alone.
 */
export const templatePhase: Phase = {
  name: 'template',
  run(scope) {
    const hc = produced(scope, 'hc');
    const infra = produced(scope, 'infra');
    const bootstrap = produced(scope, 'bootstrap');
    const type = Type.ValidMachineTemplate.value;
    try {
      const template = renderMachineTemplate({
        nodePool: scope.np,
        hostedClusterAnnotations: hc.metadata.annotations,
        infraID: hc.spec.infraID ?? '',
        infraNamespace: infra.namespace,
        externalInfra: hc.spec.platform.kubevirt?.credentials !== undefined,
        bootImage: produced(scope, 'bootImage'),
        ...(scope.cacheName === undefined ? {} : { cacheName: scope.cacheName }),
      });
      // A patch that applied but broke the template's shape must fail here, before any machine is replaced.
      tryRenderMachine(template);
      scope.generation = { template, templateHash: machineTemplateHash(template, bootstrap.userDataSecretName) };
      setCondition(scope, { type, status: 'True', reason: Reason.AsExpected.value, message: '' });
      return Promise.resolve(undefined);
    } catch (error) {
      if (error instanceof BootImageCacheNotReadyError) return Promise.resolve({ stop: true, requeueAfterMs: 2_000 });
      if (!(error instanceof VmJsonPatchError)) throw error;
      setCondition(scope, { type, status: 'False', reason: Reason.InvalidKubevirtMachineTemplate.value, message: error.message });
      return Promise.resolve({ stop: true });
    }
  },
};
