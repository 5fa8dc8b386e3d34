/**
 * Sets `key` as the newest entry of an insertion-ordered map and drops the oldest entries past `max`: the bound of
 * every memo kept per tenant (payloads, access checks, clients), so none grows with what users name.
 */
export function setBounded<K, V>(map: Map<K, V>, key: K, value: V, max: number): void {
  map.delete(key);
  map.set(key, value);
  for (const oldest of map.keys()) {
    if (map.size <= max) return;
    map.delete(oldest);
  }
}
