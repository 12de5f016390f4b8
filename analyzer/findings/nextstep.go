package findings

import ()

// NextStep is what to ask the customer for when the report cannot name the cause: the
// state is unknown, or a stuck namespace's cause is undetermined. Renderers write it as
// the note a support engineer pastes (render's -o reply); they never re-parse it.
type NextStep struct {
	// Seen says what the bundle shows, in one sentence.
	Seen string `json:"seen"`
	// Missing are what the bundle lacks that would show the cause, with why each matters
	// (Gap.Collect is the command that gathers it alone).
	Missing []Gap `json:"missing"`
	// Make is what the support engineer runs to make the customer's script;
	// Command is the one command the customer runs (read-only, no Secret values).
	Make    string `json:"make,omitempty"`
	Command string `json:"command"`
	// Commands are the two or three commands that suffice instead of the script.
	Commands []string `json:"commands,omitempty"`
	// Platform is the platform the commands are written for ("" for kubeadm and unknown).
	Platform string `json:"platform,omitempty"`
}
