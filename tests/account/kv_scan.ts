/** Every KV entry as one line of text (key parts and value), for "nothing left" scans. */
export async function kvLines(kv: Deno.Kv): Promise<string[]> {
  const lines: string[] = [];
  for await (const entry of kv.list({ prefix: [] })) {
    lines.push(`${text(entry.key)} => ${text(entry.value)}`);
  }
  return lines;
}

function text(value: unknown): string {
  return JSON.stringify(value, (_k, v) => {
    if (typeof v === "bigint") return v.toString();
    if (v instanceof Deno.KvU64) return v.value.toString();
    if (v instanceof Uint8Array) return new TextDecoder().decode(v);
    return v;
  });
}
