//go:build tools

// Package tools pins kine, the etcd shim vCluster's embedded-database mode runs as /binaries/kine.
package tools

import _ "github.com/k3s-io/kine"
