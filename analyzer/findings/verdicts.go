package findings

import ()

// FinalizerVerdict is the plain verdict on one finalizer that blocks: the state of its
// controller in the bundle and what clearing it by hand does, from the bundle's
// evidence and the catalog only.
type FinalizerVerdict struct {
	Finalizer string `json:"finalizer"`
	// Controller is the state of its controller: OwnerBuiltIn, OwnerRunning ("still
	// working"), OwnerFailing, OwnerNotFound or OwnerUnknown ("not in the bundle").
	Controller string `json:"controller"`
	// Clearing says what removing it by hand does.
	Clearing string `json:"clearing"`
}
