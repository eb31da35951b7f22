/**
 * Who may create an account (`REGISTRATION`, README): `open` anyone; `closed` nobody but the
 * first account (the operator's); `invite` whoever holds an unused invitation, and the first.
 */
export type RegistrationMode = "open" | "closed" | "invite";

/** Why a new account is refused. */
export type RegistrationRefusal = "closed" | "invitation_needed" | "invitation_invalid";

/** The decision for one registration, from what was read in its commit. */
export function registrationRefusal(
  mode: RegistrationMode,
  read: { accounts: number; invitation?: "valid" | "invalid" },
): RegistrationRefusal | null {
  if (mode === "open" || read.accounts === 0) return null;
  if (mode === "closed") return "closed";
  if (read.invitation === "valid") return null;
  return read.invitation === "invalid" ? "invitation_invalid" : "invitation_needed";
}

/** The refusal in people's words. */
export const REFUSAL_TEXT: Record<RegistrationRefusal, string> = {
  closed: "New accounts are closed on this server; ask its operator.",
  invitation_needed:
    "This server takes new accounts by invitation only: open your invitation link.",
  invitation_invalid: "This invitation link was already used or has expired; ask for a new one.",
};

/** How long an invitation link works. */
export const INVITATION_TTL_MS = 7 * 24 * 3600_000;
