//! kubectl's commands that change the cluster: `cordon NODE`, `uncordon NODE`,
//! `drain NODE [flags]`, `taint nodes NODE KEY[=VALUE]:EFFECT[-] [--overwrite]`, `delete node NODE`
//! and `delete pod NAME [flags]` ([`super::delete_pod`]). They are not answered from one snapshot: the command line becomes the
//! simulation's action at the playhead ([`parse`]), the timeline is computed again with it, and
//! what kubectl printed is read back from the log as it happens ([`transcript`]).

use super::Output;
use super::command::{fail, flag_error, parse_flags, parse_flags_simulating};
use crate::sim::objects::Kind;
use crate::sim::selector::{MAX_SELECTOR, Selector, SelectorText};
use crate::sim::{Action, ActionKind, Actor, DrainFlags, Log, SimTime, TaintEdit};

/// `kubectl drain`'s flags (the flag table format of [`super::command`]).
const DRAIN_FLAGS: &str = "_v+chunk-size _b+delete-emptydir-data _b+disable-eviction _v-dry-run _b+force \
_v+grace-period _b+ignore-daemonsets _v+pod-selector lv-selector _v-skip-wait-for-delete-timeout _v+timeout";

/// `kubectl cordon`'s and `uncordon`'s flags.
const CORDON_FLAGS: &str = "_v-dry-run lv-selector";

/// `kubectl taint`'s flags.
const TAINT_FLAGS: &str = "_b+overwrite _b-all lv-selector _v-dry-run ov-output _v-field-manager _v-validate \
_b-allow-missing-template-keys _b-show-managed-fields _v-template";

/// `kubectl delete`'s flags, none simulated for every resource: each resource names the ones it
/// simulates ([`DELETE_NODE_FLAGS`], [`super::delete_pod`]'s).
pub(super) const DELETE_FLAGS: &str = "_b-all Ab-all-namespaces _v-cascade _v-dry-run _v-field-selector fv-filename \
_b-force _v-grace-period _b-ignore-not-found ib-interactive kv-kustomize _b-now ov-output _v-raw Rb-recursive \
lv-selector _v-timeout _b-wait";

/// The flags of `kubectl delete` that `delete node` simulates.
const DELETE_NODE_FLAGS: &[&str] = &["ignore-not-found"];

/// A command that changes the cluster: the action, what it names (a node, or for `delete pod`
/// the Pod as `NAMESPACE/NAME`), and (for `taint`) the taint argument.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Change {
    pub kind: ActionKind,
    pub node: String,
    pub taint: Option<String>,
    /// `delete --ignore-not-found`: a missing Node prints nothing.
    pub ignore_not_found: bool,
}

impl Change {
    /// Whether the command names a node (which must exist before anything is sent).
    pub fn names_node(&self) -> bool {
        !matches!(
            self.kind,
            ActionKind::DeletePod(_)
                | ActionKind::ApproveCsr
                | ActionKind::DenyCsr
                | ActionKind::DeleteBootstrapToken
                | ActionKind::DeleteAutoApproveBinding
                | ActionKind::Logs
                | ActionKind::Exec
        )
    }

    fn on(kind: ActionKind, node: String) -> Change {
        Change { kind, node, taint: None, ignore_not_found: false }
    }

    /// The simulation's action for the command at `at`.
    pub fn action(&self, at: SimTime) -> Action {
        let target = match &self.taint {
            Some(spec) => format!("{}/{spec}", self.node),
            None => self.node.clone(),
        };
        // (An action aimed at nothing, as deleting the bootstrap token, has no target.)
        Action { at, kind: self.kind, machine: Some(target).filter(|t| !t.is_empty()) }
    }

    /// What kubectl prints when the Node does not exist: the API server's NotFound, or nothing
    /// with `--ignore-not-found`.
    pub fn missing_node(&self) -> Output {
        if self.ignore_not_found { Output::default() } else { no_such_node(&self.node) }
    }
}

/// The command's name, if `args` names `cordon`, `uncordon`, `drain`, `taint` or `delete node`
/// (global flags before it are not modelled for these).
fn command_of(args: &[String]) -> Option<&str> {
    let mut words = args.iter().filter(|a| !a.starts_with('-'));
    let first = words.next()?;
    match first.as_str() {
        "cordon" | "uncordon" | "drain" | "taint" => Some(first.as_str()),
        // `delete` of anything but Nodes is answered as a command nodeline does not simulate.
        "delete" => {
            let what = words.next()?;
            let ty = what.split_once('/').map_or(what.as_str(), |(t, _)| t);
            (Kind::from_resource_arg(ty) == Some(Kind::Node)).then_some("delete")
        }
        _ => None,
    }
}

/// The first argument that is neither a flag nor the namespace flag's value.
pub(super) fn command_word(args: &[String]) -> Option<&str> {
    let mut i = 0;
    while i < args.len() {
        let a = args[i].as_str();
        match a {
            "-n" | "--namespace" => i += 2,
            _ if a.starts_with('-') => i += 1,
            _ => return Some(a),
        }
    }
    None
}

/// Parses `cordon|uncordon|drain NODE [flags]`, `taint nodes NODE SPEC` and `delete node NODE`:
/// `None` if `args` is another command, else the change or kubectl's error for the command line.
pub fn parse(args: &[String]) -> Option<Result<Change, Output>> {
    if command_word(args) == Some("delete")
        && let Some(pod) = super::delete_pod::parse(args)
    {
        return Some(pod);
    }
    if command_word(args) == Some("delete")
        && let Some(secret) = super::certificate::parse_delete_secret(args)
    {
        return Some(secret);
    }
    if command_word(args) == Some("delete")
        && let Some(binding) = super::certificate::parse_delete_binding(args)
    {
        return Some(binding);
    }
    if command_word(args) == Some("certificate") {
        return super::certificate::parse(args);
    }
    if let Some(read) = super::logs::parse(args) {
        return Some(read);
    }
    let name = command_of(args)?;
    let at = args.iter().position(|a| a == name).expect("found above");
    let rest: Vec<String> = args[..at].iter().chain(&args[at + 1..]).cloned().collect();
    match name {
        "taint" => return Some(parse_flags(name, TAINT_FLAGS, &rest).and_then(|p| taint(&p))),
        "delete" => {
            return Some(parse_flags_simulating(name, DELETE_FLAGS, DELETE_NODE_FLAGS, &rest).and_then(|p| delete(&p)));
        }
        _ => {}
    }
    let table = if name == "drain" { DRAIN_FLAGS } else { CORDON_FLAGS };
    Some(parse_flags(name, table, &rest).and_then(|p| {
        if p.is_set("help") {
            return Err(fail(format!(
                "error: nodeline's kubectl has no help text for {name}: see kubectl {name} --help on a real cluster"
            )));
        }
        let node = match p.args.as_slice() {
            [] => {
                return Err(fail(format!(
                    "error: USAGE: {name} NODE [flags]\nSee 'kubectl {name} -h' for help and examples"
                )));
            }
            [node] => node.clone(),
            _ => return Err(fail(format!("error: nodeline's kubectl can {name} one node at a time"))),
        };
        let kind = match name {
            "cordon" => ActionKind::Cordon,
            "uncordon" => ActionKind::Uncordon,
            _ => ActionKind::Drain(drain_flags(&p)?),
        };
        Ok(Change::on(kind, node))
    }))
}

/// `kubectl taint` (`Complete`, then `Validate`): resources first, then taint arguments, parsed
/// as kubectl parses them; one Node and one taint at a time in nodeline.
fn taint(p: &super::command::Parsed) -> Result<Change, Output> {
    if p.is_set("help") {
        return Err(fail(
            "error: nodeline's kubectl has no help text for taint: see kubectl taint --help on a real cluster".into(),
        ));
    }
    let is_taint = |s: &str| s.contains('=') || s.contains(':') || s.ends_with('-');
    let mut resources = Vec::new();
    let mut taints = Vec::new();
    for a in &p.args {
        match (taints.is_empty(), is_taint(a)) {
            (_, true) => taints.push(a.clone()),
            (true, false) => resources.push(a.clone()),
            (false, false) => {
                return Err(fail(format!("error: all resources must be specified before taint changes: {a}")));
            }
        }
    }
    if resources.is_empty() {
        return Err(fail("error: one or more resources must be specified as <resource> <name>".into()));
    }
    if taints.is_empty() {
        return Err(fail("error: at least one taint update is required".into()));
    }
    let mut edits = Vec::new();
    for t in &taints {
        match TaintEdit::parse(t) {
            Ok(e) => edits.push(e),
            Err(why) => return Err(fail(format!("error: {why}\nSee 'kubectl taint -h' for help and examples"))),
        }
    }
    match Kind::from_resource_arg(&resources[0]) {
        Some(Kind::Node) => {}
        Some(_) => {
            return Err(fail(format!(
                "error: invalid resource type {}, only node types are supported",
                resources[0].to_ascii_lowercase()
            )));
        }
        None => {
            return Err(fail(format!("error: the server doesn't have a resource type \"{}\"", resources[0])));
        }
    }
    let node = match (&resources[1..], edits.as_slice()) {
        ([], _) => {
            return Err(fail(
                "error: at least one resource name must be specified since 'all' parameter is not set".into(),
            ));
        }
        ([node], [_]) => node.clone(),
        _ => return Err(fail("error: nodeline's kubectl can taint one node with one taint at a time".into())),
    };
    let kind = ActionKind::Taint { overwrite: p.is_set("overwrite") };
    Ok(Change { taint: Some(edits[0].spec()), ..Change::on(kind, node) })
}

/// `kubectl delete node NAME` (also `nodes`, `no`, `node/NAME`).
fn delete(p: &super::command::Parsed) -> Result<Change, Output> {
    if p.is_set("help") {
        return Err(fail(
            "error: nodeline's kubectl has no help text for delete: see kubectl delete --help on a real cluster".into(),
        ));
    }
    let names: Vec<String> = match p.args.as_slice() {
        [one] if one.contains('/') => vec![one.split_once('/').map(|(_, n)| n.to_string()).unwrap_or_default()],
        [_] => return Err(fail("error: resource(s) were provided, but no name was specified".into())),
        [_, rest @ ..] => rest.to_vec(),
        [] => Vec::new(),
    };
    match names.as_slice() {
        [node] if !node.is_empty() => Ok(Change {
            ignore_not_found: p.is_set("ignore-not-found"),
            ..Change::on(ActionKind::DeleteNode, node.clone())
        }),
        _ => Err(fail("error: nodeline's kubectl can delete one node at a time".into())),
    }
}

/// An integer flag's value (`None` when not given), or pflag's error for one that is not a number.
pub(super) fn int_flag(p: &super::command::Parsed, command: &str, name: &str) -> Result<Option<i64>, Output> {
    p.value(name)
        .map(|v| {
            v.parse::<i64>().map_err(|_| {
                flag_error(
                    command,
                    format!("invalid argument \"{v}\" for \"--{name}\" flag: strconv.ParseInt: parsing \"{v}\": invalid syntax"),
                )
            })
        })
        .transpose()
}

fn drain_flags(p: &super::command::Parsed) -> Result<DrainFlags, Output> {
    // kubectl's default, -1 (or any negative), is the Pod's own.
    let grace_period =
        int_flag(p, "drain", "grace-period")?.filter(|n| *n >= 0).map(|n| u32::try_from(n).unwrap_or(u32::MAX));
    let timeout_secs = match p.value("timeout") {
        None => None,
        Some(v) => match crate::sim::parse_go_duration(v) {
            Ok(d) => Some(u32::try_from(d.as_secs()).unwrap_or(u32::MAX)),
            Err(_) => {
                return Err(flag_error(
                    "drain",
                    format!("invalid argument \"{v}\" for \"--timeout\" flag: time: invalid duration \"{v}\""),
                ));
            }
        },
    };
    let chunk_size = match int_flag(p, "drain", "chunk-size")? {
        Some(n) if n < 0 => return Err(fail("error: nodeline's kubectl takes a --chunk-size of 0 or more".into())),
        n => n.map(|n| u32::try_from(n).unwrap_or(u32::MAX)),
    };
    let pod_selector = match p.value("pod-selector").filter(|v| !v.is_empty()) {
        None => SelectorText::EMPTY,
        Some(v) => match SelectorText::parse(v) {
            Ok(s) => s,
            Err(_) if Selector::parse(v).is_ok() => {
                return Err(fail(format!(
                    "error: nodeline's kubectl keeps a --pod-selector of at most {MAX_SELECTOR} characters"
                )));
            }
            // `DrainCmdOptions.Complete`, before any request.
            Err(_) => return Err(fail("error: --pod-selector=<pod_selector> must be a valid label selector".into())),
        },
    };
    Ok(DrainFlags {
        ignore_daemonsets: p.is_set("ignore-daemonsets"),
        delete_emptydir_data: p.is_set("delete-emptydir-data"),
        force: p.is_set("force"),
        disable_eviction: p.is_set("disable-eviction"),
        grace_period,
        timeout_secs,
        chunk_size,
        pod_selector,
    })
}

/// kubectl's answer for a node the cluster does not have (the GET of the Node in
/// `RunCordonOrUncordon` and in `drain`'s cordon).
pub fn no_such_node(name: &str) -> Output {
    fail(format!("Error from server (NotFound): nodes \"{name}\" not found"))
}

/// One line kubectl printed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    pub t: SimTime,
    pub stderr: bool,
    pub text: String,
}

/// What the reader's kubectl printed from `from` on, up to the end of the command that started
/// then (`node/… drained`, `… cordoned`, or the error after the list of nodes left to drain),
/// and whether it ended.
pub fn transcript(log: &Log, from: SimTime, kind: ActionKind) -> (Vec<Line>, bool) {
    // The command is the last input of its kind at `from` (an earlier one at the same instant
    // printed before it).
    let after = log
        .inputs
        .iter()
        .filter(|i| i.t == from && i.action.kind.same_action(kind) && i.rejected.is_none())
        .map(|i| i.seq)
        .next_back();
    let mut lines: Vec<Line> = Vec::new();
    // `logs` and `exec` are answered at once: what kubectl printed is the lines of that instant.
    if matches!(kind, ActionKind::Logs | ActionKind::Exec) {
        let Some(after) = after else { return (lines, false) };
        for l in log.lines.iter().filter(|l| l.t == from && l.seq > after) {
            let stderr = match l.actor {
                Actor::Kubectl => false,
                Actor::KubectlStderr => true,
                _ => continue,
            };
            lines.push(Line { t: l.t, stderr, text: l.message.to_string() });
        }
        return (lines, true);
    }
    for l in log.lines.iter().filter(|l| l.t >= from && after.is_none_or(|s| l.seq > s)) {
        let stderr = match l.actor {
            Actor::Kubectl => false,
            Actor::KubectlStderr => true,
            _ => continue,
        };
        let after_pending = lines.last().is_some_and(|p| p.stderr && p.text.starts_with(' '));
        lines.push(Line { t: l.t, stderr, text: l.message.to_string() });
        let last = &l.message;
        let ended = match kind {
            // kubectl prints nothing after the delete (its wait for the Pod to go is silent).
            ActionKind::DeletePod(_) => {
                last.starts_with("Error from server") || (last.starts_with("pod \"") && !stderr)
            }
            ActionKind::Drain(_) => {
                (last.starts_with("node/") && last.ends_with(" drained"))
                    || (after_pending && !last.starts_with(' '))
                    || last.starts_with("Error from server")
            }
            _ => true,
        };
        if ended {
            return (lines, true);
        }
    }
    (lines, false)
}

/// The transcript as a command's output: stdout and stderr apart, exit status 1 when it ends on
/// stderr (an error).
pub fn output(lines: &[Line]) -> Output {
    let mut out = Output::default();
    for l in lines {
        let stream = if l.stderr { &mut out.stderr } else { &mut out.stdout };
        stream.push_str(&l.text);
        stream.push('\n');
    }
    if lines.last().is_some_and(|l| l.stderr) {
        out.code = 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(line: &str) -> Vec<String> {
        line.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn command_lines_become_actions() {
        assert_eq!(parse(&words("get nodes")), None);
        let c = parse(&words("drain node-1 --ignore-daemonsets --grace-period=10 --timeout 2m")).unwrap().unwrap();
        let ActionKind::Drain(f) = c.kind else { panic!("a drain") };
        assert_eq!(c.node, "node-1");
        assert!(f.ignore_daemonsets && !f.force);
        assert_eq!((f.grace_period, f.timeout_secs), (Some(10), Some(120)));
        let c = parse(&words("cordon node-2")).unwrap().unwrap();
        assert_eq!((c.kind, c.node.as_str()), (ActionKind::Cordon, "node-2"));
        let c = parse(&words("drain node-1 --pod-selector=tier!=db,app --chunk-size=2")).unwrap().unwrap();
        let ActionKind::Drain(f) = c.kind else { panic!("a drain") };
        assert_eq!((f.pod_selector.as_str(), f.limit()), ("app,tier!=db", 2));
        let default = parse(&words("drain node-1 --grace-period=-1")).unwrap().unwrap();
        assert_eq!(default.kind, ActionKind::Drain(DrainFlags::default()));
    }

    #[test]
    fn taint_and_delete_node_become_actions() {
        let c = parse(&words("taint nodes node-2 node.kubernetes.io/out-of-service=nodeshutdown:NoExecute"))
            .unwrap()
            .unwrap();
        let a = c.action(SimTime::from_secs(60));
        assert_eq!(a.to_string(), "taint:node-2/node.kubernetes.io/out-of-service=nodeshutdown:NoExecute@1m0s");
        let c = parse(&words("taint no node-1 dedicated:NoSchedule- --overwrite")).unwrap().unwrap();
        assert_eq!(c.action(SimTime::ZERO).to_string(), "taint+overwrite:node-1/dedicated:NoSchedule-@0s");
        let d = parse(&words("delete node/node-3")).unwrap().unwrap();
        assert_eq!((d.kind, d.node.as_str(), d.ignore_not_found), (ActionKind::DeleteNode, "node-3", false));
        assert!(parse(&words("delete no nope --ignore-not-found")).unwrap().unwrap().missing_node().stderr.is_empty());
        assert_eq!(
            parse(&words("delete pod web-1")).unwrap().unwrap().kind,
            ActionKind::DeletePod(crate::sim::DeleteFlags::default())
        );
        assert_eq!(parse(&words("delete svc web")), None, "other deletes are not simulated here");
        let err = |line: &str| parse(&words(line)).unwrap().unwrap_err().stderr;
        assert_eq!(
            err("taint nodes node-1 a=b:Sometimes"),
            "error: invalid taint effect: Sometimes, unsupported taint effect\nSee 'kubectl taint -h' for help and examples\n"
        );
        assert_eq!(
            err("taint nodes a=b:NoSchedule"),
            "error: at least one resource name must be specified since 'all' parameter is not set\n"
        );
        assert_eq!(
            err("taint pods web a=b:NoSchedule"),
            "error: invalid resource type pods, only node types are supported\n"
        );
        assert_eq!(err("taint nodes node-1"), "error: at least one taint update is required\n");
        assert_eq!(err("delete node"), "error: resource(s) were provided, but no name was specified\n");
    }

    #[test]
    fn bad_command_lines_get_kubectls_errors() {
        let err = |line: &str| parse(&words(line)).unwrap().unwrap_err().stderr;
        assert_eq!(err("drain"), "error: USAGE: drain NODE [flags]\nSee 'kubectl drain -h' for help and examples\n");
        assert_eq!(
            err("uncordon"),
            "error: USAGE: uncordon NODE [flags]\nSee 'kubectl uncordon -h' for help and examples\n"
        );
        assert_eq!(
            err("drain node-1 --grace-period=x"),
            "Error: invalid argument \"x\" for \"--grace-period\" flag: strconv.ParseInt: parsing \"x\": invalid syntax\nSee 'kubectl drain --help' for usage.\n"
        );
        assert_eq!(
            err("drain node-1 --timeout=zz"),
            "Error: invalid argument \"zz\" for \"--timeout\" flag: time: invalid duration \"zz\"\nSee 'kubectl drain --help' for usage.\n"
        );
        assert_eq!(
            err("drain node-1 --sideways"),
            "Error: unknown flag: --sideways\nSee 'kubectl drain --help' for usage.\n"
        );
        assert_eq!(
            err("drain node-1 --pod-selector=app=(web"),
            "error: --pod-selector=<pod_selector> must be a valid label selector\n"
        );
        assert_eq!(
            err("drain node-1 --chunk-size=x"),
            "Error: invalid argument \"x\" for \"--chunk-size\" flag: strconv.ParseInt: parsing \"x\": invalid syntax\nSee 'kubectl drain --help' for usage.\n"
        );
    }
}
