//go:build tools

// Package tools pins Traefik (cmd/traefik) for the kubespaces test bed's Gateway controller
// (built by ../../testbed.sh build, with the patches under patches/).
package tools

import _ "github.com/traefik/traefik/v3/cmd/traefik"
