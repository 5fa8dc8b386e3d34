/**
 * Whether a live object still holds everything that was rendered for it: every rendered field present with the same
 * value (lists element by element, same length), fields the server or other owners added ignored. A rendered object
 * that the live one holds needs no write; anything else (a changed or removed field, an extra list element) is drift.
 */
export function holdsRendered(live: unknown, rendered: unknown): boolean {
  if (Array.isArray(rendered)) return Array.isArray(live) && live.length === rendered.length && rendered.every((item, i) => holdsRendered(live[i], item));
  if (rendered !== null && typeof rendered === 'object') {
    if (live === null || typeof live !== 'object' || Array.isArray(live)) return false;
    const fields = live as Record<string, unknown>;
    return Object.entries(rendered).every(([key, value]) => holdsRendered(fields[key], value));
  }
  return live === rendered;
}
