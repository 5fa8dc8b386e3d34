/**
 * The summary of a conformance run (pure): read from Ginkgo's JSON report — its `It` specs that ran (the ones the
 * focus left out are reported as skipped with no attempt, and are not counted) — with what the report cannot know,
 * the cluster and environment it ran against, added by the caller.
 */

/** One spec of Ginkgo's JSON report, the fields read here. */
interface SpecReport {
  readonly ContainerHierarchyTexts?: readonly string[] | null;
  readonly LeafNodeText?: string;
  readonly LeafNodeType?: string;
  readonly State?: string;
  readonly RunTime?: number;
  readonly NumAttempts?: number;
  readonly Failure?: { readonly Message?: string; readonly Location?: { readonly FileName?: string; readonly LineNumber?: number } };
}

/** One suite of Ginkgo's JSON report (the report is an array of them). */
interface SuiteReport {
  readonly StartTime?: string;
  readonly EndTime?: string;
  readonly RunTime?: number;
  readonly PreRunStats?: { readonly TotalSpecs?: number; readonly SpecsThatWillRun?: number };
  readonly SpecReports?: readonly SpecReport[] | null;
}

/** Counts of one group of specs. */
export interface Counts {
  passed: number;
  failed: number;
  skipped: number;
}

/** A spec that did not pass: its full name, how it ended, the first line of why and where. */
export interface FailedSpec {
  readonly name: string;
  readonly state: string;
  readonly message: string;
  readonly location: string;
}

/** What `hcp local conformance` writes to `summary.json` (and prints with `--output json`). */
export interface ConformanceSummary extends Counts {
  /** Specs the focus selected. */
  readonly selected: number;
  readonly durationSeconds: number;
  readonly startedAt: string;
  readonly finishedAt: string;
  readonly bySig: Readonly<Record<string, Counts>>;
  readonly failures: readonly FailedSpec[];
}

const FAILED_STATES = new Set(['failed', 'panicked', 'timedout', 'interrupted', 'aborted']);

/** The spec's full name, as Ginkgo prints it: its containers' texts and its own. */
export const specName = (spec: SpecReport): string => [...(spec.ContainerHierarchyTexts ?? []), spec.LeafNodeText ?? ''].join(' ').trim();

/** The SIG a spec belongs to (`[sig-network] …`), or `other`. */
export const sigOf = (name: string): string => /\[(sig-[a-z0-9-]+)\]/.exec(name)?.[1] ?? 'other';

/** Whether a spec ran: Ginkgo reports the specs its focus left out as skipped without an attempt. */
const ran = (spec: SpecReport): boolean => spec.LeafNodeType === 'It' && (spec.NumAttempts ?? 0) > 0;

function tally(counts: Counts, state: string): void {
  if (state === 'passed') counts.passed += 1;
  else if (FAILED_STATES.has(state)) counts.failed += 1;
  else counts.skipped += 1;
}

/** A spec that did not pass, as the summary lists it. */
function failureOf(spec: SpecReport, name: string, state: string): FailedSpec {
  const where = spec.Failure?.Location;
  const location = where?.FileName === undefined ? '' : `${where.FileName}:${String(where.LineNumber ?? 0)}`;
  return { name, state, message: (spec.Failure?.Message ?? '').split('\n')[0] ?? '', location };
}

/** Counts, per SIG too, and the failures, of the specs that ran. */
function countSpecs(specs: readonly SpecReport[]): Pick<ConformanceSummary, 'passed' | 'failed' | 'skipped' | 'bySig' | 'failures'> {
  const totals: Counts = { passed: 0, failed: 0, skipped: 0 };
  const bySig: Record<string, Counts> = {};
  const failures: FailedSpec[] = [];
  for (const spec of specs) {
    const name = specName(spec);
    const state = spec.State ?? 'unknown';
    tally(totals, state);
    tally((bySig[sigOf(name)] ??= { passed: 0, failed: 0, skipped: 0 }), state);
    if (FAILED_STATES.has(state)) failures.push(failureOf(spec, name, state));
  }
  return { ...totals, bySig: Object.fromEntries(Object.entries(bySig).sort(([a], [b]) => a.localeCompare(b))), failures: failures.sort((a, b) => a.name.localeCompare(b.name)) };
}

/** The summary of a Ginkgo JSON report (`ginkgo --json-report`). */
export function summarise(report: readonly SuiteReport[]): ConformanceSummary {
  const sum = (of: (suite: SuiteReport) => number | undefined): number => report.reduce((n, suite) => n + (of(suite) ?? 0), 0);
  return {
    selected: sum((suite) => suite.PreRunStats?.SpecsThatWillRun),
    ...countSpecs(report.flatMap((suite) => suite.SpecReports ?? []).filter(ran)),
    durationSeconds: Math.round(sum((suite) => suite.RunTime) / 1e9),
    startedAt: report[0]?.StartTime ?? '',
    finishedAt: report.at(-1)?.EndTime ?? '',
  };
}
