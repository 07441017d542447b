import type { BeaconParams } from "#rules/beacon-params.ts";

/**
 * Spec 000 §7 "GET to a DNS health endpoint: reports its status code; body not shown". Once per
 * document, after start-up, the browser asks the services' health address and reports the status
 * it got as a statistic (0 when no answer came: the name did not resolve or the network failed),
 * so a visitor who reaches the pages but not the services shows up in the numbers.
 */
export const dnsHealthPath = "/services/health";
export const dnsHealthId = "global.dnshealth";

export async function reportDnsHealth(
  fetchHealth: (path: string) => Promise<{ status: number }>,
  send: (params: BeaconParams) => unknown,
  /** The page the document started on: its per-page metric route is `web.userevent.{screenname}`. */
  screenname: string,
): Promise<number> {
  const status = await fetchHealth(dnsHealthPath).then(
    (response) => response.status,
    () => 0,
  );
  await send({
    beaconType: "userevent",
    beaconId: dnsHealthId,
    status_code: status,
    errorcode: status === 0 ? "network" : undefined,
    screenname,
  });
  return status;
}
