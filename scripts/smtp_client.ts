/**
 * A plain SMTP client over `Deno.connect`, for the receiver's tests and benchmark: one command
 * at a time, every reply read whole (multi-line replies joined), STARTTLS through
 * `Deno.startTls`. It speaks exactly what the test writes, so the receiver's answers are seen
 * as a mail server would see them.
 */

export interface Reply {
  code: number;
  /** The reply's lines without their codes, joined with "\n". */
  text: string;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

export class SmtpClient {
  #buffer = "";
  private constructor(private conn: Deno.Conn | Deno.TlsConn) {}

  /** Connects and reads the greeting. */
  static async connect(port: number, hostname = "127.0.0.1"): Promise<[SmtpClient, Reply]> {
    const client = new SmtpClient(await Deno.connect({ hostname, port }));
    return [client, await client.read()];
  }

  /** The next whole reply; code 0 when the server closed the connection first. */
  async read(): Promise<Reply> {
    const lines: string[] = [];
    while (true) {
      const end = this.#buffer.indexOf("\r\n");
      if (end < 0) {
        const chunk = new Uint8Array(64 * 1024);
        let n: number | null = null;
        try {
          n = await this.conn.read(chunk);
        } catch {
          n = null;
        }
        if (n === null) return { code: 0, text: lines.join("\n") };
        this.#buffer += decoder.decode(chunk.subarray(0, n));
        continue;
      }
      const line = this.#buffer.slice(0, end);
      this.#buffer = this.#buffer.slice(end + 2);
      lines.push(line.slice(4));
      if (line[3] !== "-") return { code: Number(line.slice(0, 3)), text: lines.join("\n") };
    }
  }

  async write(text: string): Promise<void> {
    const bytes = encoder.encode(text);
    for (let at = 0; at < bytes.length;) at += await this.conn.write(bytes.subarray(at));
  }

  async command(line: string): Promise<Reply> {
    await this.write(`${line}\r\n`);
    return await this.read();
  }

  /** DATA, then the message (dot-stuffed, CRLF line ends) and the final dot: the last reply. */
  async data(raw: string): Promise<Reply> {
    const go = await this.command("DATA");
    if (go.code !== 354) return go;
    const body = raw.replace(/\r?\n/g, "\r\n").replace(/^\./gm, "..");
    await this.write(`${body}${body.endsWith("\r\n") ? "" : "\r\n"}.\r\n`);
    return await this.read();
  }

  /**
   * One delivery on an open session, as mail servers do it: MAIL, RCPT for each recipient,
   * and DATA when some recipient was accepted; the replies in order.
   */
  async send(from: string, to: string[], raw: string): Promise<Reply[]> {
    const mail = await this.command(`MAIL FROM:<${from}>`);
    if (mail.code !== 250) return [mail];
    const rcpts: Reply[] = [];
    for (const rcpt of to) rcpts.push(await this.command(`RCPT TO:<${rcpt}>`));
    const data = rcpts.some((r) => r.code === 250) ? [await this.data(raw)] : [];
    return [mail, ...rcpts, ...data];
  }

  /** STARTTLS, the handshake (trusting `ca` for `hostname`), then the caller says EHLO again. */
  async startTls(hostname: string, ca: string[]): Promise<Reply> {
    const go = await this.command("STARTTLS");
    if (go.code === 220) {
      this.conn = await Deno.startTls(this.conn as Deno.TcpConn, { hostname, caCerts: ca });
    }
    return go;
  }

  close(): void {
    try {
      this.conn.close();
    } catch {
      // Closed by the server already.
    }
  }
}
