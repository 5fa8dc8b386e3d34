import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { parse } from 'yaml';
import { toYaml } from '../../lib/yaml.ts';
import { kubevirtNodePoolPlatform, validateKubevirtNodePoolFlags } from '../../platform/kubevirt/nodepool-platform.ts';
import { OUR_NODEPOOL_PLATFORMS, UPSTREAM_FIXTURES } from '../../testing/conformance.ts';
import { assertGolden } from '../../testing/golden.ts';
import { CONFORMANCE_DIR } from '../../testing/paths.ts';
import { FlagReader, parseArgs } from '../framework/parse.ts';
import { KUBEVIRT_NODEPOOL_FLAGS, kubevirtNodePoolFlags } from './kubevirt-nodepool-flags.ts';

/** Upstream's fixtures of the NodePool platform flags, the arguments that produced them (conformance README) and our golden file of them. */
const FIXTURES: ReadonlyArray<{ readonly golden: string; readonly upstream: string; readonly args: string }> = [
  {
    golden: 'create-nodepool-minimal.yaml',
    upstream: 'cmd_nodepool_kubevirt__zz_fixture_TestCreateNodePool_When_flags_are_parsed_it_should_generate_correct_nodepool_When_minimal_configuration_is_provided__it_should_generate_correct_nodepool.yaml',
    args: '--cores=2 --memory=4Gi --root-volume-size=32',
  },
  {
    golden: 'create-nodepool-additional-networks.yaml',
    upstream: 'cmd_nodepool_kubevirt__zz_fixture_TestCreateNodePool_When_flags_are_parsed_it_should_generate_correct_nodepool_When_full_configuration_with_additional_networks_is_provided__it_should_generate_correct_nodepool.yaml',
    args: '--cores=4 --memory=8Gi --root-volume-size=64 --root-volume-storage-class=fast-storage --root-volume-access-modes=ReadWriteOnce --root-volume-volume-mode=Block --network-multiqueue=Enable --qos-class=Guaranteed --additional-network=name:default/nad1 --additional-network=name:default/nad2 --attach-default-network=false',
  },
  {
    golden: 'create-nodepool-host-devices.yaml',
    upstream: 'cmd_nodepool_kubevirt__zz_fixture_TestCreateNodePool_When_flags_are_parsed_it_should_generate_correct_nodepool_When_host_devices_are_configured__it_should_generate_correct_nodepool.yaml',
    args: '--cores=8 --memory=16Gi --root-volume-size=128 --host-device-name=gpu-device,count:2 --qos-class=Burstable',
  },
  {
    golden: 'update-nodepool-minimal.yaml',
    upstream: 'product-cli_cmd_nodepool__zz_fixture_TestUpdateNodePool_When_minimal_configuration_is_provided__it_should_generate_correct_nodepool.yaml',
    args: '--cores=2 --memory=4Gi --root-volume-size=32',
  },
  {
    golden: 'update-nodepool-full.yaml',
    upstream: 'product-cli_cmd_nodepool__zz_fixture_TestUpdateNodePool_When_full_configuration_is_provided__it_should_generate_correct_nodepool.yaml',
    args: '--cores=4 --memory=8Gi --root-volume-size=64 --root-volume-storage-class=fast-storage --root-volume-access-modes=ReadWriteOnce --root-volume-volume-mode=Block --root-volume-cache-strategy=None --network-multiqueue=Enable --qos-class=Guaranteed --additional-network=name:default/nad1 --attach-default-network=false --vm-node-selector=role=kubevirt,size=large --host-device-name=testdevice,count:1',
  },
];

const platformFor = (args: string): unknown => {
  const parsed = parseArgs(KUBEVIRT_NODEPOOL_FLAGS, args.split(' '));
  assert.deepEqual(parsed.errors, []);
  const flags = kubevirtNodePoolFlags(new FlagReader(parsed.values));
  assert.deepEqual(validateKubevirtNodePoolFlags(flags), []);
  return kubevirtNodePoolPlatform(flags);
};

const problemsFor = (args: string): string[] =>
  validateKubevirtNodePoolFlags(kubevirtNodePoolFlags(new FlagReader(parseArgs(KUBEVIRT_NODEPOOL_FLAGS, args.split(' ')).values))).map((p) => `--${p.flag} ${p.value}: ${p.message}`);

describe('KubeVirt NodePool platform flags', () => {
  for (const { golden, upstream, args } of FIXTURES) {
    it(`When given the arguments of upstream's ${golden.replace('.yaml', '')} fixture, it should produce our golden file`, () => {
      assertGolden(join(OUR_NODEPOOL_PLATFORMS, golden), toYaml(platformFor(args)));
    });

    it(`When given the arguments of ${upstream.slice(0, 60)}…, it should produce the upstream fixture`, { skip: UPSTREAM_FIXTURES.skip }, () => {
      assert.deepEqual(platformFor(args), parse(readFileSync(join(CONFORMANCE_DIR, upstream), 'utf8')));
    });
  }

  it('When a host device has no count, it should keep it with count 1 (upstream drops it)', () => {
    assert.deepEqual((platformFor('--host-device-name=my-soundcard') as { hostDevices: unknown }).hostDevices, [{ deviceName: 'my-soundcard', count: 1 }]);
  });

  it('When --network-multiqueue=Disable is given, it should render Disable (upstream drops it)', () => {
    assert.equal((platformFor('--network-multiqueue=Disable') as { networkInterfaceMultiqueue: string }).networkInterfaceMultiqueue, 'Disable');
  });

  it('When several flags are wrong, it should report every one with the flag, the value and what is accepted', () => {
    assert.deepEqual(problemsFor('--cores=0 --root-volume-size=8 --qos-class=Best --host-device-name=gpu,count:0 --host-device-name=gpu,size:2 --attach-default-network=false --memory=4GB --root-volume-access-modes=ReadWriteOnce,RWX'), [
      '--cores 0: the number of cores inside the machine must be a value greater than or equal to 1',
      '--root-volume-size 8: the root volume size [8] must be greater than or equal to 16',
      '--memory 4GB: invalid memory quantity "4GB": must be a quantity such as 4Gi or 512Mi',
      '--qos-class Best: wrong value for the --qos-class parameter. Supported values are "Burstable" or "Guaranteed"',
      '--attach-default-network false: missing --additional-network. when --attach-default-network is false configuring an additional network is mandatory',
      '--root-volume-access-modes RWX: unsupported access mode; supported values are ReadWriteOnce, ReadWriteMany, ReadOnly, ReadWriteOncePod',
      '--host-device-name gpu,count:0: host device count must be greater than or equal to 1. received: [0]',
      '--host-device-name gpu,size:2: invalid KubeVirt host device setting: [gpu,size:2]: the only option is count:<n>',
    ]);
  });

  it('When an additional network has an unknown parameter, it should name it', () => {
    assert.deepEqual(problemsFor('--additional-network=name:ns1/nad1,badfield:ns2/nad2'), [
      '--additional-network name:ns1/nad1,badfield:ns2/nad2: failed to parse "--additional-network" flag: unknown param(s): badfield:ns2/nad2',
    ]);
  });
});
