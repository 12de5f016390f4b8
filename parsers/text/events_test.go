package text

import (
	"fmt"
	"strings"
	"testing"

	"github.com/nsanalyze/nsanalyze/fixtures/damage"
	"github.com/nsanalyze/nsanalyze/parsers/diag"
)

// eventsOf returns "kind/name reason type count message line" for each Event Parse reads.
func eventsOf(in string) []string {
	var out []string
	for _, o := range Parse(strings.NewReader(in), "t.txt", Options{}, &diag.Sink{}).Objects {
		if o.Kind == "Event" && o.Event != nil {
			e := o.Event
			out = append(out, fmt.Sprintf("%s/%s %s %s %d %q %d", e.Involved.Kind, e.Involved.Name, e.Reason, e.Type, e.Count, e.Message, o.Source.Line))
		}
	}
	return out
}

// TestEventTables: `kubectl get events` tables, whose first column is LAST SEEN: the
// pre-1.14 columns retyped as a Markdown table (Azure/AKS#705: no trailing pipes, an
// empty SUBOBJECT cell), and the 1.14+ columns as kubectl prints them.
func TestEventTables(t *testing.T) {
	cases := []struct{ name, in, want string }{
		{"pre-1.14 columns as a Markdown table (Azure/AKS#705)",
			"| LAST SEEN  | FIRST SEEN | COUNT | NAME | KIND | SUBOBJECT | TYPE  | REASON | SOURCE | MESSAGE\n| ------------- | ------------- | ------------- | ------------- | ------------- | ------------- | ------------- | ------------- | ------------- | ------------- |\n| 7s | 7h  | 110 | service-name.1561188030677ac1 | Service | | Normal | DeletingLoadBalancer | service-controller | Deleting load balancer\n",
			`Service/service-name DeletingLoadBalancer Normal 110 "Deleting load balancer" 3`},
		{"1.14+ columns",
			"$ kubectl get events -n shop\nLAST SEEN   TYPE      REASON                    OBJECT              MESSAGE\n2m          Warning   FailedDelete              pod/web-0           error deleting pod: x\n5s          Normal    SuccessfulDelete          replicaset/web-7d   Deleted pod: web-7d-abc\n",
			`Pod/web-0 FailedDelete Warning 0 "error deleting pod: x" 3|ReplicaSet/web-7d SuccessfulDelete Normal 0 "Deleted pod: web-7d-abc" 4`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := strings.Join(eventsOf(c.in), "|"); got != c.want {
				t.Errorf("got  %s\nwant %s", got, c.want)
			}
			if !Sniff([]byte(c.in)) {
				t.Errorf("not sniffed as kubectl text")
			}
		})
	}
}

// TestEventTableAnyForm: any `get events` table (either column set, any reason, message
// of any words, empty cells), printed as kubectl aligns it or retyped as a Markdown
// table (with or without its outer pipes' trailing one, with its separator row), reads
// as the same Events: the form never changes the reading.
func TestEventTableAnyForm(t *testing.T) {
	type ev struct{ last, typ, reason, kind, res, name, msg string }
	evs := []ev{
		{"7s", "Normal", "DeletingLoadBalancer", "Service", "service", "lb-svc", "Deleting load balancer"},
		{"3m", "Warning", "FailedDelete", "Pod", "pod", "web-0", "error: x y z"},
		{"1h", "Warning", "NamespaceDeletionContentFailure", "Namespace", "namespace", "shop", "Failed to delete all resource types, 1 remaining: a b"},
	}
	n := 0
	for k := 1; k <= len(evs); k++ {
		rows := evs[:k]
		for _, old := range []bool{false, true} {
			cols := []string{"LAST SEEN", "TYPE", "REASON", "OBJECT", "MESSAGE"}
			if old {
				cols = []string{"LAST SEEN", "FIRST SEEN", "COUNT", "NAME", "KIND", "SUBOBJECT", "TYPE", "REASON", "SOURCE", "MESSAGE"}
			}
			var cells [][]string
			for _, e := range rows {
				if old {
					cells = append(cells, []string{e.last, e.last, "3", e.name + ".1561188030677ac1", e.kind, "", e.typ, e.reason, "some-controller", e.msg})
				} else {
					cells = append(cells, []string{e.last, e.typ, e.reason, e.res + "/" + e.name, e.msg})
				}
			}
			var want []string
			for i, e := range rows {
				count := 0
				if old {
					count = 3
				}
				want = append(want, fmt.Sprintf("%s/%s %s %s %d %q %d", e.kind, e.name, e.reason, e.typ, count, e.msg, i+2))
			}
			// as kubectl aligns it (an empty cell is "<none>")
			widths := make([]int, len(cols))
			for i, c := range cols {
				widths[i] = len(c)
				for _, r := range cells {
					widths[i] = max(widths[i], len(r[i]), len("<none>"))
				}
			}
			line := func(r []string) string {
				var b strings.Builder
				for i, c := range r {
					if c == "" {
						c = "<none>"
					}
					b.WriteString(c)
					if i < len(r)-1 {
						b.WriteString(strings.Repeat(" ", widths[i]-len(c)+3))
					}
				}
				return b.String()
			}
			aligned := line(cols) + "\n"
			for _, r := range cells {
				aligned += line(r) + "\n"
			}
			if got := strings.Join(eventsOf(aligned), "|"); got != strings.Join(want, "|") {
				t.Fatalf("aligned:\n%s\ngot  %s\nwant %s", aligned, got, strings.Join(want, "|"))
			}
			for _, trailing := range []string{"", " |"} {
				md := "| " + strings.Join(cols, " | ") + trailing + "\n|" + strings.Repeat(" --- |", len(cols)) + "\n"
				for _, r := range cells {
					md += "| " + strings.Join(r, " | ") + trailing + "\n"
				}
				// the separator row is line 2: each row one line later
				var wantMD []string
				for i, w := range want {
					wantMD = append(wantMD, strings.TrimSuffix(w, fmt.Sprintf(" %d", i+2))+fmt.Sprintf(" %d", i+3))
				}
				if got := strings.Join(eventsOf(md), "|"); got != strings.Join(wantMD, "|") {
					t.Fatalf("markdown:\n%s\ngot  %s\nwant %s", md, got, strings.Join(wantMD, "|"))
				}
				n++
			}
		}
	}
	if n < 12 {
		t.Fatalf("%d tables", n)
	}
}

// aksTable is Azure/AKS#705's `get events` retyped as a Markdown table, as published.
const aksTable = "| LAST SEEN  | FIRST SEEN | COUNT | NAME | KIND | SUBOBJECT | TYPE  | REASON | SOURCE | MESSAGE\n| ------------- | ------------- | ------------- | ------------- | ------------- | ------------- | ------------- | ------------- | ------------- | ------------- |\n| 7s | 7h  | 110 | service-name.1561188030677ac1 | Service | | Normal | DeletingLoadBalancer | service-controller | Deleting load balancer\n"

// TestEventTableMailed: the Markdown event table of Azure/AKS#705 in a mail reply,
// wrapped at spaces at every width from 30 columns to past its widest row, quoted at any
// depth in any form (or not), with the ticket's prose before and after it, reads as the
// same Event as pasted, at the line its row starts on.
func TestEventTableMailed(t *testing.T) {
	want := eventsOf(aksTable)
	if len(want) != 1 {
		t.Fatalf("as pasted: %v", want)
	}
	before := "When querying `kubectl get events`, I see that this service has been emitting the DeletingLoadBalancer event for 7 hours.\n\n"
	after := "\nDeleting the service and redeploying again still does not fix the issue.\n"
	quotes := []damage.Step{damage.Prefix(""), damage.Quote(1, false), damage.Quote(2, false), damage.Quote(2, true), damage.Quote(3, false), damage.Prefix(">>")}
	n := 0
	for w := 30; w <= 170; w++ {
		for _, q := range quotes {
			wrap := damage.Wrap(w, damage.Word)
			in := q.Apply(wrap.Apply(before + aksTable + after))
			lines := strings.Split(aksTable, "\n")
			row := strings.Count(wrap.Apply(before+lines[0]+"\n"+lines[1]), "\n") + 2
			wantHere := strings.TrimSuffix(want[0], " 3") + fmt.Sprintf(" %d", row)
			if got := eventsOf(in); len(got) != 1 || got[0] != wantHere {
				t.Fatalf("%s then %s:\n%s\ngot  %v\nwant %s", wrap.Name, q.Name, in, got, wantHere)
			}
			n++
		}
	}
	if n < 800 {
		t.Fatalf("%d forms", n)
	}
}

// TestMarkdownTableThenCommand: a Markdown `get ns` table whose rows do not close their
// last cell, its last row the widest line, then a command line: the command is no rest
// of the row (the reader says it starts a record of its own), so the last namespace
// reads Terminating and the command is a command.
func TestMarkdownTableThenCommand(t *testing.T) {
	in := "| NAME | STATUS\n|---|---\n| kube-system | Active\n| cattle-system-long-name | Terminating\n$ kubectl describe ns x\n"
	r := Parse(strings.NewReader(in), "ticket.txt", Options{}, &diag.Sink{})
	var got []string
	for _, o := range r.Objects {
		got = append(got, fmt.Sprintf("%s/%s %s %d", o.Kind, o.Name, o.Phase, o.Source.Line))
	}
	want := "Namespace/kube-system Active 3|Namespace/cattle-system-long-name Terminating 4"
	if strings.Join(got, "|") != want || len(r.Commands) != 1 {
		t.Fatalf("read %q and %d commands, want %q and the command", strings.Join(got, "|"), len(r.Commands), want)
	}
}
