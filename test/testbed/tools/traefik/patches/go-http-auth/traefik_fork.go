// Why this file: Traefik v3.7.13 requires the containous/go-http-auth fork, which the module proxy
// refuses; it is abbot/go-http-auth v0.4.0 plus these two functions, the only ones Traefik calls
// that v0.4.0 lacks. (Written for the kubespaces test bed; added to a copy of v0.4.0 at build.)
package auth

import (
	"net/http"
	"strings"
)

// CheckSecret reports whether password matches secret, a stored password hash in one of the forms
// BasicAuth.CheckAuth accepts (the hash's prefix picks the comparison).
func CheckSecret(password, secret string) bool {
	compare := compareFuncs[0].compare
	for _, cmp := range compareFuncs[1:] {
		if strings.HasPrefix(secret, cmp.prefix) {
			compare = cmp.compare
			break
		}
	}
	return compare([]byte(secret), []byte(password)) == nil
}

// RequireAuthStale is RequireAuth with the challenge marked stale (RFC 7616 section 3.3): the
// client's nonce expired, so it may retry with the same credentials without asking its user.
func (a *DigestAuth) RequireAuthStale(w http.ResponseWriter, r *http.Request) {
	a.RequireAuth(staleChallenge{ResponseWriter: w, header: a.Headers.V().Authenticate}, r)
}

// staleChallenge adds `stale=true` to the challenge header just before it is sent.
type staleChallenge struct {
	http.ResponseWriter
	header string
}

func (s staleChallenge) WriteHeader(code int) {
	s.Header().Set(s.header, s.Header().Get(s.header)+", stale=true")
	s.ResponseWriter.WriteHeader(code)
}
