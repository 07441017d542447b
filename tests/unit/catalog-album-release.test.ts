import { expect, test } from "vitest";
import { albumRelease } from "#origin/catalog/entities.ts";

// One release date for an album and all its tracks (decision 010): what a track page and its album
// page both show.

const track = (year: number | undefined, addedDate = "2023-01-12") => ({ recording: { year }, addedDate });

test.each([
  {
    case: "every track tagged with one year (warzone's album.json date): that year",
    tracks: [track(1999), track(1999), track(1999)],
    release: { date: "1999-01-01", precision: "year" },
  },
  {
    case: "tracks tagged with different years (wesnoth's OST): the newest, not each track's own",
    tracks: [track(2004), track(2012), track(2008)],
    release: { date: "2012-01-01", precision: "year" },
  },
  {
    case: "some tracks without a year: the tagged years still date the album",
    tracks: [track(undefined, "2023-04-20"), track(2007)],
    release: { date: "2007-01-01", precision: "year" },
  },
  {
    case: "no year anywhere (a single): the day its package entered Debian",
    tracks: [track(undefined, "2023-04-20")],
    release: { date: "2023-04-20", precision: "day" },
  },
  {
    case: "no year anywhere, packages added on different days: the latest",
    tracks: [track(undefined, "2021-02-03"), track(undefined, "2023-04-20")],
    release: { date: "2023-04-20", precision: "day" },
  },
])("$case", ({ tracks, release }) => {
  expect(albumRelease(tracks)).toEqual(release);
});
