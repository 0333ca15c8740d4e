/**
 * Atomic writes in a folder another user may have planted files in: nothing at a temporary path is
 * written through, whether a file, a symbolic link to a file of theirs, or a dangling link.
 */
import { chmodSync, lstatSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { temporaryNameBeside, writeAtomically, writeExclusively, writeNewFile } from "../../provider/util/atomicFile";
import { temporaryFolderEach } from "./support/temporaryFolder";
import { thrownBy } from "./support/thrown";

const SECRET = "token: fake-token-5c1f0e9d7b\n";

const folder = temporaryFolderEach("kubespaces-atomic-");
let dir: string;
let file: string;
let victim: string;

beforeEach(() => {
  dir = folder();
  file = path.join(dir, "config");
  victim = path.join(dir, "theirs");
  writeFileSync(victim, "theirs\n");
  chmodSync(victim, 0o666); // exactly, whatever the umask: a write through the link would change it
});

/** The temporary names the writes used before they were random: someone could plant files there. */
const predictableTemporaries = () => [`${file}.${process.pid}.tmp`];

describe("writeNewFile", () => {
  it("creates the file with the mode", () => {
    writeNewFile(file, SECRET, 0o600);
    expect(readFileSync(file, "utf8")).toBe(SECRET);
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it.each([
    ["a file", () => writeFileSync(file, "planted\n", { mode: 0o666 })],
    ["a symbolic link to another file", () => symlinkSync(victim, file)],
    ["a dangling symbolic link", () => symlinkSync(path.join(dir, "nowhere"), file)],
  ])("refuses a name taken by %s, writing nothing through it", (_, plant) => {
    plant();
    expect((thrownBy(() => writeNewFile(file, SECRET, 0o600)) as NodeJS.ErrnoException).code).toBe("EEXIST");
    expect(readFileSync(victim, "utf8")).toBe("theirs\n");
    expect(statSync(victim).mode & 0o777).toBe(0o666);
    expect(readdirSync(dir).sort()).toEqual(["config", "theirs"]);
    expect(readdirSync(dir)).not.toContain("nowhere");
  });
});

describe("temporaryNameBeside", () => {
  it("is in the same folder (so the rename stays on one file system) and differs each time", () => {
    const names = new Set([temporaryNameBeside(file), temporaryNameBeside(file)]);
    expect(names.size).toBe(2);
    for (const name of names) expect(path.dirname(name)).toBe(dir);
  });
});

describe.each([
  ["writeAtomically", (target: string) => writeAtomically(target, SECRET, 0o600)],
  ["writeExclusively", (target: string) => void writeExclusively(target, SECRET, 0o600)],
])("%s", (_, write) => {
  it("writes through no symbolic link planted at the old predictable temporary name", () => {
    for (const name of predictableTemporaries()) symlinkSync(victim, name);
    write(file);
    expect(readFileSync(victim, "utf8")).toBe("theirs\n");
    expect(readFileSync(file, "utf8")).toBe(SECRET);
    expect(lstatSync(file).isSymbolicLink()).toBe(false);
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it("does not put a file planted at the old predictable temporary name in place", () => {
    for (const name of predictableTemporaries()) writeFileSync(name, "planted\n", { mode: 0o666 });
    write(file);
    expect(readFileSync(file, "utf8")).toBe(SECRET);
    for (const name of predictableTemporaries()) expect(readFileSync(name, "utf8")).toBe("planted\n");
  });

  it("leaves no temporary file behind", () => {
    write(file);
    expect(readdirSync(dir).sort()).toEqual(["config", "theirs"]);
  });
});
