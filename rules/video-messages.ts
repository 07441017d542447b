/**
 * The mark on every postMessage between the track page's video player (app/track/browser/video-player.ts)
 * and the video site's embed page (origin/routes/video.ts): each side ignores messages without it.
 */
export const videoMessageSource = "tunewave-video";
