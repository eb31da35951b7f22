import type { AppDeps } from "../deps.ts";
import type { Principal } from "../store/account/credentials.ts";

export interface AppEnv {
  Variables: {
    deps: AppDeps;
    requestId: string;
    /** The request body as text when it did not parse as a JSON object. */
    rawBody?: string;
    /** The whole request body as text (JSON bodies included), as it arrived. */
    bodyText?: string;
    auth: Principal;
  };
}
