
# ---------------------------------------------------------------------------------------
# What this script does. It only READS from the cluster: the kubectl (or oc) verbs used are
# get, logs, api-resources, version, config current-context (local kubeconfig) and
# get --raw on the discovery paths /api and /apis. Every call has --request-timeout.
# It writes one archive, <out-dir>/nsanalyze-<context>-<UTC time>.tar.gz, holding:
#   cluster/      namespaces, apiservices, crds, webhook configurations, events,
#                 kube-system leases, version, /api and /apis discovery, api-resources
#   namespaces/<ns>/<resource>.json
#                 every listable namespaced resource of every Terminating namespace
#                 (and of the namespaces named with -n); <resource>.stderr.txt keeps what
#                 kubectl printed on stderr (discovery / conversion errors are evidence)
#                 SECRETS: metadata only (name, namespace, uid, times, type, the NAMES of
#                 their data keys, owner references, finalizers). A Secret's data, its
#                 annotations (kubectl's last-applied copy holds the data) and labels are
#                 never written: nsanalyze never needs them. ConfigMaps are kept whole.
#   backends/<ns>/ the Service, Endpoints, EndpointSlices and Pods behind every APIService,
#                 admission webhook and CRD conversion webhook; backends/nodes/ their Nodes
#   logs/<pod>/<container>[-previous].log
#                 kube-apiserver, kube-controller-manager, cloud-controller-manager pods
#   collect-summary.md  what was saved and what could not be (also printed on stderr)
# Run it with sh, dash, bash or busybox sh. Environment overrides:
#   KUBECTL=/path/to/kubectl|oc   NSA_TIMEOUT=30s   NSA_OUT_DIR=.   NSA_NAMESPACES="ns1 ns2"
#   NSA_LOG_TAIL=-1 (lines per log, -1 = all)   NSA_DEADLINE=30m (the whole run: when it is
#   reached, the kubectl call in flight is stopped, no further call is made, and what was
#   saved is archived; a kubectl that ignores --request-timeout cannot hang it)
# What the script prints of the cluster (the context name, servers' error messages) has
# every byte outside printable ASCII shown as '?': no escape sequence reaches the terminal.
# Nothing from the cluster is ever evaluated: names are checked against the Kubernetes
# name syntax before they are used as file names or arguments, and always quoted.
# ---------------------------------------------------------------------------------------
set -u
umask 077

[ -n "${NSA_TIMEOUT:-}" ] && nsa_timeout=$NSA_TIMEOUT
[ -n "${NSA_OUT_DIR:-}" ] && nsa_out_dir=$NSA_OUT_DIR
[ -n "${NSA_NAMESPACES:-}" ] && nsa_namespaces="$nsa_namespaces $NSA_NAMESPACES"
[ -n "${NSA_LOG_TAIL:-}" ] && nsa_log_tail=$NSA_LOG_TAIL
[ -n "${NSA_DEADLINE:-}" ] && nsa_deadline=$NSA_DEADLINE

# nsa_clean: the input with every byte outside printable ASCII (and newline) as '?', for
# what the script prints of the cluster (a context name or an error message holding ESC
# sequences must not act on the customer's terminal)
nsa_clean() { LC_ALL=C tr -c '\n -~' '?'; }
nsa_die() { printf 'nsanalyze collect: %s\n' "$*" | nsa_clean >&2; exit 2; }

# nsa_seconds DURATION: its seconds (30s, 2m, 1h, 45), or nothing when it is not a
# positive duration: 0 (and "s", "ms", "0h") would mean "no timeout" to kubectl
nsa_seconds() {
  nsa_n=${1%[smh]}
  case $nsa_n in '' | *[!0-9]*) return 1 ;; esac
  nsa_n=$(printf '%s' "$nsa_n" | sed 's/^0*//')
  [ -n "$nsa_n" ] || return 1
  case $1 in
    *h) echo $((nsa_n * 3600)) ;;
    *m) echo $((nsa_n * 60)) ;;
    *) echo "$nsa_n" ;;
  esac
}
nsa_seconds "$nsa_timeout" > /dev/null || nsa_die "bad timeout '$nsa_timeout' (want a positive duration such as 30s or 2m; 0 would mean no timeout)"
nsa_deadline_s=$(nsa_seconds "$nsa_deadline") || nsa_die "bad deadline '$nsa_deadline' (want a positive duration such as 30m or 2h)"
case $nsa_log_tail in
  -1) ;;
  '' | *[!0-9]*) nsa_die "bad NSA_LOG_TAIL '$nsa_log_tail' (want -1 or a number of lines)" ;;
esac

if [ -n "${KUBECTL:-}" ]; then
  K=$KUBECTL
elif command -v kubectl >/dev/null 2>&1; then
  K=kubectl
elif command -v oc >/dev/null 2>&1; then
  K=oc
else
  nsa_die "neither kubectl nor oc is on PATH (or set KUBECTL=/path/to/kubectl)"
fi

# kq ARGS...: one read-only call with a timeout; never reads stdin (the script itself
# may be arriving on stdin: nsanalyze collect | sh). It runs in the background and is
# waited for, its pid in $nsa_work/kpid, so the deadline watchdog can stop it; once the
# deadline is reached no call is made any more.
kq() {
  if [ -e "$nsa_work/deadline" ]; then
    printf '%s\n' "deadline reached: not run" >&2
    return 124
  fi
  "$K" --request-timeout="$nsa_timeout" "$@" </dev/null &
  nsa_kpid=$!
  printf '%s\n' "$nsa_kpid" > "$nsa_work/kpid"
  wait "$nsa_kpid"
  nsa_krc=$?
  : > "$nsa_work/kpid"
  return "$nsa_krc"
}

# nsa_safe STRING: a file-name-safe rendering of a free-form string (the context name)
nsa_safe() { printf '%s' "$1" | tr -c 'A-Za-z0-9._-' '_' | cut -c1-80; }

nsa_ctx=$("$K" config current-context 2>/dev/null </dev/null) || nsa_ctx=
[ -n "$nsa_ctx" ] || nsa_ctx=cluster
nsa_ctx_shown=$(printf '%s' "$nsa_ctx" | nsa_clean | cut -c1-200)
nsa_stamp=$(date -u +%Y%m%dT%H%M%SZ)
nsa_name="nsanalyze-$(nsa_safe "$nsa_ctx")-$nsa_stamp"

nsa_work=$(mktemp -d 2>/dev/null) || {
  nsa_work="${TMPDIR:-/tmp}/nsanalyze-collect.$$"
  mkdir -m 700 "$nsa_work" || nsa_die "cannot create a work directory"
}
trap 'kill "$nsa_watch" 2>/dev/null; rm -rf "$nsa_work"' 0
trap 'exit 130' INT TERM HUP
: > "$nsa_work/kpid"
# the deadline watchdog: after $nsa_deadline_s seconds it marks the deadline and stops the
# kubectl call in flight (TERM, then KILL); it ends by itself once the work dir is gone
nsa_watchdog() {
  nsa_i=0
  while [ "$nsa_i" -lt "$nsa_deadline_s" ]; do
    sleep 1
    [ -d "$nsa_work" ] || exit 0
    nsa_i=$((nsa_i + 1))
  done
  : > "$nsa_work/deadline"
  nsa_p=$(cat "$nsa_work/kpid" 2>/dev/null)
  [ -n "$nsa_p" ] && kill "$nsa_p" 2>/dev/null
  sleep 2
  [ -n "$nsa_p" ] && [ "$(cat "$nsa_work/kpid" 2>/dev/null)" = "$nsa_p" ] && kill -9 "$nsa_p" 2>/dev/null
  exit 0
}
nsa_watchdog </dev/null >/dev/null 2>&1 &
nsa_watch=$!
D="$nsa_work/$nsa_name"
mkdir -p "$D/cluster" "$D/namespaces" "$D/backends" "$D/logs" || nsa_die "cannot write to $nsa_work"
S="$D/collect-summary.md"
P="$nsa_work/problems"
: > "$P"
nsa_ok=0
nsa_failed=0

nsa_note() { printf '%s\n' "$*" | nsa_clean >> "$S"; }
nsa_problem() { printf '%s\n' "$*" | nsa_clean >> "$S"; printf '%s\n' "$*" | nsa_clean >> "$P"; }

{
  printf '# nsanalyze collect summary\n\n'
  printf '%s\n' "- context: \`$nsa_ctx_shown\`" "- client: \`$K\`" "- started: $nsa_stamp" "- request timeout: $nsa_timeout" "- deadline: $nsa_deadline" "" | nsa_clean
  printf '%s\n' "Left out on purpose: the data of Secrets (only their metadata, type, key names," \
    "owner references and finalizers are saved; nsanalyze never needs a Secret's data), and" \
    "their annotations and labels. Nothing else is filtered: ConfigMaps are saved whole." ""
  printf '## Files\n\n'
} > "$S"

# nsa_save FILE ARGS...: run kq ARGS, stdout to FILE (path in the bundle), stderr beside it
# as FILE-without-extension.stderr.txt (kept only when not empty).
nsa_save() {
  nsa_f=$1
  shift
  nsa_err="${nsa_f%.*}.stderr.txt"
  mkdir -p "$(dirname "$D/$nsa_f")"
  if kq "$@" > "$D/$nsa_f" 2> "$D/$nsa_err"; then nsa_rc=0; else nsa_rc=$?; fi
  [ -s "$D/$nsa_err" ] || rm -f "$D/$nsa_err"
  if [ -s "$D/$nsa_f" ]; then
    nsa_ok=$((nsa_ok + 1))
    if [ "$nsa_rc" -eq 0 ]; then
      nsa_note "- saved \`$nsa_f\`"
    else
      nsa_problem "- PARTIAL \`$nsa_f\` ($K $*: exit $nsa_rc, see \`$nsa_err\`)"
    fi
  else
    rm -f "$D/$nsa_f"
    nsa_failed=$((nsa_failed + 1))
    if [ -f "$D/$nsa_err" ]; then
      nsa_problem "- COULD NOT SAVE \`$nsa_f\` ($K $*: exit $nsa_rc, see \`$nsa_err\`)"
    else
      nsa_problem "- COULD NOT SAVE \`$nsa_f\` ($K $*: exit $nsa_rc, no output)"
    fi
  fi
}

# nsa_save_log FILE ARGS...: like nsa_save for logs; a failure (no previous container) is
# only noted, with kubectl's message, and leaves no file (a .txt would be read as a log).
nsa_save_log() {
  nsa_f=$1
  shift
  mkdir -p "$(dirname "$D/$nsa_f")"
  if kq "$@" > "$D/$nsa_f" 2> "$nsa_work/log.err"; then nsa_rc=0; else nsa_rc=$?; fi
  if [ -s "$D/$nsa_f" ]; then
    nsa_ok=$((nsa_ok + 1))
    nsa_note "- saved \`$nsa_f\`"
  else
    rm -f "$D/$nsa_f"
    nsa_note "- not available: \`$nsa_f\` (exit $nsa_rc: $(head -c 300 "$nsa_work/log.err" | tr '\n`' '  ' | nsa_clean))"
  fi
}

# nsa_lines OUTFILE ARGS...: a helper query whose output (one item a line) drives the script
nsa_lines() {
  nsa_f=$1
  shift
  if kq "$@" > "$nsa_f" 2> "$nsa_work/lines.err"; then
    :
  elif [ -s "$nsa_f" ]; then
    nsa_problem "- partial answer to: $K $* ($(head -c 300 "$nsa_work/lines.err" | tr '\n`' '  '))"
  else
    nsa_problem "- query failed: $K $* ($(head -c 300 "$nsa_work/lines.err" | tr '\n`' '  '))"
  fi
}

# Kubernetes name syntax: DNS-1123 labels / subdomains, resource names with their group
nsa_is_label() { case $1 in '' | -* | *[!a-z0-9-]*) return 1 ;; esac; }
nsa_is_subdomain() { case $1 in '' | -* | .* | *[!a-z0-9.-]*) return 1 ;; esac; }

printf 'nsanalyze collect: reading cluster %s with %s into %s.tar.gz\n' "$nsa_ctx_shown" "$K" "$nsa_name" | nsa_clean >&2
printf 'nsanalyze collect: Secrets are saved without their data (metadata, type and key names only)\n' >&2

# Secrets: metadata only. A go-template writes a SecretList of what nsanalyze reads; the
# values are Kubernetes-validated names, keys and times, quoted with printf %q (JSON for
# every printable string; anything else makes the file invalid JSON, never a leak).
nsa_secret_meta='{"apiVersion":"v1","kind":"SecretList","items":[{{range $i, $s := .items}}{{if $i}},{{end}}{"apiVersion":"v1","kind":"Secret","metadata":{"name":{{printf "%q" $s.metadata.name}},"namespace":{{printf "%q" $s.metadata.namespace}}{{with $s.metadata.uid}},"uid":{{printf "%q" .}}{{end}}{{with $s.metadata.creationTimestamp}},"creationTimestamp":{{printf "%q" .}}{{end}}{{with $s.metadata.deletionTimestamp}},"deletionTimestamp":{{printf "%q" .}}{{end}},"finalizers":[{{range $j, $f := $s.metadata.finalizers}}{{if $j}},{{end}}{{printf "%q" $f}}{{end}}],"ownerReferences":[{{range $j, $o := $s.metadata.ownerReferences}}{{if $j}},{{end}}{"apiVersion":{{printf "%q" $o.apiVersion}},"kind":{{printf "%q" $o.kind}},"name":{{printf "%q" $o.name}}{{with $o.uid}},"uid":{{printf "%q" .}}{{end}}}{{end}}]}{{with $s.type}},"type":{{printf "%q" .}}{{end}},"dataKeys":[{{range $k, $v := $s.data}}{{printf "%q" $k}},{{end}}""]}{{end}}]}'


# ---- cluster-wide -----------------------------------------------------------------------
C=cluster
nsa_save "$C/version.json" version -o json
nsa_save "$C/api.json" get --raw /api
nsa_save "$C/apis.json" get --raw /apis
nsa_save "$C/api-resources.txt" api-resources -o wide
nsa_save "$C/namespaces.json" get namespaces -o json
nsa_save "$C/apiservices.json" get apiservices.apiregistration.k8s.io -o json
nsa_save "$C/crds.json" get customresourcedefinitions.apiextensions.k8s.io -o json
nsa_save "$C/validatingwebhookconfigurations.json" get validatingwebhookconfigurations.admissionregistration.k8s.io -o json
nsa_save "$C/mutatingwebhookconfigurations.json" get mutatingwebhookconfigurations.admissionregistration.k8s.io -o json
nsa_save "$C/events.json" get events -A -o json
nsa_save "$C/leases.json" get leases.coordination.k8s.io -n kube-system -o json

# ---- every Terminating namespace (plus the ones asked for), all of its content ------------
nsa_lines "$nsa_work/ns.raw" get namespaces -o 'go-template={{range .items}}{{if .metadata.deletionTimestamp}}{{.metadata.name}}{{"\n"}}{{end}}{{end}}'
set -f
for nsa_ns in $nsa_namespaces; do printf '%s\n' "$nsa_ns" >> "$nsa_work/ns.raw"; done
set +f
sort -u "$nsa_work/ns.raw" > "$nsa_work/ns.sorted"
: > "$nsa_work/ns"
while IFS= read -r nsa_ns; do
  if nsa_is_label "$nsa_ns"; then
    printf '%s\n' "$nsa_ns" >> "$nsa_work/ns"
  elif [ -n "$nsa_ns" ]; then
    nsa_problem "- skipped a namespace with an unexpected name"
  fi
done < "$nsa_work/ns.sorted"
nsa_lines "$nsa_work/resources.raw" api-resources --verbs=list --namespaced -o name
sort -u "$nsa_work/resources.raw" > "$nsa_work/resources"
[ -s "$nsa_work/resources" ] || nsa_problem "- no namespaced resource types listed: namespace content not collected"
nsa_note ""
if [ -s "$nsa_work/ns" ]; then
  nsa_note "Namespaces collected in full: $(tr '\n' ' ' < "$nsa_work/ns")"
else
  nsa_note "No namespace is Terminating."
fi
nsa_note ""
while IFS= read -r nsa_ns; do
  nsa_save "namespaces/$nsa_ns/namespace.json" get namespace "$nsa_ns" -o json
  while IFS= read -r nsa_r; do
    nsa_is_subdomain "$nsa_r" || continue
    case $nsa_r in
      secrets) nsa_save "namespaces/$nsa_ns/secrets.json" get secrets -n "$nsa_ns" -o "go-template=$nsa_secret_meta" ;;
      *) nsa_save "namespaces/$nsa_ns/$nsa_r.json" get "$nsa_r" -n "$nsa_ns" -o json ;;
    esac
  done < "$nsa_work/resources"
done < "$nsa_work/ns"

# ---- the Services behind APIServices, webhooks and conversion webhooks ------------------
: > "$nsa_work/svc.raw"
nsa_lines "$nsa_work/svc.a" get apiservices.apiregistration.k8s.io -o 'go-template={{range .items}}{{with .spec.service}}{{.namespace}} {{.name}}{{"\n"}}{{end}}{{end}}'
nsa_lines "$nsa_work/svc.v" get validatingwebhookconfigurations.admissionregistration.k8s.io -o 'go-template={{range .items}}{{range .webhooks}}{{with .clientConfig.service}}{{.namespace}} {{.name}}{{"\n"}}{{end}}{{end}}{{end}}'
nsa_lines "$nsa_work/svc.m" get mutatingwebhookconfigurations.admissionregistration.k8s.io -o 'go-template={{range .items}}{{range .webhooks}}{{with .clientConfig.service}}{{.namespace}} {{.name}}{{"\n"}}{{end}}{{end}}{{end}}'
nsa_lines "$nsa_work/svc.c" get customresourcedefinitions.apiextensions.k8s.io -o 'go-template={{range .items}}{{with .spec.conversion}}{{with .webhook}}{{with .clientConfig}}{{with .service}}{{.namespace}} {{.name}}{{"\n"}}{{end}}{{end}}{{end}}{{end}}{{end}}'
cat "$nsa_work/svc.a" "$nsa_work/svc.v" "$nsa_work/svc.m" "$nsa_work/svc.c" | sort -u > "$nsa_work/svc"
: > "$nsa_work/nodes.raw"
while read -r nsa_sns nsa_sname nsa_rest; do
  nsa_is_label "$nsa_sns" && nsa_is_label "$nsa_sname" || continue
  B="backends/$nsa_sns"
  nsa_save "$B/service-$nsa_sname.json" get service "$nsa_sname" -n "$nsa_sns" -o json
  nsa_save "$B/endpoints-$nsa_sname.json" get endpoints "$nsa_sname" -n "$nsa_sns" -o json
  nsa_save "$B/endpointslices-$nsa_sname.json" get endpointslices.discovery.k8s.io -n "$nsa_sns" -l "kubernetes.io/service-name=$nsa_sname" -o json
  nsa_sel=$(kq get service "$nsa_sname" -n "$nsa_sns" -o 'go-template={{range $k, $v := .spec.selector}}{{$k}}={{$v}},{{end}}' 2>/dev/null) || nsa_sel=
  nsa_sel=${nsa_sel%,}
  case $nsa_sel in *[!A-Za-z0-9._/=,-]*) nsa_sel= ;; esac
  if [ -n "$nsa_sel" ]; then
    nsa_save "$B/pods-$nsa_sname.json" get pods -n "$nsa_sns" -l "$nsa_sel" -o json
    kq get pods -n "$nsa_sns" -l "$nsa_sel" -o 'go-template={{range .items}}{{with .spec.nodeName}}{{.}}{{"\n"}}{{end}}{{end}}' >> "$nsa_work/nodes.raw" 2>/dev/null
  else
    nsa_note "- no pods looked up for service $nsa_sns/$nsa_sname (missing, ExternalName or without selector)"
  fi
done < "$nsa_work/svc"
sort -u "$nsa_work/nodes.raw" > "$nsa_work/nodes"
while IFS= read -r nsa_node; do
  nsa_is_subdomain "$nsa_node" || continue
  nsa_save "backends/nodes/$nsa_node.json" get node "$nsa_node" -o json
done < "$nsa_work/nodes"

# ---- control-plane logs (where the components run as pods in kube-system) ----------------
nsa_lines "$nsa_work/kspods" get pods -n kube-system -o 'go-template={{range .items}}{{.metadata.name}}{{"\n"}}{{end}}'
for nsa_comp in kube-apiserver kube-controller-manager cloud-controller-manager; do
  nsa_found=0
  while IFS= read -r nsa_pod; do
    case $nsa_pod in *"$nsa_comp"*) ;; *) continue ;; esac
    nsa_is_subdomain "$nsa_pod" || continue
    nsa_found=1
    nsa_cs=$(kq get pod "$nsa_pod" -n kube-system -o 'go-template={{range .spec.containers}}{{.name}}{{"\n"}}{{end}}' 2>/dev/null) || nsa_cs=
    printf '%s\n' "$nsa_cs" > "$nsa_work/containers"
    while IFS= read -r nsa_c; do
      nsa_is_label "$nsa_c" || continue
      nsa_save_log "logs/$nsa_pod/$nsa_c.log" logs -n kube-system "$nsa_pod" -c "$nsa_c" --tail="$nsa_log_tail"
      nsa_save_log "logs/$nsa_pod/$nsa_c-previous.log" logs -n kube-system "$nsa_pod" -c "$nsa_c" --previous --tail="$nsa_log_tail"
    done < "$nsa_work/containers"
  done < "$nsa_work/kspods"
  if [ "$nsa_found" = 0 ]; then
    nsa_problem "- NOTE: no $nsa_comp pod in kube-system (managed control plane, or it runs as a host process): attach its log separately, e.g. journalctl -u $nsa_comp, /var/log/$nsa_comp.log, or the cloud provider's control-plane logs"
  fi
done

# ---- archive -----------------------------------------------------------------------------
if [ -e "$nsa_work/deadline" ]; then
  nsa_problem "- DEADLINE: the run was stopped after $nsa_deadline (NSA_DEADLINE); the call in flight and every later one were not completed, what was saved before is in the archive"
fi
{
  printf '\n## Totals\n\n'
  printf '%s\n' "- files saved: $nsa_ok" "- could not save: $nsa_failed" "- finished: $(date -u +%Y%m%dT%H%M%SZ)"
  printf '%s\n' "- left out: the data, annotations and labels of Secrets (metadata, type and key names saved)"
} >> "$S"
mkdir -p "$nsa_out_dir" 2>/dev/null
nsa_archive="$nsa_out_dir/$nsa_name.tar.gz"
if (cd "$nsa_work" && tar -cf - "$nsa_name") | gzip -c > "$nsa_archive.part" && [ -s "$nsa_archive.part" ]; then
  mv -f "$nsa_archive.part" "$nsa_archive" || nsa_die "cannot write $nsa_archive"
else
  rm -f "$nsa_archive.part"
  nsa_die "cannot write $nsa_archive (is the directory writable?)"
fi
if [ -s "$P" ]; then
  printf 'nsanalyze collect: what could not be saved (details in collect-summary.md inside the archive):\n' >&2
  cat "$P" >&2
fi
printf 'nsanalyze collect: saved %s files, %s could not be saved; left out: the data of Secrets\n' "$nsa_ok" "$nsa_failed" >&2
printf 'nsanalyze collect: wrote %s\n' "$nsa_archive" >&2
printf 'nsanalyze collect: read it with: nsanalyze %s\n' "$nsa_archive" >&2
