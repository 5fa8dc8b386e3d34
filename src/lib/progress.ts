/** Runs one named step and reports its progress (the CLI shows it live on a terminal). */
export interface Reporter {
  step<T>(title: string, work: () => Promise<T>): Promise<T>;
}
