//! `kubectl logs POD [-c CONTAINER]` and `kubectl exec POD [-c CONTAINER] -- CMD...`: the command
//! line read as kubectl 1.32 reads it (pflag's errors, `logs`' and `exec`'s own usage errors, as
//! the installed kubectl prints them without a server), made into the simulation's `logs` or
//! `exec` action. What the API server and the kubelet answer is the simulation's
//! (`crates/sim/src/kubectl_client/logs.rs`); the simulation has no container output and runs no
//! commands, which [`Note`] tells the reader apart from kubectl's transcript.

use super::Output;
use super::change::Change;
use super::command::{DEFAULT_NAMESPACE, fail, parse_flags};
use crate::sim::{ActionKind, Log, SimTime};

/// `kubectl logs`' flags (the flag table format of [`super::command`]).
const LOGS_FLAGS: &str = "_b-all-containers _b-all-pods cv+container fb-follow _b-ignore-errors \
_b-insecure-skip-tls-verify-backend _v-limit-bytes _v-max-log-requests _v-pod-running-timeout _b-prefix pb-previous \
lv-selector _v-since _v-since-time _v-tail _b-timestamps";

/// `kubectl exec`'s flags.
const EXEC_FLAGS: &str = "cv+container fv-filename _v-pod-running-timeout qb-quiet ib-stdin tb-tty";

/// `logs`' usage error (`LogsOptions.Complete`).
const LOGS_USAGE: &str = "error: expected 'logs [-f] [-p] (POD | TYPE/NAME) [-c CONTAINER]'.\nPOD or TYPE/NAME is a \
required argument for the logs command\nSee 'kubectl logs -h' for help and examples";

/// What nodeline tells the reader after a `logs` or `exec` that a real cluster would have
/// answered with the container's output: not kubectl's, so shown apart from its transcript.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Note {
    /// `kubectl logs` reached the kubelet: nodeline has no container output to show.
    NoContainerOutput,
    /// `kubectl exec` reached the kubelet: nodeline runs no commands in containers.
    NoCommandRun,
}

/// The names kubectl's RESTMapper resolves to Pods.
fn is_pods(resource: &str) -> bool {
    matches!(resource, "pod" | "pods" | "po")
}

/// The Pod's name from `NAME` or `pod/NAME`; `None` for another `TYPE/NAME`.
fn pod_name(arg: &str) -> Option<&str> {
    match arg.split_once('/') {
        Some((resource, name)) => is_pods(resource).then_some(name),
        None => Some(arg),
    }
}

/// Parses `logs …` or `exec …`: `None` when `args` is another command, else the change or
/// kubectl's error for the command line.
pub fn parse(args: &[String]) -> Option<Result<Change, Output>> {
    let word = super::change::command_word(args)?;
    if word != "logs" && word != "exec" {
        return None;
    }
    let at = args.iter().position(|a| a == word)?;
    let rest: Vec<String> = args[..at].iter().chain(&args[at + 1..]).cloned().collect();
    Some(if word == "logs" { logs(&rest) } else { exec(&rest) })
}

fn no_help(command: &str) -> Output {
    fail(format!(
        "error: nodeline's kubectl has no help text for {command}: see kubectl {command} --help on a real cluster"
    ))
}

fn target(p: &super::command::Parsed, name: &str, container: Option<&str>) -> Result<String, Output> {
    let namespace = p.value("namespace").unwrap_or(DEFAULT_NAMESPACE);
    let container = container.filter(|c| !c.is_empty());
    let target = match container {
        Some(c) => format!("{namespace}/{name}/{c}"),
        None => format!("{namespace}/{name}"),
    };
    // A name no Pod can have is the API server's NotFound in a real cluster; the action's
    // notation keeps only names an object can have.
    if crate::sim::split_pod_container(&target).is_none() {
        return Err(fail(format!(
            "error: nodeline's kubectl takes Pod and container names as the API allows them: {target}"
        )));
    }
    Ok(target)
}

fn logs(rest: &[String]) -> Result<Change, Output> {
    let p = parse_flags("logs", LOGS_FLAGS, rest)?;
    if p.is_set("help") {
        return Err(no_help("logs"));
    }
    let (resource, inline) = match p.args.as_slice() {
        [pod] => (pod, None),
        [pod, container] => (pod, Some(container.as_str())),
        _ => return Err(fail(LOGS_USAGE.into())),
    };
    let flag = p.value("container").filter(|c| !c.is_empty());
    if inline.is_some() && flag.is_some() {
        return Err(fail("error: nodeline's kubectl takes the container from -c or after the Pod, not both".into()));
    }
    let Some(name) = pod_name(resource) else {
        return Err(fail(format!("error: nodeline's kubectl reads the logs of a Pod only, not {resource}")));
    };
    let target = target(&p, name, inline.or(flag))?;
    Ok(Change { kind: ActionKind::Logs, node: target, taint: None, ignore_not_found: false })
}

fn exec(rest: &[String]) -> Result<Change, Output> {
    // `ArgsLenAtDash`: the command is what follows `--`.
    let (before, command) = match rest.iter().position(|a| a == "--") {
        Some(dash) => (&rest[..dash], Some(&rest[dash + 1..])),
        None => (rest, None),
    };
    let p = parse_flags("exec", EXEC_FLAGS, before)?;
    if p.is_set("help") {
        return Err(no_help("exec"));
    }
    // `ExecOptions.Complete`, then `Validate`.
    if command.is_none() && p.args.len() > 1 {
        return Err(fail(
            "error: exec [POD] [COMMAND] is not supported anymore. Use exec [POD] -- [COMMAND] instead\nSee 'kubectl \
             exec -h' for help and examples"
                .into(),
        ));
    }
    let Some(resource) = p.args.first() else {
        return Err(fail("error: pod, type/name or --filename must be specified".into()));
    };
    if command.is_none_or(<[String]>::is_empty) {
        return Err(fail("error: you must specify at least one command for the container".into()));
    }
    let Some(name) = pod_name(resource) else {
        return Err(fail(format!("error: nodeline's kubectl execs in a Pod only, not {resource}")));
    };
    let target = target(&p, name, p.value("container"))?;
    Ok(Change { kind: ActionKind::Exec, node: target, taint: None, ignore_not_found: false })
}

/// The note for a `logs` or `exec` run at `from`: kubectl printed nothing, and its request reached
/// a kubelet that would have answered with output (`logs`: the log's `200`; `exec`: no error).
pub fn note(log: &Log, from: SimTime, kind: ActionKind) -> Option<Note> {
    if !matches!(kind, ActionKind::Logs | ActionKind::Exec) {
        return None;
    }
    let input = log.inputs.iter().rfind(|i| i.t == from && i.action.kind == kind && i.rejected.is_none())?;
    let printed = log.lines.iter().any(|l| {
        l.t == from
            && l.seq > input.seq
            && matches!(l.actor, crate::sim::Actor::Kubectl | crate::sim::Actor::KubectlStderr)
    });
    if printed {
        return None;
    }
    if kind == ActionKind::Exec {
        return Some(Note::NoCommandRun);
    }
    let start = log.requests.first_from(from);
    let answered = log.requests.iter_from(start).take_while(|r| r.t == from).any(|r| {
        r.seq > input.seq && r.path.ends_with("/log") && matches!(r.outcome, crate::sim::record::Outcome::Code(200))
    });
    answered.then_some(Note::NoContainerOutput)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(line: &str) -> Vec<String> {
        line.split_whitespace().map(String::from).collect()
    }

    fn err(line: &str) -> String {
        parse(&words(line)).expect("a logs or exec line").expect_err("an error").stderr
    }

    #[test]
    fn logs_and_exec_lines_become_actions() {
        let target = |line: &str| {
            let c = parse(&words(line)).unwrap().unwrap();
            (c.kind, c.action(SimTime::from_secs(60)).to_string())
        };
        assert_eq!(target("logs web-1"), (ActionKind::Logs, "logs:default/web-1@1m0s".into()));
        assert_eq!(target("logs pod/web-1 -c web -n prod"), (ActionKind::Logs, "logs:prod/web-1/web@1m0s".into()));
        assert_eq!(target("-n prod logs po/web-1 web"), (ActionKind::Logs, "logs:prod/web-1/web@1m0s".into()));
        assert_eq!(target("exec web-1 -- ls -l"), (ActionKind::Exec, "exec:default/web-1@1m0s".into()));
        assert_eq!(target("exec -c web pods/web-1 -- ls"), (ActionKind::Exec, "exec:default/web-1/web@1m0s".into()));
        assert_eq!(parse(&words("get pods")), None);
    }

    #[test]
    fn bad_lines_get_kubectls_usage_errors() {
        let usage = "error: expected 'logs [-f] [-p] (POD | TYPE/NAME) [-c CONTAINER]'.\nPOD or TYPE/NAME is a \
                     required argument for the logs command\nSee 'kubectl logs -h' for help and examples\n";
        assert_eq!(err("logs"), usage);
        assert_eq!(err("logs a b c"), usage);
        assert_eq!(err("logs a --bogus"), "Error: unknown flag: --bogus\nSee 'kubectl logs --help' for usage.\n");
        assert_eq!(
            err("logs a -x"),
            "Error: unknown shorthand flag: 'x' in -x\nSee 'kubectl logs --help' for usage.\n"
        );
        assert_eq!(
            err("logs a -c"),
            "Error: flag needs an argument: 'c' in -c\nSee 'kubectl logs --help' for usage.\n"
        );
        assert!(err("logs a -f").contains("does not simulate --follow"), "{}", err("logs a -f"));
        assert!(err("logs a --tail=5").contains("does not simulate --tail"));
        assert_eq!(err("exec"), "error: pod, type/name or --filename must be specified\n");
        assert_eq!(err("exec -- ls"), "error: pod, type/name or --filename must be specified\n");
        assert_eq!(err("exec a"), "error: you must specify at least one command for the container\n");
        assert_eq!(err("exec a -c x"), "error: you must specify at least one command for the container\n");
        assert_eq!(err("exec a --"), "error: you must specify at least one command for the container\n");
        assert_eq!(
            err("exec a ls"),
            "error: exec [POD] [COMMAND] is not supported anymore. Use exec [POD] -- [COMMAND] instead\nSee 'kubectl exec -h' for help and examples\n"
        );
        assert_eq!(err("exec a --bogus -- ls"), "Error: unknown flag: --bogus\nSee 'kubectl exec --help' for usage.\n");
        assert!(err("exec -it a -- sh").contains("does not simulate --stdin"));
    }
}
