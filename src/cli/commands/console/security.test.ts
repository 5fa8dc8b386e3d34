import assert from 'node:assert/strict';
import type { IncomingMessage } from 'node:http';
import { describe, it } from 'node:test';
import { allowedHostsFor, checkFetchSite, checkHost, checkSameOrigin, checkSession, cookieOf, newToken, Sessions, tokenMatches } from './security.ts';
import { parseCollection, stateOf } from './collections.ts';
import { KubeApiError } from '../../../kube/errors.ts';

const requestWith = (headers: Record<string, string>): IncomingMessage => ({ headers }) as unknown as IncomingMessage;

describe('the console\'s gate', () => {
  it('When a token is made, it should be 32 random bytes, URL-safe, and match only itself', () => {
    const token = newToken(() => new Uint8Array(32).fill(255));
    assert.equal(token, '_'.repeat(42) + '8');
    assert.equal(tokenMatches(token, token), true);
    assert.equal(tokenMatches(token, `${token}x`), false);
    assert.equal(tokenMatches(token, undefined), false);
  });

  it('When the Host is not the address the console listens on, it should be refused (DNS rebinding)', () => {
    const hosts = allowedHostsFor('127.0.0.1', 7480);
    assert.equal(checkHost(requestWith({ host: '127.0.0.1:7480' }), hosts), undefined);
    assert.equal(checkHost(requestWith({ host: 'LOCALHOST:7480' }), hosts), undefined);
    assert.equal(checkHost(requestWith({ host: 'attacker.example:7480' }), hosts)?.status, 421);
    assert.equal(checkHost(requestWith({}), hosts)?.status, 421);
  });

  it('When the session cookie is missing, wrong or of another port, it should be refused with 401', () => {
    assert.equal(cookieOf(requestWith({ cookie: 'a=1; hcp-console-7480=tok=en' }), 'hcp-console-7480'), 'tok=en');
    const sessions = new Sessions();
    const id = sessions.open();
    assert.notEqual(id, sessions.open(), 'each login is a session of its own');
    assert.equal(checkSession(requestWith({ cookie: `hcp-console-7480=${id}` }), sessions, 7480), undefined);
    assert.equal(checkSession(requestWith({ cookie: `hcp-console-7481=${id}` }), sessions, 7480)?.status, 401);
    assert.equal(checkSession(requestWith({ cookie: 'hcp-console-7480=wrong' }), sessions, 7480)?.status, 401);
  });

  it('When a page of another origin reads, even another port of this host, it should be refused with 403', () => {
    assert.equal(checkFetchSite(requestWith({ 'sec-fetch-site': 'same-origin' })), undefined);
    assert.equal(checkFetchSite(requestWith({ 'sec-fetch-site': 'none' })), undefined);
    assert.equal(checkFetchSite(requestWith({})), undefined);
    assert.equal(checkFetchSite(requestWith({ 'sec-fetch-site': 'same-site' }))?.status, 403);
  });

  it('When a write comes from another site or without the console\'s header, it should be refused with 403', () => {
    assert.equal(checkSameOrigin(requestWith({ 'x-hcp-console': '1', 'sec-fetch-site': 'same-origin' })), undefined);
    assert.equal(checkSameOrigin(requestWith({ 'x-hcp-console': '1', 'sec-fetch-site': 'cross-site' }))?.status, 403);
    assert.equal(checkSameOrigin(requestWith({}))?.status, 403);
  });

  it('When a page asks for a collection, only the console\'s kinds should be allowed, namespaced where they must be', () => {
    assert.deepEqual(parseCollection('HostedCluster'), { key: 'HostedCluster', kind: 'HostedCluster' });
    assert.deepEqual(parseCollection('Pod@clusters-web'), { key: 'Pod@clusters-web', kind: 'Pod', namespace: 'clusters-web' });
    assert.throws(() => parseCollection('Secret@clusters'), /unknown collection "Secret@clusters"/);
    assert.throws(() => parseCollection('Pod'), /Pod is watched in one namespace/);
    assert.throws(() => parseCollection('Pod@../x'), /is not a namespace name/);
  });

  it('When a watch fails, the page should be told forbidden for 403 and reconnecting for anything else', () => {
    const ref = { key: 'HostedCluster', kind: 'HostedCluster' };
    assert.deepEqual(stateOf(new KubeApiError(403, 'Forbidden', 'no'), ref), { state: 'forbidden', message: 'forbidden: you may not list HostedCluster in all namespaces' });
    assert.equal(stateOf(new Error('connect ECONNREFUSED'), ref).state, 'reconnecting');
    assert.deepEqual(stateOf(undefined, ref), { state: 'ok', message: '' });
  });
});
