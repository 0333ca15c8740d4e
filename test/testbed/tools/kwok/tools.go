//go:build tools

// Package tools pins KWOK (fake nodes and pods) for the kubespaces test bed.
package tools

import _ "sigs.k8s.io/kwok/cmd/kwok"
