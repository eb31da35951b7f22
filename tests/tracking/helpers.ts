import { type CarrierOptions, Carriers } from "../../src/tracking/client.ts";
import type { TrackQuery } from "../../src/tracking/protocol.ts";
import { testConfig } from "../../src/config.ts";
import type { CarrierKey } from "../../src/domain/tracking/carriers.ts";
import { detectCarrier } from "../../src/domain/tracking/number.ts";
import { createLogger } from "../../src/lib/log.ts";
import { type Fakes, NO_PACING, startFakes } from "./fakes.ts";

/** A settable clock. */
export class Clock {
  constructor(public ms = Date.parse("2025-03-10T12:00:00Z")) {}
  now = () => this.ms;
  advance(ms: number) {
    this.ms += ms;
  }
}

export interface ClientContext extends AsyncDisposable {
  fakes: Fakes;
  kv: Deno.Kv;
  carriers: Carriers;
  clock: Clock;
  logs: string[];
}

/** The real client on an in-memory KV, pointed at fresh fakes. */
export async function carrierClient(
  options: { env?: Record<string, string>; without?: string[]; carrier?: CarrierOptions } = {},
): Promise<ClientContext> {
  const fakes = startFakes();
  const kv = await Deno.openKv(":memory:");
  const env: Record<string, string> = { ...fakes.env, ...options.env };
  for (const name of options.without ?? []) delete env[name];
  const config = testConfig(env);
  const clock = new Clock();
  const logs: string[] = [];
  const carriers = new Carriers(
    kv,
    config.carriers,
    config.tracking.dailyBudget,
    createLogger("debug", (line) => logs.push(line)),
    clock.now,
    options.carrier ?? NO_PACING,
  );
  return {
    fakes,
    kv,
    carriers,
    clock,
    logs,
    [Symbol.asyncDispose]: async () => {
      kv.close();
      await fakes.close();
    },
  };
}

/** A query as the route builds it: the carrier given or detected, the detected form. */
export function queryFor(trackingNumber: string, carrier?: CarrierKey): TrackQuery {
  const detected = detectCarrier(trackingNumber);
  if (!detected.valid && !carrier) throw new Error(`no carrier for ${trackingNumber}`);
  return {
    carrier: carrier ?? (detected.valid ? detected.carrier : "ups"),
    trackingNumber: detected.valid ? detected.trackingNumber : trackingNumber,
    form: detected.valid ? detected.form : undefined,
  };
}
