/** Process and machine facts from Linux's /proc, for the benchmark report. */

/** Peak resident set size (VmHWM) of a process, in MiB. */
export async function peakRssMiB(pid: number): Promise<number> {
  const status = await Deno.readTextFile(`/proc/${pid}/status`);
  const kib = Number(status.match(/^VmHWM:\s+(\d+) kB/m)?.[1] ?? NaN);
  return Math.round(kib / 1024 * 10) / 10;
}

/** CPU seconds (user + system) a process has used so far. */
export async function cpuSeconds(pid: number): Promise<number> {
  const stat = await Deno.readTextFile(`/proc/${pid}/stat`);
  // Fields after the parenthesised command name; utime and stime are the 12th and 13th.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const USER_HZ = 100;
  return (Number(fields[11]) + Number(fields[12])) / USER_HZ;
}

export interface Machine {
  cpuModel: string;
  cores: number;
  memoryGiB: number;
  kernel: string;
  loadAverage: string;
}

export async function machine(): Promise<Machine> {
  const cpuinfo = await Deno.readTextFile("/proc/cpuinfo");
  const meminfo = await Deno.readTextFile("/proc/meminfo");
  const memKib = Number(meminfo.match(/^MemTotal:\s+(\d+) kB/m)?.[1] ?? 0);
  return {
    cpuModel: cpuinfo.match(/^model name\s*:\s*(.+)$/m)?.[1] ?? "unknown",
    cores: cpuinfo.match(/^processor\s*:/gm)?.length ?? navigator.hardwareConcurrency,
    memoryGiB: Math.round(memKib / 1024 / 1024 * 10) / 10,
    kernel: Deno.osRelease(),
    loadAverage: (await Deno.readTextFile("/proc/loadavg")).split(" ").slice(0, 3).join(" "),
  };
}
