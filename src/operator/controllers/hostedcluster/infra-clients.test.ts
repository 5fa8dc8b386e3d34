import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parse } from 'yaml';
import { InfraClients, withUniqueUserNames } from './infra-clients.ts';

const kubeconfig = (token: string): string =>
  `apiVersion: v1\nkind: Config\nclusters: [{name: c, cluster: {server: "https://infra:6443"}}]\nusers: [{name: admin, user: {token: ${token}}}]\ncontexts: [{name: x, context: {cluster: c, user: admin}}]\ncurrent-context: x\n`;

describe('infra clients', () => {
  it('When two kubeconfigs name their user alike, it should give each a name of its own, contexts following', () => {
    const a = parse(withUniqueUserNames(kubeconfig('t1'), 'uid-a')) as { users: Array<{ name: string }>; contexts: Array<{ context: { user: string } }> };
    assert.equal(a.users[0]?.name, 'hcp-infra-uid-a-0');
    assert.equal(a.contexts[0]?.context.user, 'hcp-infra-uid-a-0');
  });

  it('When the kubeconfig is unchanged, it should reuse the client; when it changes, it should replace it', () => {
    const clients = new InfraClients();
    const first = clients.clientFor('uid', kubeconfig('t1'));
    assert.equal(clients.clientFor('uid', kubeconfig('t1')), first);
    assert.notEqual(clients.clientFor('uid', kubeconfig('t2')), first);
    clients.forget('uid');
  });
});
