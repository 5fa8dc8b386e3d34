/** Calls to the console's own API: JSON both ways, with the header the server asks of every write. */

/** A refusal at a field of a form (or `form` for the whole of it). */
export interface FieldError {
  readonly field: string;
  readonly message: string;
}

/** What the console answered. */
export interface Answer<T> {
  readonly status: number;
  readonly body: T & { errors?: FieldError[] };
}

/** Sends one request; a console that does not answer is one error at the form. */
export async function call<T>(method: 'POST' | 'PUT' | 'DELETE', path: string, body: unknown): Promise<Answer<T>> {
  try {
    const response = await fetch(path, { method, headers: { 'content-type': 'application/json', 'x-hcp-console': '1' }, body: JSON.stringify(body), credentials: 'same-origin' });
    return { status: response.status, body: (await response.json()) as T & { errors?: FieldError[] } };
  } catch (error) {
    return { status: 0, body: { errors: [{ field: 'form', message: `the console did not answer: ${String(error)}` }] } as T & { errors?: FieldError[] } };
  }
}
