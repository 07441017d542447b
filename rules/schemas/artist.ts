import * as v from "valibot";
import { digitsSchema, hexColourSchema } from "./common";
import { shareSchema } from "./track";

/** `GET /services/artist/v1/{lang}/{country}/{web|iphone}/{artistId}` (spec 001 §3 Artist). */
export const artistSchema = v.object({
  id: digitsSchema,
  adamid: digitsSchema,
  name: v.string(),
  alias: v.string(),
  avatar: v.string(),
  /** The avatar in every size: replace {w} and {h} (200 to 800 step 200). */
  avatarTemplate: v.string(),
  url: v.string(),
  weburl: v.string(),
  share: shareSchema,
  layout: v.string(),
  genres: v.object({ primary: v.string() }),
  bio: v.string(),
  bkgcolor: hexColourSchema,
});

export type Artist = v.InferOutput<typeof artistSchema>;
