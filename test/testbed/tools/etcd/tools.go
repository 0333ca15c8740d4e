//go:build tools

// Package tools pins etcd for the kubespaces test bed (built by ../../testbed.sh build).
package tools

import _ "go.etcd.io/etcd/server/v3"
