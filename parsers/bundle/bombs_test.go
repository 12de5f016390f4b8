package bundle

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nsanalyze/nsanalyze/fixtures/hostile"
	"github.com/nsanalyze/nsanalyze/parsers/diag"
)

// TestBombs: every bomb of issue #15 added to the real base bundle loads in bounded
// time and memory, keeps every time within years 0001-9999 (the JSON report can encode
// the records), keeps names and warnings bounded, and warns with the path.
func TestBombs(t *testing.T) {
	root := filepath.Join("..", "..", hostile.BaseBundle)
	base, _, err := loadGuarded(t, root, Options{}, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range hostile.Bombs() {
		t.Run(b.Name, func(t *testing.T) {
			if b.Heavy && testing.Short() {
				t.Skip("heavy bomb skipped with -short")
			}
			dir := filepath.Join(t.TempDir(), "bundle")
			if err := hostile.CopyTree(root, dir); err != nil {
				t.Fatal(err)
			}
			p, err := b.Build(dir)
			if err != nil {
				t.Fatal(err)
			}
			rec, grew, err := loadGuarded(t, dir, Options{}, 2*time.Minute)
			if err != nil {
				t.Fatal(err)
			}
			if grew > 768<<20 {
				t.Errorf("heap grew by %d MB", grew>>20)
			}
			if len(rec.Warnings) > len(base.Warnings)+3*diag.DefaultKindLimit {
				t.Errorf("%d warnings", len(rec.Warnings))
			}
			if b.Warns && len(warningsFor(rec, p)) == 0 {
				t.Errorf("no warning naming %s: %.2000v", p, rec.Warnings)
			}
			bad := func(what string, tm time.Time) {
				if !tm.IsZero() && !diag.InRange(tm) {
					t.Errorf("%s: time %s", what, tm)
				}
			}
			for _, e := range rec.Entries {
				bad(e.File, e.Time)
			}
			for _, f := range rec.LogFiles {
				bad(f.Path, f.First)
				bad(f.Path, f.Last)
			}
			for _, o := range allObjects(rec) {
				bad(o.Ref(), o.CreationTimestamp)
				bad(o.Ref(), o.DeletionTimestamp)
			}
			bad("newest object", rec.NewestObjectTime)
			if _, err := json.Marshal(rec.LogFiles); err != nil {
				t.Error(err)
			}
			for _, f := range rec.Files {
				if len(f) > diag.MaxNameBytes+200 {
					t.Errorf("file name of %d bytes: %.100s", len(f), f)
				}
			}
			for _, w := range rec.Warnings {
				if len(w.File)+len(w.Message) > 4*diag.MaxNameBytes+diag.MaxMessageBytes {
					t.Errorf("warning of %d bytes", len(w.File)+len(w.Message))
				}
				if strings.Contains(w.Message, diag.InternalError) {
					t.Errorf("internal error: %.300s", w.Message)
				}
			}
		})
	}
}
