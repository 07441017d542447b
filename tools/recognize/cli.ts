// `npm run recognize -- [options] <file>...`: see tools/recognize/args.ts for the usage.
import { main } from "./recognize";

process.exitCode = await main(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  // npm runs scripts in the project's root; file names are the caller's, relative to where npm was run.
  cwd: process.env.INIT_CWD ?? process.cwd(),
});
