import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FLANNEL, METALLB, PROMETHEUS, SAMPLE_APISERVER, toolBuildFlags, toolModule, versionReplaces, VERSITYGW } from './tools.ts';

describe('building tools from Go modules', () => {
  it('When a tool has C in it and a version variable, it should be linked statically with its version stamped', () => {
    assert.deepEqual(toolBuildFlags(FLANNEL), ['-trimpath', '-ldflags=-s -w -X github.com/flannel-io/flannel/pkg/version.Version=v0.28.10 -extldflags "-static"', '-tags=netgo,osusergo']);
    assert.deepEqual(toolBuildFlags(SAMPLE_APISERVER), ['-trimpath', '-ldflags=-s -w']);
  });

  it('When the object store is built, it should be pure Go with its version in main.Version (what --version prints)', () => {
    assert.deepEqual(toolBuildFlags(VERSITYGW), ['-trimpath', '-ldflags=-s -w -X main.Version=v1.8.0']);
    assert.equal(toolModule(VERSITYGW, '/repo'), 'module local/hcp-versitygw\n');
  });

  it('When a dependency is refused by the module proxy, the wrapper module should replace it with the project\'s own module', () => {
    assert.equal(toolModule(METALLB, '/repo'), 'module local/hcp-metallb\n\nreplace github.com/metallb/frr-k8s => github.com/metallb/frr-k8s v0.0.21\n');
    assert.equal(toolModule(FLANNEL, '/repo'), 'module local/hcp-flannel\n\nreplace github.com/tencentcloud/tencentcloud-sdk-go/tencentcloud/vpc => /repo/src/local/images/tencentcloud-vpc-unavailable\n');
  });

  it('When a module pins its siblings by replace, the wrapper should repeat those pins and leave local paths out', () => {
    const goMod = ['module k8s.io/sample-apiserver', '', 'replace (', '\tk8s.io/api => k8s.io/api v0.29.2', '\tk8s.io/local => ../local', ')', 'replace k8s.io/kms v0.1.0 => k8s.io/kms v0.29.2', ''].join('\n');
    const pins = versionReplaces(goMod);
    assert.deepEqual(pins, ['k8s.io/api => k8s.io/api v0.29.2', 'k8s.io/kms v0.1.0 => k8s.io/kms v0.29.2']);
    assert.equal(toolModule(SAMPLE_APISERVER, '/repo', pins), 'module local/hcp-sample-apiserver\n\nreplace k8s.io/api => k8s.io/api v0.29.2\nreplace k8s.io/kms v0.1.0 => k8s.io/kms v0.29.2\n');
  });

  it('When Prometheus is built, it should call itself by its release (3.16.0), not its module version, and leave the cloud discoveries out', () => {
    assert.deepEqual(toolBuildFlags(PROMETHEUS), ['-trimpath', '-ldflags=-s -w -X github.com/prometheus/common/version.Version=3.16.0', '-tags=remove_all_sd,enable_kubernetes_sd']);
    assert.equal(toolModule(PROMETHEUS, '/repo'), 'module local/hcp-prometheus\n');
  });
});
