import assert from 'node:assert/strict';
import type { IncomingMessage } from 'node:http';
import { describe, it } from 'node:test';
import { allowedHostsFor, checkFetchSite, checkHost, checkSameOrigin, cookieOf, endedSessionCookie, newToken, sessionCookie, sessionIdOf, Sessions, tokenMatches } from './security.ts';
import { parseCollection, stateOf } from './collections.ts';
import { sessionMetaTag } from './page.ts';
import { KubeApiError } from '../../../kube/errors.ts';

const requestWith = (headers: Record<string, string>, encrypted = false): IncomingMessage => ({ headers, socket: { encrypted } }) as unknown as IncomingMessage;

describe('the console\'s gate', () => {
  it('When a token is made, it should be 32 random bytes, URL-safe, and match only itself', () => {
    const token = newToken(() => new Uint8Array(32).fill(255));
    assert.equal(token, '_'.repeat(42) + '8');
    assert.equal(tokenMatches(token, token), true);
    assert.equal(tokenMatches(token, `${token}x`), false);
    assert.equal(tokenMatches(token, undefined), false);
  });

  it('When the Host is not the address the console listens on, it should be refused (DNS rebinding)', () => {
    const hosts = { names: allowedHostsFor('127.0.0.1', 7480), anyLoopbackPort: false };
    assert.equal(checkHost(requestWith({ host: '127.0.0.1:7480' }), hosts), undefined);
    assert.equal(checkHost(requestWith({ host: 'LOCALHOST:7480' }), hosts), undefined);
    assert.equal(checkHost(requestWith({ host: '127.0.0.1:7481' }), hosts)?.status, 421);
    assert.equal(checkHost(requestWith({ host: 'attacker.example:7480' }), hosts)?.status, 421);
    assert.equal(checkHost(requestWith({}), hosts)?.status, 421);
  });

  it('When a token console is reached through a port-forward or a given name, it should answer loopback on any port and that name only', () => {
    const hosts = { names: new Set(['console.example.com']), anyLoopbackPort: true };
    for (const host of ['127.0.0.1:39001', 'localhost:8080', '[::1]:7480', 'console.example.com']) assert.equal(checkHost(requestWith({ host }), hosts), undefined, host);
    for (const host of ['attacker.example:7480', '127.0.0.1.attacker.example', 'localhost:80:80', 'console.example.com:444']) assert.equal(checkHost(requestWith({ host }), hosts)?.status, 421, host);
  });

  it('When the browser came over TLS (a TLS socket, or a proxy that ended TLS), the session cookie should be Secure; over plain HTTP not', () => {
    const host = { host: '127.0.0.1:7480' };
    assert.equal(sessionCookie(requestWith(host), 'id'), 'hcp-console-7480=id; HttpOnly; SameSite=Strict; Path=/');
    assert.match(sessionCookie(requestWith(host, true), 'id'), /; Secure$/);
    assert.match(sessionCookie(requestWith({ ...host, 'x-forwarded-proto': 'https, http' }), 'id'), /; Secure$/);
    assert.match(endedSessionCookie(requestWith({ ...host, 'x-forwarded-proto': 'HTTPS' })), /; Secure; Max-Age=0$/);
  });

  it('When the session cookie is missing, wrong or of another port, it should find no session', () => {
    assert.equal(cookieOf(requestWith({ cookie: 'a=1; hcp-console-7480=tok=en' }), 'hcp-console-7480'), 'tok=en');
    const sessions = new Sessions<string>();
    const id = sessions.open('alice');
    assert.notEqual(id, sessions.open('alice'), 'each login is a session of its own');
    const at7480 = (cookie: string): string | undefined => sessions.get(sessionIdOf(requestWith({ host: '127.0.0.1:7480', cookie })));
    assert.equal(at7480(`hcp-console-7480=${id}`), 'alice');
    assert.equal(at7480(`hcp-console-7481=${id}`), undefined);
    assert.equal(at7480('hcp-console-7480=wrong'), undefined);
  });

  it('When a session expires, is signed out of, or is the oldest of too many, it should end and say so once', () => {
    let now = 0;
    const ended: string[] = [];
    const sessions = new Sessions<string>({ now: () => now, maxAgeMs: 1000, onEnd: (v) => ended.push(v) });
    const [old, current] = [sessions.open('expiring'), sessions.open('signing-out')];
    now = 500;
    sessions.end(current);
    assert.equal(sessions.get(current), undefined);
    now = 1000;
    assert.equal(sessions.get(old), undefined);
    for (let i = 0; i < 101; i += 1) sessions.open(`user-${String(i)}`);
    assert.deepEqual(ended, ['signing-out', 'expiring', 'user-0']);
  });

  it('When one user opens many sessions, it should end that user\'s oldest, not anyone else\'s; expired ones end when the next opens', () => {
    let now = 0;
    const ended: string[] = [];
    const sessions = new Sessions<{ user: string; n: number }>({ now: () => now, maxAgeMs: 1000, onEnd: (v) => ended.push(`${v.user}#${String(v.n)}`), ownerOf: (v) => v.user });
    const alice = sessions.open({ user: 'alice', n: 0 });
    now = 500;
    const first = sessions.open({ user: 'mallory', n: 0 });
    for (let n = 1; n < 9; n += 1) sessions.open({ user: 'mallory', n });
    assert.deepEqual(ended, ['mallory#0']);
    assert.equal(sessions.get(first), undefined);
    assert.equal(sessions.get(alice)?.user, 'alice');
    now = 1000;
    sessions.open({ user: 'bob', n: 0 });
    assert.deepEqual(ended, ['mallory#0', 'alice#0'], 'the expired session ended without its cookie coming back');
  });

  it('When the page is told its session, a user name with markup, quotes or $ should stay inside the attribute', () => {
    const tag = sessionMetaTag({ signIn: 'token', signedIn: true, user: `CORP\\PC01$'"<b>$&`, namespace: null });
    assert.equal(tag.match(/"/g)?.length, 4, tag);
    assert.doesNotMatch(tag, /[<>](?!meta|\s*$)|'/, tag);
    const content = /content="([^"]*)"/.exec(tag)?.[1] ?? '';
    const decoded = content.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
    assert.equal((JSON.parse(decoded) as { user: string }).user, `CORP\\PC01$'"<b>$&`);
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

  it('When a watch fails, the page should be told forbidden for 403, to sign in again for 401, and reconnecting for anything else', () => {
    const ref = { key: 'HostedCluster', kind: 'HostedCluster' };
    assert.deepEqual(stateOf(new KubeApiError(403, 'Forbidden', 'no'), ref), { state: 'forbidden', message: 'forbidden: you may not list HostedCluster in all namespaces' });
    assert.equal(stateOf(new Error('connect ECONNREFUSED'), ref).state, 'reconnecting');
    assert.deepEqual(stateOf(new KubeApiError(401, 'Unauthorized', 'Unauthorized'), ref), { state: 'forbidden', message: 'the API server no longer accepts your credentials (401 Unauthorized): sign in again' });
    assert.deepEqual(stateOf(undefined, ref), { state: 'ok', message: '' });
  });
});
