import { describe, expect, test } from "vitest";
import type { ShareData } from "#app/bridge/bridge-schema.ts";
import { shareDataOf, shareTargets } from "#app/ui/browser/share-targets.ts";

const href = "https://www.tunewave.example/track/40333609/song";

function targetsOf(share: ShareData) {
  const { twitter, email } = shareTargets(share);
  const tweet = new URL(twitter);
  const mail = /^mailto:\?subject=([^&]*)&body=(.*)$/.exec(email);
  return {
    tweetAt: `${tweet.origin}${tweet.pathname}`,
    tweetText: tweet.searchParams.get("text"),
    tweetUrl: tweet.searchParams.get("url"),
    subject: mail ? decodeURIComponent(mail[1] ?? "") : undefined,
    body: mail ? decodeURIComponent(mail[2] ?? "") : undefined,
  };
}

describe("share targets (spec 002 §9: twitter and email)", () => {
  test.each([
    ["title only", { href, title: "Song" }, { tweetText: "Song", subject: "Song", body: `Song\n\n${href}` }],
    [
      "text: the tweet and the mail body",
      { href, title: "Song", text: "I found Song" },
      { tweetText: "I found Song", subject: "Song", body: `I found Song\n\n${href}` },
    ],
    [
      "twitter text wins for the tweet only, subject for the mail",
      { href, title: "Song", text: "I found Song", twitter: "Song by Band #tunewave", subject: "Listen" },
      { tweetText: "Song by Band #tunewave", subject: "Listen", body: `I found Song\n\n${href}` },
    ],
    [
      "characters that need encoding survive both",
      { href: `${href}?a=1&b=2`, title: "Rock & Roll = 100% ?", text: "Ça va #1" },
      { tweetText: "Ça va #1", subject: "Rock & Roll = 100% ?", body: `Ça va #1\n\n${href}?a=1&b=2` },
    ],
  ] as const)("%s", (_name, share, expected) => {
    const targets = targetsOf(share);
    expect(targets).toEqual({
      tweetAt: "https://twitter.com/intent/tweet",
      tweetUrl: share.href,
      ...expected,
    });
  });
});

describe("share data from the location state", () => {
  const share = { href, title: "Song", subtitle: "Band" };

  test.each([
    ["the share-sheet command's state", { share }, share],
    ["unknown extra fields are dropped", { share: { ...share, colour: "red" }, from: "x" }, share],
    ["no state (opened directly, JavaScript off)", null, undefined],
    ["another page's state", { scroll: 10 }, undefined],
    ["a link that is not http(s)", { share: { href: "javascript:alert(1)", title: "x" } }, undefined],
    ["no title", { share: { href } }, undefined],
    ["a blank title", { share: { href, title: "   " } }, undefined],
    ["a string", "share", undefined],
  ] as const)("%s", (_name, state, expected) => {
    expect(shareDataOf(state)).toEqual(expected);
  });
});
