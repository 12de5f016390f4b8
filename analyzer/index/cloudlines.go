package index

import (
	"github.com/nsanalyze/nsanalyze/analyzer/findings"
	"github.com/nsanalyze/nsanalyze/parsers/kubemsg"
	"github.com/nsanalyze/nsanalyze/parsers/logs"
)

// cloudLines are the kept cloud lines of one controller.
type cloudLines struct {
	failures []*logs.Entry // the controller's own failures (that are not refusals)
	denials  []*logs.Entry // the cloud refused one of its calls
}

// addCloudLine files a line under the controller it is about ("" when nothing in it
// says which).
func (ix *Index) addCloudLine(e *logs.Entry, d string) {
	l, ok := kubemsg.ParseCloudLine(d, e.Caller)
	if !ok {
		return
	}
	if ix.cloud == nil {
		ix.cloud = map[string]*cloudLines{}
	}
	c := ix.cloud[l.Controller]
	if c == nil {
		c = &cloudLines{}
		ix.cloud[l.Controller] = c
	}
	if l.Denial {
		c.denials = append(c.denials, e)
	} else {
		c.failures = append(c.failures, e)
	}
}

// CloudLines returns a cloud controller's lines (kubemsg.CloudRoute, CloudService,
// CloudNode; "" for refusals nothing attributes), oldest first: its own failures and
// the cloud's refusals of its calls.
func (ix *Index) CloudLines(controller string) (failures, denials []*logs.Entry) {
	c := ix.cloud[controller]
	if c == nil {
		return nil, nil
	}
	failures = append([]*logs.Entry{}, c.failures...)
	denials = append([]*logs.Entry{}, c.denials...)
	findings.SortEntries(failures)
	findings.SortEntries(denials)
	return failures, denials
}
