module github.com/nsanalyze/nsanalyze

go 1.26.0

require (
	github.com/klauspost/compress v1.18.0
	github.com/santhosh-tekuri/jsonschema/v6 v6.0.2
	github.com/sirupsen/logrus v1.10.2
	github.com/spf13/pflag v1.1.0
	github.com/ulikunitz/xz v0.5.15
	github.com/yuin/goldmark v1.7.4
	go.yaml.in/yaml/v2 v2.4.4
	k8s.io/apimachinery v0.37.2
	sigs.k8s.io/yaml v1.6.0
)

require (
	github.com/go-logr/logr v1.4.3 // indirect
	golang.org/x/sys v0.13.0 // indirect
	golang.org/x/text v0.40.0 // indirect
	k8s.io/klog/v2 v2.140.0 // indirect
	k8s.io/utils v0.0.0-20260626114624-be93311217bd // indirect
)
