import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { minorsBehind, parseVersion, refuseVersion, sameMinor, SUPPORTED_RANGES } from './upgrade-rules.ts';

const rule = (requested: string, current?: string): string | undefined => refuseVersion({ requested, current, platform: 'KubeVirt' })?.rule;

describe('release upgrade rules', () => {
  it('When a version has a v prefix or a suffix, it should parse its numbers', () => {
    assert.deepEqual(parseVersion('v1.36.3'), { major: 1, minor: 36, patch: 3 });
    assert.deepEqual(parseVersion('4.17.0-rc.1'), { major: 4, minor: 17, patch: 0 });
    assert.equal(parseVersion('4.17'), undefined);
  });

  it('When a new cluster asks for a supported version, it should accept it', () => {
    assert.equal(rule('1.35.4'), undefined);
    assert.equal(rule('4.14.2'), undefined);
  });

  it('When the version is newer than supported, it should refuse it with upstream message', () => {
    assert.deepEqual(refuseVersion({ requested: '4.18.1', platform: 'KubeVirt' }), {
      rule: 'newer-than-supported',
      message: 'the latest version supported is: "4.17.0". Attempting to use: "4.18.1"',
    });
  });

  it('When the version is older than supported, it should refuse it naming the platform', () => {
    assert.equal(refuseVersion({ requested: '1.34.9', platform: 'KubeVirt' })?.message, 'the minimum version supported for platform KubeVirt is: "1.35.0". Attempting to use: "1.34.9"');
  });

  it('When the minor goes down, it should refuse a y-stream downgrade', () => {
    assert.deepEqual(refuseVersion({ requested: '1.35.4', current: '1.36.3', platform: 'KubeVirt' }), {
      rule: 'minor-downgrade',
      message: 'y-stream downgrade from "1.36.3" to "1.35.4" is not supported',
    });
  });

  it('When the patch goes down or up within a minor, it should allow the z-stream move', () => {
    assert.equal(rule('1.36.1', '1.36.3'), undefined);
    assert.equal(rule('1.36.4', '1.36.3'), undefined);
    assert.ok(sameMinor('1.36.1', '1.36.3'));
    assert.ok(!sameMinor('1.35.4', '1.36.3'));
  });

  it('When the upgrade skips a minor, it should refuse it naming the skipped minors', () => {
    assert.deepEqual(refuseVersion({ requested: '4.17.0', current: '4.15.3', platform: 'KubeVirt' }), {
      rule: 'minor-skipped',
      message: 'y-stream upgrade from "4.15.3" to "4.17.0" skips 4.16: move one minor version at a time',
    });
    assert.equal(rule('1.36.3', '1.35.4'), undefined);
  });

  it('When the major changes or is unknown, it should refuse it', () => {
    assert.equal(rule('4.17.0', '1.36.3'), 'family-change');
    assert.equal(rule('2.0.0'), 'unsupported-family');
    assert.equal(rule('latest'), 'unparsable');
  });

  it('When two versions share a major, it should count the minors between them; across majors, it should not', () => {
    assert.equal(minorsBehind('4.14.2', '4.17.0'), 3);
    assert.equal(minorsBehind('1.36.3', '1.35.4'), -1);
    assert.equal(minorsBehind('1.36.3', '4.17.0'), undefined);
  });

  it('When the ranges are read from the supported-versions lists, they should span the manual window and the two built minors', () => {
    assert.deepEqual(SUPPORTED_RANGES[4], { oldest: { major: 4, minor: 14, patch: 0 }, newest: { major: 4, minor: 17, patch: 0 } });
    assert.deepEqual(SUPPORTED_RANGES[1], { oldest: { major: 1, minor: 35, patch: 0 }, newest: { major: 1, minor: 36, patch: 0 } });
  });
});
