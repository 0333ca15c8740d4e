// Why: Traefik's go.mod replaces this nested module with a folder of its own repository, which its
// module zip leaves out; this stand-in gives the build the two types it needs.
module github.com/traefik/traefik/dynamic/ext

go 1.26.0
