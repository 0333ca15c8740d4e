// Why: abbot/go-http-auth v0.4.0 predates modules; a replacement folder needs a go.mod. Added, with
// traefik_fork.go, to a copy of v0.4.0 at build (lib/tools.sh).
module github.com/abbot/go-http-auth

go 1.13
