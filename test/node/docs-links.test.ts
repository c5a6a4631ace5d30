/**
 * The Markdown files point only at what exists: every relative link (and its #anchor, against the
 * target's headings as GitHub names them), and every backticked path starting with `src/`,
 * `test/`, `scripts/` or `docs/`, in every Markdown file of the repository. A renamed file or
 * heading fails here instead of leaving a dead pointer in README.md, ARCHITECTURE.md or docs/.
 *
 * Backticked paths are read from the repository's root, as the documents write them. A path with
 * a glob (`src/**\/*.ts`) must match at least one file; a placeholder (`<name>`, `…`) stands for
 * any name, so it is checked as a glob with `*` in its place. Fenced code blocks are commands and
 * code, not pointers, so they are not read.
 *
 * Nor does any file cite a text the repository does not hold: the sections of a design text, a
 * service spec, a sibling folder of research notes. A clone cannot follow such a citation, so
 * comments and docs name this repository's own files, symbols and docs instead. The words
 * looked for are put together from parts below, so that this file does not cite them itself.
 * Runs in Node: it reads the file system.
 */
import { existsSync, globSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../..", import.meta.url));

/** Paths a document names by their place in the repository. */
const PATH_PREFIXES = ["src/", "test/", "scripts/", "docs/"];

/**
 * Folders that hold no Markdown of the repository's own: git's, and the ones .gitignore lists
 * (dependencies such as node_modules, build output, local data), read from .gitignore itself.
 */
function skippedFolders(): Set<string> {
  const ignored = readFileSync(join(root, ".gitignore"), "utf8")
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line.endsWith("/") && !line.startsWith("#"))
    .map((line) => line.replace(/^\/|\/$/g, ""));
  return new Set([".git", ...ignored]);
}

/** What a citation of a text outside the repository looks like, each put together from parts. */
const OUTSIDE_CITATIONS: readonly RegExp[] = [
  ["DES", "IGN"],
  ["design", "\\.md"],
  ["\u00a7"],
  ["service", "-spec"],
  ["\\.\\./", "shared"],
  ["research", "/"],
].map((parts) => new RegExp(parts.join(""), parts[0] === "design" ? "i" : ""));

/** The folders and top-level files whose text is searched for outside citations. */
const CITING = ["src", "test", "docs", "scripts", ".ci", "README.md", "ARCHITECTURE.md"];

/** Every file under `path` (itself, when a file), but those in skipped folders. */
function filesUnder(path: string, skip = skippedFolders()): string[] {
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path, { withFileTypes: true }).flatMap((entry) => {
    const child = join(path, entry.name);
    if (entry.isDirectory() && (skip.has(entry.name) || skip.has(relative(root, child)))) return [];
    return filesUnder(child, skip);
  });
}

/** Each line of `text` that cites a text outside the repository: `file:line: "what" in <the line>`. */
function outsideCitations(text: string, file: string): string[] {
  if (text.includes("\0")) return []; // not text
  const where = relative(root, file);
  return text.split("\n").flatMap((line, i) =>
    OUTSIDE_CITATIONS.flatMap((pattern) => {
      const found = pattern.exec(line)?.[0];
      return found === undefined ? [] : [`${where}:${i + 1}: cites "${found}" in ${JSON.stringify(line.trim().slice(0, 160))}`];
    }),
  );
}

function markdownFiles(dir = root, skip = skippedFolders()): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return skip.has(entry.name) ? [] : markdownFiles(path, skip);
    return entry.name.endsWith(".md") ? [path] : [];
  });
}

/** The text outside fenced code blocks (``` or ~~~), lines kept in place. */
function outsideFences(markdown: string): string {
  let fence: string | undefined;
  return markdown
    .split("\n")
    .map((line) => {
      const opener = /^\s{0,3}(`{3,}|~{3,})/.exec(line)?.[1];
      if (fence === undefined && opener) {
        fence = opener;
        return "";
      }
      if (fence !== undefined) {
        if (line.trim().startsWith(fence)) fence = undefined;
        return "";
      }
      return line;
    })
    .join("\n");
}

/** Inline code spans: a run of backticks, then text, then the same run (CommonMark). */
const CODE_SPAN = /(`+)([\s\S]*?[^`])\1(?!`)/g;

/** A heading's anchor as GitHub makes it: lower case, punctuation dropped, spaces to hyphens. */
function anchorOf(heading: string): string {
  return heading
    .replace(/`/g, "")
    .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, "")
    .replace(/ /g, "-");
}

/** Every anchor a Markdown text offers, duplicates numbered as GitHub numbers them. */
function anchorsOf(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const [, heading] of outsideFences(markdown).matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const base = anchorOf(heading!);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}

/** A path with a glob or a placeholder, as a glob: `<name>`, `…` and `...` match any name. */
function asGlob(path: string): string | undefined {
  const glob = path.replace(/<[^>]+>/g, "*").replace(/…|\.\.\./g, "*");
  return /[*?[\]{}]/.test(glob) ? glob : undefined;
}

function existsInRepository(path: string): boolean {
  const glob = asGlob(path);
  if (glob === undefined) return existsSync(join(root, path));
  return globSync(glob.replace(/\/$/, ""), { cwd: root }).length > 0;
}

/**
 * What one Markdown file points at that does not exist, one line per pointer. `file` is the
 * file's absolute path: relative links resolve from its folder.
 */
function brokenReferences(markdown: string, file: string, read = (path: string) => readFileSync(path, "utf8")): string[] {
  const where = relative(root, file);
  const broken: string[] = [];
  const text = outsideFences(markdown);

  for (const [, , span] of text.matchAll(CODE_SPAN)) {
    const path = span!.trim().split(/\s+/)[0]!;
    if (PATH_PREFIXES.some((prefix) => path.startsWith(prefix)) && !existsInRepository(path))
      broken.push(`${where}: \`${path}\` does not exist`);
  }

  const prose = text.replace(CODE_SPAN, " ");
  const links = [
    ...[...prose.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+["'(][^)]*)?\)/g)].map((m) => m[1]!),
    ...[...prose.matchAll(/^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/gm)].map((m) => m[1]!),
  ];
  for (const link of links) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(link)) continue; // another site (https:, mailto:): not a file here
    const [pathPart, anchor] = link.split("#", 2) as [string, string | undefined];
    const target = pathPart === "" ? file : resolve(dirname(file), decodeURIComponent(pathPart));
    if (pathPart !== "" && !existsSync(target)) {
      broken.push(`${where}: link ${link}: ${relative(root, target)} does not exist`);
      continue;
    }
    if (anchor !== undefined && target.endsWith(".md") && (target === file || statSync(target).isFile())) {
      const source = target === file ? markdown : read(target);
      if (!anchorsOf(source).has(decodeURIComponent(anchor)))
        broken.push(`${where}: link ${link}: no heading #${anchor} in ${relative(root, target)}`);
    }
  }
  return broken;
}

describe("the Markdown files point only at what exists", () => {
  const files = markdownFiles();

  it("reads README.md, ARCHITECTURE.md, docs/ and the READMEs under scripts/, and nothing under node_modules", () => {
    const names = files.map((file) => relative(root, file));
    expect(names).toEqual(expect.arrayContaining(["README.md", "ARCHITECTURE.md", "docs/sync.md", "scripts/local-db/README.md"]));
    expect(names.filter((name) => name.split(/[\\/]/).includes("node_modules"))).toEqual([]);
  });

  it("has no broken link, anchor or backticked path", () => {
    expect(files.flatMap((file) => brokenReferences(readFileSync(file, "utf8"), file))).toEqual([]);
  });

  it("would report a missing file, a missing heading, a missing path, a glob or a placeholder matching nothing", () => {
    const file = join(root, "docs", "example.md");
    const markdown = [
      "# Example",
      "[ok](../README.md#quick-start), [here](#example), [site](https://example.com), [arch](../ARCHITECTURE.md)",
      "[gone](gone.md), [no heading](../README.md#no-such-heading), [self](#nowhere)",
      "`src/app.ts`, `src/cache/`, `src/**/*.tsx`, `test/<suite>/`, `docs/…`, `npm test`, `src/nope.ts`",
      "`src/**/*.nope`, `scripts/<name>.nope`",
      "```sh",
      "cat src/in-a-fence.ts `src/in-a-fence.ts` [fenced](fenced.md)",
      "```",
      "[ref]: ../missing/",
    ].join("\n");
    expect(brokenReferences(markdown, file)).toEqual([
      "docs/example.md: `src/nope.ts` does not exist",
      "docs/example.md: `src/**/*.nope` does not exist",
      "docs/example.md: `scripts/<name>.nope` does not exist",
      "docs/example.md: link gone.md: docs/gone.md does not exist",
      "docs/example.md: link ../README.md#no-such-heading: no heading #no-such-heading in README.md",
      "docs/example.md: link #nowhere: no heading #nowhere in docs/example.md",
      "docs/example.md: link ../missing/: missing does not exist",
    ]);
  });

  it("names anchors as GitHub does", () => {
    expect(anchorOf("Why the sync's limits are what they are")).toBe("why-the-syncs-limits-are-what-they-are");
    expect(anchorOf("The typed client (`hc<AppType>`)")).toBe("the-typed-client-hcapptype");
    expect(anchorOf("Deploying to Cloudflare and Neon")).toBe("deploying-to-cloudflare-and-neon");
    expect([...anchorsOf("# A\n## A\n```\n# not a heading\n```\n## B b")]).toEqual(["a", "a-1", "b-b"]);
  });
});

describe("comments and docs cite only this repository", () => {
  it("has no citation of a text the repository lacks in src/, test/, docs/, scripts/, .ci/, README.md or ARCHITECTURE.md", () => {
    const files = CITING.flatMap((path) => filesUnder(join(root, path)));
    expect(files.map((file) => relative(root, file))).toEqual(
      expect.arrayContaining(["src/domain/returns.ts", "test/node/docs-links.test.ts", "docs/sync.md", "README.md", ".ci/run"]),
    );
    expect(files.flatMap((file) => outsideCitations(readFileSync(file, "utf8"), file))).toEqual([]);
  });

  it("would report each kind of outside citation with its file, line and text", () => {
    const file = join(root, "src", "example.ts");
    const [sections, sign, spec, shared, research] = [
      ["DES", "IGN"],
      ["\u00a7"],
      ["service", "-spec"],
      ["../", "shared"],
      ["research", "/"],
    ].map((parts) => parts.join(""));
    const designFile = `${sections}.md`;
    const text = [
      "/**",
      ` * The rule of ${sections} 6.2.`,
      ` * As ${designFile.toLowerCase()} says, and ${sign}7.`,
      ` * See the ${spec}, ${shared}/notes.md and ${research}perf.md.`,
      " * docs/performance.md states it, and the design of the sync is in docs/sync.md.",
      " */",
    ].join("\n");
    expect(outsideCitations(text, file)).toEqual([
      `src/example.ts:2: cites "${sections}" in "* The rule of ${sections} 6.2."`,
      `src/example.ts:3: cites "${designFile.toLowerCase()}" in "* As ${designFile.toLowerCase()} says, and ${sign}7."`,
      `src/example.ts:3: cites "${sign}" in "* As ${designFile.toLowerCase()} says, and ${sign}7."`,
      `src/example.ts:4: cites "${spec}" in "* See the ${spec}, ${shared}/notes.md and ${research}perf.md."`,
      `src/example.ts:4: cites "${shared}" in "* See the ${spec}, ${shared}/notes.md and ${research}perf.md."`,
      `src/example.ts:4: cites "${research}" in "* See the ${spec}, ${shared}/notes.md and ${research}perf.md."`,
    ]);
  });
});
