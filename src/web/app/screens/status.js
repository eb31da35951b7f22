// @ts-check
/**
 * The deployment's status, for its operator (the first account, or one in `OPERATOR_EMAILS`):
 * `GET /api/operator/status` answers anyone else 404, shown here as "not found".
 */
import { html } from "htm/preact";
import { api, ApiError, ok } from "../api.js";
import { bytes, count, dateTime } from "../format.js";
import { session } from "../session.js";
import { ErrorText, Facts, Loading, Page, useLoad } from "../ui.js";
import { AccountNav } from "./parts.js";

/** @typedef {import("../../generated/openapi.d.ts").components["schemas"]["OperatorStatus"]} Status */

/** @param {number} s */
const duration = (s) =>
  s >= 86400
    ? `${Math.floor(s / 86400)} d ${Math.floor(s % 86400 / 3600)} h`
    : s >= 3600
    ? `${Math.floor(s / 3600)} h ${Math.floor(s % 3600 / 60)} min`
    : `${Math.floor(s / 60)} min`;

/** @param {{ok: boolean | null}} job */
const result = (job) => job.ok === null ? "not run yet" : job.ok ? "ok" : "failed";

export function Status() {
  const status = useLoad(() => ok(api.GET("/api/operator/status")), []);
  const zone = session()?.user.timezone;
  const s = status.data;
  const hidden = status.error instanceof ApiError && status.error.status === 404;
  return html`
    <${Page} title="Service status" actions=${s && html`
      <button type="button" class="secondary small" onClick=${() =>
        status.reload()}>Refresh</button>
    `}>
      <${AccountNav} current="/account/status" />
      ${hidden
        ? html`<p class="empty">Not found: this page is for the person who runs the service.</p>`
        : html`<${ErrorText} error=${status.error} />`}
      ${status.loading && html`<${Loading} />`}
      ${s && html`<${Details} s=${s} zone=${zone} />`}
    <//>
  `;
}

/** @param {{s: Status, zone?: string}} props */
function Details({ s, zone }) {
  const when = (/** @type {string | null} */ iso) => iso ? dateTime(iso, zone) : "never";
  return html`
    <section class="panel" aria-labelledby="st-service">
      <h2 id="st-service">Service</h2>
      <${Facts} facts=${[
        ["Version", s.version],
        ["Layout version", s.layoutVersion],
        ["Deno", s.deno],
        ["Up for", duration(s.uptimeSeconds)],
        ["Storage", s.persistence],
        ["Storage size", s.kvSizeBytes === null ? "not known here" : bytes(s.kvSizeBytes)],
        ["Events", s.events.transport],
        [
          "Events waiting",
          s.events.waiting === null ? "not known (queue)" : count(s.events.waiting),
        ],
        ["Metrics", s.metricsEnabled ? "on" : "off"],
        ["Tracing", s.tracingEnabled ? "on" : "off"],
      ]} />
    </section>
    <section class="panel" aria-labelledby="st-intake">
      <h2 id="st-intake">Intake</h2>
      <${Facts} facts=${[
        [
          "Reader workers",
          `${s.emailReaders.running} of ${s.emailReaders.configured} running, ` +
          `${s.emailReaders.busy} reading, ${s.emailReaders.waiting} waiting`,
        ],
        [
          "SMTP receiver",
          s.smtp.enabled
            ? `${s.smtp.listening ? "listening" : "not listening"}${
              s.smtp.port ? ` on ${s.smtp.port}` : ""
            }`
            : "off",
        ],
        [
          "Mailbox polls",
          `every ${s.imap.pollMinutes} min; last ${when(s.imap.lastPollAt)}; ` +
          `${s.imap.polls.ok} ok, ${s.imap.polls.failed} failed, ${s.imap.polls.error} errors`,
        ],
      ]} />
    </section>
    <section class="panel" aria-labelledby="st-cron">
      <h2 id="st-cron">Scheduled jobs</h2>
      <table class="log">
        <caption class="visually-hidden">Scheduled jobs in this process</caption>
        <thead>
          <tr>
            <th scope="col">Job</th>
            <th scope="col">Schedule (UTC)</th>
            <th scope="col">Last run</th>
            <th scope="col">Result</th>
            <th scope="col" class="num">Time</th>
            <th scope="col" class="num">Runs</th>
            <th scope="col" class="num">Failed</th>
          </tr>
        </thead>
        <tbody>
          ${s.cronJobs.map((j) =>
            html`
              <tr>
                <td>${j.name}</td>
                <td><code>${j.schedule}</code></td>
                <td>${when(j.lastRunAt)}</td>
                <td>${result(j)}</td>
                <td class="num">${j.durationMs === null ? "" : `${count(j.durationMs)} ms`}</td>
                <td class="num">${count(j.runs)}</td>
                <td class="num">${count(j.failures)}</td>
              </tr>
            `
          )}
        </tbody>
      </table>
    </section>
    <section class="panel" aria-labelledby="st-carriers">
      <h2 id="st-carriers">Carrier budgets today</h2>
      ${s.carriers.length === 0 ? html`<p class="empty">No carrier API is configured.</p>` : html`
        <${Facts} facts=${s.carriers.map((
          b,
        ) => [`${b.api} (${b.purpose})`, `${count(b.left)} calls left`])} />
      `}
    </section>
    <section class="panel" aria-labelledby="st-problems">
      <h2 id="st-problems">Recent problems</h2>
      ${s.problems.length === 0
        ? html`<p class="empty">No warnings or errors since the service started.</p>`
        : html`
          <table class="log">
            <caption class="visually-hidden">Warnings and errors by kind</caption>
            <thead>
              <tr>
                <th scope="col">Kind</th>
                <th scope="col">Level</th>
                <th scope="col" class="num">Count</th>
                <th scope="col">Last</th>
              </tr>
            </thead>
            <tbody>
              ${s.problems.map((p) =>
                html`
                  <tr>
                    <td>${p.kind}</td>
                    <td>${p.level}</td>
                    <td class="num">${count(p.count)}</td>
                    <td>${when(p.lastAt)}</td>
                  </tr>
                `
              )}
            </tbody>
          </table>
        `}
    </section>
  `;
}
