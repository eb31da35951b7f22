// @ts-check
/** Register, sign in, forgotten password, and the pages of the mailed links (reset, verify). */
import { html } from "htm/preact";
import { useEffect, useState } from "preact/hooks";
import { api, ok } from "../api.js";
import { browserZone } from "../format.js";
import { navigate } from "../router.js";
import { session, signedIn, userChanged } from "../session.js";
import {
  Checkbox,
  ErrorText,
  fieldError,
  Form,
  Loading,
  Page,
  TextField,
  TimezoneField,
  useAction,
} from "../ui.js";
import { ResetReview } from "./security.js";

/** @typedef {import("../app.js").ScreenProps} ScreenProps */

/** @param {{remember: boolean, onChange: (v: boolean) => void}} props */
const Remember = ({ remember, onChange }) =>
  html`
    <${Checkbox} name="remember" label="Keep me signed in on this device" checked=${remember}
      onChange=${onChange} hint="Otherwise you are signed out when this tab closes." />
  `;

export function SignIn() {
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [remember, setRemember] = useState(true);
  const submit = async () => {
    const data = await ok(api.POST("/api/auth/login", { body: { email, password } }));
    signedIn(data, remember);
  };
  return html`
    <${Page} title="Sign in">
      <${Form} onSubmit=${submit} submit="Sign in" busyText="Signing in…">
        <${TextField} label="Email or username" name="email" value=${email} onInput=${setEmail}
          autocomplete="username" required />
        <${TextField} label="Password" name="password" type="password" value=${password}
          onInput=${setPassword} autocomplete="current-password" required />
        <${Remember} remember=${remember} onChange=${setRemember} />
        <//>
        <p
          class="alt"><a href="/register">Create an account</a> · <a href="/forgot-password">Forgot your password?</a></p>
        <//>
  `;
}

/** @param {{query: URLSearchParams}} props */
export function Register({ query }) {
  // An invitation link (REGISTRATION=invite) carries its token; the registration spends it.
  const [invite] = useState(() => query.get("invite") ?? "");
  const [form, setForm] = useState({
    email: "",
    password: "",
    username: "",
    displayName: "",
    timezone: browserZone(),
  });
  const [remember, setRemember] = useState(true);
  /** @param {keyof typeof form} key */
  const set = (key) => (/** @type {string} */ value) => setForm({ ...form, [key]: value });
  const submit = async () => {
    const data = await ok(api.POST("/api/auth/register", {
      body: {
        email: form.email,
        password: form.password,
        timezone: form.timezone,
        ...(form.username.trim() && { username: form.username.trim() }),
        ...(form.displayName.trim() && { displayName: form.displayName.trim() }),
        ...(invite && { invite }),
      },
    }));
    signedIn(data, remember);
  };
  return html`
    <${Page} title="Create an account">
      <${Form} onSubmit=${submit} submit="Create account" busyText="Creating…">
        <${TextField} label="Email" name="email" type="email" value=${form.email}
          onInput=${set("email")} autocomplete="email" required />
        <${TextField} label="Password" name="password" type="password" value=${form.password}
          onInput=${set("password")} autocomplete="new-password" required
          hint="8 to 256 characters." />
        <${TextField} label="Username" name="username" value=${form.username}
          onInput=${set(
            "username",
          )} autocomplete="nickname" hint="Optional; for your public profile." />
        <${TextField} label="Display name" name="displayName" value=${form.displayName}
          onInput=${set("displayName")} autocomplete="name" />
        <${TimezoneField} value=${form.timezone} onChange=${set("timezone")}
          hint="Monthly limits and date filters follow it." />
        <${Remember} remember=${remember} onChange=${setRemember} />
        <//>
        <p class="alt">Have an account? <a href="/sign-in">Sign in</a></p>
        <//>
  `;
}

export function Forgot() {
  const [email, setEmail] = useState("");
  const [sent, setSent] = useState(false);
  const submit = async () => {
    await ok(api.POST("/api/auth/forgot-password", { body: { email } }));
    setSent(true);
  };
  return html`
    <${Page} title="Forgot password">
      ${sent
        ? html`<p role="status" class="notice">If an account uses ${email}, a link to choose a new
            password is on its way. It works for one hour.</p>`
        : html`
          <${Form} onSubmit=${submit} submit="Send the link" busyText="Sending…">
            <${TextField} label="Email" name="email" type="email" value=${email} onInput=${setEmail}
              autocomplete="email" required />
            <//>
        `}
      <p class="alt"><a href="/sign-in">Back to sign in</a></p>
    <//>
  `;
}

/** @param {ScreenProps} props */
export function Reset({ query }) {
  // The token leaves the address bar (and history) at once; the page keeps it.
  const [token] = useState(() => query.get("token") ?? "");
  useEffect(() => {
    if (query.has("token")) history.replaceState(null, "", "/reset-password");
  }, []);
  const [password, setPassword] = useState("");
  const [again, setAgain] = useState("");
  const [keepApiKeys, setKeepApiKeys] = useState(false);
  const [ended, setEnded] = useState(
    /** @type {import("../api.js").Schemas["PasswordReset"]["ended"] | null} */ (null),
  );
  const submit = async () => {
    if (password !== again) throw fieldError("again", "The two passwords differ.");
    const { ended, ...data } = await ok(api.POST("/api/auth/reset-password", {
      body: { token, password, keepApiKeys },
    }));
    signedIn(data, true);
    setEnded(ended);
  };
  if (ended) {
    return html`
      <${Page} title="Review your account">
        <${ResetReview} ended=${ended} onDone=${() => navigate("/", { replace: true })} />
        <//>
    `;
  }
  if (!token) {
    return html`
      <${Page} title="Choose a new password">
        <p class="error" role="alert">This page needs the link from the reset mail.</p>
        <p class="alt"><a href="/forgot-password">Ask for a new link</a></p>
        <//>
    `;
  }
  return html`
    <${Page} title="Choose a new password">
      <${Form} onSubmit=${submit} submit="Set password" busyText="Saving…">
        <${TextField} label="New password" name="password" type="password" value=${password}
          onInput=${setPassword} autocomplete="new-password" required hint="8 to 256 characters." />
        <${TextField} label="New password again" name="again" type="password" value=${again}
          onInput=${setAgain} autocomplete="new-password" required />
        <${Checkbox} name="keepApiKeys" label="Keep my API keys" checked=${keepApiKeys}
          onChange=${setKeepApiKeys}
          hint="The reset signs out every session and removes linked sign-ins. Leave this unticked unless you only forgot your password: someone else may have made keys." />
        <//>
        <//>
  `;
}

/**
 * The page the verification mail links to: the token is sent once, then leaves the address.
 * @param {ScreenProps} props
 */
export function VerifyEmail({ query }) {
  const [token] = useState(() => query.get("token") ?? "");
  const [done, setDone] = useState(false);
  const verify = useAction(async () => {
    const { user } = await ok(api.POST("/api/auth/verify-email", { body: { token } }));
    if (session()?.user.id === user.id) userChanged(user);
    setDone(true);
  });
  useEffect(() => {
    if (query.has("token")) history.replaceState(null, "", "/verify-email");
    if (token) verify.run();
  }, []);
  return html`
    <${Page} title="Verify your email">
      ${!token && html`<p class="error" role="alert">This page needs the link from the mail.</p>`}
      ${verify.busy && html`<${Loading} label="Verifying…" />`}
      <${ErrorText} error=${verify.error} />
      ${done && html`<p role="status">Your email is verified.</p>`}
      <p class="alt">${session()
        ? html`<a href="/account">Back to your account</a>`
        : html`<a href="/sign-in">Sign in</a>`}</p>
    <//>
  `;
}
