/**
 * `kubespaces server`: the server's setup (server/serverMain.ts) on the command's streams, with the
 * command's home for its state, engine folders and passphrase.
 */
import { serverMain, type ServerMainOptions } from "../../server/serverMain";
import { homeDir, passphraseFile } from "../cliHome";
import type { CommandEnv } from "../commandEnv";
import { EXIT } from "../exitCodes";

/** `server`'s options. */
export type ServerOptions = ServerMainOptions;

/** Runs `server` until it is told to stop. */
export async function runServerCommand(env: CommandEnv, options: ServerOptions): Promise<number> {
  await serverMain(env, { dir: homeDir, passphraseFile }, options);
  return EXIT.ok;
}
