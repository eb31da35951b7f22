import assert from "node:assert/strict";
import { join } from "node:path";
import { ConfigError, testConfig } from "../../src/config.ts";
import { SecretBox } from "../../src/lib/secret_box.ts";
import { KEY_FILE_NAME, secretBoxFor } from "../../src/secrets.ts";

const KEY = crypto.getRandomValues(new Uint8Array(32));

Deno.test("seal and open: AES-GCM, fresh IV each time, bound to its context and key", async () => {
  const box = new SecretBox(KEY);
  const a = await box.seal("whsec_secret", "whsub_1");
  const b = await box.seal("whsec_secret", "whsub_1");
  assert.match(a, /^v1\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]+$/);
  assert.notEqual(a, b);
  assert.ok(!a.includes("secret"));
  assert.equal(await box.open(a, "whsub_1"), "whsec_secret");
  assert.equal(await new SecretBox(new Uint8Array(KEY)).open(b, "whsub_1"), "whsec_secret");
  assert.equal(await box.open(a, "whsub_2"), null, "copied onto another record");
  assert.equal(await SecretBox.ephemeral().open(a, "whsub_1"), null, "another key");
  const [v, iv, data] = a.split(".");
  const flipped = data.slice(0, -2) + (data.at(-2) === "A" ? "B" : "A") + data.at(-1);
  assert.equal(await box.open([v, iv, flipped].join("."), "whsub_1"), null, "tampered");
  assert.equal(await box.open("garbage", "whsub_1"), null);
  assert.equal(await box.open("v2.x.y", "whsub_1"), null);
  assert.throws(() => new SecretBox(new Uint8Array(16)));
});

Deno.test("a binding (v2) is part of the associated data; v1 values open with the context alone", async () => {
  const box = new SecretBox(KEY);
  const binding = ["imap.example.com", 993, true, "buyer"] as const;
  const bound = await box.seal("hunter2", "email_1", binding);
  assert.match(bound, /^v2\./);
  assert.ok(SecretBox.isBound(bound));
  assert.equal(await box.open(bound, "email_1", binding), "hunter2");
  assert.equal(await box.open(bound, "email_1", ["evil.example.com", 993, true, "buyer"]), null);
  assert.equal(await box.open(bound, "email_1", ["imap.example.com", 143, true, "buyer"]), null);
  assert.equal(await box.open(bound, "email_1", ["imap.example.com", 993, false, "buyer"]), null);
  assert.equal(await box.open(bound, "email_1", ["imap.example.com", 993, true, "x"]), null);
  assert.equal(await box.open(bound, "email_1"), null, "no binding given");
  assert.equal(await box.open(bound, "email_2", binding), null, "another record");
  // The version is not a switch: relabelled as v1 it opens for nothing.
  assert.equal(await box.open(bound.replace(/^v2/, "v1"), "email_1"), null);
  assert.equal(await box.open(bound.replace(/^v2/, "v1"), "email_1", binding), null);
  // Sealed before bindings existed: opens with its context, whatever binding is asked for.
  const legacy = await box.seal("hunter2", "email_1");
  assert.ok(!SecretBox.isBound(legacy));
  assert.equal(await box.open(legacy, "email_1", binding), "hunter2");
  assert.equal(await box.open(legacy, "email_2", binding), null);
});

Deno.test("SECRETS_KEY wins; :memory: gets an ephemeral key; a remote KV without it gets none", async () => {
  const config = testConfig({ SECRETS_KEY: KEY.toBase64() });
  const fromEnv = secretBoxFor(config, "sqlite")!;
  const sealed = await fromEnv.seal("x", "c");
  assert.equal(await new SecretBox(KEY).open(sealed, "c"), "x");
  assert.ok(secretBoxFor(testConfig(), "memory") instanceof SecretBox);
  assert.equal(secretBoxFor(testConfig({ KV_PATH: "https://kv.example.com" }), "remote"), null);
  assert.ok(secretBoxFor(testConfig({ SECRETS_KEY: KEY.toBase64() }), "remote"));
});

Deno.test("a file KV without SECRETS_KEY creates secrets.key (0600) beside it once, then reuses it", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const config = testConfig({ KV_PATH: join(dir, "kv.sqlite3") });
    const first = secretBoxFor(config, "sqlite")!;
    const path = join(dir, KEY_FILE_NAME);
    const stat = await Deno.stat(path);
    assert.equal(stat.mode! & 0o777, 0o600);
    assert.equal(Uint8Array.fromBase64((await Deno.readTextFile(path)).trim()).length, 32);
    const sealed = await first.seal("whsec_x", "whsub_1");
    const again = secretBoxFor(config, "sqlite")!;
    assert.equal(await again.open(sealed, "whsub_1"), "whsec_x");
    assert.deepEqual([...Deno.readDirSync(dir)].map((e) => e.name), [KEY_FILE_NAME]);

    await Deno.writeTextFile(path, "not a key\n");
    assert.throws(() => secretBoxFor(config, "sqlite"), ConfigError);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
