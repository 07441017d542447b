import { artTrackPosterUrl, artTrackUrl } from "#origin/catalog-rules.ts";
import { tracksByKeys } from "#origin/db/tracks.ts";
import type { OriginApp } from "#origin/env.ts";
import { cachePolicy, invalidParam, notFound } from "#origin/http.ts";
import { isNumericId, servicesPathOf, videoServiceRoot } from "#rules/addresses.ts";
import { escapeHtml } from "#rules/html.ts";
import { videoMessageSource } from "#rules/video-messages.ts";

// The video site the track page's VIDEO section points at (spec 002 §2, §4 "Video"), served by
// the embedded origin as it serves the streaming service's OAuth provider: a watch page and an
// embed page for an iframe, both an HTML5 <video> of the track's art track. The embed page speaks
// the player's postMessage API (embedPlayerScript); the site's page and the embed check each
// other's origin on every message.

function keyOf(segment: string): number {
  if (!isNumericId(segment)) throw invalidParam("The video id must be a track key");
  return Number(segment);
}

/**
 * A host page's policy: its own script file only, pictures and sound from the site; the watch page
 * may be framed by nobody, the embed page by the site only.
 */
function hostPolicy(frameAncestors: string): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'unsafe-inline'",
    "img-src 'self'",
    // The embed page plays the file it fetched whole (embedPlayerScript) from a blob: address.
    "connect-src 'self'",
    "media-src 'self' blob:",
    `frame-ancestors ${frameAncestors}`,
    "base-uri 'none'",
  ].join("; ");
}

function page(body: string, title: string, frameAncestors: string): Response {
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>${escapeHtml(title)}</title></head>${body}</html>`;
  return new Response(html, {
    headers: {
      "Content-Type": "text/html; charset=UTF-8",
      "Cache-Control": cachePolicy.catalogue,
      "Content-Security-Policy": hostPolicy(frameAncestors),
      "X-Content-Type-Options": "nosniff",
      "Referrer-Policy": "strict-origin-when-cross-origin",
    },
  });
}

/**
 * The embed page's script: reports ready/playing/paused/ended with the time and duration to the
 * page that framed it, answers a `state` question, obeys `play` and `pause`. Both directions name
 * the site's origin (the embed's own: the site serves the video host): a message from elsewhere is
 * ignored and none is sent elsewhere.
 */
export const embedPlayerScript = `"use strict";
(() => {
  const video = document.querySelector("video");
  const site = location.origin;
  const framed = window.parent !== window;
  let state = "loading";
  const tell = (event) => {
    if (!framed) return;
    window.parent.postMessage({ source: ${JSON.stringify(videoMessageSource)}, event, state,
      currentTime: video.currentTime, duration: Number.isFinite(video.duration) ? video.duration : 0 }, site);
  };
  const become = (next) => { state = next; tell("state"); };
  video.addEventListener("loadedmetadata", () => { if (state === "loading") become("ready"); });
  video.addEventListener("playing", () => become("playing"));
  video.addEventListener("pause", () => { if (!video.ended) become("paused"); });
  video.addEventListener("ended", () => become("ended"));
  video.addEventListener("timeupdate", () => tell("time"));
  window.addEventListener("message", (message) => {
    if (message.origin !== site || message.source !== window.parent) return;
    const command = message.data && message.data.source === ${JSON.stringify(videoMessageSource)} ? message.data.command : undefined;
    if (command === "play") video.play().catch(() => become("paused"));
    else if (command === "pause") video.pause();
    else if (command === "state") tell("state");
  });
  // The site's static files answer a Range request with the whole file, and Chromium cannot seek
  // in a video served so: the file (an art track is under 1 MB) is fetched whole and played from
  // memory, where every key frame is reachable.
  fetch(video.dataset.src)
    .then((answer) => (answer.ok ? answer.blob() : Promise.reject(new Error(String(answer.status)))))
    .then((file) => {
      video.src = URL.createObjectURL(file);
      if (new URLSearchParams(location.search).get("autoplay") === "1") video.play().catch(() => {});
    })
    .catch(() => become("error"));
})();
`;

export function registerVideo(origin: OriginApp) {
  origin.get(`${videoServiceRoot}/player.js`, () => {
    return new Response(embedPlayerScript, {
      headers: {
        "Content-Type": "text/javascript; charset=UTF-8",
        "Cache-Control": cachePolicy.catalogue,
        "X-Content-Type-Options": "nosniff",
      },
    });
  });

  origin.get(`${videoServiceRoot}/:kind{watch|embed}/:id`, async (c) => {
    const key = keyOf(c.req.param("id"));
    const autoplay = c.req.query("autoplay");
    if (autoplay !== undefined && autoplay !== "0" && autoplay !== "1")
      throw invalidParam("autoplay must be 0 or 1");
    const [row] = await tracksByKeys(c.var.db, [key]);
    if (!row) throw notFound(`No video ${key}`);
    const title = `${row.title} — ${row.artist_name} (art track)`;
    const kind = c.req.param("kind");
    // The embed page's script loads the file (embedPlayerScript); the watch page needs no script.
    const video = `<video ${kind === "embed" ? "data-src" : "src"}="${artTrackUrl(key)}" poster="${artTrackPosterUrl(key)}" controls playsinline preload="metadata" width="520" height="280"${autoplay === "1" ? " autoplay" : ""}></video>`;
    if (kind === "embed") {
      return page(
        `<body style="margin:0;background:#000"><style>video{display:block;width:100vw;height:100vh;object-fit:contain}</style>${video}<script src="${servicesPathOf(`${videoServiceRoot}/player.js`)}"></script></body>`,
        title,
        "'self'",
      );
    }
    return page(
      `<body style="margin:0 auto;max-width:520px;padding:16px;font:16px/1.5 system-ui,sans-serif;background:#111;color:#eee"><style>video{width:100%;height:auto}</style><h1 style="font-size:1.25rem">${escapeHtml(title)}</h1>${video}<p>The cover of this recording over its 30-second preview: an art track, not a music video.</p></body>`,
      title,
      "'none'",
    );
  });
}
