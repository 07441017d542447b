import { expect, test } from "vitest";
import { readableTitle } from "#origin/catalog/scan.ts";
import {
  chosenPackages,
  classifyLicence,
  copyrightLicence,
  globMatches,
  isFreeLicence,
  tagLicence,
} from "#origin/catalog/sources.ts";
import { insertStatements, splitSeed, sqlValue } from "#origin/catalog/sql.ts";

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

// hedgewars-data's shape: a Copyright field that starts on the line after its name.
const laterLine = `Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/

Files: *
Copyright:
        2004-2018 Andrey Korotaev <unC0Rr@gmail.com>
        2006-2008 Igor Ulyanov
License: GPL-2

Files: share/hedgewars/Data/Sounds/*
Copyright:
        2004, 2005, 2006 Andrey Korotaev <unC0Rr@gmail.com>
License: GFDL-1.3
`;

test.each([
  ["share/hedgewars/Data/Music/Art.ogg", "GPL-2", "2004-2018 Andrey Korotaev <unC0Rr@gmail.com>"],
  ["share/hedgewars/Data/Sounds/bump.ogg", "GFDL-1.3", "2004, 2005, 2006 Andrey Korotaev <unC0Rr@gmail.com>"],
])("a DEP-5 file answers %s with its paragraph's first copyright holder", (file, licence, copyright) => {
  expect(copyrightLicence(laterLine)(file)).toEqual({ licence, copyright });
});

test.each([
  ["http://creativecommons.org/licenses/by-sa/3.0/", "CC-BY-SA-3.0"],
  ["https://creativecommons.org/licenses/by/4.0/", "CC-BY-4.0"],
  ["https://creativecommons.org/publicdomain/zero/1.0/", "CC0-1.0"],
  ["https://creativecommons.org/licenses/by-nc-sa/3.0/", ""],
  ["GNU General Public License version 3", "GPL-3"],
  ["", ""],
  [undefined, ""],
])("tagLicence(%j) is %j", (tag, licence) => {
  expect(tagLicence(tag)).toBe(licence);
});

test.each([
  ["GPL-2", true],
  ["GPL-2+", true],
  ["GPL-3+", true],
  ["CC-BY-SA-3.0", true],
  ["CC-BY-SA-3.0+ OR GPL-2+", true],
  ["GPL-2+ or CC-BY-SA-3.0", true],
  ["CC-BY-4.0", true],
  ["CC0-1.0", true],
  ["CC0", true],
  ["OFL-1.1", true],
  ["CC-BY-NC-SA-3.0", false],
  ["CC-BY-ND-4.0", false],
  ["Drascula-License", false],
  ["GFDL-1.3", false],
  ["unknown", false],
  ["", false],
])("isFreeLicence(%j) is %s", (licence, free) => {
  expect(isFreeLicence(licence)).toBe(free);
});

test.each([
  ["HellFortressEntrance.ogg", "Hell Fortress Entrance"],
  ["usr/share/games/flare/mods/fantasycore/music/safe_room_theme.ogg", "Safe Room Theme"],
  ["forest-cave.ogg", "Forest Cave"],
  ["voc-daytime2.ogg", "Voc Daytime 2"],
  ["music000.ogg", "Music 000"],
  ["EarthRise.ogg", "Earth Rise"],
  ["A New Journey.ogg", "A New Journey"],
  ["menu.opus", "Menu"],
])("readableTitle(%j) is %j", (file, title) => {
  expect(readableTitle(file)).toBe(title);
});

test.each([
  [undefined, ["wesnoth-1.16-music", "warzone2100-music"]],
  ["", ["wesnoth-1.16-music", "warzone2100-music"]],
  [
    " flare-game, freedroidrpg-data ,wesnoth-1.16-music",
    ["wesnoth-1.16-music", "warzone2100-music", "freedroidrpg-data", "flare-game"],
  ],
])("CATALOG_PACKAGES=%j reads %j", (names, chosen) => {
  expect(chosenPackages(names).map((p) => p.name)).toEqual(chosen);
});

test("an unknown package name is an error that lists the known ones", () => {
  expect(() => chosenPackages("flare-game,nexuiz-music")).toThrow(
    /unknown music package "nexuiz-music".*known: wesnoth-1\.16-music, warzone2100-music, freedroidrpg-data, flare-game/,
  );
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
