// Resident memory of a local environment: every process in its cgroup (daemons, shims, containers, machines).
import { readFileSync } from 'node:fs';
import { cgroupProcesses } from '../../src/local/environment/host-cgroups.ts';
import type { EnvironmentLayout } from '../../src/local/environment/layout.ts';

/** Resident memory of every process of the environment in MiB, by program name. */
export function rssByProgram(layout: EnvironmentLayout): Map<string, number> {
  const byName = new Map<string, number>();
  for (const pid of cgroupProcesses(layout.cgroup)) {
    try {
      const status = readFileSync(`/proc/${String(pid)}/status`, 'utf8');
      const name = /Name:\s+(\S+)/.exec(status)?.[1] ?? '?';
      byName.set(name, (byName.get(name) ?? 0) + Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) / 1024);
    } catch {
      // Gone meanwhile.
    }
  }
  return byName;
}

/** The environment's resident memory in MiB. */
export const environmentRssMiB = (layout: EnvironmentLayout): number => [...rssByProgram(layout).values()].reduce((a, b) => a + b, 0);

/** The biggest programs, `name 123` each, for a report. */
export const topPrograms = (layout: EnvironmentLayout, count = 8): string =>
  [...rssByProgram(layout)]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([name, mib]) => `${name} ${mib.toFixed(0)}`)
    .join(', ');
