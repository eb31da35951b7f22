import { bodyParser } from "./http/body.ts";
import { conventions } from "./http/conventions.ts";
import type { AppDeps } from "./deps.ts";
import { ApiError, errorResponse } from "./http/errors.ts";
import { UpstreamError } from "./errors.ts";
import { registerSecurity } from "./http/openapi.ts";
import { createRouter } from "./http/router.ts";
import { mountDocs } from "./routes/service/docs.ts";
import { healthRoutes } from "./routes/service/health.ts";
import { authRoutes } from "./routes/account/auth.ts";
import { authCredentialRoutes } from "./routes/account/auth_credentials.ts";
import { authProviderRoutes } from "./routes/account/auth_providers.ts";
import { apiKeyRoutes } from "./routes/account/api_keys.ts";
import { accountDataRoutes, accountRoutes, stateRoutes } from "./routes/account/account.ts";
import { profileRoutes } from "./routes/account/profiles.ts";
import { landingRoutes } from "./routes/service/landing.ts";
import { settingsRoutes } from "./routes/account/settings.ts";
import { deploymentRoutes } from "./routes/service/deployment.ts";
import { mailboxCheckRoutes } from "./routes/intake/mailbox_checks.ts";
import { inboxOrderRoutes } from "./routes/intake/inbox_order.ts";
import { invitationRoutes } from "./routes/account/invitations.ts";
import { webhookLogRoutes } from "./routes/webhooks/logs.ts";
import { webhookSubscriptionRoutes } from "./routes/webhooks/subscriptions.ts";
import { orderRoutes } from "./routes/orders/orders.ts";
import { billingRoutes } from "./routes/billing/billing.ts";
import { emailSourceRoutes } from "./routes/intake/email_sources.ts";
import { emailIntakeRoutes, inboxRoutes } from "./routes/intake/email.ts";
import { templateRoutes } from "./routes/intake/templates.ts";
import { orderIntakeRoutes } from "./routes/intake/order_messages.ts";
import { carrierRoutes, carrierStatusRoutes } from "./routes/tracking/carriers.ts";
import { inboundMailRoutes } from "./routes/intake/inbound_mail.ts";
import { botRoutes } from "./routes/chat/bots.ts";
import { chatPostRoutes } from "./routes/intake/chat_posts.ts";
import { chatRoutes } from "./routes/chat/chat.ts";
import { embedCopierRoutes, embedUserScriptRoutes } from "./routes/chat/embed_copier.ts";
import { embedSampleRoutes } from "./routes/intake/embed_samples.ts";
import { recurringCostRoutes } from "./routes/insights/recurring_costs.ts";
import {
  calendarRoutes,
  leaderboardRoutes,
  profitabilityRoutes,
} from "./routes/insights/insights.ts";
import { shareRoutes } from "./routes/insights/shares.ts";
import { emailVerificationRoutes } from "./routes/account/email_verification.ts";
import { sharePageRoutes } from "./routes/insights/share_pages.ts";
import { mountDashboard } from "./web/mount.ts";
import { metricsRoutes, startMetrics } from "./routes/service/metrics.ts";
import { operatorRoutes } from "./routes/service/operator.ts";

/**
 * The whole HTTP API for one set of dependencies, and the dashboard beside it. No I/O happens
 * here: main.ts and the tests open storage and pass it in.
 */
export function createApp(deps: AppDeps) {
  const app = createRouter();
  registerSecurity(app as never);

  app.use("*", conventions(deps));
  app.use("/api/*", bodyParser);

  // The URL map: every area of the API at its prefix under /api, the router that serves it
  // beside it (route paths inside a router are relative to its prefix). The order is the
  // order of GET /api/openapi.json (and of matching), so a prefix may come back later on.
  const api = createRouter()
    .route("/healthz", healthRoutes)
    .route("/auth", authRoutes)
    .route("/auth", authProviderRoutes)
    .route("/auth", authCredentialRoutes)
    .route("/account/api-keys", apiKeyRoutes)
    .route("/account", accountRoutes)
    .route("/state", stateRoutes)
    .route("/account", accountDataRoutes)
    .route("/profile", profileRoutes)
    .route("/landing-stats", landingRoutes)
    .route("/webhook-subscriptions", webhookSubscriptionRoutes)
    .route("/webhook-logs", webhookLogRoutes)
    .route("/settings", settingsRoutes)
    .route("/orders", orderIntakeRoutes)
    .route("/orders", orderRoutes)
    .route("/billing", billingRoutes)
    .route("/email-sources", mailboxCheckRoutes)
    .route("/email-sources", emailSourceRoutes)
    .route("/inbox", inboxOrderRoutes)
    .route("/email", emailIntakeRoutes)
    .route("/inbox", inboxRoutes)
    .route("/templates", templateRoutes)
    .route("/carriers", carrierRoutes)
    .route("/carrier-status", carrierStatusRoutes)
    .route("/inbound", inboundMailRoutes)
    .route("/bots", botRoutes)
    .route("/webhooks", chatPostRoutes) // inbound chat posts (intake), not outbound delivery
    .route("/chat", chatRoutes)
    .route("/embed-copier", embedCopierRoutes)
    .route("/embed-samples", embedSampleRoutes)
    .route("/embed-copier", embedUserScriptRoutes)
    .route("/subscriptions", recurringCostRoutes)
    .route("/profitability", profitabilityRoutes)
    .route("/calendar", calendarRoutes)
    .route("/leaderboard", leaderboardRoutes)
    .route("/shares", shareRoutes)
    .route("/auth", emailVerificationRoutes)
    .route("/operator", operatorRoutes)
    .route("/deployment", deploymentRoutes)
    .route("/account/invitations", invitationRoutes);
  app.route("/api", api);
  // Public share pages live outside /api (their links are shared as they are).
  app.route("/s", sharePageRoutes);
  app.route("/metrics", metricsRoutes);
  startMetrics(deps);
  // GET /api/openapi.json, the reference page at /api and its assets at /api/reference.
  mountDocs(app);
  mountDashboard(app);

  app.notFound((c) => c.json({ error: "Not found" }, 404));
  app.onError((err, c) => {
    const res = errorResponse(c, err);
    // A deliberate answer (feature off, carrier not configured, upstream refused) is not a
    // fault of the service: logged at info with its reason.
    if (res.status >= 500 && (err instanceof ApiError || err instanceof UpstreamError)) {
      deps.log.info("answered with an error", {
        requestId: c.var.requestId,
        status: res.status,
        reason: err.message,
      });
    } else if (res.status >= 500) {
      deps.log.error("unhandled error", {
        requestId: c.var.requestId,
        error: err instanceof Error ? err.message : String(err),
      });
    }
    return res;
  });
  return app;
}

export type App = ReturnType<typeof createApp>;
