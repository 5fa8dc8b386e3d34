import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { kubeWrapperGoMod, stagingModules } from './build.ts';

const upstreamGoMod = `module k8s.io/kubernetes

go 1.26.0

godebug default=go1.26

require (
\tk8s.io/api v0.0.0
\tk8s.io/streaming v0.0.0
)

replace (
\tk8s.io/api => ./staging/src/k8s.io/api
\tk8s.io/streaming => ./staging/src/k8s.io/streaming
\tk8s.io/sample-apiserver => ./staging/src/k8s.io/sample-apiserver
)
`;

describe('kubeWrapperGoMod', () => {
  it('When reading upstream go.mod, it should list every staging module it replaces locally', () => {
    assert.deepEqual(stagingModules(upstreamGoMod), ['k8s.io/api', 'k8s.io/streaming', 'k8s.io/sample-apiserver']);
  });

  it('When building the wrapper, it should pin each staging module to its published v0 tag and keep go/godebug', () => {
    const wrapper = kubeWrapperGoMod(upstreamGoMod, 'v1.36.3');
    assert.match(wrapper, /^go 1\.26\.0$/m);
    assert.match(wrapper, /^godebug default=go1\.26$/m);
    assert.match(wrapper, /^replace k8s\.io\/api => k8s\.io\/api v0\.36\.3$/m);
    assert.match(wrapper, /^replace k8s\.io\/sample-apiserver => k8s\.io\/sample-apiserver v0\.36\.3$/m);
  });
});
