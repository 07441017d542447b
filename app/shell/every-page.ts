// The site's code every page's first visit loads, in one chunk (decision 027, part 6).
//
// esbuild puts the modules that the same set of entry points (root, each route module, each
// dynamic import) reaches through static imports in one chunk. The shell's modules are reached by
// root and each by a different set of routes, so each was a chunk of its own: eight requests on
// every page for 9 KB, each gzipped on its own. Each of them imports this module, and this module
// imports each of them: whatever reaches one reaches all, so they are one chunk. A new module
// every page loads joins the list here and imports this module back.
import "#app/search/search-form.tsx";
import "#app/shell/error-page.tsx";
import "#app/shell/meta.ts";
import "#app/shell/root-data.ts";
import "#app/shell/runtime.tsx";
import "#app/shell/strings.ts";
import "#app/ui/primitives.tsx";
