//! `kubectl cordon|uncordon|drain` in chapter 5: the golden transcript of the chapter's drain (as
//! a terminal shows it, stdout and stderr interleaved), and `nodeline kubectl` printing the same
//! lines on its two streams. Re-bless with `NODELINE_BLESS=1 cargo test --test it kubectl_drain::`.

use std::path::PathBuf;

use nodeline::cli;
use nodeline::render::kubectl_printer::change;
use nodeline::render::kubectl_printer::entry::{CommandLine, Ran};
use nodeline::sim::{ActionKind, Chapter, Config, SimTime, Timeline};

fn golden(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/golden").join(name)
}

fn check_golden(name: &str, text: &str) {
    let path = golden(name);
    if std::env::var_os("NODELINE_BLESS").is_some() {
        std::fs::write(&path, text).expect("writable golden");
        return;
    }
    let want = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e}; create it with NODELINE_BLESS=1", path.display()));
    assert_eq!(text, want, "{name} differs from the golden (NODELINE_BLESS=1 to accept a change)");
}

/// Runs the changing command `line` at `at` on `tl`, as the panel does: its action, forked in.
fn act(tl: &mut Timeline, line: &str, at: SimTime) -> ActionKind {
    let ran = CommandLine::parse_typed(line, &tl.at(at)).run(at, |c| {
        tl.fork(c.action(at)).expect("accepted");
        Ok(())
    });
    let Ran::Acted { kind, .. } = ran else { panic!("{line}: a valid change, not {ran:?}") };
    kind
}

/// The reader's command at `at` in the maintenance chapter, with the lines kubectl printed.
fn transcript(at: u64, line: &str) -> String {
    let mut tl = Timeline::new(Chapter::Maintenance, Config::default());
    let at = SimTime::from_secs(at);
    tl.run_until(at);
    let kind = act(&mut tl, line, at);
    tl.run_until(at + std::time::Duration::from_secs(300));
    let (lines, ended) = change::transcript(tl.log(), at, kind);
    assert!(ended, "the command ends");
    let mut out = format!("$ kubectl {line}\n");
    for l in lines {
        let stream = if l.stderr { "2>" } else { "1>" };
        out.push_str(&format!("{} {stream} {}\n", l.t.clock_label(), l.text));
    }
    out
}

#[test]
fn golden_drain_transcripts() {
    let mut text = String::new();
    text.push_str(&transcript(120, "drain node-1 --ignore-daemonsets"));
    text.push_str(&transcript(120, "drain node-1"));
    text.push_str(&transcript(120, "drain node-1 --ignore-daemonsets --disable-eviction"));
    text.push_str(&transcript(90, "cordon node-2"));
    check_golden("maintenance-kubectl.txt", &text);
}

#[test]
fn nodeline_kubectl_prints_the_drain_on_stdout_and_stderr() {
    let out = cli::run([
        "nodeline",
        "kubectl",
        "--chapter",
        "maintenance",
        "--at",
        "2m",
        "--",
        "drain",
        "node-1",
        "--ignore-daemonsets",
    ]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let stdout: Vec<&str> = out.stdout.lines().collect();
    assert_eq!(stdout.first(), Some(&"node/node-1 already cordoned"));
    assert_eq!(stdout.last(), Some(&"node/node-1 drained"));
    assert_eq!(stdout.iter().filter(|l| l.starts_with("evicting pod default/web-")).count(), 3, "{stdout:?}");
    assert!(
        out.stderr
            .lines()
            .next()
            .is_some_and(|l| l.starts_with("Warning: ignoring DaemonSet-managed Pods: kube-system/node-agent-"))
    );
    assert!(
        out.stderr.contains("(will retry after 5s): Cannot evict pod as it would violate the pod's disruption budget.")
    );
    let refused = cli::run(["nodeline", "kubectl", "--chapter", "maintenance", "--at", "2m", "--", "drain", "node-1"]);
    assert_eq!(refused.code, 1);
    assert!(
        refused.stderr.ends_with("\n")
            && refused.stderr.lines().last().unwrap().starts_with("cannot delete DaemonSet-managed Pods")
    );
    let missing =
        cli::run(["nodeline", "kubectl", "--chapter", "maintenance", "--at", "2m", "--", "uncordon", "node-7"]);
    assert_eq!(
        (missing.code, missing.stderr.as_str()),
        (1, "Error from server (NotFound): nodes \"node-7\" not found\n")
    );
    let usage = cli::run(["nodeline", "kubectl", "--chapter", "maintenance", "--at", "2m", "--", "drain"]);
    assert_eq!(usage.stderr, "error: USAGE: drain NODE [flags]\nSee 'kubectl drain -h' for help and examples\n");
}

/// `kubectl delete pod`: the DELETE with kubectl's body, `pod "NAME" deleted`, and the wait (a GET,
/// a list and a watch by name) that lasts until the kubelet has stopped the Pod and it is gone.
#[test]
fn nodeline_kubectl_deletes_a_pod_and_waits_for_it() {
    use nodeline::sim::objects::Kind;
    use nodeline::sim::{Actor, Body, ChangeType, Method};
    let at = SimTime::from_secs(100);
    let mut tl = Timeline::new(Chapter::Maintenance, Config::default());
    tl.run_until(at);
    let name =
        tl.at(at).pods().iter().find(|p| p.metadata.name.starts_with("web-")).expect("a web Pod").metadata.name.clone();
    let out =
        cli::run(["nodeline", "kubectl", "--chapter", "maintenance", "--at", "100s", "--", "delete", "pod", &name]);
    assert_eq!((out.code, out.stdout.clone(), out.stderr.as_str()), (0, format!("pod \"{name}\" deleted\n"), ""));

    act(&mut tl, &format!("delete pod {name}"), at);
    tl.run_until(at + std::time::Duration::from_secs(120));
    let log = tl.log();
    let sent: Vec<_> = log.requests.iter().filter(|r| r.t >= at && r.actor == Actor::Kubectl).collect();
    let path = format!("/api/v1/namespaces/default/pods/{name}");
    assert_eq!((sent[0].method, sent[0].path.as_str()), (Method::Delete, path.as_str()));
    assert_eq!(sent[0].body, Some(Body::Json(serde_json::json!({ "propagationPolicy": "Background" }).into())));
    assert_eq!((sent[1].method, sent[1].path.as_str()), (Method::Get, path.as_str()));
    assert!(sent[2].query.ends_with("&limit=500&resourceVersion=0"), "{}", sent[2].query);
    assert!(sent[3].query.starts_with("allowWatchBookmarks=true&fieldSelector=metadata.name%3D"), "{}", sent[3].query);
    assert!(sent[3].query.ends_with("&watch=true"));
    assert_eq!(sent.len(), 4, "nothing more: the watch delivers the Pod's deletion");
    let gone = log
        .changes()
        .iter()
        .find(|ch| ch.kind() == Kind::Pod && ch.change == ChangeType::Deleted && ch.name() == name && ch.t > at)
        .expect("the Pod is deleted once its kubelet has stopped it");
    assert!(gone.t > at, "graceful: the Pod goes after its containers stop");

    let missing =
        cli::run(["nodeline", "kubectl", "--chapter", "maintenance", "--at", "100s", "--", "delete", "pod", "web-x"]);
    assert_eq!(
        (missing.code, missing.stderr.as_str()),
        (1, "Error from server (NotFound): pods \"web-x\" not found\n")
    );
}
