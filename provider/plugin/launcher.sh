#!/bin/sh
# pulumi-resource-kubespaces: starts the kubespaces provider plugin with Node.js (20 or newer).
here=$(dirname "$(readlink -f "$0")")
exec node "${here}/bin/plugin/main.js" "$@"
