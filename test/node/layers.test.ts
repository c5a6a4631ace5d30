/**
 * The map and the code cannot drift apart: ARCHITECTURE.md's table of floors ("## Layers") is
 * read here, every file of `src/` must stand on one of its floors, every import must go to the
 * importer's own floor or one below it, and no files may import each other in a loop. A new
 * folder or module fails here until the map places it. Runs in Node: it reads the file system.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../..", import.meta.url));

/** One floor of the map: its number (1 is the top) and the modules on it (folders end in `/`). */
interface Floor {
  floor: number;
  modules: string[];
}

/** The floors of ARCHITECTURE.md's Layers table: rows `| n | \`src/…\`, … | … |`. */
function floorsOf(markdown: string): Floor[] {
  const section = markdown.split(/^## /m).find((s) => s.startsWith("Layers")) ?? "";
  return [...section.matchAll(/^\|\s*(\d+)\s*\|([^|]*)\|/gm)].map((m) => ({
    floor: Number(m[1]),
    modules: [...(m[2] as string).matchAll(/`(src\/[^`]+)`/g)].map((p) => p[1] as string),
  }));
}

/** An import of one file by another, with the line it is on. */
interface Import {
  from: string;
  to: string;
  line: number;
}

/** What is wrong with a graph of `imports` among `files` against `floors`, one line per finding. */
function layeringFaults(floors: Floor[], files: string[], imports: Import[]): string[] {
  const placed = (file: string) => {
    const on = floors.flatMap((f) =>
      f.modules.filter((m) => (m.endsWith("/") ? file.startsWith(m) : file === m)).map((m) => ({ ...f, m })),
    );
    return on.sort((a, b) => b.m.length - a.m.length)[0];
  };
  const faults = files.filter((f) => !placed(f)).map((f) => `${f} stands on no floor of ARCHITECTURE.md`);
  for (const { from, to, line } of imports) {
    const [a, b] = [placed(from), placed(to)];
    if (a && b && a.m !== b.m && b.floor < a.floor) {
      faults.push(`${from}:${line} imports ${to}: back up from floor ${a.floor} (${a.m}) to floor ${b.floor} (${b.m})`);
    }
  }
  return [...faults, ...loops(files, imports).map((loop) => `files import each other in a loop: ${loop.join(" → ")}`)];
}

/** The strongly connected components of more than one file (or a file importing itself): Tarjan's. */
function loops(files: string[], imports: Import[]): string[][] {
  const next = new Map(files.map((f) => [f, [] as string[]]));
  for (const i of imports) next.get(i.from)?.push(i.to);
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const found: string[][] = [];
  const visit = (v: string) => {
    index.set(v, index.size);
    low.set(v, index.get(v) as number);
    stack.push(v);
    for (const w of next.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v) as number, low.get(w) as number));
      } else if (stack.includes(w)) low.set(v, Math.min(low.get(v) as number, index.get(w) as number));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      for (let w = stack.pop(); w !== undefined; w = w === v ? undefined : stack.pop()) component.push(w as string);
      if (component.length > 1 || (next.get(v) ?? []).includes(v)) found.push(component.reverse());
    }
  };
  for (const f of files) if (!index.has(f)) visit(f);
  return found;
}

/** Every TypeScript file under `dir`, relative to the repository, declarations left out. */
function sources(dir: string): string[] {
  return readdirSync(join(root, dir)).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(join(root, path)).isDirectory()) return sources(path);
    return /\.tsx?$/.test(name) && !name.endsWith(".d.ts") ? [path] : [];
  });
}

/** The file a relative specifier names, as TypeScript resolves it here. */
function resolveImport(from: string, specifier: string): string | undefined {
  const base = resolve(root, dirname(from), specifier);
  const hit = [base, `${base}.ts`, `${base}.tsx`, join(base, "index.ts")].find((p) => existsSync(p) && statSync(p).isFile());
  return hit && relative(root, hit);
}

/** Every relative import and re-export of `files`, type-only ones included. */
function importsOf(files: string[]): Import[] {
  return files.flatMap((from) =>
    readFileSync(join(root, from), "utf8")
      .split("\n")
      .flatMap((text, i) =>
        [...text.matchAll(/(?:\bfrom\s+|\bimport\s*\(?\s*)"(\.{1,2}\/[^"]+)"/g)].flatMap((m) => {
          const to = resolveImport(from, m[1] as string);
          return to ? [{ from, to, line: i + 1 }] : [];
        }),
      ),
  );
}

describe("the layers of ARCHITECTURE.md", () => {
  const floors = floorsOf(readFileSync(join(root, "ARCHITECTURE.md"), "utf8"));

  it("are what src/ does: every file on a floor, no import back up, no loop", () => {
    expect(floors.length).toBeGreaterThan(3);
    const files = sources("src");
    expect(layeringFaults(floors, files, importsOf(files))).toEqual([]);
  });

  it("fail on an import back up, a file on no floor and a loop", () => {
    const map = [
      { floor: 1, modules: ["src/routes/"] },
      { floor: 2, modules: ["src/db/", "src/log.ts"] },
    ];
    const files = ["src/routes/a.ts", "src/db/b.ts", "src/db/c.ts", "src/log.ts", "src/stray.ts"];
    expect(
      layeringFaults(map, files, [
        { from: "src/routes/a.ts", to: "src/db/b.ts", line: 1 },
        { from: "src/db/b.ts", to: "src/routes/a.ts", line: 2 },
        { from: "src/db/c.ts", to: "src/log.ts", line: 3 },
      ]),
    ).toEqual([
      "src/stray.ts stands on no floor of ARCHITECTURE.md",
      "src/db/b.ts:2 imports src/routes/a.ts: back up from floor 2 (src/db/) to floor 1 (src/routes/)",
      "files import each other in a loop: src/routes/a.ts → src/db/b.ts",
    ]);
  });
});
