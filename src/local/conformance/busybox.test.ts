import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { debianMirror } from './busybox.ts';

describe('the Debian mirror busybox\'s source comes from', () => {
  it('When apt names its mirror in deb822 or one-line form, it should use that mirror, not the security one; else Debian\'s', () => {
    const deb822 = 'Types: deb\nURIs: http://mirror.example/debian/\nSuites: bookworm\n\nTypes: deb\nURIs: http://mirror.example/debian-security\nSuites: bookworm-security\n';
    assert.equal(debianMirror([deb822]), 'http://mirror.example/debian');
    assert.equal(debianMirror(['deb http://security.debian.org/debian-security bookworm-security main\n', 'deb [arch=amd64] http://ftp.example/debian bookworm main\n']), 'http://ftp.example/debian');
    assert.equal(debianMirror([]), 'http://deb.debian.org/debian');
  });
});
