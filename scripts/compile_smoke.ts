/**
 * CI's check of the compiled binary: `deno task compile`, then the binary, copied alone into an
 * empty folder and started there, answers the dashboard, an email import read by its reader
 * worker, a share card's PNG and the reference page (scripts/binary_checks.ts). `deno compile`
 * needs Deno's runtime (`denort`) from dl.deno.land, or `DENORT_BIN`: where it cannot have it,
 * this prints one line saying the smoke test was skipped and why, and exits 0.
 */
import { basename, join } from "node:path";
import { checkService } from "./binary_checks.ts";
import { compileTask, ROOT } from "./compile_files.ts";
import { startService } from "./service.ts";

/** A plain order confirmation (what the reader worker reads). */
const MAIL = [
  "From: Shop <orders@shop.example>",
  "To: buyer@example.com",
  "Subject: Order #9001 confirmed",
  "Date: Tue, 03 Mar 2026 10:00:00 +0000",
  "Message-ID: <order-9001@shop.example>",
  "MIME-Version: 1.0",
  "Content-Type: text/plain; charset=utf-8",
  "",
  "Thanks for your order!\nOrder number: 9001\nItem: Canvas tote\nTotal: $40.00",
  "",
].join("\r\n");

const RUNTIME_UNREACHABLE = /error sending request for url \(https:\/\/dl\.deno\.land/;

const task = compileTask();
const compiled = await new Deno.Command(Deno.execPath(), {
  args: ["task", "compile"],
  cwd: ROOT,
  stdout: "piped",
  stderr: "piped",
}).output();
const log = new TextDecoder().decode(compiled.stderr) + new TextDecoder().decode(compiled.stdout);
if (!compiled.success) {
  if (RUNTIME_UNREACHABLE.test(log) && !Deno.env.get("DENORT_BIN")) {
    console.log(
      `compile smoke: skipped: deno compile cannot download its runtime (denort ${Deno.version.deno}) ` +
        "from dl.deno.land here and DENORT_BIN is unset",
    );
    Deno.exit(0);
  }
  console.error(log);
  console.error("compile smoke: deno task compile failed");
  Deno.exit(1);
}

// The binary alone, in an empty folder that is also its working directory.
const dir = await Deno.makeTempDir({ prefix: "compiled-" });
const binary = join(dir, basename(task.output));
await Deno.copyFile(join(ROOT, task.output), binary);
await Deno.chmod(binary, 0o755);
const service = await startService({
  command: [binary],
  cwd: dir,
  env: { EMAIL_READERS: "1", LOG_LEVEL: "info" },
  startTimeoutMs: 60_000,
});
let failed: unknown;
try {
  await checkService(service.url, MAIL);
} catch (err) {
  failed = err;
}
const report = await service.stop("SIGTERM");
await Deno.remove(dir, { recursive: true });
if (failed || report.code !== 0) {
  console.error(report.stderr.join("\n"));
  console.error(`compile smoke: failed: ${failed ?? `exit ${report.code}`}`);
  Deno.exit(1);
}
console.log("compile smoke: the compiled binary passed (dashboard, reader worker, PNG, reference)");
