/**
 * What this process has seen happen, for the operator's status screen (`GET /api/operator/status`):
 * each cron job's last run, the SMTP receiver's state, mailbox polls, and warnings and errors
 * counted by their log message (constant strings: no personal data). Always on; each record is a
 * map write on events that are rare next to requests.
 */

export interface CronRecord {
  lastRunAt: string;
  durationMs: number;
  ok: boolean;
  runs: number;
  failures: number;
}

export interface ProblemRecord {
  level: "warn" | "error";
  count: number;
  lastAt: string;
}

const cron = new Map<string, CronRecord>();
const problems = new Map<string, ProblemRecord>();
const polls = { ok: 0, failed: 0, error: 0, lastAt: undefined as string | undefined };
const smtp = { listening: false, port: undefined as number | undefined };
/** Distinct messages kept; past it, new kinds are counted under one entry. */
const MAX_KINDS = 200;

export const activity = {
  cronRun(job: string, endedAt: number, durationMs: number, ok: boolean): void {
    const prev = cron.get(job);
    cron.set(job, {
      lastRunAt: new Date(endedAt).toISOString(),
      durationMs: Math.round(durationMs),
      ok,
      runs: (prev?.runs ?? 0) + 1,
      failures: (prev?.failures ?? 0) + (ok ? 0 : 1),
    });
  },
  problem(level: "warn" | "error", msg: string, at: number): void {
    const kind = problems.has(msg) || problems.size < MAX_KINDS ? msg : "(other)";
    const prev = problems.get(kind);
    problems.set(kind, {
      level: prev?.level === "error" ? "error" : level,
      count: (prev?.count ?? 0) + 1,
      lastAt: new Date(at).toISOString(),
    });
  },
  imapPoll(result: "ok" | "failed" | "error", at: number): void {
    polls[result]++;
    polls.lastAt = new Date(at).toISOString();
  },
  smtpReceiver(listening: boolean, port?: number): void {
    smtp.listening = listening;
    smtp.port = port;
  },
};

/** A copy of everything recorded so far. */
export function activitySnapshot() {
  return {
    cron: Object.fromEntries(cron),
    problems: [...problems].map(([kind, record]) => ({ kind, ...record }))
      .sort((a, b) => b.lastAt.localeCompare(a.lastAt)),
    imapPolls: { ...polls },
    smtp: { ...smtp },
  };
}
