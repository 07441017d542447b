import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

/** A Debian package of freely licensed music the catalogue is built from. */
export type MusicPackage = {
  name: string;
  /** Where the music is installed inside the package. */
  musicDir: string;
  /** The installed path prefix and the source-tree prefix it comes from (for copyright globs). */
  installedPrefix: string;
  sourcePrefix: string;
  /**
   * Who the package credits for its music (the game whose soundtrack it is), named for a recording
   * whose tags name no artist; such a recording's title is its file name made readable. Unset: a
   * recording without tags is skipped (wesnoth's silence.ogg, warzone's menu.opus).
   */
  untaggedArtist?: string;
};

/**
 * Every package the catalogue knows how to read (decision 010 lists each one's music and licence).
 * `npm run catalog` reads the default ones and the extra ones named in `CATALOG_PACKAGES`.
 */
export const musicPackages: readonly MusicPackage[] = [
  {
    name: "wesnoth-1.16-music",
    musicDir: "usr/share/games/wesnoth/1.16/data/core/music",
    installedPrefix: "usr/share/games/wesnoth/1.16/",
    sourcePrefix: "",
  },
  {
    name: "warzone2100-music",
    musicDir: "usr/share/games/warzone2100/music",
    installedPrefix: "usr/share/games/warzone2100/",
    sourcePrefix: "data/",
  },
  {
    name: "freedroidrpg-data",
    musicDir: "usr/share/freedroidrpg/data/sound/music",
    installedPrefix: "usr/share/freedroidrpg/",
    sourcePrefix: "",
    untaggedArtist: "FreedroidRPG",
  },
  {
    name: "flare-game",
    musicDir: "usr/share/games/flare/mods/fantasycore/music",
    installedPrefix: "usr/share/games/flare/",
    sourcePrefix: "",
    untaggedArtist: "Flare",
  },
  {
    name: "supertux-data",
    musicDir: "usr/share/games/supertux2/music",
    installedPrefix: "usr/share/games/supertux2/",
    sourcePrefix: "data/",
    untaggedArtist: "SuperTux",
  },
  {
    name: "hedgewars-data",
    musicDir: "usr/share/games/hedgewars/Data/Music",
    installedPrefix: "usr/share/games/hedgewars/",
    sourcePrefix: "share/hedgewars/",
    untaggedArtist: "Hedgewars",
  },
  {
    name: "singularity-music",
    musicDir: "usr/share/games/singularity/music",
    installedPrefix: "usr/share/games/singularity/",
    sourcePrefix: "",
  },
  {
    name: "planetblupi-music-ogg",
    musicDir: "usr/share/planetblupi/music",
    installedPrefix: "usr/share/planetblupi/",
    sourcePrefix: "",
    untaggedArtist: "Planet Blupi",
  },
];

/** What `npm run catalog` reads without `CATALOG_PACKAGES` (and `npm start`, `npm test`). */
export const defaultPackageNames: readonly string[] = ["wesnoth-1.16-music", "warzone2100-music"];

/**
 * The default packages and the extra ones named in a comma-separated list (`CATALOG_PACKAGES`), in
 * the known list's order; an unknown name is an error that lists the known ones.
 */
export function chosenPackages(extraNames: string | undefined): MusicPackage[] {
  const names = new Set(defaultPackageNames);
  for (const name of (extraNames ?? "").split(",").map((n) => n.trim())) {
    if (!name) continue;
    if (!musicPackages.some((p) => p.name === name))
      throw new Error(
        `unknown music package ${JSON.stringify(name)} in CATALOG_PACKAGES; known: ${musicPackages.map((p) => p.name).join(", ")}`,
      );
    names.add(name);
  }
  return musicPackages.filter((p) => names.has(p.name));
}

/** A folder of audio with what is known of where it came from. */
export type AudioSource = {
  /** Root of the unpacked files. */
  root: string;
  /** Folder of the music under root. */
  musicDir: string;
  binaryPackage: string;
  sourcePackage: string;
  version: string;
  /** Maps a file under root to its licence and copyright. */
  licenceOf: (relativePath: string) => Licence;
  /** See MusicPackage. */
  untaggedArtist?: string;
};

export type Licence = { licence: string; copyright: string };

export function cacheDir(): string {
  const base = process.env.XDG_CACHE_HOME || path.join(os.homedir(), ".cache");
  return path.join(base, "tunewave");
}

function log(message: string) {
  process.stderr.write(`catalog: ${message}\n`);
}

/** The cached .deb of a package, downloaded with apt-get when missing. */
export function ensureDeb(packageName: string): string {
  const debs = path.join(cacheDir(), "debs");
  fs.mkdirSync(debs, { recursive: true });
  const cached = () =>
    fs.readdirSync(debs).find((f) => f.startsWith(`${packageName}_`) && f.endsWith(".deb"));
  const found = cached();
  if (found) return path.join(debs, found);

  const policy = execFileSync("apt-cache", ["policy", packageName], { encoding: "utf8" });
  if (!/Candidate: (?!\(none\))/.test(policy)) {
    log("apt lists are empty or stale: apt-get update");
    execFileSync("apt-get", ["update"], { stdio: "inherit" });
  }
  log(`apt-get download ${packageName}`);
  execFileSync("apt-get", ["download", packageName], { cwd: debs, stdio: "inherit" });
  const downloaded = cached();
  if (!downloaded) throw new Error(`apt-get download ${packageName} produced no .deb in ${debs}`);
  return path.join(debs, downloaded);
}

/** Unpacks a .deb under ~/.cache/tunewave/audio/<package>/ once per .deb file. */
export function unpackDeb(deb: string, packageName: string): string {
  const target = path.join(cacheDir(), "audio", packageName);
  const stamp = path.join(target, ".unpacked-from");
  const identity = `${path.basename(deb)} ${fs.statSync(deb).size}`;
  if (fs.existsSync(stamp) && fs.readFileSync(stamp, "utf8") === identity) return target;
  fs.rmSync(target, { recursive: true, force: true });
  fs.mkdirSync(target, { recursive: true });
  log(`dpkg-deb -x ${path.basename(deb)}`);
  execFileSync("dpkg-deb", ["-x", deb, target]);
  fs.writeFileSync(stamp, identity);
  return target;
}

export function debField(deb: string, field: string): string {
  return execFileSync("dpkg-deb", ["-f", deb, field], { encoding: "utf8" }).trim();
}

/** Fetches, unpacks and describes one Debian music package. */
export function debianSource(pkg: MusicPackage): AudioSource {
  const deb = ensureDeb(pkg.name);
  const root = unpackDeb(deb, pkg.name);
  const copyrightText = fs.readFileSync(path.join(root, "usr/share/doc", pkg.name, "copyright"), "utf8");
  const packageLicence = copyrightLicence(copyrightText);
  return {
    root,
    musicDir: pkg.musicDir,
    binaryPackage: pkg.name,
    sourcePackage: debField(deb, "Source").split(" ")[0] || pkg.name,
    version: debField(deb, "Version"),
    untaggedArtist: pkg.untaggedArtist,
    licenceOf(relativePath) {
      const sourcePath = relativePath.startsWith(pkg.installedPrefix)
        ? pkg.sourcePrefix + relativePath.slice(pkg.installedPrefix.length)
        : relativePath;
      const albumLicence = readAlbumLicence(path.join(root, path.dirname(relativePath)));
      const fileLicence = packageLicence(sourcePath);
      return albumLicence ? { licence: albumLicence, copyright: fileLicence.copyright } : fileLicence;
    },
  };
}

/** A folder of tagged audio (`CATALOG_AUDIO_DIR`): licence and copyright come from the tags. */
export function folderSource(dir: string): AudioSource {
  const root = path.resolve(dir);
  return {
    root,
    musicDir: ".",
    binaryPackage: `local:${path.basename(root)}`,
    sourcePackage: `local:${path.basename(root)}`,
    version: "local",
    licenceOf: () => ({ licence: "", copyright: "" }),
  };
}

/**
 * Reads a debian/copyright file. Machine-readable files (DEP-5) answer per path with the last
 * matching Files paragraph; others answer with the first License paragraph for every path.
 */
export function copyrightLicence(text: string): (sourcePath: string) => Licence {
  const paragraphs = text.split(/\n\s*\n/).map(parseParagraph);
  if (/^Format:/m.test(text)) {
    const files = paragraphs.filter((p) => p.Files);
    return (sourcePath) => {
      let match: Record<string, string> | undefined;
      for (const p of files) {
        const globs = (p.Files ?? "").split(/\s+/).filter(Boolean);
        if (globs.some((glob) => globMatches(glob, sourcePath))) match = p;
      }
      // Its first holder: a Copyright field may start on the line after its name (hedgewars).
      const copyright =
        (match?.Copyright ?? "")
          .split("\n")
          .find((line) => line.trim())
          ?.trim() ?? "";
      return {
        licence: (match?.License ?? "").split("\n")[0]?.trim() ?? "",
        copyright,
      };
    };
  }
  const licenceIndex = text.search(/^License:/m);
  const licenceText = licenceIndex >= 0 ? text.slice(licenceIndex, licenceIndex + 800) : text;
  const copyright = /^Copyright \(C\) (.+)$/m.exec(text)?.[1] ?? "";
  const licence = classifyLicence(licenceText);
  return () => ({ licence, copyright: copyright.trim() });
}

function parseParagraph(paragraph: string): Record<string, string> {
  const fields: Record<string, string> = {};
  let current: string | undefined;
  for (const line of paragraph.split("\n")) {
    const field = /^([A-Za-z-]+):\s*(.*)$/.exec(line);
    if (field?.[1] && !line.startsWith(" ")) {
      current = field[1];
      fields[current] = field[2] ?? "";
    } else if (current && line.startsWith(" ")) {
      fields[current] += `\n${line.trim()}`;
    }
  }
  return fields;
}

/** DEP-5 globs: `*` matches any run of characters (slashes too), `?` one character. */
export function globMatches(glob: string, sourcePath: string): boolean {
  const pattern = glob
    .split("")
    .map((c) => (c === "*" ? ".*" : c === "?" ? "." : c.replace(/[.+^${}()|[\]\\]/g, "\\$&")))
    .join("");
  return new RegExp(`^${pattern}$`).test(sourcePath);
}

/** Names a free licence from its prose, SPDX-style ("GPL-2+"). */
export function classifyLicence(text: string): string {
  const t = text.replace(/\s+/g, " ");
  const later =
    /or (at your option )?(any )?later version|or later|\(at your discretion, any later version\)/i.test(t);
  const plus = later ? "+" : "";
  const found: string[] = [];
  const ccBySa = /CC[- ]BY[- ]SA[- ](\d\.\d)/i.exec(t);
  if (ccBySa) found.push(`CC-BY-SA-${ccBySa[1]}${plus}`);
  const gpl = /GNU (?:General Public License|GPL),? version (\d)|General Public License Version (\d)/i.exec(
    t,
  );
  if (gpl) found.push(`GPL-${gpl[1] ?? gpl[2]}${plus}`);
  if (/CC0/.test(t)) found.push("CC0-1.0");
  return found.join(" OR ");
}

/**
 * A licence named in a tag: a Creative Commons address ("http://creativecommons.org/licenses/by-sa/3.0/")
 * as its SPDX-style name, other text as classifyLicence reads it.
 */
export function tagLicence(tag: string | undefined): string {
  const text = tag?.trim() ?? "";
  const cc = /creativecommons\.org\/(?:licenses\/(by(?:-sa)?)\/(\d\.\d)|publicdomain\/zero\/(1\.0))/i.exec(
    text,
  );
  if (cc?.[3]) return "CC0-1.0";
  if (cc?.[1]) return `CC-${cc[1].toUpperCase()}-${cc[2]}`;
  return classifyLicence(text);
}

/**
 * Whether a licence lets the catalogue publish the music: GPL, CC-BY, CC-BY-SA, CC0 or the SIL Open
 * Font Licence, in one of its alternatives ("CC-BY-SA-3.0+ OR GPL-2+"). Non-commercial or
 * no-derivatives terms, custom licences and an unknown licence do not.
 */
export function isFreeLicence(licence: string): boolean {
  return licence
    .split(/\s+or\s+/i)
    .some((alternative) =>
      /^(?:(?:L|A)?GPL-\d(?:\.\d)?\+?|CC-BY(?:-SA)?-\d\.\d\+?|CC0(?:-1\.0)?|(?:OFL|SIL)-1\.1)$/i.test(
        alternative.trim(),
      ),
    );
}

/** Warzone 2100 albums carry their own license.txt, which is more specific than the package's. */
function readAlbumLicence(dir: string): string | undefined {
  const file = path.join(dir, "license.txt");
  if (!fs.existsSync(file)) return undefined;
  const head = fs.readFileSync(file, "utf8").split("[EN]")[0] ?? "";
  return classifyLicence(head) || undefined;
}
