import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parse } from 'yaml';
import { KubeconfigClients, withUniqueUserNames } from './kubeconfig-clients.ts';

const kubeconfig = (token: string): string =>
  `apiVersion: v1\nkind: Config\nclusters: [{name: c, cluster: {server: "https://infra:6443"}}]\nusers: [{name: admin, user: {token: ${token}}}]\ncontexts: [{name: x, context: {cluster: c, user: admin}}]\ncurrent-context: x\n`;

describe('kubeconfig clients', () => {
  it('When two kubeconfigs name their user alike, it should give each a name of its own, contexts following', () => {
    const a = parse(withUniqueUserNames(kubeconfig('t1'), 'uid-a')) as { users: Array<{ name: string }>; contexts: Array<{ context: { user: string } }> };
    assert.equal(a.users[0]?.name, 'hcp-infra-uid-a-0');
    assert.equal(a.contexts[0]?.context.user, 'hcp-infra-uid-a-0');
    const guest = parse(withUniqueUserNames(kubeconfig('t1'), 'uid-a', 'guest')) as { users: Array<{ name: string }> };
    assert.equal(guest.users[0]?.name, 'hcp-guest-uid-a-0', 'the hosted cluster admin of the same owner is yet another user');
  });

  it('When the kubeconfig is unchanged, it should reuse the client; when it changes, it should replace it', () => {
    const clients = new KubeconfigClients('infra');
    const first = clients.clientFor('uid', kubeconfig('t1'));
    assert.equal(clients.clientFor('uid', kubeconfig('t1')), first);
    assert.notEqual(clients.clientFor('uid', kubeconfig('t2')), first);
    clients.forget('uid');
  });
});
