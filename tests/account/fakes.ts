import { SMTPServer } from "smtp-server";

/** A request a fake upstream received. */
export interface Received {
  method: string;
  path: string;
  headers: Headers;
  body: string;
}

export interface FakeServer extends AsyncDisposable {
  url: string;
  received: Received[];
  close(): Promise<void>;
}

/** A loopback HTTP server answering with `handler` and keeping what it received. */
export function fakeServer(
  handler: (req: Received) => Response | Promise<Response>,
): FakeServer {
  const received: Received[] = [];
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    async (req) => {
      const got = {
        method: req.method,
        path: new URL(req.url).pathname,
        headers: req.headers,
        body: await req.text(),
      };
      received.push(got);
      return handler(got);
    },
  );
  const close = () => server.shutdown();
  return {
    url: `http://127.0.0.1:${server.addr.port}`,
    received,
    close,
    [Symbol.asyncDispose]: close,
  };
}

/** A loopback port nothing listens on: connections are refused. */
export function closedPort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = listener.addr as Deno.NetAddr;
  listener.close();
  return port;
}

export interface ReceivedMail {
  from: string;
  to: string[];
  raw: string;
}

export interface FakeSmtp extends AsyncDisposable {
  url: string;
  mail: ReceivedMail[];
  /** Resolves once `count` messages have arrived. */
  waitFor(count: number): Promise<ReceivedMail[]>;
  close(): Promise<void>;
}

/** A real SMTP server (the smtp-server package) on loopback, without TLS or auth. */
export async function fakeSmtp(): Promise<FakeSmtp> {
  const mail: ReceivedMail[] = [];
  const waiters: (() => void)[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onData(stream, session, done) {
      let raw = "";
      stream.setEncoding("utf8");
      stream.on("data", (chunk: string) => raw += chunk);
      stream.on("end", () => {
        mail.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
          to: session.envelope.rcptTo.map((r) => r.address),
          raw,
        });
        waiters.splice(0).forEach((wake) => wake());
        done();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.server.address() as { port: number };
  const close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return {
    url: `smtp://127.0.0.1:${port}`,
    mail,
    async waitFor(count) {
      while (mail.length < count) await new Promise<void>((wake) => waiters.push(wake));
      return mail;
    },
    close,
    [Symbol.asyncDispose]: close,
  };
}
