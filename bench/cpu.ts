/**
 * CPU accounting from /proc, so a run on a shared machine can still say what a request costs:
 * CPU seconds of the service process, of the PostgreSQL backends serving the benchmark
 * database, of this process (autocannon), and of everything else on the machine (the other
 * engineers' test suites) over the same interval. Linux only; elsewhere every figure is NaN.
 */
import { readdirSync, readFileSync } from 'node:fs';

const TICKS_PER_SECOND = 100; // USER_HZ on Linux

function processTicks(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // fields after the command name (which may contain spaces) start at ") "
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[11]) + Number(fields[12]); // utime + stime
  } catch {
    return 0;
  }
}

/** PostgreSQL backends whose process title names `database` (the benchmark's own database). */
function backendPids(database: string): number[] {
  const pids: number[] = [];
  let entries: string[] = [];
  try {
    entries = readdirSync('/proc');
  } catch {
    return pids;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmd = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      if (cmd.startsWith('postgres:') && cmd.includes(` ${database} `)) pids.push(Number(entry));
    } catch {
      // gone
    }
  }
  return pids;
}

function machineBusyTicks(): number {
  try {
    const [cpu] = readFileSync('/proc/stat', 'utf8').split('\n');
    const v = cpu.trim().split(/\s+/).slice(1).map(Number);
    // user nice system idle iowait irq softirq steal
    return v[0] + v[1] + v[2] + v[5] + v[6] + v[7];
  } catch {
    return NaN;
  }
}

export interface CpuSample {
  serverSeconds: number;
  databaseSeconds: number;
  driverSeconds: number;
  otherSeconds: number;
  wallSeconds: number;
}

/** Start measuring; call the returned function at the end of the interval. */
export function startCpuMeter(serverPid: number, database: string | undefined): () => CpuSample {
  const started = performance.now();
  const server0 = processTicks(serverPid);
  const backends0 = new Map((database ? backendPids(database) : []).map((pid) => [pid, processTicks(pid)]));
  const self0 = process.cpuUsage();
  const busy0 = machineBusyTicks();
  return () => {
    const server = (processTicks(serverPid) - server0) / TICKS_PER_SECOND;
    let db = 0;
    for (const pid of database ? backendPids(database) : []) db += processTicks(pid) - (backends0.get(pid) ?? 0);
    const database_ = db / TICKS_PER_SECOND;
    const self = process.cpuUsage(self0);
    const driver = (self.user + self.system) / 1e6;
    const busy = (machineBusyTicks() - busy0) / TICKS_PER_SECOND;
    return {
      serverSeconds: server,
      databaseSeconds: database_,
      driverSeconds: driver,
      otherSeconds: Math.max(0, busy - server - database_ - driver),
      wallSeconds: (performance.now() - started) / 1000,
    };
  };
}
