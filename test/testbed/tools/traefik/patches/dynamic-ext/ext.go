// Why this file: Traefik v3.7.13 embeds ext.HTTP and ext.Router in its dynamic configuration (for
// extensions outside its open-source build). Its go.mod replaces the module with a folder that the
// module zip leaves out, so this stand-in declares the two types, empty: nothing of the test bed
// configures them.

// Package ext stands in for github.com/traefik/traefik/dynamic/ext in the kubespaces test bed.
package ext

// HTTP is embedded in Traefik's HTTP configuration; empty here.
type HTTP struct{}

// Router is embedded in Traefik's HTTP router configuration; empty here.
type Router struct{}
