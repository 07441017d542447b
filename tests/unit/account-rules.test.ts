import { describe, expect, test } from "vitest";
import {
  bookmarkCookie,
  expiredSessionCookie,
  isValidEmail,
  readAccountCookies,
  safeRedirectPath,
  sessionCookie,
} from "#rules/account.ts";

describe("spec 000 §5 e-mail rule", () => {
  test.each([
    ["ana@example.com"],
    ["Ana.Maria+tunes@example.co.uk"],
    ["o'connor@example.ie"],
    ["x@a.io"],
    [`${"a".repeat(64)}@example.com`],
    [`ana@${"b".repeat(63)}.com`],
    ["user_name-1@sub-domain.example.org"],
  ])("%j is an address", (address) => {
    expect(isValidEmail(address)).toBe(true);
  });

  test.each([
    [""],
    ["plainaddress"],
    ["@example.com"],
    ["ana@"],
    ["ana@example"],
    ["ana@@example.com"],
    ["ana example@example.com"],
    [".ana@example.com"],
    ["ana.@example.com"],
    ["an..a@example.com"],
    ["ana@-example.com"],
    ["ana@example-.com"],
    ["ana@example..com"],
    [`${"a".repeat(65)}@example.com`],
    [`ana@${"b".repeat(64)}.com`],
    // 255 characters in all.
    [`${"a".repeat(60)}@${"b".repeat(63)}.${"c".repeat(63)}.${"d".repeat(63)}.com`],
    ["ana@exam_ple.com"],
    ["<ana@example.com>"],
    ["ana(comment)@example.com"],
    ["ana@[127.0.0.1]"],
  ])("%j is not", (address) => {
    expect(isValidEmail(address)).toBe(false);
  });
});

describe("the return path after sign-in", () => {
  test.each([
    ["/charts", "/charts"],
    ["/de/track/1/song?x=1#lyrics", "/de/track/1/song?x=1#lyrics"],
    ["/", "/"],
    ["/search?term=%2F%2Fevil", "/search?term=%2F%2Fevil"],
    ["/search?term=//evil.example", "/search?term=//evil.example"],
    // Normalised before it is used: dot segments resolve, and the answer is the resolved path.
    ["/a/../charts", "/charts"],
    ["/./charts", "/charts"],
    ["/%2e/charts", "/charts"],
    ["/track/1/AC%2FDC", "/track/1/AC%2FDC"],
    ["/artist/caf%C3%A9", "/artist/caf%C3%A9"],
  ])("%j stays %j", (input, expected) => {
    expect(safeRedirectPath(input)).toBe(expected);
  });

  test.each([
    [null],
    [""],
    ["charts"],
    ["//evil.example"],
    ["///evil.example"],
    ["https://evil.example"],
    ["http:evil.example"],
    ["javascript:alert(1)"],
    ["/\\evil.example"],
    ["\\/evil.example"],
    ["/%2F%2Fevil.example"],
    ["/%2fevil.example"],
    ["/%5Cevil.example"],
    ["/\t/evil.example"],
    ["/\n/evil.example"],
    [`/${"a".repeat(2048)}`],
    // Decision 030, finding 4: dot segments that resolve to "//host" after the check ran.
    ["/.//evil.example"],
    ["/%2e//evil.example"],
    ["/%2E//evil.example"],
    ["/a/..//evil.example"],
    ["/a/%2e%2e//evil.example"],
    ["/a/%2E%2e//evil.example"],
    ["/./\\evil.example"],
    ["/..//evil.example"],
    ["/.%2f/evil.example"],
    ["/%2e%2f/evil.example"],
    // Double encoding: a reader that decodes once more would find "//host".
    ["/%252f%252fevil.example"],
    ["/%252F/evil.example"],
    ["/%25252f%25252fevil.example"],
    ["/%255c%255cevil.example"],
    ["/a/%252e%252e//evil.example"],
    // Tabs, newlines and backslashes, raw or encoded, anywhere in the path.
    ["/\t/evil.example"],
    ["/%09/evil.example"],
    ["/%0a/evil.example"],
    ["/%5c/evil.example"],
    ["/a/%5c%5cevil.example"],
    ["/%E0%A4%A"],
    ["/\u0000/evil.example"],
  ])("%j is refused", (input) => {
    expect(safeRedirectPath(input)).toBeUndefined();
  });
});

describe("the session cookie", () => {
  test("opaque, HttpOnly, Lax, Secure on https, 30 days; temporary without Max-Age", () => {
    const value = "A".repeat(43);
    expect(sessionCookie(value, true)).toBe(
      `tw_session=${value}; Max-Age=2592000; Path=/; SameSite=Lax; Secure; HttpOnly`,
    );
    expect(sessionCookie(value, false, false)).toBe(`tw_session=${value}; Path=/; SameSite=Lax; HttpOnly`);
    expect(expiredSessionCookie(false)).toBe("tw_session=; Max-Age=0; Path=/; SameSite=Lax; HttpOnly");
  });

  test("only values the service could have issued are read", () => {
    const token = "b".repeat(43);
    expect(readAccountCookies(`tw_session=${token}; tw_device=short`)).toEqual({
      session: token,
      device: undefined,
    });
    expect(readAccountCookies("tw_session=<script>")).toEqual({ session: undefined, device: undefined });
  });
});

describe("the bookmark cookie (decision 062)", () => {
  // The shape D1 documents for a bookmark.
  const bookmark = "00000085-0000024c-00004c6d-8e61117bf38d7adb71b934ebbf891683";

  test("HttpOnly, Lax, Secure on https, two minutes", () => {
    expect(bookmarkCookie(bookmark, true)).toBe(
      `tw_bookmark=${bookmark}; Max-Age=120; Path=/; SameSite=Lax; Secure; HttpOnly`,
    );
  });

  test.each([
    { case: "D1's shape", value: bookmark, read: bookmark },
    { case: "128 characters", value: "a".repeat(128), read: "a".repeat(128) },
    { case: "129 characters", value: "a".repeat(129), read: undefined },
    { case: "a quote", value: "0000-'or'1'='1", read: undefined },
    { case: "markup, URL-encoded", value: "%3Cscript%3E", read: undefined },
    { case: "a space, URL-encoded", value: "0000%200000", read: undefined },
    { case: "empty", value: "", read: undefined },
  ])("a bookmark of $case is read as $read", ({ value, read }) => {
    expect(readAccountCookies(`tw_bookmark=${value}`).bookmark).toBe(read);
  });
});
