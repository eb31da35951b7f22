/** A resource limit as `/proc/self/limits` gives it; null stands for "unlimited". */
export interface Limit {
  soft: number | null;
  hard: number | null;
}

/**
 * The open-files limit of this process, read from `/proc/self/limits` (Linux); undefined where
 * that file cannot be read. The Deno runtime itself raises the soft limit to the hard limit at
 * start-up, so the soft value is what is in force.
 */
export function openFilesLimit(): Limit | undefined {
  let text: string;
  try {
    text = Deno.readTextFileSync("/proc/self/limits");
  } catch {
    return undefined;
  }
  return parseOpenFilesLimit(text);
}

/** The "Max open files" row of a `/proc/<pid>/limits` text. */
export function parseOpenFilesLimit(text: string): Limit | undefined {
  const row = text.split("\n").find((line) => line.startsWith("Max open files"));
  const [soft, hard] = row?.slice("Max open files".length).trim().split(/\s+/) ?? [];
  const value = (v: string | undefined) => v === "unlimited" ? null : Number(v);
  const limit = { soft: value(soft), hard: value(hard) };
  const valid = (v: number | null) => v === null || Number.isSafeInteger(v);
  return soft && hard && valid(limit.soft) && valid(limit.hard) ? limit : undefined;
}
