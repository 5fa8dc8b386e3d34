import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { directDependencies } from './debian.ts';

describe('Debian dependencies', () => {
  it('When apt-cache names alternatives and virtual packages, it should take the first alternative, a virtual one\'s first provider, and leave package management out', () => {
    const output = [
      'bash',
      '  PreDepends: libc6',
      '  Depends: base-files',
      'ca-certificates',
      '  Depends: openssl',
      ' |Depends: debconf',
      '  Depends: <debconf-2.0>',
      '    cdebconf',
      '    debconf',
      'nginx',
      ' |Depends: libssl3',
      '  Depends: libssl1.1',
      '  Depends: <awk>',
      '    mawk',
      '    gawk',
      '',
    ].join('\n');
    assert.deepEqual(Object.fromEntries(directDependencies(output)), { bash: ['libc6', 'base-files'], 'ca-certificates': ['openssl'], nginx: ['libssl3', 'mawk'] });
  });
});
