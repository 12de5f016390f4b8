package redact

import (
	"regexp"
	"strings"
)

// Removed replaces a secret wherever a report or a diagnostic would quote one.
const Removed = "[secret removed]"

// Secrets are removed outright, with or without --redact: nsanalyze never needs a
// secret's value, and a token quoted in an evidence line (a kubelet's bearer token, a
// kubeconfig pasted into a ticket) must not reach a report. Each pattern keeps what
// says what the secret was (the key, "Bearer") and removes the value.
var secretPatterns = []struct {
	re   *regexp.Regexp
	keep int // number of leading submatches kept before Removed
}{
	// PEM blocks, whole or cut (a private key, a certificate's key pair)
	{regexp.MustCompile(`-----BEGIN [A-Z0-9 ]*-----(?s:.*?)(?:-----END [A-Z0-9 ]*-----|$)`), 0},
	// kubeconfig and Secret data keys whose value is key material or a credential
	{regexp.MustCompile(`(?i)((?:client-key-data|client-certificate-data|certificate-authority-data|id-token|refresh-token|access-token|auth-provider|tls\.key|ssh-privatekey|\.dockerconfigjson|\.dockercfg)["']?\s*[:=]\s*["']?)[^\s"',;}\[]+`), 1},
	// key=value and key: value credentials (password=..., "token":"...", api_key: ...)
	{regexp.MustCompile(`(?i)((?:password|passwd|pwd|passphrase|secret|client[_-]?secret|token|api[_-]?key|apikey|access[_-]?key(?:[_-]?id)?|secret[_-]?access[_-]?key|private[_-]?key|bearer[_-]?token)["']?\s*[:=]\s*["']?)(?:(?:Bearer|Basic)\s+)?[^\s"',;&}\[]+`), 1},
	// HTTP authorization schemes
	{regexp.MustCompile(`(?i)(\b(?:Bearer|Basic)\s+)[A-Za-z0-9._~+/=-]{8,}`), 1},
	// JSON Web Tokens (service account tokens, OIDC id tokens)
	{regexp.MustCompile(`\beyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*`), 0},
	// SSH public and private key bodies
	{regexp.MustCompile(`\b((?:ssh-(?:rsa|ed25519|dss)|ecdsa-sha2-nistp[0-9]+|sk-ssh-ed25519@openssh\.com)\s+)AAAA[0-9A-Za-z+/=]+`), 1},
	// AWS access key ids, GitHub and Slack tokens
	{regexp.MustCompile(`\b(?:AKIA|ASIA)[0-9A-Z]{16}\b|\bgh[pousr]_[A-Za-z0-9]{30,}\b|\bxox[abprs]-[A-Za-z0-9-]{10,}`), 0},
	// base64 of key material ("LS0tLS1CRUdJTi..." is "-----BEGIN") and other long
	// mixed-case base64 runs, which are keys or tokens (hashes are hex, and shorter)
	{regexp.MustCompile(`\bLS0tLS1[A-Za-z0-9+/=]{8,}`), 0},
}

// longBase64 finds runs of 40+ base64 characters; those that mix upper and lower case
// and digits are key material or tokens (hashes and ids are hex or one case).
var longBase64 = regexp.MustCompile(`[A-Za-z0-9+/]{40,}={0,2}`)

// Secrets returns s with every secret value replaced by Removed.
func Secrets(s string) string {
	if len(s) < 8 {
		return s
	}
	trigger, longRun := scanSecrets(s)
	if !trigger && !longRun {
		return s // one pass: nothing any pattern needs (most strings of a report)
	}
	if !trigger {
		return base64Secrets(s)
	}
	for _, p := range secretPatterns {
		if !p.re.MatchString(s) {
			continue
		}
		if p.keep == 0 {
			s = p.re.ReplaceAllLiteralString(s, Removed)
		} else {
			s = p.re.ReplaceAllString(s, "${1}"+Removed)
		}
	}
	return base64Secrets(s)
}

// secretTriggers are, in lower case, the literals one of secretPatterns needs, each
// at the start of a word (after a byte that is not a letter or digit): a string holding
// none of them (and no run of 40 base64 characters) holds no secret they find.
var secretTriggers = []string{"-----begin", "key", "token", "pass", "pwd", "secret", "bearer", "basic", "eyj", "ssh-", "ecdsa",
	"sk-ssh", "akia", "asia", "ghp_", "gho_", "ghu_", "ghs_", "ghr_", "xox", "ls0tls1", "-data", "auth-provider", "docker",
	"apikey", "access", "private", "client", "refresh", "id-token", "tls"}

// triggerStart marks the bytes a trigger starts with, in either case.
var triggerStart = func() (t [256]bool) {
	for _, w := range secretTriggers {
		t[w[0]] = true
		t[w[0]&^0x20] = w[0] >= 'a' && w[0] <= 'z' || t[w[0]&^0x20]
	}
	return t
}()

// triggersAt lists the triggers by their first byte (lower case): a word start is
// compared with the few that can match, not with all of them (issue 22: at 50,000
// objects the scrub of every report string was a third of nsanalyze's CPU).
var triggersAt = func() (t [256][]string) {
	for _, w := range secretTriggers {
		t[w[0]] = append(t[w[0]], w)
	}
	return t
}()

func lower(c byte) byte {
	if c >= 'A' && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// hasLowerPrefix reports whether s starts with t (lower-case ASCII) in any ASCII case:
// what strings.EqualFold(s[:len(t)], t) said here, since a window of len(t) bytes that
// starts at a trigger's first byte folds to t only through ASCII letters.
func hasLowerPrefix(s, t string) bool {
	for j := 0; j < len(t); j++ {
		if lower(s[j]) != t[j] {
			return false
		}
	}
	return true
}

func alnum(c byte) bool { return c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' }

// scanSecrets reports, in one pass, whether s holds a trigger (any case) at the start
// of a word and a run of 40 or more base64 characters.
func scanSecrets(s string) (trigger, longRun bool) {
	run := 0
	prev := byte(0) // the class of the byte before
	for i := 0; i < len(s); i++ {
		c := s[i]
		cls := byteClass[c]
		if cls&classBase64 != 0 {
			if run++; run >= 40 {
				longRun = true
			}
		} else {
			run = 0
		}
		if !trigger && cls&classStart != 0 && prev&classAlnum == 0 {
			for _, t := range triggersAt[lower(c)] {
				if len(s)-i >= len(t) && hasLowerPrefix(s[i:], t) {
					trigger = true
					break
				}
			}
		}
		prev = cls
	}
	return trigger, longRun
}

// byteClass: what scanSecrets asks of a byte, one table lookup.
const (
	classAlnum  = 1 << iota // a letter or digit
	classBase64             // a letter, digit, '+' or '/'
	classStart              // a trigger's first byte, either case
)

var byteClass = func() (t [256]byte) {
	for c := 0; c < 256; c++ {
		if alnum(byte(c)) {
			t[c] |= classAlnum | classBase64
		}
		if c == '+' || c == '/' {
			t[c] |= classBase64
		}
		if triggerStart[c] {
			t[c] |= classStart
		}
	}
	return t
}()

func base64Secrets(s string) string {
	return longBase64.ReplaceAllStringFunc(s, func(m string) string {
		var up, low, dig int
		for i := 0; i < len(m); i++ {
			switch c := m[i]; {
			case c >= 'A' && c <= 'Z':
				up++
			case c >= 'a' && c <= 'z':
				low++
			case c >= '0' && c <= '9':
				dig++
			}
		}
		// a path of words ("TestFoo3121165375/001/team") is not key material: a run
		// with a '/' must also hold a '+' or be long
		if up >= 4 && low >= 4 && dig >= 4 && (!strings.Contains(m, "/") || strings.Contains(m, "+") || len(m) >= 100) {
			return Removed
		}
		return m
	})
}
