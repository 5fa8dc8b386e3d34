import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { describeMissing } from './prerequisites.ts';

describe('the prerequisites of the local environment', () => {
  it('When prerequisites are missing, it should name each with its Debian package and one install command', () => {
    const text = describeMissing([{ what: 'the runc command', debianPackage: 'runc' }, { what: 'the CNI plugins bridge in /usr/lib/cni', debianPackage: 'containernetworking-plugins' }, { what: 'root', hint: 'run as root' }]);
    assert.match(text, /- the runc command \(Debian package runc\)/);
    assert.match(text, /- root: run as root/);
    assert.match(text, /install with: apt-get install -y runc containernetworking-plugins {3}\(or run hcp local up --install-prerequisites\)/);
  });
});
