package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/pflag"
)

const completionUsage = `nsanalyze completion writes a shell completion script: it completes the commands,
their flags, the values of flags such as -o (per command: text|markdown|json|html for a
report, script|troubleshoot for collect), cause names after explain, and bundle paths.
The script asks nsanalyze itself (nsanalyze __complete ...), so it always matches the
nsanalyze it runs.

Usage:
  nsanalyze completion bash|zsh|fish

Examples:
  # bash, this shell only (needs bash 4.1+; no bash-completion package needed)
  source <(nsanalyze completion bash)
  # bash, every new shell
  nsanalyze completion bash > ~/.local/share/bash-completion/completions/nsanalyze

  # zsh (compinit must be loaded: autoload -U compinit && compinit)
  source <(nsanalyze completion zsh)
  # or into a directory of $fpath
  nsanalyze completion zsh > "${fpath[1]}/_nsanalyze"

  # fish
  nsanalyze completion fish > ~/.config/fish/completions/nsanalyze.fish

Flags:
`

// completionShells are the shells nsanalyze completion writes a script for.
var completionShells = []string{"bash", "zsh", "fish"}

func completionFlags(*pflag.FlagSet) runFunc {
	return func(fs *pflag.FlagSet, s IOStreams) int {
		stdout, stderr := s.Out, s.ErrOut
		if fs.NArg() != 1 {
			fmt.Fprintf(stderr, "error: completion takes one shell (%s), got %d arguments\n", orList(completionShells), fs.NArg())
			return exitUsage
		}
		script, ok := completionScripts[fs.Arg(0)]
		if !ok {
			fmt.Fprintf(stderr, "error: no completion for shell %q (want %s)\n", fs.Arg(0), orList(completionShells))
			return exitUsage
		}
		_, _ = io.WriteString(stdout, script) // checked by the dispatcher
		return exitNotStuck
	}
}

// completeFiles is the last line of a __complete answer that asks the shell to also
// complete file names.
const completeFiles = ":files"

// runComplete answers the completion scripts: args are the words of the command line
// after "nsanalyze", the last one the word being completed ("" after a space). It
// prints the candidates, one a line, then completeFiles when file names fit too.
func runComplete(args []string, stdout, _ io.Writer) int {
	if len(args) == 0 {
		args = []string{""}
	}
	cands, files := completeWords(args)
	var b strings.Builder
	for _, c := range cands {
		b.WriteString(c)
		b.WriteByte('\n')
	}
	if files {
		b.WriteString(completeFiles + "\n")
	}
	_, _ = io.WriteString(stdout, b.String())
	return exitNotStuck
}

// completeWords returns the candidates for the last of words, and whether file names
// fit there too. It routes the words before it as run does, so the command, its flags
// and the flag awaiting a value are the ones run would see.
func completeWords(words []string) (cands []string, files bool) {
	cur := words[len(words)-1]
	c, rest := route(words[:len(words)-1])
	fs, _ := c.flagSet(io.Discard)
	positional, pending, dashdash := scanWords(rest, fs)
	match := func(list []string, prefix string) []string {
		var out []string
		for _, v := range list {
			if strings.HasPrefix(prefix+v, cur) {
				out = append(out, prefix+v)
			}
		}
		return out
	}
	switch {
	case pending != nil:
		v, f := flagValues(pending)
		return match(v, ""), f
	case !dashdash && strings.HasPrefix(cur, "--") && strings.Contains(cur, "="):
		name, _, _ := strings.Cut(cur[2:], "=")
		if f := fs.Lookup(name); f != nil {
			v, _ := flagValues(f) // files after "=" are not completed: the shell's word is the whole
			return match(v, "--"+name+"="), false
		}
		return nil, false
	case !dashdash && strings.HasPrefix(cur, "-"):
		var names []string
		fs.VisitAll(func(f *pflag.Flag) {
			if f.Hidden || f.Deprecated != "" {
				return
			}
			names = append(names, "--"+f.Name)
			if f.Shorthand != "" && len(cur) <= 2 {
				names = append(names, "-"+f.Shorthand)
			}
		})
		return match(names, ""), false
	}
	if c == root && len(positional) == 0 && !dashdash {
		cands = match(commandNames(), "")
	}
	if c.complete != nil {
		return append(cands, match(c.complete(positional), "")...), false
	}
	return cands, true
}

// scanWords splits a command's words into positional arguments and reports the flag
// whose value comes next (nil when none) and whether "--" ended the flags.
func scanWords(args []string, fs *pflag.FlagSet) (positional []string, pending *pflag.Flag, dashdash bool) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		var f *pflag.Flag
		switch {
		case dashdash || a == "-" || !strings.HasPrefix(a, "-"):
			positional = append(positional, a)
			continue
		case a == "--":
			dashdash = true
			continue
		case strings.HasPrefix(a, "--"):
			if !strings.Contains(a, "=") {
				f = fs.Lookup(a[2:])
			}
		default:
			for j := 1; j < len(a); j++ {
				g := fs.ShorthandLookup(a[j : j+1])
				if g == nil {
					break
				}
				if takesValue(g) {
					if j == len(a)-1 {
						f = g
					}
					break
				}
			}
		}
		if takesValue(f) {
			if i == len(args)-1 {
				return positional, f, false
			}
			i++
		}
	}
	return positional, nil, dashdash
}

// flagValues are the completions of a flag's value: its enumerated values, or file
// names for a flag that names a file.
func flagValues(f *pflag.Flag) (values []string, files bool) {
	return f.Annotations[annValues], len(f.Annotations[annFiles]) > 0
}

// completionScripts are the scripts of nsanalyze completion, by shell. Each passes the
// words up to the cursor to nsanalyze __complete and offers what it prints; ":files"
// adds the shell's own file name completion.
var completionScripts = map[string]string{
	"bash": `# bash completion for nsanalyze (nsanalyze completion bash)
_nsanalyze() {
    local line="${COMP_LINE:0:COMP_POINT}" cur cand files=0 out
    local -a words
    read -r -a words <<< "$line"
    if [[ -z "$line" || "$line" =~ [[:space:]]$ ]]; then
        words+=("")
    fi
    cur="${words[${#words[@]}-1]}"
    COMPREPLY=()
    out=$("${words[0]}" __complete "${words[@]:1}" 2>/dev/null) || return 0
    local strip=""
    if [[ "$cur" == *=* && "$COMP_WORDBREAKS" == *=* ]]; then
        strip="${cur%=*}="
    fi
    while IFS= read -r cand; do
        case "$cand" in
            "") ;;
            :files) files=1 ;;
            *) COMPREPLY+=("${cand#"$strip"}") ;;
        esac
    done <<< "$out"
    if (( files )); then
        compopt -o filenames 2>/dev/null
        while IFS= read -r cand; do
            [[ -n "$cand" ]] && COMPREPLY+=("$cand")
        done < <(compgen -f -- "$cur")
    fi
    return 0
}
complete -F _nsanalyze nsanalyze
`,
	"zsh": `#compdef nsanalyze
# zsh completion for nsanalyze (nsanalyze completion zsh)
_nsanalyze() {
    local out line
    local -a cands
    local files=0
    out=$("${words[1]}" __complete "${(@)words[2,CURRENT]}" 2>/dev/null) || return 1
    for line in "${(@f)out}"; do
        case "$line" in
            '') ;;
            :files) files=1 ;;
            *) cands+=("$line") ;;
        esac
    done
    (( ${#cands} )) && compadd -Q -- "${cands[@]}"
    (( files )) && _files
    return 0
}
if [[ "${funcstack[1]}" == _nsanalyze ]]; then
    _nsanalyze "$@"
else
    compdef _nsanalyze nsanalyze
fi
`,
	"fish": `# fish completion for nsanalyze (nsanalyze completion fish)
function __nsanalyze_complete
    set -l tokens (commandline -opc)
    set -l cur (commandline -ct)
    set -l cmd $tokens[1]
    set -e tokens[1]
    for line in ($cmd __complete $tokens "$cur" 2>/dev/null)
        switch $line
            case ''
            case ':files'
                __fish_complete_path "$cur"
            case '*'
                echo $line
        end
    end
end
complete -c nsanalyze -f -a '(__nsanalyze_complete)'
`,
}
