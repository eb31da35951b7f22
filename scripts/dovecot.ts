/**
 * A real Dovecot IMAP server (Debian's `dovecot-imapd`) for the mailbox-polling tests and the
 * benchmark: started in the foreground on loopback with a config of its own in a temporary
 * directory (a passwd-file user, a Maildir under the directory), plain IMAP on one free port
 * and implicit TLS on another, with the certificate of `receiver.test` signed by the tests' own
 * root (tests/net/fixtures). `close()` stops it and removes the directory.
 */
import { ImapFlow } from "imapflow";
import { freePort } from "./service.ts";

const FIXTURES = new URL("../tests/net/fixtures/", import.meta.url).pathname;

/** The root that signed the server's certificate, and the name it is for. */
export const DOVECOT_TLS = {
  ca: Deno.readTextFileSync(`${FIXTURES}test_ca.crt`),
  name: "receiver.test",
};

export interface Dovecot extends AsyncDisposable {
  /** Plain IMAP and implicit TLS ports on 127.0.0.1. */
  port: number;
  tlsPort: number;
  username: string;
  password: string;
  /** The body of `POST /api/email-sources` for this mailbox over plain IMAP on loopback. */
  sourceBody(): Record<string, unknown>;
  /** A signed-in client of the test's own (APPEND, CREATE, DELETE), over plain IMAP. */
  admin(): Promise<ImapFlow>;
  /** Appends messages to `mailbox` (created when missing), with their internal dates. */
  append(mailbox: string, messages: { raw: string; date?: Date }[]): Promise<void>;
  close(): Promise<void>;
}

async function output(cmd: string, args: string[]): Promise<string> {
  const out = await new Deno.Command(cmd, { args, stdout: "piped", stderr: "null" }).output();
  return new TextDecoder().decode(out.stdout).trim();
}

async function waitForPort(port: number, child: Deno.ChildProcess, log: string) {
  const until = Date.now() + 15_000;
  let exited = false;
  child.status.then(() => exited = true);
  while (Date.now() < until && !exited) {
    try {
      (await Deno.connect({ hostname: "127.0.0.1", port })).close();
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  let text = "";
  try {
    text = await Deno.readTextFile(log);
  } catch { /* no log yet */ }
  throw new Error(`dovecot did not start (${exited ? "exited" : "timeout"}):\n${text}`);
}

export async function startDovecot(): Promise<Dovecot> {
  const dir = await Deno.makeTempDir({ prefix: "dovecot-" });
  // Dovecot's own processes run as the mail user: as root, `nobody`; else the current user.
  const root = Deno.uid() === 0;
  const user = root ? "nobody" : await output("id", ["-un"]);
  const group = await output("id", ["-gn", user]);
  const [uid, gid] = [
    Number(await output("id", ["-u", user])),
    Number(await output("id", ["-g", user])),
  ];
  await Deno.chmod(dir, 0o755);
  await Deno.mkdir(`${dir}/home`);
  if (root) await Deno.chown(`${dir}/home`, uid, gid);
  const [port, tlsPort] = [freePort(), freePort()];
  const username = "buyer";
  const password = "mailbox-secret";
  await Deno.writeTextFile(`${dir}/passwd`, `${username}:{PLAIN}${password}\n`);
  const config = `
base_dir = ${dir}/run
state_dir = ${dir}/state
log_path = ${dir}/dovecot.log
protocols = imap
listen = 127.0.0.1
ssl = yes
ssl_cert = <${FIXTURES}receiver.test.crt
ssl_key = <${FIXTURES}receiver.test.key
disable_plaintext_auth = no
auth_mechanisms = plain login
default_internal_user = ${user}
default_internal_group = ${group}
default_login_user = ${user}
first_valid_uid = ${uid}
mail_location = maildir:${dir}/home/%u/Maildir
mail_fsync = never
passdb {
  driver = passwd-file
  args = scheme=PLAIN username_format=%u ${dir}/passwd
}
userdb {
  driver = static
  args = uid=${uid} gid=${gid} home=${dir}/home/%u
}
service imap-login {
  chroot =
  inet_listener imap {
    port = ${port}
  }
  inet_listener imaps {
    port = ${tlsPort}
    ssl = yes
  }
}
service stats {
  unix_listener stats-reader {
    user = ${user}
  }
  unix_listener stats-writer {
    user = ${user}
  }
}
`;
  await Deno.writeTextFile(`${dir}/dovecot.conf`, config);
  const child = new Deno.Command("dovecot", {
    args: ["-F", "-c", `${dir}/dovecot.conf`],
    stdin: "null",
    stdout: "null",
    stderr: "null",
  }).spawn();
  try {
    await waitForPort(port, child, `${dir}/dovecot.log`);
    await waitForPort(tlsPort, child, `${dir}/dovecot.log`);
  } catch (err) {
    child.kill("SIGKILL");
    await child.status;
    await Deno.remove(dir, { recursive: true });
    throw err;
  }

  const admin = async () => {
    const client = new ImapFlow({
      host: "127.0.0.1",
      port,
      secure: false,
      doSTARTTLS: false,
      auth: { user: username, pass: password },
      logger: false,
    });
    client.on("error", () => {});
    await client.connect();
    return client;
  };
  const close = async () => {
    try {
      child.kill("SIGTERM");
    } catch { /* already gone */ }
    await child.status;
    await Deno.remove(dir, { recursive: true });
  };
  return {
    port,
    tlsPort,
    username,
    password,
    sourceBody: () => ({
      kind: "imap",
      host: "127.0.0.1",
      port,
      tls: false,
      username,
      password,
    }),
    admin,
    async append(mailbox, messages) {
      const client = await admin();
      try {
        if (mailbox !== "INBOX" && !(await client.list()).some((m) => m.path === mailbox)) {
          await client.mailboxCreate(mailbox);
        }
        for (const m of messages) await client.append(mailbox, m.raw, [], m.date);
      } finally {
        await client.logout();
      }
    },
    close,
    [Symbol.asyncDispose]: close,
  };
}
