package bundle

// kubectlLayout is plain saved `kubectl get -o json|yaml` output: object files no other
// layout claims (a directory or an archive of them; a lone file is LayoutSingleFile).
var kubectlLayout = Layout{
	Name: LayoutKubectl,
	Claims: func(rel string, v *bundleView) bool {
		return v != nil && v.objectFiles[rel] && !v.singleFile
	},
}

// kubectlTextLayout is saved kubectl text (get tables, describe output, stderr, YAML
// pasted after a prompt), recognised by content and read by parsers/text.
var kubectlTextLayout = Layout{
	Name: LayoutKubectlText,
	Claims: func(rel string, v *bundleView) bool {
		return v != nil && v.textFiles[rel]
	},
}
