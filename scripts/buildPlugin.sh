#!/usr/bin/env bash
# npm run build:plugin: the provider plugin `pulumi-resource-kubespaces` as a folder (dist/plugin,
# usable on PATH) and a tarball for `pulumi plugin install resource kubespaces <version> --file`.
# It holds what the npm package ships, its production dependencies and a launcher.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

version=$(node -p 'require("./package.json").version')
staging=dist/plugin
tarball="dist/pulumi-resource-kubespaces-v${version}-linux-amd64.tar.gz"

npm run build --silent
rm -rf "${staging}" && mkdir -p "${staging}"
# What the npm package ships (its "files"), so that the plugin has the same data (schema.json,
# the vendored chart schema), plus the lock file for the dependencies.
mapfile -t shipped < <(node -p 'require("./package.json").files.join("\n")')
cp -r "${shipped[@]}" package.json package-lock.json "${staging}/"
# Production dependencies only, from the npm cache that `npm ci` filled.
(cd "${staging}" && npm ci --omit=dev --ignore-scripts --no-audit --no-fund --prefer-offline --loglevel=error)
install -m 0755 provider/plugin/launcher.sh "${staging}/pulumi-resource-kubespaces"
tar -czf "${tarball}" -C "${staging}" .
echo "plugin folder: ${staging} ($(du -sh "${staging}" | cut -f1)); tarball: ${tarball} ($(du -sh "${tarball}" | cut -f1))"
echo "install: pulumi plugin install resource kubespaces v${version} --file ${tarball}"
