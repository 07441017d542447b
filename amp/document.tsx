import type { MetaDescriptor } from "@remix-run/cloudflare";
import type { ReactElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import type { RootData } from "#app/shell/root-data.server.ts";
import { type Strings, StringsProvider } from "#app/shell/strings.ts";
import { themeColourMetas } from "#app/shell/theme-colours.ts";
import { PrimitivesProvider } from "#app/ui/primitives.tsx";
import { scriptJsonText } from "#rules/script-json.ts";
import { AmpChrome } from "./chrome";
import { ampCss, type CssBudget, checkCssBudget, classesOf, inlineStylesOf } from "./css";
import { ampPrimitives } from "./primitives";
import { safeHref } from "./safe";

/** The AMP runtime: the one script an AMP page loads. */
export const ampRuntimeUrl = "https://cdn.ampproject.org/v0.js";

/** AMP's required boilerplate, character for character (https://amp.dev/documentation/guides-and-tutorials/learn/spec/amp-boilerplate). */
export const ampBoilerplate =
  "<style amp-boilerplate>body{-webkit-animation:-amp-start 8s steps(1,end) 0s 1 normal both;-moz-animation:-amp-start 8s steps(1,end) 0s 1 normal both;-ms-animation:-amp-start 8s steps(1,end) 0s 1 normal both;animation:-amp-start 8s steps(1,end) 0s 1 normal both}@-webkit-keyframes -amp-start{from{visibility:hidden}to{visibility:visible}}@-moz-keyframes -amp-start{from{visibility:hidden}to{visibility:visible}}@-ms-keyframes -amp-start{from{visibility:hidden}to{visibility:visible}}@-o-keyframes -amp-start{from{visibility:hidden}to{visibility:visible}}@keyframes -amp-start{from{visibility:hidden}to{visibility:visible}}</style><noscript><style amp-boilerplate>body{-webkit-animation:none;-moz-animation:none;-ms-animation:none;animation:none}</style></noscript>";

/** AMP's viewport: the width of the device, no zoom below 1. */
const ampViewport = "width=device-width,minimum-scale=1,initial-scale=1";

export type AmpDocument = { html: string; css: CssBudget };

function escapeAttribute(value: string): string {
  return value
    .replaceAll("&", "&amp;")
    .replaceAll('"', "&quot;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;");
}

/** Links an AMP page must not carry: itself as its AMP form, and preloads (AMP loads images itself). */
const droppedLinkRels = new Set(["amphtml", "preload"]);

function attributeValue(value: unknown): string {
  if (typeof value !== "string") throw new Error(`AMP head: attribute value ${String(value)}`);
  return value;
}

/**
 * Remix meta descriptors as head elements, the way Remix's `<Meta>` renders them: `<title>`,
 * `<meta name|property content>`, `<link …>` and JSON-LD. A descriptor of another shape fails
 * loudly rather than going missing on one of the two forms of the page.
 */
function HeadTags({ descriptors }: { descriptors: readonly MetaDescriptor[] }) {
  return (
    <>
      {descriptors.map((descriptor, index) => {
        const key = String(index);
        if ("title" in descriptor) return <title key={key}>{attributeValue(descriptor.title)}</title>;
        if ("script:ld+json" in descriptor) {
          return (
            <script
              key={key}
              type="application/ld+json"
              // biome-ignore lint/security/noDangerouslySetInnerHtml: JSON with <, > and & escaped (scriptJsonText).
              dangerouslySetInnerHTML={{ __html: scriptJsonText(descriptor["script:ld+json"]) }}
            />
          );
        }
        if ("tagName" in descriptor && descriptor.tagName === "link") {
          const rel = attributeValue(descriptor.rel);
          if (droppedLinkRels.has(rel)) return null;
          return <link key={key} rel={rel} href={safeHref(attributeValue(descriptor.href))} />;
        }
        if ("name" in descriptor && "content" in descriptor) {
          return (
            <meta
              key={key}
              name={attributeValue(descriptor.name)}
              content={attributeValue(descriptor.content)}
            />
          );
        }
        if ("property" in descriptor && "content" in descriptor) {
          return (
            <meta
              key={key}
              property={attributeValue(descriptor.property)}
              content={attributeValue(descriptor.content)}
            />
          );
        }
        if ("charSet" in descriptor) return null;
        throw new Error(
          `AMP head: a meta descriptor AMP does not render: ${Object.keys(descriptor).join(", ")}`,
        );
      })}
    </>
  );
}

/**
 * A whole AMP document: `<html amp>`, the charset, the runtime, the React page's head (title,
 * social meta, JSON-LD; canonical and hreflang alternates from the root's data), the boilerplate,
 * one `<style amp-custom>` with the CSS rules the markup can use, and the page's view in the site's
 * chrome, drawn with the AMP primitives. Rendered to static markup: no React markers, no script
 * but the runtime and JSON-LD, no event handler.
 */
export function renderAmpDocument({
  root,
  descriptors,
  view,
  stylesheets,
  strings,
}: {
  root: RootData;
  /** The page's head, as its route's `meta` gives it to Remix's `<Meta>`. */
  descriptors: readonly MetaDescriptor[];
  /** The page's view (the same component the React page renders). */
  view: ReactElement;
  /** The CSS texts the React page links, then AMP's own. */
  stylesheets: readonly string[];
  /** The page's strings: what its view and the chrome look up. */
  strings: Strings;
}): AmpDocument {
  const head = renderToStaticMarkup(
    <>
      <HeadTags descriptors={descriptors} />
      <link rel="canonical" href={root.canonical} />
      {root.alternates.map((alternate) => (
        <link key={alternate.hreflang} rel="alternate" hrefLang={alternate.hreflang} href={alternate.href} />
      ))}
    </>,
  );
  const body = renderToStaticMarkup(
    <StringsProvider strings={strings}>
      <PrimitivesProvider primitives={ampPrimitives}>
        <AmpChrome root={root}>{view}</AmpChrome>
      </PrimitivesProvider>
    </StringsProvider>,
  );
  const { css } = ampCss(stylesheets, classesOf(body));
  const budget = checkCssBudget(css, inlineStylesOf(body));
  const html = [
    "<!doctype html>",
    `<html amp lang="${escapeAttribute(root.locale)}" dir="${escapeAttribute(root.dir)}">`,
    "<head>",
    '<meta charset="utf-8">',
    `<meta name="viewport" content="${ampViewport}">`,
    ...themeColourMetas.map(
      (meta) =>
        `<meta name="theme-color" media="${escapeAttribute(meta.media)}" content="${escapeAttribute(meta.content)}">`,
    ),
    `<link rel="manifest" href="${escapeAttribute(root.manifest)}">`,
    `<script async src="${ampRuntimeUrl}"></script>`,
    head,
    ampBoilerplate,
    `<style amp-custom>${css}</style>`,
    "</head>",
    `<body>${body}</body>`,
    "</html>",
  ].join("\n");
  return { html, css: budget };
}
