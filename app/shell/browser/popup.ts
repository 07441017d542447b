/**
 * A popup window of this site's (the login popup, the streaming connect popup): opened centred over
 * the page, and its callback page tells the page that opened it how it went.
 */

/** Opens `url` in a popup window of `size`, centred over the page; null when the browser blocked it. */
export function openCenteredPopup(
  view: Window,
  url: string,
  name: string,
  size: { width: number; height: number },
): Window | null {
  const { width, height } = size;
  const left = Math.max(0, Math.round(view.screenX + (view.outerWidth - width) / 2));
  const top = Math.max(0, Math.round(view.screenY + (view.outerHeight - height) / 2));
  return view.open(url, name, `popup,width=${width},height=${height},left=${left},top=${top}`);
}

/**
 * From the callback page in the popup: posts `message` to the opener (this site's origin only) and
 * closes after `closeAfterMs`. False when there is no opener to tell (the page stays).
 */
export function tellOpener(view: Window, message: { type: string }, closeAfterMs: number): boolean {
  const opener = view.opener as Window | null;
  if (!opener || opener.closed) return false;
  opener.postMessage(message, view.location.origin);
  view.setTimeout(() => view.close(), closeAfterMs);
  return true;
}
