/** What the e2e tier asks a local environment node's containerd (through its `ctr`, from the environment's build). */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { CONTAINERD, toolDir } from '../local/binaries/tools.ts';
import type { EnvironmentLayout, NodeLayout } from '../local/environment/layout.ts';
import { nodePaths } from '../local/environment/node-config.ts';
import { runProcess } from './process.ts';

/** containerd's client, from the environment's build. */
const ctrBinary = (): string => join(toolDir(CONTAINERD), 'ctr');

/** Containers of a namespace's pods on every node, through each node's containerd (labels the kubelet sets). */
export async function containersOf(layout: EnvironmentLayout, namespace: string): Promise<number> {
  let count = 0;
  for (const node of layout.nodes) {
    const out = await runProcess(ctrBinary(), ['-a', nodePaths(node).containerdSocket, '-n', 'k8s.io', 'containers', 'ls', `labels."io.kubernetes.pod.namespace"==${namespace}`, '-q']);
    count += out.stdout.split('\n').filter((l) => l !== '').length;
  }
  return count;
}

/** The process of a container on a node, from the node's containerd. */
export async function taskPid(node: NodeLayout, containerID: string): Promise<number> {
  const tasks = await runProcess(ctrBinary(), ['-a', nodePaths(node).containerdSocket, '-n', 'k8s.io', 'tasks', 'ls']);
  const id = containerID.replace('containerd://', '');
  const pid = tasks.stdout.split('\n').find((l) => l.startsWith(id))?.split(/\s+/)[1];
  assert.ok(pid !== undefined, `the task of ${containerID}`);
  return Number(pid);
}
