package findings

// InlineCommands are the commands the analyzer wrote inside the report's sentences
// ("(collect: kubectl get apiservices -o json)"), from the Inline fields set where
// each sentence is composed: a text renderer keeps each whole on one line, so it can be
// copied, without reading the sentences around it.
func InlineCommands(r *Report) []string {
	seen := map[string]bool{}
	var out []string
	add := func(cmds []string) {
		for _, c := range cmds {
			if c != "" && !seen[c] {
				seen[c] = true
				out = append(out, c)
			}
		}
	}
	add(r.Inline)
	for i := range r.Namespaces {
		for j := range r.Namespaces[i].Causes {
			c := &r.Namespaces[i].Causes[j]
			add(c.Inline)
			for k := range c.Chain {
				add(c.Chain[k].Inline)
			}
		}
	}
	for i := range r.Risks {
		add(r.Risks[i].Inline)
	}
	for i := range r.Problems {
		for k := range r.Problems[i].Chain {
			add(r.Problems[i].Chain[k].Inline)
		}
	}
	return out
}
