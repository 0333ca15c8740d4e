/**
 * What the test bed's env file sets, read in an empty environment (testbedHost.ts): the person's
 * ~/.bashrc takes no part. Bash sources it for `bash -c` when stdin is a socket, as Node's pipes
 * are; with the PATH the reading uses, a pyenv line there printed "/usr/bin/env: 'bash': No such
 * file or directory" on every `tenant create`. The HOME here is a temporary folder.
 */
import { existsSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";
import { testbedEnv } from "../../provider/hosts/testbedHost";
import { temporaryFolderEach } from "./support/temporaryFolder";

const home = temporaryFolderEach("kubespaces-testbed-env-");
const savedHome = process.env.HOME;
beforeEach(() => {
  process.env.HOME = home();
});
afterEach(() => {
  process.env.HOME = savedHome;
});

it("reads only the env file: the person's ~/.bashrc is not run, and sets nothing", () => {
  const ran = path.join(home(), "bashrc-ran");
  writeFileSync(
    path.join(home(), ".bashrc"),
    `touch ${JSON.stringify(ran)}\nexport PATH="/from-bashrc:$PATH"\nexport FROM_BASHRC=1\n`,
  );
  const file = path.join(home(), "env");
  writeFileSync(file, `export KUBESPACES_TESTBED_DIR='/run/testbed'\nexport PATH='/testbed/bin:'"\${PATH}"\n`);

  const env = testbedEnv(file);

  expect(existsSync(ran)).toBe(false);
  expect(env).toEqual({ KUBESPACES_TESTBED_DIR: "/run/testbed", PATH: `/testbed/bin:${process.env.PATH}` });
});
