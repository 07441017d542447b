/** How to run the example from a checkout of the project. */
export const developerKitExampleCommand = "npx vite-node tools/developer-kit/example.ts recording.wav";

/** The command-line recogniser (docs/recognize-cli.md). */
export const recognizeCommand = "npm run recognize -- --site https://your-site.example recording.wav";
