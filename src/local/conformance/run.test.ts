import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CONFORMANCE_FOCUS, ginkgoArguments } from './run.ts';

const suite = { e2e: '/c/e2e.test', ginkgo: '/c/ginkgo', agnhost: '/c/agnhost', nnp: '/c/nnp' };

describe('the conformance run', () => {
  it('When the suite runs, it should run in parallel with the conformance focus, a day\'s timeout, absolute report paths and the skeleton provider', () => {
    const args = ginkgoArguments({ suite, kubeconfig: 'reports/kubeconfig', kubectl: '/k/kubectl', reportDir: 'reports', focus: CONFORMANCE_FOCUS, skip: '', parallel: 4 });
    const [flags, suiteArgs] = [args.slice(0, args.indexOf('--')), args.slice(args.indexOf('--') + 1)];
    assert.ok(['run', '--procs=4', '--timeout=24h', '--focus=\\[Conformance\\]', '/c/e2e.test'].every((a) => flags.includes(a)), flags.join(' '));
    assert.equal(flags.some((a) => a.startsWith('--skip')), false, 'no skip unless asked: [Serial] specs run too');
    assert.match(flags.find((a) => a.startsWith('--json-report=')) ?? '', /^--json-report=\/.*\/reports\/ginkgo-report\.json$/);
    assert.ok(suiteArgs.includes('--provider=skeleton') && suiteArgs.includes('--kubectl-path=/k/kubectl'));
    assert.ok(suiteArgs.some((a) => /^--report-dir=\/.*\/reports$/.test(a)) && suiteArgs.some((a) => /^--kubeconfig=\/.*\/reports\/kubeconfig$/.test(a)));
    assert.ok(ginkgoArguments({ suite, kubeconfig: '/k', kubectl: '/k', reportDir: '/r', focus: 'DNS', skip: 'Serial', parallel: 1 }).includes('--skip=Serial'));
  });
});
