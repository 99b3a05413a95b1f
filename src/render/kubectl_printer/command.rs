//! A kubectl command line against the simulated cluster: `get` (Nodes, Pods, Leases, Events,
//! CSINodes, PodDisruptionBudgets, DaemonSets, StatefulSets, claims, volumes, VolumeAttachments;
//! `-o wide|yaml|json|name`, `-n`, `-A`, `--no-headers`, `--show-kind`, `--ignore-not-found`)
//! and `describe node|pod|csinode|pdb|sts|pvc|pv|volumeattachment`, with the errors kubectl gives
//! (cobra's unknown-command suggestions,
//! pflag's flag errors, the builder's and the API server's messages). Commands kubectl has but
//! nodeline does not simulate say so in kubectl's `error: ` style.

use super::get::{self, PrintOptions, Scope, Table};
use super::tabwriter::TabWriter;
use super::{
    Cluster, Output, describe, describe_csinode, describe_generic, describe_pdb, describe_pod, describe_storage,
};
use crate::render;
use crate::sim::objects::{Kind, Object};

/// The namespace kubectl uses without `-n` (the kubeconfig context sets none).
pub const DEFAULT_NAMESPACE: &str = "default";

/// kubectl's top-level commands, in the order they are added to the root command (cobra
/// suggests in this order).
const COMMANDS: &str = "create expose run set explain get edit delete rollout scale autoscale certificate \
cluster-info top cordon uncordon drain taint describe logs attach exec port-forward proxy cp auth debug events diff apply \
patch replace wait kustomize label annotate completion config plugin version api-versions api-resources options";

fn commands() -> impl Iterator<Item = &'static str> {
    COMMANDS.split(' ')
}

/// A flag: long name, shorthand, whether it takes a value, and whether nodeline acts on it.
#[derive(Clone, Copy)]
struct Flag {
    long: &'static str,
    short: Option<char>,
    value: bool,
    supported: bool,
}

/// Flag tables, one `SVXlong` entry per flag: the shorthand (`_` for none), `v` or `b` (takes a
/// value or is a boolean), `+` or `-` (simulated or not), then the long name.
fn flags(table: &'static str) -> impl Iterator<Item = Flag> {
    table.split(' ').filter(|e| e.len() > 3).map(|e| {
        let b = e.as_bytes();
        Flag {
            long: &e[3..],
            short: (b[0] != b'_').then_some(char::from(b[0])),
            value: b[1] == b'v',
            supported: b[2] == b'+',
        }
    })
}

/// kubectl's global flags (`kubectl options`).
const GLOBAL_FLAGS: &str = "nv+namespace hb+help _v-as _v-as-group _v-as-uid _v-cache-dir _v-certificate-authority \
_v-client-certificate _v-client-key _v-cluster _v-context _b-disable-compression _b-insecure-skip-tls-verify \
_v-kubeconfig _v-log-flush-frequency _b-match-server-version _v-password _v-profile _v-profile-output \
_v-request-timeout sv-server _v-tls-server-name _v-token _v-user _v-username vv-v _v-vmodule _b-warnings-as-errors";

/// `kubectl get`'s own flags.
const GET_FLAGS: &str = "Ab+all-namespaces ov+output _b+no-headers _b+show-kind _b+ignore-not-found \
_b-allow-missing-template-keys _v-chunk-size _v-field-selector fv-filename kv-kustomize Lv-label-columns \
_b-output-watch-events _v-raw Rb-recursive lv-selector _b-server-print _b-show-labels _b-show-managed-fields \
_v-sort-by _v-subresource _v-template wb-watch _b-watch-only";

/// `kubectl describe`'s own flags.
const DESCRIBE_FLAGS: &str =
    "Ab+all-namespaces _b+show-events _v-chunk-size fv-filename kv-kustomize Rb-recursive lv-selector";

/// The output formats kubectl's printer flags accept.
const OUTPUT_FORMATS: &str = "custom-columns,custom-columns-file,go-template,go-template-file,json,jsonpath,jsonpath-as-json,jsonpath-file,name,template,templatefile,wide,yaml";

pub(super) fn fail(stderr: String) -> Output {
    let stderr = if stderr.ends_with('\n') { stderr } else { stderr + "\n" };
    Output { stdout: String::new(), stderr, code: 1 }
}

/// Splits a typed line into words as a POSIX shell would (single and double quotes,
/// backslashes), and drops a leading `kubectl`.
pub fn split_line(line: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match c {
            ' ' | '\t' | '\n' => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            '\'' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(c) => word.push(c),
                        None => return Err("unexpected end of line: a ' quote is not closed".into()),
                    }
                }
            }
            '"' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => match chars.next() {
                            Some(c @ ('"' | '\\' | '$' | '`')) => word.push(c),
                            Some(c) => {
                                word.push('\\');
                                word.push(c);
                            }
                            None => return Err("unexpected end of line: a \" quote is not closed".into()),
                        },
                        Some(c) => word.push(c),
                        None => return Err("unexpected end of line: a \" quote is not closed".into()),
                    }
                }
            }
            '\\' => {
                in_word = true;
                if let Some(c) = chars.next() {
                    word.push(c);
                }
            }
            c => {
                in_word = true;
                word.push(c);
            }
        }
    }
    if in_word {
        words.push(word);
    }
    if words.first().is_some_and(|w| w == "kubectl") {
        words.remove(0);
    }
    Ok(words)
}

/// Runs a typed line (`kubectl get nodes -o wide`; the leading `kubectl` is optional).
pub fn run_line(line: &str, cluster: &Cluster) -> Output {
    match split_line(line) {
        Ok(words) => run(&words, cluster),
        Err(e) => fail(format!("error: {e}")),
    }
}

/// Levenshtein distance, ignoring ASCII case (cobra's `ld(s, t, true)`).
fn distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.to_ascii_lowercase().chars().collect();
    let b: Vec<char> = b.to_ascii_lowercase().chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.iter().enumerate() {
        let mut cur = vec![i + 1; b.len() + 1];
        for (j, cb) in b.iter().enumerate() {
            let cost = usize::from(ca != cb);
            cur[j + 1] = (prev[j + 1] + 1).min(cur[j] + 1).min(prev[j] + cost);
        }
        prev = cur;
    }
    prev[b.len()]
}

/// cobra's "unknown command" error, with its suggestions (Levenshtein distance at most 2, or a
/// prefix).
fn unknown_command(name: &str) -> Output {
    let typed = name.to_ascii_lowercase();
    let suggestions: Vec<&str> = commands().filter(|c| distance(name, c) <= 2 || c.starts_with(&typed)).collect();
    let mut msg = format!("Error: unknown command \"{name}\" for \"kubectl\"\n");
    if !suggestions.is_empty() {
        msg.push_str("\nDid you mean this?\n");
        for s in suggestions {
            msg.push('\t');
            msg.push_str(s);
            msg.push('\n');
        }
        msg.push('\n');
    }
    Output { stdout: String::new(), stderr: msg, code: 1 }
}

/// The flags and arguments of one command, as pflag parses them.
#[derive(Default)]
pub(super) struct Parsed {
    pub(super) args: Vec<String>,
    /// (long name, value) in order; booleans hold `"true"` or `"false"`.
    flags: Vec<(&'static str, String)>,
}

impl Parsed {
    pub(super) fn value(&self, long: &str) -> Option<&str> {
        self.flags.iter().rev().find(|(l, _)| *l == long).map(|(_, v)| v.as_str())
    }
    pub(super) fn is_set(&self, long: &str) -> bool {
        self.value(long) == Some("true")
    }
}

pub(super) fn flag_error(command: &str, msg: String) -> Output {
    fail(format!("Error: {msg}\nSee 'kubectl {command} --help' for usage."))
}

fn parse_bool(s: &str) -> Option<bool> {
    match s {
        "1" | "t" | "T" | "TRUE" | "true" | "True" => Some(true),
        "0" | "f" | "F" | "FALSE" | "false" | "False" => Some(false),
        _ => None,
    }
}

/// pflag's parsing of `args` for `command` (whose own flags are `own`).
pub(super) fn parse_flags(command: &str, own: &'static str, args: &[String]) -> Result<Parsed, Output> {
    parse_flags_simulating(command, own, &[], args)
}

/// [`parse_flags`] with the flags in `simulated` simulated as well as those `own` marks `+`: one
/// command's table serves several resources that simulate different flags (`kubectl delete`).
pub(super) fn parse_flags_simulating(
    command: &str,
    own: &'static str,
    simulated: &[&str],
    args: &[String],
) -> Result<Parsed, Output> {
    let find_long = |name: &str| flags(own).chain(flags(GLOBAL_FLAGS)).find(|f| f.long == name);
    let find_short = |c: char| flags(own).chain(flags(GLOBAL_FLAGS)).find(|f| f.short == Some(c));
    let mut p = Parsed::default();
    let mut i = 0;
    let set = |p: &mut Parsed, f: Flag, value: String| -> Result<(), Output> {
        if !f.value && parse_bool(&value).is_none() {
            let name = match f.short {
                Some(s) => format!("-{s}, --{}", f.long),
                None => format!("--{}", f.long),
            };
            return Err(flag_error(
                command,
                format!(
                    "invalid argument \"{value}\" for \"{name}\" flag: strconv.ParseBool: parsing \"{value}\": invalid syntax"
                ),
            ));
        }
        let value = if f.value { value } else { parse_bool(&value).unwrap_or(false).to_string() };
        p.flags.push((f.long, value));
        Ok(())
    };
    while i < args.len() {
        let a = &args[i];
        i += 1;
        if a == "--" {
            p.args.extend(args[i..].iter().cloned());
            break;
        }
        if let Some(body) = a.strip_prefix("--") {
            let (name, inline) = match body.split_once('=') {
                Some((n, v)) => (n, Some(v.to_string())),
                None => (body, None),
            };
            let Some(f) = find_long(name) else {
                return Err(flag_error(command, format!("unknown flag: --{name}")));
            };
            let value = match (inline, f.value) {
                (Some(v), _) => v,
                (None, false) => "true".into(),
                (None, true) => match args.get(i) {
                    Some(v) => {
                        i += 1;
                        v.clone()
                    }
                    None => return Err(flag_error(command, format!("flag needs an argument: --{name}"))),
                },
            };
            set(&mut p, f, value)?;
        } else if a.len() > 1 && a.starts_with('-') {
            let shorts = &a[1..];
            let mut rest = shorts;
            while let Some(c) = rest.chars().next() {
                rest = &rest[c.len_utf8()..];
                let Some(f) = find_short(c) else {
                    return Err(flag_error(command, format!("unknown shorthand flag: '{c}' in -{shorts}")));
                };
                if let Some(v) = rest.strip_prefix('=') {
                    set(&mut p, f, v.to_string())?;
                    break;
                }
                if !f.value {
                    set(&mut p, f, "true".into())?;
                    continue;
                }
                let value = if !rest.is_empty() {
                    let v = rest.to_string();
                    rest = "";
                    v
                } else {
                    match args.get(i) {
                        Some(v) => {
                            i += 1;
                            v.clone()
                        }
                        None => {
                            return Err(flag_error(command, format!("flag needs an argument: '{c}' in -{shorts}")));
                        }
                    }
                };
                set(&mut p, f, value)?;
            }
        } else {
            p.args.push(a.clone());
        }
    }
    // Flags kubectl has and nodeline does not simulate.
    for (long, _) in &p.flags {
        if let Some(f) = find_long(long)
            && !f.supported
            && !simulated.contains(long)
        {
            return Err(fail(format!(
                "error: nodeline's kubectl does not simulate --{long}: it answers get and describe for the simulated \
                 cluster at the playhead"
            )));
        }
    }
    Ok(p)
}

const HELP: &str = "\
nodeline answers kubectl's read commands for the simulated cluster at the playhead:

  kubectl get nodes|pods|leases|events|csinodes|pdb|ds|sts|pvc|pv|volumeattachments|csr|secrets [NAME ...]
      [-n NAMESPACE | -A] [-o wide|yaml|json|name]
  kubectl describe node|pod|csinode|pdb|sts|pvc|pv|volumeattachment|csr [NAME]
  kubectl cordon|uncordon NODE, kubectl drain NODE [--ignore-daemonsets --force ...],
  kubectl taint nodes NODE KEY[=VALUE]:EFFECT[-] [--overwrite], kubectl delete node NODE,
  kubectl delete pod NAME [-n NAMESPACE] [--grace-period=N] [--force] [--now] [--wait=false],
  kubectl certificate approve|deny CSR, kubectl -n kube-system delete secret bootstrap-token-07401b,
  kubectl delete clusterrolebinding kubeadm:node-autoapprove-bootstrap
  (in the page and in `nodeline kubectl`: the command becomes an action at the playhead)
  kubectl logs POD [-c CONTAINER] [-n NAMESPACE], kubectl exec POD [-c CONTAINER] -- CMD...
  (what the API server and the kubelet answer; nodeline has no container output and runs no
  commands)

Output is what kubectl 1.32 prints for the same objects; the cluster changes through the
sandbox's actions and those commands.
";

/// Runs kubectl with `args` (without the program name).
pub fn run(args: &[String], cluster: &Cluster) -> Output {
    // The first argument that is not a flag (or a global flag's value) names the command.
    let mut i = 0;
    let mut command = None;
    while i < args.len() {
        let a = &args[i];
        if a == "--" {
            break;
        }
        if let Some(long) = a.strip_prefix("--") {
            let takes_value = flags(GLOBAL_FLAGS).any(|f| f.value && f.long == long.split('=').next().unwrap_or(""));
            i += if takes_value && !long.contains('=') { 2 } else { 1 };
            continue;
        }
        if a.len() > 1 && a.starts_with('-') {
            let last = a.chars().last().unwrap_or('-');
            let takes_value = flags(GLOBAL_FLAGS).any(|f| f.value && f.short == Some(last)) && !a.contains('=');
            i += if takes_value && a.len() == 2 { 2 } else { 1 };
            continue;
        }
        command = Some(i);
        break;
    }
    let Some(at) = command else {
        if args.iter().any(|a| a == "-h" || a == "--help") || args.is_empty() {
            return Output { stdout: HELP.into(), stderr: String::new(), code: 0 };
        }
        return match parse_flags("", "", args) {
            Err(out) => out,
            Ok(_) => Output { stdout: HELP.into(), stderr: String::new(), code: 0 },
        };
    };
    let name = args[at].as_str();
    let rest: Vec<String> = args[..at].iter().chain(&args[at + 1..]).cloned().collect();
    match name {
        "get" => match parse_flags("get", GET_FLAGS, &rest) {
            Ok(p) if p.is_set("help") => Output { stdout: HELP.into(), stderr: String::new(), code: 0 },
            Ok(p) => run_get(&p, cluster),
            Err(out) => out,
        },
        "describe" => match parse_flags("describe", DESCRIBE_FLAGS, &rest) {
            Ok(p) if p.is_set("help") => Output { stdout: HELP.into(), stderr: String::new(), code: 0 },
            Ok(p) => run_describe(&p, cluster),
            Err(out) => out,
        },
        "help" => Output { stdout: HELP.into(), stderr: String::new(), code: 0 },
        known if commands().any(|c| c == known) => fail(format!(
            "error: nodeline's kubectl does not simulate \"kubectl {known}\": it answers get and describe; the \
             sandbox's buttons change the cluster"
        )),
        unknown => unknown_command(unknown),
    }
}

/// The kinds `describe` prints, in the order its refusal names them.
const DESCRIBED: [Kind; 10] = [
    Kind::Node,
    Kind::Pod,
    Kind::CsiNode,
    Kind::PodDisruptionBudget,
    Kind::StatefulSet,
    Kind::PersistentVolumeClaim,
    Kind::PersistentVolume,
    Kind::VolumeAttachment,
    Kind::ControllerRevision,
    Kind::CertificateSigningRequest,
];

/// `kubectl describe` of one object: the kind's describer, or kubectl's generic one for a kind
/// without one (`GenericDescriberFor`).
fn describe_object(object: &Object, cluster: &Cluster, show_events: bool) -> String {
    match object {
        Object::Node(n) => describe::describe_node_with(n, cluster, show_events),
        Object::Pod(pod) => describe_pod::describe_pod(pod, cluster, show_events),
        Object::CsiNode(c) => describe_csinode::describe_csinode(c, cluster, show_events),
        Object::PodDisruptionBudget(pdb) => describe_pdb::describe_pdb(pdb, cluster, show_events),
        Object::StatefulSet(s) => describe_storage::describe_statefulset(s, cluster, show_events),
        Object::PersistentVolumeClaim(c) => describe_storage::describe_claim(c, cluster, show_events),
        Object::PersistentVolume(v) => describe_storage::describe_volume(v, cluster, show_events),
        Object::CertificateSigningRequest(c) => super::describe_csr::describe_csr(c, cluster, show_events),
        o => describe_generic::describe_generic(o.kind().as_str(), o.meta(), &o.to_json(), cluster, show_events),
    }
}

/// What the arguments of `get` or `describe` ask for.
enum Request {
    /// Every object of these resources.
    All(Vec<Kind>),
    /// Named objects, each with its resource.
    Named(Vec<(Kind, String)>),
}

/// Resolves `TYPE[,TYPE] [NAME...]` or `TYPE/NAME...` (the resource builder's rules).
fn resolve(args: &[String]) -> Result<Request, Output> {
    let resource = |arg: &str| {
        Kind::from_resource_arg(arg)
            .ok_or_else(|| fail(format!("error: the server doesn't have a resource type \"{arg}\"")))
    };
    if args.iter().any(|a| a.contains('/')) {
        if args.iter().any(|a| !a.contains('/')) {
            return Err(fail(
                "error: there is no need to specify a resource type as a separate argument when passing arguments in \
                 resource/name form (e.g. 'kubectl get resource/<resource_name>' instead of 'kubectl get resource \
                 resource/<resource_name>'"
                    .into(),
            ));
        }
        let mut named = Vec::new();
        for a in args {
            let (ty, name) = a.split_once('/').unwrap_or((a, ""));
            if name.is_empty() {
                return Err(fail("error: arguments in resource/name form must have a single resource and name".into()));
            }
            named.push((resource(ty)?, name.to_string()));
        }
        return Ok(Request::Named(named));
    }
    let types: Vec<Kind> = args[0].split(',').filter(|t| !t.is_empty()).map(resource).collect::<Result<_, _>>()?;
    if args.len() == 1 {
        return Ok(Request::All(types));
    }
    if types.len() != 1 {
        return Err(fail(format!(
            "error: you may only specify a single resource type when providing names: {}",
            args[0]
        )));
    }
    Ok(Request::Named(args[1..].iter().map(|n| (types[0], n.clone())).collect()))
}

/// The object `kind/name` in `namespace`.
fn find(cluster: &Cluster, kind: Kind, namespace: &str, name: &str) -> Option<Object> {
    cluster
        .objects_of(kind)
        .iter()
        .find(|o| {
            let m = o.meta();
            m.name == name && (!kind.namespaced() || m.namespace == namespace)
        })
        .cloned()
}

/// Every object of `kind` in `scope`, in list order.
fn list(cluster: &Cluster, kind: Kind, scope: &Scope) -> Vec<Object> {
    let all = cluster.objects_of(kind).iter();
    match scope {
        Scope::Namespace(n) if kind.namespaced() => all.filter(|o| &o.meta().namespace == n).cloned().collect(),
        _ => all.cloned().collect(),
    }
}

fn not_found(kind: Kind, name: &str) -> String {
    format!("Error from server (NotFound): {} \"{name}\" not found", kind.group_resource())
}

/// One printed group: the objects of one kind, with their rows.
struct Group {
    kind: Kind,
    objects: Vec<Object>,
}

fn run_get(p: &Parsed, cluster: &Cluster) -> Output {
    if p.args.is_empty() {
        return fail(
            "You must specify the type of resource to get. Use \"kubectl api-resources\" for a complete list of \
             supported resources.\n\nerror: Required resource not specified.\nUse \"kubectl explain <resource>\" for \
             a detailed description of that resource (e.g. kubectl explain pods).\nSee 'kubectl get -h' for help and \
             examples"
                .into(),
        );
    }
    let output = p.value("output").unwrap_or("");
    if !matches!(output, "" | "wide" | "yaml" | "json" | "name") {
        let known = output.split(['=', '[']).next().unwrap_or("");
        if OUTPUT_FORMATS.split(',').any(|f| f == known) {
            return fail(format!("error: nodeline's kubectl does not simulate -o {known}"));
        }
        return fail(format!(
            "error: unable to match a printer suitable for the output format \"{output}\", allowed formats are: \
             {OUTPUT_FORMATS}"
        ));
    }
    let all = p.is_set("all-namespaces");
    let namespace = p.value("namespace").unwrap_or(DEFAULT_NAMESPACE).to_string();
    let scope = if all { Scope::AllNamespaces } else { Scope::Namespace(namespace.clone()) };
    let request = match resolve(&p.args) {
        Ok(r) => r,
        Err(out) => return out,
    };
    let mut errors: Vec<String> = Vec::new();
    let mut groups: Vec<Group> = Vec::new();
    let single_item = matches!(&request, Request::Named(n) if n.len() == 1);
    match request {
        Request::All(types) => {
            for kind in types {
                groups.push(Group { kind, objects: list(cluster, kind, &scope) });
            }
        }
        Request::Named(named) => {
            if all {
                return fail("error: a resource cannot be retrieved by name across all namespaces".into());
            }
            for (kind, name) in named {
                match find(cluster, kind, &namespace, &name) {
                    Some(o) => match groups.last_mut() {
                        Some(g) if g.kind == kind => g.objects.push(o),
                        _ => groups.push(Group { kind, objects: vec![o] }),
                    },
                    None if p.is_set("ignore-not-found") => {}
                    None => errors.push(not_found(kind, &name)),
                }
            }
        }
    }
    let mut stdout = String::new();
    match output {
        "yaml" | "json" => {
            let objects: Vec<&Object> = groups.iter().flat_map(|g| &g.objects).collect();
            if !(single_item && objects.is_empty()) {
                let value = if single_item && objects.len() == 1 {
                    objects[0].to_json()
                } else {
                    render::list::object_list(&objects.into_iter().cloned().collect::<Vec<_>>())
                };
                stdout = if output == "yaml" {
                    render::yaml::to_string(&value)
                } else {
                    render::json::to_string_pretty(&value)
                };
            }
        }
        "name" => {
            for g in &groups {
                get::print_names(&mut stdout, &Table::of(g.kind, &g.objects, cluster.now));
            }
        }
        _ => {
            let kinds = groups.iter().filter(|g| !g.objects.is_empty()).map(|g| g.kind).collect::<Vec<_>>();
            let with_kind = p.is_set("show-kind") || kinds.windows(2).any(|w| w[0] != w[1]);
            let no_headers = p.is_set("no-headers");
            for g in &groups {
                let table = Table::of(g.kind, &g.objects, cluster.now);
                let mut w = TabWriter::table();
                let o = PrintOptions {
                    wide: output == "wide",
                    no_headers,
                    with_namespace: all && g.kind.namespaced(),
                    with_kind,
                };
                get::print_table(&mut w, &table, &o);
                let text = w.finish();
                if !text.is_empty() && !stdout.is_empty() && !no_headers {
                    stdout.push('\n');
                }
                stdout.push_str(&text);
            }
            if stdout.is_empty() && errors.is_empty() && !p.is_set("ignore-not-found") {
                // An empty list of a cluster-scoped kind still counts as not namespaced.
                let namespaced = !all && groups.iter().all(|g| g.kind.namespaced());
                let msg = if namespaced {
                    format!("No resources found in {namespace} namespace.\n")
                } else {
                    "No resources found\n".to_string()
                };
                return Output { stdout, stderr: msg, code: 0 };
            }
        }
    }
    finish(stdout, errors)
}

fn finish(stdout: String, errors: Vec<String>) -> Output {
    if errors.is_empty() {
        return Output { stdout, stderr: String::new(), code: 0 };
    }
    let mut stderr = errors.join("\n");
    stderr.push('\n');
    Output { stdout, stderr, code: 1 }
}

fn run_describe(p: &Parsed, cluster: &Cluster) -> Output {
    if p.args.is_empty() {
        return fail(
            "error: You must specify the type of resource to describe. Use \"kubectl api-resources\" for a complete \
             list of supported resources."
                .into(),
        );
    }
    let namespace = p.value("namespace").unwrap_or(DEFAULT_NAMESPACE).to_string();
    let request = match resolve(&p.args) {
        Ok(r) => r,
        Err(out) => return out,
    };
    let show_events = p.value("show-events") != Some("false");
    let all_namespaces = p.is_set("all-namespaces");
    // The objects of one kind, in list order.
    let objects = |kind: Kind| -> Vec<&Object> {
        let here = |o: &Object| all_namespaces || !kind.namespaced() || o.meta().namespace == namespace;
        cluster.objects_of(kind).iter().filter(|o| here(o)).collect()
    };
    let check = |kind: Kind| -> Result<(), Output> {
        if DESCRIBED.contains(&kind) {
            return Ok(());
        }
        let mut kinds = String::new();
        for (i, k) in DESCRIBED.iter().enumerate() {
            kinds.push_str(match i {
                0 => "",
                i if i + 1 == DESCRIBED.len() => " and ",
                _ => ", ",
            });
            kinds.push_str(k.as_str());
            kinds.push('s');
        }
        Err(fail(format!(
            "error: nodeline's kubectl describes {kinds} only; try \"kubectl get {} -o yaml\"",
            kind.plural()
        )))
    };
    let mut found: Vec<&Object> = Vec::new();
    let mut errors = Vec::new();
    let mut by_prefix = false;
    match &request {
        Request::All(types) => {
            for r in types {
                if let Err(out) = check(*r) {
                    return out;
                }
            }
            for r in types {
                found.extend(objects(*r));
            }
        }
        Request::Named(named) => {
            for (r, _) in named {
                if let Err(out) = check(*r) {
                    return out;
                }
            }
            for (r, name) in named {
                let candidates = objects(*r);
                match candidates.iter().find(|o| o.meta().name == **name) {
                    Some(o) => found.push(o),
                    None => {
                        // `kubectl describe TYPE PREFIX` describes every object whose name starts with it.
                        let matching: Vec<_> =
                            candidates.into_iter().filter(|o| o.meta().name.starts_with(name.as_str())).collect();
                        if matching.is_empty() || named.len() != 1 {
                            errors.push(not_found(*r, name));
                        } else {
                            by_prefix = true;
                            found.extend(matching);
                        }
                    }
                }
            }
        }
    }
    if found.is_empty() && errors.is_empty() {
        let msg = if all_namespaces {
            "No resources found\n".to_string()
        } else {
            format!("No resources found in {namespace} namespace.\n")
        };
        return Output { stdout: String::new(), stderr: msg, code: 0 };
    }
    let texts: Vec<String> = found.iter().map(|o| describe_object(o, cluster, show_events)).collect();
    // Named objects are separated by a blank line; objects found by a name prefix
    // (`DescribeMatchingResources`) are each followed by one.
    let stdout = if by_prefix { texts.iter().map(|t| format!("{t}\n")).collect() } else { texts.join("\n\n") };
    finish(stdout, errors)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run_args(line: &str) -> Output {
        run_line(line, &Cluster::default())
    }

    #[test]
    fn splits_like_a_shell() {
        assert_eq!(split_line("kubectl get  nodes -o wide").unwrap(), ["get", "nodes", "-o", "wide"]);
        assert_eq!(split_line("get 'a b' \"c \\\"d\\\"\" e\\ f").unwrap(), ["get", "a b", "c \"d\"", "e f"]);
        assert!(split_line("get 'open").is_err());
        assert_eq!(split_line("").unwrap(), Vec::<String>::new());
    }

    #[test]
    fn unknown_commands_get_cobras_suggestions() {
        assert_eq!(
            run_args("foo").stderr,
            "Error: unknown command \"foo\" for \"kubectl\"\n\nDid you mean this?\n\ttop\n\n"
        );
        assert_eq!(
            run_args("gett nodes").stderr,
            "Error: unknown command \"gett\" for \"kubectl\"\n\nDid you mean this?\n\tset\n\tget\n\n"
        );
        assert_eq!(run_args("ge").stderr.lines().filter(|l| l.starts_with('\t')).count(), 3);
        assert_eq!(run_args("xyzzy").stderr, "Error: unknown command \"xyzzy\" for \"kubectl\"\n");
        assert_eq!(run_args("xyzzy").code, 1);
    }

    #[test]
    fn flag_errors_are_pflags() {
        assert_eq!(
            run_args("get nodes --bogus").stderr,
            "Error: unknown flag: --bogus\nSee 'kubectl get --help' for usage.\n"
        );
        assert_eq!(
            run_args("get nodes -x").stderr,
            "Error: unknown shorthand flag: 'x' in -x\nSee 'kubectl get --help' for usage.\n"
        );
        assert_eq!(
            run_args("get nodes -o").stderr,
            "Error: flag needs an argument: 'o' in -o\nSee 'kubectl get --help' for usage.\n"
        );
        assert_eq!(
            run_args("get nodes --output").stderr,
            "Error: flag needs an argument: --output\nSee 'kubectl get --help' for usage.\n"
        );
        assert!(run_args("describe node -o yaml").stderr.starts_with("Error: unknown shorthand flag: 'o' in -o"));
        assert!(run_args("get nodes -w").stderr.contains("does not simulate --watch"));
        assert!(run_args("get nodes -o yml").stderr.starts_with(
            "error: unable to match a printer suitable for the output format \"yml\", allowed formats are: custom-columns,"
        ));
    }

    #[test]
    fn usage_errors() {
        let out = run_args("get");
        assert!(out.stderr.starts_with("You must specify the type of resource to get."));
        assert_eq!(out.code, 1);
        assert_eq!(run_args("get foo").stderr, "error: the server doesn't have a resource type \"foo\"\n");
        assert!(run_args("describe").stderr.starts_with("error: You must specify the type of resource to describe."));
        assert!(
            run_args("delete node x")
                .stderr
                .starts_with("error: nodeline's kubectl does not simulate \"kubectl delete\"")
        );
        assert_eq!(run_args("get node nope").stderr, "Error from server (NotFound): nodes \"nope\" not found\n");
        assert_eq!(
            run_args("get lease nope -n kube-node-lease").stderr,
            "Error from server (NotFound): leases.coordination.k8s.io \"nope\" not found\n"
        );
        assert_eq!(run_args("get pods").stderr, "No resources found in default namespace.\n");
        assert_eq!(run_args("get pods -A").stderr, "No resources found\n");
        assert_eq!(
            run_args("get pods -o yaml").stdout,
            "apiVersion: v1\nitems: []\nkind: List\nmetadata:\n  resourceVersion: \"\"\n"
        );
        assert!(run_args("").stdout.contains("kubectl describe node"));
    }
}
