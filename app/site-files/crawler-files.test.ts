import { expect, test } from "vitest";
import { robotsTxt, securityTxt, securityTxtLifetimeDays } from "#app/site-files/crawler-files.ts";

test("robots.txt names the sitemap index and keeps private paths out in every language", () => {
  const text = robotsTxt("https://tunewave.test");
  expect(text.startsWith("User-agent: *\n")).toBe(true);
  expect(text).toContain("\nSitemap: https://tunewave.test/sitemap.xml\n");
  for (const prefix of ["", "/de", "/pt-br", "/zh-tw"]) {
    for (const path of ["/secure/", "/dev/", "/login", "/logout", "/validate-email", "/search", "/share"]) {
      expect(text, `${prefix}${path}`).toContain(`\nDisallow: ${prefix}${path}\n`);
    }
  }
  expect(text).not.toContain("Disallow: /en/");
  expect(text).not.toMatch(/Disallow: \/(amp|services|build|track|artist|charts)/);
});

test("security.txt has a contact, an expiry under a year from the build, a language and its canonical URL", () => {
  const builtAt = new Date("2025-01-01T00:00:00Z");
  expect(securityTxt("https://www.tunewave.test", builtAt)).toBe(
    [
      "Contact: mailto:security@tunewave.test",
      "Expires: 2025-06-30T00:00:00Z",
      "Preferred-Languages: en",
      "Canonical: https://www.tunewave.test/.well-known/security.txt",
      "",
    ].join("\n"),
  );
  expect(securityTxtLifetimeDays).toBeLessThan(365);
});
