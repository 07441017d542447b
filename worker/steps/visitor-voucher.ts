import { createMiddleware } from "hono/factory";
import { clientAddressKey } from "#rules/client-address.ts";
import { webIdVoucherCookie } from "#rules/cookies.ts";
import { visitorVoucherKeysOf } from "#rules/env.ts";
import { isCurrentVoucher, voucherOf } from "#rules/visitor-voucher.ts";
import type { WorkerEnv } from "#worker/pipeline.ts";

/**
 * A page answer gives the visitor's webId its voucher (rules/visitor-voucher.ts) when the browser
 * has none under the signing key: a new visitor, one vouched for under a rotated key, or one
 * refused by the limit before. Bots and AMP documents carry no visitor, and a visitor who asked not
 * to be tracked has no webId (edge/request-context.ts). New vouchers are limited per client
 * address (wrangler.toml `[[ratelimits]]` VISITOR_ID_LIMIT holds the number): 10 a minute, so at
 * most 600 an hour. An office of fifty people arriving at nine gets them all within five minutes, a
 * carrier's shared address serves hundreds of new visitors an hour, and a visitor refused in a busy
 * minute is vouched for at a later page; a script minting identities from one address gets ten a
 * minute, each of which counts toward the per-address cap of a chart (decision 032).
 */
export const visitorVoucher = createMiddleware<WorkerEnv>(async (c, next) => {
  const edge = c.get("edge");
  const keys = visitorVoucherKeysOf(c.get("isolate").config);
  if (
    keys &&
    edge.webId !== undefined &&
    !edge.isBot &&
    !edge.isAmp &&
    !isCurrentVoucher(keys, edge.webIdVoucher)
  ) {
    const address = clientAddressKey(c.req.header("cf-connecting-ip") ?? "unknown");
    const { success } = await c.env.VISITOR_ID_LIMIT.limit({ key: `visitor-ids:${address}` });
    if (success) edge.setCookies.push(webIdVoucherCookie(await voucherOf(keys, edge.webId), edge.secure));
  }
  await next();
});
