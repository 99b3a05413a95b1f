//! `nodeline kubectl --chapter C [--actions L] --at T -- ARGS...`: the page's kubectl panel on the
//! command line (the built binary, and in-process through `nodeline::cli::run`).

use nodeline::cli;
use nodeline::render::kubectl_printer::entry::CommandLine;
use nodeline::sim::{Chapter, Config, SimTime, Timeline};

use crate::common::binary::{Run, nodeline};

fn kubectl(chapter: &str, at: &str, args: &[&str]) -> Run {
    let mut all = vec!["kubectl", "--chapter", chapter, "--at", at, "--"];
    all.extend_from_slice(args);
    nodeline(&all)
}

#[test]
fn describe_node_prints_kubectls_text() {
    let r = kubectl("node-failure", "3m", &["describe", "node", "node-1"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stderr.is_empty(), "{}", r.stderr);
    let lines: Vec<&str> = r.stdout.lines().collect();
    assert_eq!(lines[0], "Name:               node-1");
    assert_eq!(lines[1], "Roles:              <none>");
    assert!(r.stdout.contains("\nTaints:             node.kubernetes.io/unreachable:NoExecute\n"));
    assert!(r.stdout.contains("\n  Ready            Unknown   "), "{}", r.stdout);
    assert!(r.stdout.contains("Kubelet stopped posting node status."));
    assert!(r.stdout.contains("\nNon-terminated Pods:          (1 in total)\n"));
    // Ages are counted to the moment: the Node was created at T+0, 3m before.
    assert!(r.stdout.contains("  Normal   Starting                 3m     kubelet          Starting kubelet.\n"));
    // Every kubelet start also warns that the image filesystem has no stats yet.
    assert!(r.stdout.contains(
        "  Warning  InvalidDiskCapacity      3m     kubelet          invalid capacity 0 on image filesystem\n"
    ));
    assert!(r.stdout.ends_with("Node node-1 status is now: NodeNotReady\n"));
}

#[test]
fn prints_the_same_bytes_as_the_panel() {
    // The panel answers from the snapshot at the playhead with ages counted to it; the command
    // line does the same at the end of the --at millisecond.
    let mut tl = Timeline::new(Chapter::NodeFailure, Config::default());
    tl.run_until(SimTime::from_secs(400));
    let t = SimTime::from_micros(330_000_999);
    let snapshot = tl.at(t);
    for args in [
        &["get", "nodes", "-o", "wide"][..],
        &["get", "pods", "-o", "wide"],
        &["get", "events"],
        &["get", "lease", "-n", "kube-node-lease", "-o", "yaml"],
        &["describe", "node"],
        &["get", "node", "nope"],
    ] {
        let line = args.join(" ");
        let panel =
            CommandLine::parse_typed(&line, &snapshot).run(t, |_| unreachable!("a read")).output(tl.log(), &snapshot);
        let r = kubectl("node-failure", "5m30s", args);
        assert_eq!(
            (r.stdout.as_str(), r.stderr.as_str(), r.code),
            (panel.stdout.as_str(), panel.stderr.as_str(), panel.code),
            "{args:?}"
        );
    }
    // The in-process entry point is the binary's.
    let out = cli::run(["nodeline", "kubectl", "--chapter", "node-failure", "--at", "5m30s", "--", "get", "nodes"]);
    assert_eq!(out.stdout, kubectl("node-failure", "5m30s", &["get", "nodes"]).stdout);
}

#[test]
fn kubectl_errors_pass_through_with_kubectls_status() {
    let r = kubectl("registration", "1m", &["get", "node", "nope"]);
    assert_eq!(r.code, 1);
    assert!(r.stdout.is_empty());
    assert_eq!(r.stderr, "Error from server (NotFound): nodes \"nope\" not found\n");
    let r = kubectl("registration", "1m", &["gett", "nodes"]);
    assert_eq!(r.code, 1);
    assert!(r.stderr.starts_with("Error: unknown command \"gett\" for \"kubectl\"\n\nDid you mean this?\n"));
    // Before the kubelet registers there is no Node: kubectl's "No resources found" is not an error.
    let r = kubectl("registration", "0s", &["get", "nodes"]);
    assert_eq!((r.code, r.stdout.as_str(), r.stderr.as_str()), (0, "", "No resources found\n"));
    // No kubectl arguments: what nodeline's kubectl answers.
    let r = kubectl("registration", "1m", &[]);
    assert_eq!(r.code, 0);
    assert!(r.stdout.contains("kubectl describe node"));
}

#[test]
fn actions_and_ignored_action_warnings() {
    let r = nodeline(&[
        "kubectl",
        "--chapter",
        "registration",
        "--actions",
        "stop-runtime@2m,start-kubelet@2m10s",
        "--at",
        "2m30s",
        "--",
        "get",
        "nodes",
    ]);
    assert_eq!(r.code, 0);
    assert!(
        r.stdout
            .starts_with("NAME     STATUS   ROLES    AGE     VERSION\nnode-1   Ready    <none>   2m30s   v1.34.1\n"),
        "{}",
        r.stdout
    );
    assert!(r.stderr.starts_with("nodeline: warning: start-kubelet@2m10s was ignored"), "{}", r.stderr);
}

#[test]
fn output_is_deterministic() {
    let a = kubectl("kubelet-restart", "6m", &["describe", "node", "node-1"]);
    let b = kubectl("kubelet-restart", "6m", &["describe", "node", "node-1"]);
    assert_eq!(a.code, 0);
    assert_eq!(a.stdout, b.stdout);
}

#[test]
fn bad_nodeline_arguments_exit_2() {
    for args in [
        &["kubectl", "--chapter", "registration", "--", "get", "nodes"][..],
        &["kubectl", "--at", "1m", "--", "get", "nodes"],
        &["kubectl", "--chapter", "nope", "--at", "1m"],
        &["kubectl", "--chapter", "registration", "--at", "1m", "get", "nodes"],
    ] {
        let r = nodeline(args);
        assert_eq!(r.code, 2, "{args:?}: {}", r.stderr);
        assert_eq!(r.stderr.lines().count(), 1, "{args:?}: {}", r.stderr);
        assert!(r.stdout.is_empty());
    }
}
