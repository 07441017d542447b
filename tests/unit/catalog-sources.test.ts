import { expect, test } from "vitest";
import { classifyLicence, copyrightLicence, globMatches } from "../../origin/catalog/sources";
import { insertStatements, splitSeed, sqlValue } from "../../origin/catalog/sql";

test.each([
  [
    "License:\n  This program is free software; you can redistribute it and/or modify\n  it under the terms of the GNU General Public License version 2\n  or at your option any later version.",
    "GPL-2+",
  ],
  [
    "'Warzone 2100 - Legacy Soundtrack' is licensed and available under:\nCC-BY-SA-3.0 (or, at your discretion, any later version)\n\nAlternatively, it may be used & distributed under the terms of\nthe GNU General Public License Version 2 or later (the \"GPL\").",
    "CC-BY-SA-3.0+ OR GPL-2+",
  ],
  ["Licensed under the GNU General Public License version 3.", "GPL-3"],
  ["Released into the public domain with CC0.", "CC0-1.0"],
  ["All rights reserved.", ""],
])("classifyLicence names %#", (text, licence) => {
  expect(classifyLicence(text)).toBe(licence);
});

const dep5 = `Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/
Upstream-Name: Example

Files: *
Copyright: 1999-2004, Example Interactive
License: GPL-2+
 See /usr/share/common-licenses/GPL-2.

Files: data/base/texpages/*.png
Copyright: 2009 Someone Else
License: CC0

Files: data/music/albums/special/*
Copyright: 2020 A Composer
License: CC-BY-SA-3.0
`;

test.each([
  ["data/music/albums/legacy/track4.opus", "GPL-2+", "1999-2004, Example Interactive"],
  ["data/base/texpages/page-1.png", "CC0", "2009 Someone Else"],
  ["data/music/albums/special/track1.opus", "CC-BY-SA-3.0", "2020 A Composer"],
])("a DEP-5 copyright file answers %s with the last matching paragraph", (file, licence, copyright) => {
  expect(copyrightLicence(dep5)(file)).toEqual({ licence, copyright });
});

test("a free-form copyright file answers its first licence for every file", () => {
  const text = `Upstream Author: Someone\n\nCopyright (C) 2003 - 2009 by Someone <a@b.c>\n\nLicense:\n  GNU General Public License version 2\n  or at your option any later version.\n`;
  expect(copyrightLicence(text)("data/core/music/x.ogg")).toEqual({
    licence: "GPL-2+",
    copyright: "2003 - 2009 by Someone <a@b.c>",
  });
});

test.each([
  ["*", "a/b/c.ogg", true],
  ["data/*.png", "data/x/y.png", true],
  ["data/?.png", "data/ab.png", false],
  ["icons/app.xml", "icons/app.xml", true],
  ["icons/app.xml", "icons/appxxml", false],
])("glob %s matches %s: %s", (glob, file, matches) => {
  expect(globMatches(glob, file)).toBe(matches);
});

test.each([
  [null, "NULL"],
  [undefined, "NULL"],
  [true, "1"],
  [42, "42"],
  ["it's", "'it''s'"],
  ["a\nb", "'a' || char(10) || 'b'"],
])("sqlValue(%j) is %s", (value, sql) => {
  expect(sqlValue(value)).toBe(sql);
});

test("a non-finite number cannot be written", () => {
  expect(() => sqlValue(Number.NaN)).toThrow();
});

test("inserts are chunked, one statement per line, and split back", () => {
  const rows = Array.from({ length: 5 }, (_, i) => [i, `name ${i}\nsecond line`]);
  const statements = insertStatements("t", ["id", "name"], rows, 2);
  expect(statements).toHaveLength(3);
  expect(statements.every((s) => !s.includes("\n") && s.startsWith("INSERT INTO t (id,name) VALUES "))).toBe(
    true,
  );
  expect(splitSeed(`-- header\n${statements.join("\n")}\n\n`)).toEqual(statements);
  expect(() => insertStatements("t", ["id"], [[1, 2]])).toThrow(/2 values for 1 columns/);
});
