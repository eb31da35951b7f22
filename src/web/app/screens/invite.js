// @ts-check
/** "Invite someone": a single-use registration link, on servers with REGISTRATION=invite. */
import { html } from "htm/preact";
import { useState } from "preact/hooks";
import { api, ok } from "../api.js";
import { useDeployment } from "../deployment.js";
import { dateOnly } from "../format.js";
import { session } from "../session.js";
import { CopyButton, ErrorText, useAction } from "../ui.js";

export function Invite() {
  const deployment = useDeployment();
  const [link, setLink] = useState(/** @type {{url: string, expiresAt: string} | null} */ (null));
  const make = useAction(async () => setLink(await ok(api.POST("/api/account/invitations"))));
  if (deployment?.registration !== "invite") return null;
  return html`
    <section class="panel" aria-labelledby="invite">
      <h2 id="invite">Invite someone</h2>
      <p class="sub">This server takes new accounts by invitation. A link works once, for 7 days.</p>
      <div class="actions">
        <button type="button" class="secondary small" onClick=${() => make.run()}
          disabled=${make.busy} aria-busy=${make.busy}>Make an invitation link</button>
      </div>
      ${link && html`
        <p class="code-row"><code class="url">${link.url}</code>
          <${CopyButton} text=${link.url} label="Copy link" /></p>
        <p class="sub">Works until ${dateOnly(link.expiresAt, session()?.user.timezone)}.</p>
      `}
      <${ErrorText} error=${make.error} />
    </section>
  `;
}
