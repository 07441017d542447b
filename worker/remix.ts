import * as build from "@remix-run/dev/server-build";
import { createRequestHandler } from "@remix-run/server-runtime";

/** The Remix app as built, created once per isolate, not per request. */
export const handleRemixRequest = createRequestHandler(build);

/** The build's version: documents and the embedded origin's answers are this build's. */
export const buildVersion = build.assets.version;
