package logs

import (
	"strings"
	"testing"
	"time"

	"github.com/nsanalyze/nsanalyze/parsers/diag"
)

// TestVendorJSONLogs: journalctl -o json (sonobuoy's systemd-logs plugin) and logrus
// JSON (sonobuoy's meta/run.log, velero) carry their times and messages.
func TestVendorJSONLogs(t *testing.T) {
	journal := `{"_EXE":"/usr/bin/kubelet","SYSLOG_IDENTIFIER":"kubelet","_PID":"191","MESSAGE":"E0817 16:07:14.536031     191 namespace_controller.go:162] deletion of namespace x failed: boom","__REALTIME_TIMESTAMP":"1629216434536089","_HOSTNAME":"kind-control-plane"}`
	logrus := `{"level":"info","msg":"Log lines after this point will not appear in the downloaded tarball.","time":"2021-08-17T17:43:58Z"}`
	for _, c := range []struct {
		name, in, keyword, format, ident, msg string
		time                                  time.Time
	}{
		{"journal", journal, "deletion of namespace", "journald", "kubelet", "deletion of namespace x failed: boom", time.UnixMicro(1629216434536089).UTC()},
		{"logrus", logrus, "after this point", "json", "", "Log lines after this point will not appear in the downloaded tarball.", time.Date(2021, 8, 17, 17, 43, 58, 0, time.UTC)},
	} {
		t.Run(c.name, func(t *testing.T) {
			w := &diag.Sink{}
			f, _ := ScanFile(strings.NewReader(c.in+"\n"), "x/log", Options{Keywords: []string{c.keyword}}, w)
			ResolveYears([]*File{f}, c.time, "test")
			if len(f.Entries) != 1 || len(w.List) != 0 {
				t.Fatalf("entries %+v warnings %v", f.Entries, w.List)
			}
			e := f.Entries[0]
			if c.ident != "" && e.Component != c.ident {
				t.Errorf("component %q, want %q", e.Component, c.ident)
			}
			if !e.Time.Equal(c.time) || !strings.Contains(e.Detail(), c.msg) || f.Info.Format != c.format || !f.Info.Last.Equal(c.time) {
				t.Errorf("entry %+v (format %s, last %v)", e, f.Info.Format, f.Info.Last)
			}
		})
	}
}
