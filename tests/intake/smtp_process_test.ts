/** main.ts starts the SMTP receiver when SMTP_PORT is set, and stops it on SIGTERM. */
import { equal, ok } from "node:assert/strict";
import { freePort, startService } from "../../scripts/service.ts";
import { SmtpClient } from "../../scripts/smtp_client.ts";

Deno.test("main.ts: SMTP_PORT starts the receiver; shutdown closes it and exits 0", async () => {
  const smtpPort = freePort();
  const service = await startService({
    env: {
      KV_PATH: ":memory:",
      LOG_LEVEL: "info",
      SMTP_PORT: String(smtpPort),
      MAIL_DOMAIN: "in.example.com",
    },
  });
  let client: SmtpClient | undefined;
  try {
    const line = service.stdout.map((l) => JSON.parse(l)).find((l) =>
      l.msg === "smtp receiver listening"
    );
    equal(line?.port, smtpPort);
    const [opened, greeting] = await SmtpClient.connect(smtpPort);
    client = opened;
    equal(greeting.code, 220);
    equal((await client.command("EHLO mx.shop.example")).code, 250);
    equal((await client.command("QUIT")).code, 221);
  } finally {
    client?.close();
    const exit = await service.stop("SIGTERM");
    equal(exit.code, 0, exit.stderr.join("\n"));
  }
  await Deno.connect({ hostname: "127.0.0.1", port: smtpPort }).then(
    (conn) => {
      conn.close();
      ok(false, "the SMTP port still accepts");
    },
    () => {},
  );
});

Deno.test("main.ts: without SMTP_PORT there is no receiver", async () => {
  const service = await startService({ env: { KV_PATH: ":memory:", LOG_LEVEL: "info" } });
  const exit = await service.stop("SIGTERM");
  equal(exit.code, 0);
  ok(!exit.stdout.some((l) => l.includes("smtp receiver")));
});
