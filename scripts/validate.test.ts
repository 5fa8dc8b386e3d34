import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { toYamlDocuments } from '../src/lib/yaml.ts';
import { aHostedCluster, aNodePool } from '../src/testing/builders.ts';
import { scratchDir } from '../src/testing/paths.ts';

const script = join(import.meta.dirname, 'validate.ts');
const run = (...files: string[]): { code: number | null; out: string } => {
  const r = spawnSync(process.execPath, [script, ...files], { encoding: 'utf8' });
  return { code: r.status, out: r.stdout + r.stderr };
};

describe('./dev validate', () => {
  const dir = scratchDir('validate-');

  it('When every object is valid, it should say so and exit 0', () => {
    const file = join(dir, 'good.yaml');
    writeFileSync(file, toYamlDocuments([{ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'clusters' } }, aHostedCluster(), aNodePool()]));
    const { code, out } = run(file);
    assert.equal(code, 0);
    assert.match(out, /HostedCluster clusters\/example: valid/);
    assert.match(out, /Namespace clusters: skipped/);
  });

  it('When objects are invalid, it should list every violation with path, rule and value, and exit 1', () => {
    const np = aNodePool();
    np.spec.platform.kubevirt!.rootVolume.persistent = { size: '12GB' };
    np.spec.autoScaling = { min: 1, max: 3 };
    const file = join(dir, 'bad.yaml');
    writeFileSync(file, toYamlDocuments([np]));
    const { code, out } = run(file);
    assert.equal(code, 1);
    assert.match(out, /spec\.platform\.kubevirt\.rootVolume\.persistent\.size: must be a quantity, got "12GB"/);
    assert.match(out, /spec: Both replicas or autoScaling should not be set/);
  });

  it('When a file is missing or not YAML, it should give one clear line per file, no stack trace, and exit 1', () => {
    const broken = join(dir, 'broken.yaml');
    writeFileSync(broken, 'kind: [unclosed\n');
    const { code, out } = run(join(dir, 'missing.yaml'), broken);
    assert.equal(code, 1);
    assert.match(out, /missing\.yaml: ENOENT: no such file or directory/);
    assert.match(out, /broken\.yaml: not valid YAML/);
    assert.doesNotMatch(out, /\n\s+at /);
  });
});
