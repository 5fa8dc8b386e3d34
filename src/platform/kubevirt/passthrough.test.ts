import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { toYamlDocuments } from '../../lib/yaml.ts';
import { assertGolden } from '../../testing/golden.ts';
import { renderMachineSlices, renderPassthrough } from './passthrough.ts';

const service = { name: 'default-ingress-passthrough-service-abcde12345', ports: [{ name: 'https-443', protocol: 'TCP', port: 443, targetPort: 31443 }] };

describe('default-ingress passthrough', () => {
  it('When rendered, the Service, Route and a dual-stack machine\'s slices should match the golden file', () => {
    const objects = [
      ...renderPassthrough({ namespace: 'guests', infraID: 'demo-x7k2p', generateID: 'abcde12345', clusterDomain: 'demo.apps.mgmt.example.com', nodePort: 31443 }),
      ...renderMachineSlices('guests', service, { name: 'workers-abc12', uid: 'u-1', addresses: ['169.254.0.2', '10.128.0.11', 'fe80::1', 'fd00::11', '10.128.0.99'], ready: true }),
    ];
    assertGolden(join(import.meta.dirname, 'testdata', 'passthrough.yaml'), toYamlDocuments(objects));
  });

  it('When a machine has no address yet, it should have no slice; when its instance is not Ready, its endpoint should not serve', () => {
    assert.deepEqual(renderMachineSlices('guests', service, { name: 'm', uid: 'u', addresses: [], ready: true }), []);
    const [slice] = renderMachineSlices('guests', service, { name: 'm', uid: 'u', addresses: ['10.0.0.1'], ready: false }) as Array<{ endpoints: Array<{ conditions: { ready: boolean; serving: boolean } }> }>;
    assert.deepEqual(slice?.endpoints[0]?.conditions, { ready: false, serving: false, terminating: false });
  });
});
