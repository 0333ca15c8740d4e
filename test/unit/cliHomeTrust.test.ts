/**
 * The command's home is used only when it is the user's own and writable by nobody else, as ssh
 * does with ~/.ssh. "Another owner" is simulated by naming another uid to compare against.
 */
import { chmodSync, existsSync, mkdirSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { cliHome, homeDir, passphraseFile, trustedHome } from "../../provider/cli/cliHome";
import { CliError, EXIT } from "../../provider/cli/exitCodes";
import { distrustOf } from "../../provider/cli/homeTrust";
import { temporaryFolderEach } from "./support/temporaryFolder";
import { thrownBy } from "./support/thrown";

const folder = temporaryFolderEach("kubespaces-home-");
const me = process.getuid!();
const someoneElse = me + 1000;
let home: string;
beforeEach(() => {
  home = path.join(folder(), "home");
});

/** The CliError that trusting `home` raises. */
function refusal(uid = me): CliError {
  const error = thrownBy(() => trustedHome({ home, uid }));
  expect(error).toBeInstanceOf(CliError);
  expect((error as CliError).code).toBe(EXIT.invalid);
  return error as CliError;
}

describe("trustedHome", () => {
  it("creates a missing home, owner-only, and trusts it", () => {
    expect(trustedHome({ home })).toBe(home);
    expect(statSync(home).mode & 0o777).toBe(0o700);
  });

  it("trusts a home of one's own that others can read but not write", () => {
    mkdirSync(home);
    chmodSync(home, 0o755);
    writeFileSync(path.join(home, "settings.json"), "{}\n", { mode: 0o644 });
    expect(trustedHome({ home })).toBe(home);
  });

  it.each([
    ["0770", 0o770],
    ["0707", 0o707],
    ["0777", 0o1777],
  ])(
    "refuses a home with mode %s (group or others can write), naming the path, the mode, and the fix",
    (shown, mode) => {
      mkdirSync(home);
      chmodSync(home, mode);
      expect(refusal().message).toBe(
        `kubespaces refuses its home folder ${home}: its mode is ${shown}, so other users can write it, as ssh refuses such a ~/.ssh; fix it with: chmod go-w ${home}`,
      );
    },
  );

  it("refuses a home that belongs to another user (a root-owned home for anyone but root)", () => {
    mkdirSync(home, { mode: 0o700 });
    expect(refusal(someoneElse).message).toBe(
      `kubespaces refuses its home folder ${home}: it belongs to uid ${me} (mode 0700), not to you (uid ${someoneElse}), so another user controls it; use a folder of your own (KUBESPACES_HOME), or, if it is yours after all: sudo chown -R ${someoneElse} ${home}`,
    );
  });

  it.each([
    ["passphrase", "passphrase file"],
    ["settings.json", "login settings"],
    ["sign-in.json", "server sign-in"],
  ])("refuses a home whose %s others can write", (name, what) => {
    mkdirSync(home, { mode: 0o700 });
    const file = path.join(home, name);
    writeFileSync(file, "{}\n");
    chmodSync(file, 0o622);
    expect(refusal().message).toBe(
      `kubespaces refuses its ${what} ${file}: its mode is 0622, so other users can write it, as ssh refuses such a ~/.ssh; fix it with: chmod go-w ${file}`,
    );
  });

  it("checks each home once per process: the command calls it at start, every use of the home after", () => {
    mkdirSync(home, { mode: 0o700 });
    expect(trustedHome({ home })).toBe(home);
    chmodSync(home, 0o777); // only another process, starting later, sees this
    expect(trustedHome({ home })).toBe(home);
  });
});

describe("distrustOf", () => {
  it.each([
    ["another owner", { uid: 1001, mode: 0o600 }, 1000, "belongs to uid 1001 (mode 0600), not to you (uid 1000)"],
    ["root's, for a user", { uid: 0, mode: 0o700 }, 1000, "belongs to uid 0 (mode 0700), not to you (uid 1000)"],
    ["group-writable", { uid: 1000, mode: 0o100660 }, 1000, "its mode is 0660, so other users can write it"],
  ])("refuses a file that is %s", (_, found, uid, reason) => {
    expect(distrustOf("/h/passphrase", "passphrase file", found, uid)).toContain(reason);
  });

  it.each([
    ["the user's, owner-only", { uid: 1000, mode: 0o40700 }, 1000],
    ["root's, for root", { uid: 0, mode: 0o40755 }, 0],
  ])("trusts a folder that is %s", (_, found, uid) => {
    expect(distrustOf("/h", "home folder", found, uid)).toBeUndefined();
  });
});

describe("every use of the home goes through the check", () => {
  const saved = process.env.KUBESPACES_HOME;
  beforeEach(() => {
    process.env.KUBESPACES_HOME = home;
  });
  afterEach(() => {
    if (saved === undefined) delete process.env.KUBESPACES_HOME;
    else process.env.KUBESPACES_HOME = saved;
  });

  it("refuses a world-writable home before anything is read or written in it", () => {
    mkdirSync(home);
    chmodSync(home, 0o777);
    for (const use of [cliHome, () => homeDir("tenants"), passphraseFile])
      expect(thrownBy(use).message).toContain(`refuses its home folder ${home}`);
    expect(existsSync(path.join(home, "tenants"))).toBe(false);
    expect(existsSync(path.join(home, "passphrase"))).toBe(false);
  });
});
