import { Logger } from '@nestjs/common';

import { PeriodicJob } from '../../src/database/maintenance/periodic-job';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The schedule loop shared by the background passes (expiry purge, term statistics fold). */
describe('PeriodicJob', () => {
  const quiet = (): Logger => {
    const logger = new Logger('test');
    jest.spyOn(logger, 'warn').mockImplementation(() => undefined);
    return logger;
  };

  it('runs pass after pass, never two at once, and goes on after a failed pass', async () => {
    let active = 0;
    let most = 0;
    let runs = 0;
    const logger = quiet();
    const job = new PeriodicJob('test pass', logger, 2, async () => {
      runs++;
      active++;
      most = Math.max(most, active);
      await sleep(5);
      active--;
      if (runs === 2) throw new Error('boom');
    });
    job.start(0);
    job.start(0); // a second start while scheduled changes nothing
    for (let waited = 0; runs < 5 && waited < 5_000; waited += 10) await sleep(10);
    await job.stop();
    expect(runs).toBeGreaterThanOrEqual(5);
    expect(most).toBe(1);
    expect(logger.warn).toHaveBeenCalledWith('test pass failed: boom');
  });

  it('stop() waits for the pass that is running and cancels the next one', async () => {
    let finished = 0;
    let started = 0;
    const job = new PeriodicJob('test pass', quiet(), 1, async () => {
      started++;
      await sleep(50);
      finished++;
    });
    job.start(0);
    while (started === 0) await sleep(1);
    expect(job.stopping).toBe(false);
    await job.stop();
    expect(job.stopping).toBe(true);
    expect(finished).toBe(1);
    await sleep(30);
    expect(started).toBe(1);
  });

  it('never runs with an interval of 0 (the job is off)', async () => {
    let runs = 0;
    const job = new PeriodicJob('test pass', quiet(), 0, async () => {
      runs++;
    });
    job.start(0);
    await sleep(20);
    await job.stop();
    expect(runs).toBe(0);
  });

  it('does not start after stop()', async () => {
    let runs = 0;
    const job = new PeriodicJob('test pass', quiet(), 1, async () => {
      runs++;
    });
    await job.stop();
    job.start(0);
    await sleep(20);
    expect(runs).toBe(0);
  });
});
