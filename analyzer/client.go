package analyzer

import (
	"github.com/nsanalyze/nsanalyze/analyzer/findings"
)

// forClient writes every command of the report for the platform's client (ForClient).
func forClient(r *findings.Report, platform string) {
	if findings.Kubectl(platform) == "kubectl" {
		return
	}
	steps := func(s []findings.RemediationStep) {
		for i := range s {
			s[i].Command = findings.ForClient(platform, s[i].Command)
		}
	}
	gaps := func(g []findings.Gap) {
		for i := range g {
			g[i].Collect = findings.ForClient(platform, g[i].Collect)
		}
	}
	for i := range r.Problems {
		p := &r.Problems[i]
		steps(p.Remediation)
		for j := range p.Chain {
			if f := p.Chain[j].Fix; f != nil {
				f.Command = findings.ForClient(platform, f.Command)
			}
		}
	}
	for i := range r.Namespaces {
		n := &r.Namespaces[i]
		steps(n.Remediation)
		for j := range n.Causes {
			for k := range n.Causes[j].Chain {
				if f := n.Causes[j].Chain[k].Fix; f != nil {
					f.Command = findings.ForClient(platform, f.Command)
				}
			}
		}
	}
	for i := range r.Risks {
		steps(r.Risks[i].Fix)
	}
	for i := range r.Deleting {
		steps(r.Deleting[i].Watch)
	}
	gaps(r.Coverage)
	if n := r.NextStep; n != nil {
		gaps(n.Missing)
		n.Command = findings.ForClient(platform, n.Command)
		for i := range n.Commands {
			n.Commands[i] = findings.ForClient(platform, n.Commands[i])
		}
	}
}
