// Package controllernotrunning is the rule for a kube-controller-manager that is down
// or lost its leadership, so no namespace controller works on the deletion.
package controllernotrunning
