import type { Clock, Timer } from '../runtime/clock.ts';

/** A clock that moves only when a test calls {@link FakeClock.advance}; due timers then fire in time order. */
export class FakeClock implements Clock {
  private time: number;
  private timers: Array<{ due: number; fn: () => void; id: number }> = [];
  private nextId = 0;

  constructor(start = Date.parse('2026-11-21T00:00:00Z')) {
    this.time = start;
  }

  now(): number {
    return this.time;
  }

  after(ms: number, fn: () => void): Timer {
    const id = this.nextId++;
    this.timers.push({ due: this.time + ms, fn, id });
    return { cancel: () => void (this.timers = this.timers.filter((t) => t.id !== id)) };
  }

  /** Pending timers' delays from now, soonest first. */
  pending(): number[] {
    return this.timers.map((t) => t.due - this.time).sort((a, b) => a - b);
  }

  /** Moves time forward by `ms`, firing every timer that falls due on the way. */
  advance(ms: number): void {
    const target = this.time + ms;
    for (;;) {
      const next = this.timers.filter((t) => t.due <= target).sort((a, b) => a.due - b.due || a.id - b.id)[0];
      if (next === undefined) break;
      this.timers = this.timers.filter((t) => t.id !== next.id);
      this.time = next.due;
      next.fn();
    }
    this.time = target;
  }
}
