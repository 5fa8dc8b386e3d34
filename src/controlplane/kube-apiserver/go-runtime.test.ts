import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { goRuntimeEnv, goRuntimeProblem } from './go-runtime.ts';

const GOGC = 'hypershift.openshift.io/kube-apiserver-gogc';
const GOMEMLIMIT = 'hypershift.openshift.io/kube-apiserver-gomemlimit';

describe('the API servers\' Go runtime settings', () => {
  it('When neither annotation is set, it should give no environment and see no problem', () => {
    assert.deepEqual(goRuntimeEnv(undefined), []);
    assert.deepEqual(goRuntimeEnv({ other: 'x' }), []);
    assert.equal(goRuntimeProblem({}), undefined);
  });

  it('When both are set to values Go reads, it should pass them on as GOGC and GOMEMLIMIT', () => {
    assert.deepEqual(goRuntimeEnv({ [GOGC]: '50', [GOMEMLIMIT]: '1536MiB' }), [{ name: 'GOGC', value: '50' }, { name: 'GOMEMLIMIT', value: '1536MiB' }]);
    assert.deepEqual(goRuntimeEnv({ [GOGC]: 'off', [GOMEMLIMIT]: '2147483648' }), [{ name: 'GOGC', value: 'off' }, { name: 'GOMEMLIMIT', value: '2147483648' }]);
    assert.equal(goRuntimeProblem({ [GOGC]: '200', [GOMEMLIMIT]: '2GiB' }), undefined);
  });

  it('When a value is one Go would refuse (a unit it does not know), it should name the annotation, the value and what it must be, and pass nothing on', () => {
    const annotations = { [GOMEMLIMIT]: '2Gb' };
    assert.equal(goRuntimeProblem(annotations), 'annotation hypershift.openshift.io/kube-apiserver-gomemlimit is "2Gb": GOMEMLIMIT must be a byte count with an optional unit B, KiB, MiB, GiB or TiB (e.g. 1536MiB), or off');
    assert.deepEqual(goRuntimeEnv(annotations), []);
    assert.match(goRuntimeProblem({ [GOGC]: '50%' }) ?? '', /kube-apiserver-gogc is "50%": GOGC must be a percentage/);
  });
});
