package shellsafe

import (
	"strings"

	"github.com/nsanalyze/nsanalyze/parsers/work"
)

// Guard keeps names Kubernetes would refuse out of commands. It is built once from
// the invalid names of a bundle (each name validated once, when it is added) and then
// checks any number of commands, each in one pass over the command (an Aho-Corasick
// automaton over the names, raw and as they look shell-quoted), so the cost is the
// length of the names plus the length of the commands, never their product.
//
// A Guard with no names (every real bundle) checks nothing beyond a refused word. The
// zero value is ready to use; Add is not safe for concurrent use, Check is once the
// Guard is built.
type Guard struct {
	nodes []acNode
	names []badName // what each pattern stands for
	seen  map[string]bool
}

type badName struct {
	kind  NameKind
	value string
}

type acNode struct {
	next map[byte]int32
	fail int32
	out  int32 // index+1 into names of a pattern ending here (or at a fail-state), 0 none
	// order is the pattern's insertion order, so that the first name added wins
	order int32
}

// guardSteps counts the automaton's transitions (the work of Check), for the tests
// that hold it linear.
var guardSteps int

// guardOps and validations count the same for parsers/work (the linear-work tests).
var (
	guardOps    = work.New("guard automaton steps")
	validations = work.New("names validated")
)

// Add validates name as a name of kind and, when Kubernetes would refuse it, adds it
// to the names no command may carry. It reports whether the name is valid.
func (g *Guard) Add(kind NameKind, name string) bool {
	if name == "" || ValidName(kind, name) {
		return true
	}
	key := kind.String() + "\x00" + name
	if g.seen == nil {
		g.seen = map[string]bool{}
	}
	if g.seen[key] {
		return false
	}
	g.seen[key] = true
	g.names = append(g.names, badName{kind, name})
	id := int32(len(g.names))
	g.insert(name, id)
	if q := strings.ReplaceAll(name, "'", `'\''`); q != name {
		g.insert(q, id)
	}
	g.nodes[0].fail = -1 // automaton must be rebuilt
	return false
}

// Len is the number of invalid names the guard holds.
func (g *Guard) Len() int { return len(g.names) }

func (g *Guard) insert(p string, id int32) {
	if len(g.nodes) == 0 {
		g.nodes = append(g.nodes, acNode{})
	}
	cur := int32(0)
	for i := 0; i < len(p); i++ {
		n := &g.nodes[cur]
		nx, ok := n.next[p[i]]
		if !ok {
			if n.next == nil {
				n.next = map[byte]int32{}
			}
			nx = int32(len(g.nodes))
			n.next[p[i]] = nx
			g.nodes = append(g.nodes, acNode{})
		}
		cur = nx
	}
	if g.nodes[cur].out == 0 || id < g.nodes[cur].out {
		g.nodes[cur].out, g.nodes[cur].order = id, id
	}
}

// build computes the failure links (breadth first).
func (g *Guard) build() {
	g.nodes[0].fail = 0
	queue := []int32{}
	for _, nx := range g.nodes[0].next {
		g.nodes[nx].fail = 0
		queue = append(queue, nx)
	}
	for len(queue) > 0 {
		cur := queue[0]
		queue = queue[1:]
		for c, nx := range g.nodes[cur].next {
			f := g.nodes[cur].fail
			for {
				if t, ok := g.nodes[f].next[c]; ok && t != nx {
					g.nodes[nx].fail = t
					break
				}
				if f == 0 {
					g.nodes[nx].fail = 0
					break
				}
				f = g.nodes[f].fail
			}
			if o := g.nodes[g.nodes[nx].fail].out; o != 0 && (g.nodes[nx].out == 0 || o < g.nodes[nx].out) {
				g.nodes[nx].out = o
			}
			queue = append(queue, nx)
		}
	}
}

// Prepare finishes the automaton after the last Add (Check calls it when needed; call
// it before sharing the Guard between goroutines).
func (g *Guard) Prepare() {
	if len(g.nodes) > 0 && g.nodes[0].fail == -1 {
		g.build()
	}
}

// Check returns cmd, or the comment that replaces it: a command of which a word was
// refused (Cmd) becomes that comment alone, and a command that carries one of the
// guard's names (raw or shell-quoted) becomes NotRun for the first such name added.
func (g *Guard) Check(cmd string) string {
	if i := strings.Index(cmd, "# no command:"); i > 0 {
		// a word of a compound command was refused (Cmd): the whole rung is that comment
		rest := cmd[i:]
		for _, sep := range []string{" && ", " | ", "; "} {
			if j := strings.Index(rest, sep); j > 0 {
				rest = rest[:j]
			}
		}
		return rest
	}
	if len(g.names) == 0 {
		return cmd
	}
	g.Prepare()
	best := int32(0)
	cur := int32(0)
	steps := guardSteps
	defer func() { guardOps.Add(guardSteps - steps) }()
	for i := 0; i < len(cmd); i++ {
		c := cmd[i]
		for {
			guardSteps++
			if nx, ok := g.nodes[cur].next[c]; ok {
				cur = nx
				break
			}
			if cur == 0 {
				break
			}
			cur = g.nodes[cur].fail
		}
		if o := g.nodes[cur].out; o != 0 && (best == 0 || o < best) {
			best = o
		}
	}
	if best == 0 {
		return cmd
	}
	n := g.names[best-1]
	return NotRun(n.kind, n.value)
}
