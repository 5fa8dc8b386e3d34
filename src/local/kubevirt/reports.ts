/**
 * What was last reported for each VM (a fingerprint of the report and the VM's generation), so a look that finds
 * nothing changed writes nothing: resyncs of running machines, events of VMs already halted or refused.
 */
export type Reported = Map<string, string>;

/** Writes an object's report unless the same one was written last. */
export async function report(reported: Reported, key: string, fingerprint: string, write: () => Promise<void>): Promise<void> {
  if (reported.get(key) === fingerprint) return;
  await write();
  reported.set(key, fingerprint);
}
