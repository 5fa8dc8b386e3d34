import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CONFORMANCE_IMAGES, ENVIRONMENT_IMAGES_THE_SUITE_RUNS, suiteImageName, type SuiteImage } from '../local/conformance/images.ts';
import { CONFORMANCE_SLICE, sliceImages } from './conformance-slice.ts';

const allSuiteImages = Object.keys({ ...CONFORMANCE_IMAGES, ...ENVIRONMENT_IMAGES_THE_SUITE_RUNS }) as SuiteImage[];

describe('the e2e tier\'s conformance slice', () => {
  it('When an image is published under an upstream name for the suite, it should be run by a spec of the slice', () => {
    const covered = sliceImages();
    assert.deepEqual(allSuiteImages.filter((image) => !covered.has(image)), []);
  });

  it('When the specs are joined into one focus, it should be a regular expression with one alternative per spec', () => {
    const focus = new RegExp(CONFORMANCE_SLICE.map((spec) => spec.name).join('|'));
    assert.match('[sig-api-machinery] Aggregator Should be able to support the 1.17 Sample API Server using the current Aggregator [LinuxOnly] [Conformance]', focus);
    assert.doesNotMatch('[sig-node] Pods should be submitted and removed [NodeConformance] [Conformance]', focus);
  });

  it('When the environment publishes its own etcd and pause, it should be under the names the suite pulls', () => {
    assert.equal(suiteImageName('etcd'), 'registry.k8s.io/etcd:3.6.8-0');
    assert.equal(suiteImageName('pause'), 'registry.k8s.io/pause:3.10.2');
  });
});
