/**
 * Global Privacy Control: a visitor whose browser sends `Sec-GPC: 1` (or says
 * `navigator.globalPrivacyControl === true` in the page) asks not to be tracked. Such a visitor
 * gets no identifier cookie or storage and beacons carry no visitor id (decision 032).
 */
export function asksNotToBeTracked(signal: { header?: string | null; navigatorFlag?: unknown }): boolean {
  // The header's only meaningful value is "1" (GPC §3.1); anything else is no signal.
  return signal.header?.trim() === "1" || signal.navigatorFlag === true;
}
