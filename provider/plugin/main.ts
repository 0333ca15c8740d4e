/**
 * Entry point of `pulumi-resource-kubespaces`, the provider plugin that serves the kubespaces
 * package to every Pulumi language.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import * as pulumi from "@pulumi/pulumi";
import { kubespacesProvider } from "./kubespacesProvider";

// bin/plugin/main.js sits two levels below the package root, beside package.json and schema.json.
const packageRoot = path.resolve(__dirname, "../..");
const { version } = JSON.parse(readFileSync(path.join(packageRoot, "package.json"), "utf8")) as { version: string };
const schema = readFileSync(path.join(packageRoot, "schema.json"), "utf8");

void pulumi.provider.main(kubespacesProvider(version, schema), process.argv.slice(2));
