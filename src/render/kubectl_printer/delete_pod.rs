//! `kubectl delete pod NAME [-n NAMESPACE] [--grace-period=N] [--force] [--now] [--wait=false]`:
//! the command line read as kubectl 1.32 reads it (pflag's errors, `DeleteOptions.Complete` and
//! `Validate`'s), made into the simulation's `delete-pod` action.

use super::Output;
use super::change::{Change, DELETE_FLAGS, int_flag};
use super::command::{DEFAULT_NAMESPACE, fail, parse_flags_simulating};
use crate::sim::{ActionKind, DeleteFlags};

/// The flags of `kubectl delete` that `delete pod` simulates.
const DELETE_POD_FLAGS: &[&str] = &["force", "grace-period", "now", "wait"];

/// The names kubectl's RESTMapper resolves to Pods.
fn is_pods(resource: &str) -> bool {
    matches!(resource, "pod" | "pods" | "po")
}

/// Parses `delete pod NAME [flags]` (also `pods`, `po`, `pod/NAME`): `None` when `args` deletes
/// something else, else the change or kubectl's error for the command line.
pub fn parse(args: &[String]) -> Option<Result<Change, Output>> {
    let at = args.iter().position(|a| a == "delete")?;
    let rest: Vec<String> = args[..at].iter().chain(&args[at + 1..]).cloned().collect();
    // The resource is the first argument that is not a flag; a flag's value is not one, so look
    // at what pflag leaves as arguments.
    let p = match parse_flags_simulating("delete", DELETE_FLAGS, DELETE_POD_FLAGS, &rest) {
        Ok(p) => p,
        // Only claim the command line (and its flag errors) when it names Pods.
        Err(out) => return rest.iter().any(|a| is_pods(a) || a.starts_with("pod/")).then_some(Err(out)),
    };
    let names: Vec<String> = match p.args.split_first() {
        Some((resource, names)) if is_pods(resource) => names.to_vec(),
        Some((one, [])) => match one.split_once('/') {
            Some((resource, name)) if is_pods(resource) => vec![name.to_string()],
            _ => return None,
        },
        _ => return None,
    };
    Some(change(&p, &names))
}

fn change(p: &super::command::Parsed, names: &[String]) -> Result<Change, Output> {
    if p.is_set("help") {
        return Err(fail(
            "error: nodeline's kubectl has no help text for delete: see kubectl delete --help on a real cluster".into(),
        ));
    }
    let grace = int_flag(p, "delete", "grace-period")?.unwrap_or(-1);
    // `DeleteOptions.Complete`.
    let grace = if p.is_set("now") {
        if grace != -1 {
            return Err(fail("error: --now and --grace-period cannot be specified together".into()));
        }
        1
    } else {
        grace
    };
    let name = match names {
        [] => return Err(fail("error: resource(s) were provided, but no name was specified".into())),
        [name] => name.clone(),
        _ => return Err(fail("error: nodeline's kubectl deletes one Pod at a time".into())),
    };
    let force = p.is_set("force");
    let flags =
        DeleteFlags { grace_period: u32::try_from(grace).ok(), force, no_wait: p.value("wait") == Some("false") };
    // `DeleteOptions.Validate`.
    if force && flags.effective_grace().is_some_and(|g| g > 0) {
        return Err(fail("error: --force and --grace-period greater than 0 cannot be specified together".into()));
    }
    let namespace = p.value("namespace").unwrap_or(DEFAULT_NAMESPACE);
    Ok(Change {
        kind: ActionKind::DeletePod(flags),
        node: format!("{namespace}/{name}"),
        taint: None,
        ignore_not_found: false,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(line: &str) -> Vec<String> {
        line.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn delete_pod_lines_become_actions() {
        let c = parse(&words("delete pod web-1")).unwrap().unwrap();
        assert_eq!((c.kind, c.node.as_str()), (ActionKind::DeletePod(DeleteFlags::default()), "default/web-1"));
        let c = parse(&words("-n kube-system delete po/agent-x --force --wait=false")).unwrap().unwrap();
        let ActionKind::DeletePod(f) = c.kind else { panic!("a delete") };
        assert_eq!(c.node, "kube-system/agent-x");
        assert!(f.force && f.no_wait && f.effective_grace() == Some(0));
        let ActionKind::DeletePod(f) = parse(&words("delete pods web-1 --now")).unwrap().unwrap().kind else {
            panic!("a delete")
        };
        assert_eq!(f.effective_grace(), Some(1));
        let ActionKind::DeletePod(f) = parse(&words("delete pod web-1 --grace-period=0")).unwrap().unwrap().kind else {
            panic!("a delete")
        };
        assert_eq!(f.effective_grace(), Some(1), "0 without --force is 1");
        assert_eq!(parse(&words("delete node node-1")), None);
        assert_eq!(parse(&words("get pods")), None);
    }

    #[test]
    fn bad_delete_lines_get_kubectls_errors() {
        let err = |line: &str| parse(&words(line)).unwrap().unwrap_err().stderr;
        assert_eq!(
            err("delete pod web-1 --now --grace-period=5"),
            "error: --now and --grace-period cannot be specified together\n"
        );
        assert_eq!(
            err("delete pod web-1 --force --grace-period=5"),
            "error: --force and --grace-period greater than 0 cannot be specified together\n"
        );
        assert_eq!(
            err("delete pod web-1 --wait=maybe"),
            "Error: invalid argument \"maybe\" for \"--wait\" flag: strconv.ParseBool: parsing \"maybe\": invalid syntax\nSee 'kubectl delete --help' for usage.\n"
        );
        assert_eq!(
            err("delete pod web-1 --bogus"),
            "Error: unknown flag: --bogus\nSee 'kubectl delete --help' for usage.\n"
        );
        assert_eq!(err("delete pod"), "error: resource(s) were provided, but no name was specified\n");
        assert!(err("delete pod web-1 -l app=web").contains("does not simulate --selector"));
    }
}
