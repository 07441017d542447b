import { describe, expect, test } from "vitest";
import { sessionStartOf } from "./d1-session";

// Decision 062: where a request's D1 session starts, by its method and the bookmark it brings.

describe("where a request's D1 session starts", () => {
  const bookmark = "00000085-0000024c-00004c6d-8e61117bf38d7adb71b934ebbf891683";

  test.each([
    { case: "an anonymous read", method: "GET", cookie: undefined, start: "first-unconstrained" },
    { case: "a HEAD", method: "HEAD", cookie: "lang=de", start: "first-unconstrained" },
    {
      case: "a read with a bookmark",
      method: "GET",
      cookie: `lang=de; tw_bookmark=${bookmark}`,
      start: bookmark,
    },
    {
      case: "a read with a hostile bookmark",
      method: "GET",
      cookie: `tw_bookmark=${"f".repeat(500)}`,
      start: "first-unconstrained",
    },
    {
      case: "a read with a bookmark of wrong characters",
      method: "GET",
      cookie: "tw_bookmark=a%3Bb",
      start: "first-unconstrained",
    },
    { case: "a write", method: "POST", cookie: undefined, start: "first-primary" },
    {
      case: "a write with a bookmark",
      method: "DELETE",
      cookie: `tw_bookmark=${bookmark}`,
      start: "first-primary",
    },
  ])("$case: $start", ({ method, cookie, start }) => {
    expect(sessionStartOf(method, cookie)).toBe(start);
  });
});
