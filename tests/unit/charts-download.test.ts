import { describe, expect, test } from "vitest";
import { chartFileName } from "#app/charts/chart-download.server.ts";
import { csvField, toCsv } from "#rules/csv.ts";

describe("csvField (RFC 4180 quoting, OWASP formula neutralising)", () => {
  test.each([
    ["plain text", "Weight of Revenge", "Weight of Revenge"],
    ["empty", "", ""],
    ["a comma", "Hello, World", '"Hello, World"'],
    ["a quote", 'The "Best" Song', '"The ""Best"" Song"'],
    ["only quotes", '""', '""""""'],
    ["a line feed", "one\ntwo", '"one\ntwo"'],
    ["a carriage return inside", "one\rtwo", '"one\rtwo"'],
    ["a CRLF", "one\r\ntwo", '"one\r\ntwo"'],
    ["a formula", "=SUM(A1:A2)", "'=SUM(A1:A2)"],
    ["a plus", "+44 Song", "'+44 Song"],
    ["a minus", "-Intro-", "'-Intro-"],
    ["an at sign", "@handle", "'@handle"],
    ["a leading tab", "\tIndented", "'\tIndented"],
    ["a leading carriage return", "\rStart", '"\'\rStart"'],
    ["a formula with a comma", '=HYPERLINK("x","y")', '"\'=HYPERLINK(""x"",""y"")"'],
    ["an inner equals sign", "a=b", "a=b"],
    ["non-ASCII", "Sigur Rós – Ágætis byrjun", "Sigur Rós – Ágætis byrjun"],
    ["a semicolon", "a;b", "a;b"],
  ])("%s", (_name, value, expected) => {
    expect(csvField(value)).toBe(expected);
  });

  test.each([
    [1, "1"],
    [200, "200"],
    [-1, "-1"],
    [true, "true"],
    [false, "false"],
  ])("the value %s is written as it is", (value, expected) => {
    expect(csvField(value)).toBe(expected);
  });
});

test("toCsv joins cells with commas and rows with CRLF, ending with a line break", () => {
  expect(
    toCsv([
      ["rank", "title"],
      [1, "A, B"],
      [2, 'Say "hi"'],
    ]),
  ).toBe('rank,title\r\n1,"A, B"\r\n2,"Say ""hi"""\r\n');
});

test.each([
  ["/top-200/world", "csv", "tunewave-top-200-world.csv"],
  ["/top-50/united-kingdom/london", "json", "tunewave-top-50-united-kingdom-london.json"],
  ["/genre/cote-d-ivoire/hip-hop", "csv", "tunewave-genre-cote-d-ivoire-hip-hop.csv"],
  ['/top-200/a"b;c', "csv", "tunewave-top-200-abc.csv"],
] as const)("the file of %s as %s is %s", (path, format, name) => {
  expect(chartFileName({ path }, format)).toBe(name);
});
