import type { Logger } from '@nestjs/common';

/**
 * A background pass that runs again `intervalMs` after the previous one ended (never two at
 * once on an instance), the first `firstDelayMs` after start. A failed pass is logged as a
 * warning and the next one runs on time. `stop()` cancels the next pass and waits for the one
 * running, so a shutdown never closes the pool under a pass. Timers are unref'd: an idle
 * schedule never keeps the process alive. An interval of 0 turns the job off: start() does nothing.
 */
export class PeriodicJob {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<unknown> | null = null;
  private stopped = false;

  constructor(
    private readonly what: string,
    private readonly logger: Logger,
    private readonly intervalMs: number,
    private readonly pass: () => Promise<unknown>,
  ) {}

  /** True once stop() was called: a long pass checks it between its batches. */
  get stopping(): boolean {
    return this.stopped;
  }

  start(firstDelayMs = this.intervalMs): void {
    if (this.intervalMs <= 0 || this.stopped || this.timer || this.running) return;
    this.schedule(firstDelayMs);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.running?.catch(() => undefined);
  }

  private schedule(delayMs: number): void {
    this.timer = setTimeout(() => {
      this.timer = null;
      this.running = this.pass()
        .catch((error: Error) => this.logger.warn(`${this.what} failed: ${error.message}`))
        .finally(() => {
          this.running = null;
          if (!this.stopped) this.schedule(this.intervalMs);
        });
    }, delayMs);
    this.timer.unref();
  }
}
