import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { cacheDirFor, locateBinaries, missingBinaries } from './locate.ts';
import { scratchDir } from '../../testing/paths.ts';

function folderWith(...names: string[]): string {
  const dir = scratchDir('bins-');
  for (const n of names) {
    writeFileSync(join(dir, n), '#!/bin/sh\n');
    chmodSync(join(dir, n), 0o755);
  }
  return dir;
}

describe('locateBinaries', () => {
  it('When HCP_KUBE_BINARIES, KUBEBUILDER_ASSETS and the cache all hold binaries, it should prefer them in that order', () => {
    const cacheHome = scratchDir('cache-');
    const env = { XDG_CACHE_HOME: cacheHome, HCP_KUBE_BINARIES: folderWith('kubectl'), KUBEBUILDER_ASSETS: folderWith('kubectl', 'kube-apiserver', 'etcd') };
    const kcmDir = cacheDirFor('kube-controller-manager', env);
    mkdirSync(kcmDir, { recursive: true });
    for (const binary of ['kube-controller-manager', 'kube-scheduler', 'kubelet', 'kube-proxy']) {
      writeFileSync(join(kcmDir, binary), '');
      chmodSync(join(kcmDir, binary), 0o755);
    }
    const found = locateBinaries(env);
    assert.equal(found.kubectl, join(env.HCP_KUBE_BINARIES, 'kubectl'));
    assert.equal(found['kube-apiserver'], join(env.KUBEBUILDER_ASSETS, 'kube-apiserver'));
    assert.equal(found['kube-controller-manager'], join(kcmDir, 'kube-controller-manager'));
    assert.deepEqual(missingBinaries(found), []);
  });

  it('When nothing is found, it should name every missing binary and keep the cache path versioned', () => {
    const env = { XDG_CACHE_HOME: scratchDir('cache-') };
    assert.deepEqual(missingBinaries(locateBinaries(env)).sort(), ['etcd', 'kube-apiserver', 'kube-controller-manager', 'kube-proxy', 'kube-scheduler', 'kubectl', 'kubelet']);
    assert.match(cacheDirFor('kubectl', env), /hcp-kubevirt\/kube\/v1\.36\.\d+$/);
    assert.match(cacheDirFor('etcd', env), /hcp-kubevirt\/kube\/etcd-v3\.6\.\d+$/);
  });
});
