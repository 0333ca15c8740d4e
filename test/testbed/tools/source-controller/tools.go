//go:build tools

// Package tools pins Flux's source-controller for the test bed's GitOps e2e test (built by ../../testbed.sh build).
package tools

import _ "github.com/fluxcd/source-controller"
