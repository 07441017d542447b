// `npm run catalog`: builds the catalogue (origin/catalog/dist/, public/media/). See builder.ts.
import { buildCatalog } from "./builder";

await buildCatalog();
