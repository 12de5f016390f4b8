package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nsanalyze/nsanalyze/analyzer"
	"github.com/nsanalyze/nsanalyze/fixtures/damage"
)

// Damage is searched, not listed: the generator of fixtures/damage draws a damage (one
// to three steps, each a family with continuous parameters: a wrap at any width, a
// gutter, nested quotes, HTML entities, ...) and FuzzDamage and TestDamageDrawn require
// of every text case of fixtures/realworld and fixtures/handmade the diagnosis its
// undamaged text gives (the comparison of TestMetamorphicFixtures: stuck namespaces,
// cause types, group/versions, finalizers, webhooks, state, exit code).

// damageCase is one text case: its text files, and a copy of the bundle whose text files
// each run overwrites (the other files are links).
type damageCase struct {
	rel, dir string
	files    []string
	texts    map[string]string
	copyDir  string
	want     string // the undamaged diagnosis ("" until first needed)
}

// damageCases lists the text cases, sorted by path (a fuzz input indexes them).
func damageCases(t testing.TB) []*damageCase {
	var out []*damageCase
	root := filepath.Join("..", "..", "fixtures")
	for _, dir := range fixtureDirs(t) {
		rel, _ := filepath.Rel(root, dir)
		rel = filepath.ToSlash(rel)
		if !strings.HasPrefix(rel, "realworld/") && !strings.HasPrefix(rel, "handmade/") {
			continue
		}
		files := textFiles(t, dir)
		if len(files) == 0 {
			continue
		}
		c := &damageCase{rel: rel, dir: dir, files: files, texts: map[string]string{}}
		for _, f := range files {
			b, err := os.ReadFile(filepath.Join(dir, f))
			if err != nil {
				t.Fatal(err)
			}
			c.texts[f] = string(b)
		}
		out = append(out, c)
	}
	if len(out) < 20 {
		t.Fatalf("only %d text cases", len(out))
	}
	return out
}

// check analyses c with its text files damaged by d and reports a diagnosis that is not
// the undamaged one (nil when the damage is excluded for c, with its reason).
func (c *damageCase) check(t testing.TB, tmp string, d damage.Damage) error {
	if c.want == "" {
		code, rep := analyzeDir(t, c.dir, "--exclude", "raw", "--exclude", "expected.json", "--exclude", "README.md")
		c.want = diagnosis(code, rep)
	}
	if c.copyDir == "" {
		// (realworld/x and handmade/x must not share a copy)
		c.copyDir = damagedCopy(t, c.dir, c.files, damage.Transform{Apply: func(s string) string { return s }},
			filepath.Join(tmp, strings.ReplaceAll(c.rel, "/", "_")))
	}
	damaged := map[string]string{}
	for _, f := range c.files {
		damaged[f] = d.Apply(c.texts[f])
		if err := os.WriteFile(filepath.Join(c.copyDir, f), []byte(damaged[f]), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var out, errb bytes.Buffer
	code := run([]string{"-o", "json", "-q", c.copyDir}, &out, &errb)
	var rep analyzer.Report
	got := fmt.Sprintf("exit %d, no report: %s", code, lastLine(errb.String()))
	if json.Unmarshal(out.Bytes(), &rep) == nil {
		got = diagnosis(code, &rep)
	}
	for _, w := range rep.Warnings {
		if strings.Contains(w.Message, "internal error") {
			return fmt.Errorf("%s on %s: internal error: %s", d.Name(), c.rel, w)
		}
	}
	if got == c.want {
		return nil
	}
	if why := damageExcluded(c, d, damaged); why != "" {
		return nil
	}
	return fmt.Errorf("%s changes the diagnosis of %s (text files %v):\n got: %s\nwant: %s", d.Name(), c.rel, c.files, got, c.want)
}

func lastLine(s string) string {
	s = strings.TrimSpace(s)
	return s[strings.LastIndexByte(s, '\n')+1:]
}

// damageExcluded says why damage d cannot keep the diagnosis of c, or "".
func damageExcluded(c *damageCase, d damage.Damage, damaged map[string]string) string {
	for _, s := range d.Steps {
		if s.Family == "named" {
			if why, ok := fixtureKept[s.Name][c.rel]; ok {
				return why
			}
		}
	}
	return ""
}

// drawCase reads a case and a damage from a fuzz input: two bytes choose the case.
func drawCase(cases []*damageCase, data []byte) (*damageCase, damage.Damage) {
	s := damage.NewSource(data)
	c := cases[s.Intn(65536)%len(cases)]
	if len(data) > 2 {
		data = data[2:]
	} else {
		data = nil
	}
	return c, damage.Draw(data)
}

// FuzzDamage draws case × damage × parameters and requires the undamaged diagnosis.
func FuzzDamage(f *testing.F) {
	cases := damageCases(f)
	for seed := range uint64(32) {
		f.Add(damage.Seeded(seed))
	}
	tmp := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte) {
		c, d := drawCase(cases, data)
		if err := c.check(t, tmp, d); err != nil {
			t.Fatal(err)
		}
	})
}

// damageDraws is how many seeded damages TestDamageDrawn runs per case.
const damageDraws = 6

// TestDamageDrawn runs damageDraws seeded damages of the generator over every text
// case: the class FuzzDamage searches, checked on every `go test` at a fixed cost.
func TestDamageDrawn(t *testing.T) {
	cases := damageCases(t)
	tmp := t.TempDir()
	runs, fails := 0, 0
	for i, c := range cases {
		for k := range damageDraws {
			seed := uint64(i*damageDraws + k)
			d := damage.Draw(damage.Seeded(seed))
			runs++
			if err := c.check(t, tmp, d); err != nil {
				fails++
				t.Errorf("seed %d: %v", seed, err)
			}
		}
	}
	t.Logf("%d cases × %d drawn damages = %d runs, %d failed", len(cases), damageDraws, runs, fails)
}
