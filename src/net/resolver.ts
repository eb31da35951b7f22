/** Name resolution for outbound requests; tests swap in their own answers. */
export interface Resolver {
  /** Every A and AAAA answer for a host name; empty when the name does not resolve. */
  resolve(host: string, signal?: AbortSignal): Promise<string[]>;
}

/** The system's DNS through `Deno.resolveDns`, asking for A and AAAA records at once. */
export const dnsResolver: Resolver = {
  async resolve(host, signal) {
    const answers = await Promise.allSettled([
      Deno.resolveDns(host, "A", { signal }),
      Deno.resolveDns(host, "AAAA", { signal }),
    ]);
    return answers.flatMap((a) => a.status === "fulfilled" ? a.value : []);
  },
};
