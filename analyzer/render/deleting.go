package render

import (
	"fmt"

	"github.com/nsanalyze/nsanalyze/analyzer/findings"
)

// deletingText lists the namespaces still being deleted (not stuck): why they are not
// called stuck, and the read-only commands for when one does not finish.
func (p *tprinter) deleting(r *findings.Report) {
	if len(r.Deleting) == 0 {
		return
	}
	p.line("")
	p.line(p.c(sBold, fmt.Sprintf("%d namespace%s still being deleted (not stuck):", len(r.Deleting), plural(len(r.Deleting)))))
	for _, d := range r.Deleting {
		p.wrap("  ", "    ", p.c(sBold, d.Name)+": "+d.Why+".")
		p.line("    If it does not finish:")
		for i, s := range d.Watch {
			p.wrap(fmt.Sprintf("    %d. ", i+1), "       ", s.Why)
			p.command("       ", s.Command)
		}
	}
}

func (m *mprinter) deleting(r *findings.Report) {
	if len(r.Deleting) == 0 {
		return
	}
	m.p("%d namespace%s still being deleted (not stuck):\n\n", len(r.Deleting), plural(len(r.Deleting)))
	for _, d := range r.Deleting {
		m.p("- %s: %s.\n\n  If it does not finish:\n\n", code(d.Name), mdText(d.Why))
		for i, s := range d.Watch {
			m.p("  %d. %s\n\n", i+1, mdText(s.Why))
			m.p("     %s\n", indentBlock(fence("sh", s.Command), "     "))
		}
	}
}
