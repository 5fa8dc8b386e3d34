import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { auditBundle, type Metafile } from './bundle-audit.ts';

const meta = (inputs: Metafile['inputs']): Metafile => ({ inputs });

describe('bundle audit', () => {
  it('When a module import()s a CommonJS package, it should name the importer and the fix', () => {
    const problems = auditBundle('hcp', meta({
      'src/a.ts': { format: 'esm', imports: [{ path: 'node_modules/yaml/dist/index.js', kind: 'dynamic-import' }] },
      'node_modules/yaml/dist/index.js': { format: 'cjs', imports: [] },
    }));
    assert.equal(problems.length, 1);
    assert.match(problems[0] ?? '', /^hcp: src\/a\.ts uses import\(\) on the CommonJS module node_modules\/yaml\/dist\/index\.js.*yaml-read\.ts/);
  });

  it('When a module import()s an ES module or requires a CommonJS one, it should accept it', () => {
    assert.deepEqual(auditBundle('hcp', meta({
      'src/a.ts': { format: 'esm', imports: [{ path: 'src/b.ts', kind: 'dynamic-import' }, { path: 'node_modules/c/index.js', kind: 'import-statement' }] },
      'src/b.ts': { format: 'esm', imports: [] },
      'node_modules/c/index.js': { format: 'cjs', imports: [] },
    })), []);
  });

  it('When a package is left outside the bundle, it should refuse it unless it is a builtin or a known optional dependency', () => {
    const problems = auditBundle('operator', meta({
      'src/a.ts': { format: 'esm', imports: [
        { path: 'node:fs', kind: 'import-statement', external: true },
        { path: 'crypto', kind: 'require-call', external: true },
        { path: 'bufferutil', kind: 'require-call', external: true },
        { path: 'left-pad', kind: 'require-call', external: true },
      ] },
    }));
    assert.deepEqual(problems, ['operator: src/a.ts imports "left-pad", which the bundle does not contain: it would load from node_modules, absent where the bundle ships']);
  });
});
